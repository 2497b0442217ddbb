#!/usr/bin/env bash
# Regenerates docs/validation/h100.md from the measured JSON in data/ (made on
# the GPU machine by measure-h100.sh, then copied here) and predictions made
# here. Run from the repository root: bash docs/validation/regenerate.sh [KCHECK]
set -u
K=${1:-build-runtime/kcheck}
D=docs/validation/data
mkdir -p $D/predicted
# reduce_v8's grid is GetNumBlocks(N) = min((N + 255) / 256, SMs * 2048 / 256),
# a device query that static analysis cannot evaluate: on the H100 (132 SMs)
# it is 1056 for reduce_bbuf.cu (N = 32M) and 512 for reduce_v0_v8.cu
# (N = 128K). Those launches are predicted with --kernel reduce_v8 --grid G
# and merged into the file's prediction by launch index.
declare -A v8_grid=([reduce_bbuf]=1056 [reduce_v0_v8]=512)
merge_launches() { # INTO.json FROM.json: FROM's launches replace INTO's of the same index
  python3 - "$1" "$2" <<'PY'
import json, sys
into, extra = (json.load(open(f)) for f in sys.argv[1:3])
by_index = {l["index"]: l for l in extra["launches"]}
into["launches"] = [by_index.pop(l["index"], l) for l in into["launches"]]
into["launches"] += sorted(by_index.values(), key=lambda l: l["index"])
json.dump(into, open(sys.argv[1], "w"), indent=2)
PY
}
args=()
for f in kernels/*.cu ../shared/corpus/seed/*.cu; do
  n=$(basename "$f" .cu)
  [ -f $D/$n.json ] || continue
  [ -s $D/predicted/$n.json ] || "$K" predict "$f" --arch sm_90 --format json >$D/predicted/$n.json
  if [ -n "${v8_grid[$n]:-}" ]; then
    "$K" predict "$f" --arch sm_90 --format json --kernel reduce_v8 --grid "${v8_grid[$n]}" \
      >$D/predicted/$n.reduce_v8.json &&
      merge_launches $D/predicted/$n.json $D/predicted/$n.reduce_v8.json
    rm -f $D/predicted/$n.reduce_v8.json
  fi
  args+=($D/predicted/$n.json $D/$n.json)
done
# kernels/patterns/: programs written for the suite, not tuned on.
pargs=()
for f in kernels/patterns/*.cu; do
  n=$(basename "$f" .cu)
  m=kernels/patterns/h100/meas/$n.json
  [ -f $m ] || continue
  [ -s $D/predicted/$n.json ] || "$K" predict "$f" --arch sm_90 --format json >$D/predicted/$n.json
  pargs+=($D/predicted/$n.json $m)
done
{
  "$K" compare --format markdown "${args[@]}"
  cat <<'NOTE'

# kernels/patterns/: kernels kcheck was not tuned on

Transposes, scans, stencils, histograms, gathers and scatters, AoS/SoA, 1- to 16-byte
elements, short-row 2D blocks, partial warps and tail blocks, grid-stride loops, warp
shuffles (`kernels/patterns/README.md`), measured in the same way. The launches that
differ, and why (each is listed with its evidence in the README's "Known differences";
where kcheck can tell, it says so in a note on the line):

- `gather.cu` #0-#6: addresses come from an index array the host fills; kcheck does not
  see the data and notes "address ... depends on input data that kcheck did not see" on
  the line. Running the host code (`kcheck run`, issue 8) gives it the data.

NOTE
  "$K" compare --format markdown "${pargs[@]}" | sed 's/^# /## /'
  cat <<'NOTE'

## reduce_v8's grid

`reduce_v8` takes its grid from a device query (`GetNumBlocks(N)` = min((N + 255) / 256,
SMs × 2048 / 256)), which kcheck cannot evaluate without the GPU and says so. Its
launches here are predicted with the H100's value given on the command line, so
they are compared too:

    kcheck predict reduce_bbuf.cu --kernel reduce_v8 --grid 1056    # N = 32M, 132 SMs
    kcheck predict kernels/reduce_v0_v8.cu --kernel reduce_v8 --grid 512   # N = 128K

## How the measurements were made

On the H100 machine (`device` kind nvidia-h100-x1), from the repository root with the
seed corpus copied to `.devdata/corpus`:

    bash docs/validation/measure-h100.sh .devdata/corpus $OUT

On a machine with the GPU and LLVM both, `kcheck validate FILE.cu --per-line` does the
prediction, the `nvcc -lineinfo` build, the measurement and the comparison in one step.
The runtime itself is checked on the GPU with `bash docs/validation/check-runtime-h100.sh $OUT`
(ctest's GPU tests, a kernel fault, 300 launches).

It builds `kcheck-profile` with `-DKCHECK_RUNTIME_ONLY=ON`, builds every program with
`nvcc -arch=sm_90 -O3 -lineinfo`, runs `kcheck-profile --per-line` on each, and runs
`ncu --metrics ... --csv` and the `SourceCounters` source page on the same binaries.
Cross-checks of the measurement itself:

    docs/validation/ncu-to-measurement.py ncu ncu/NAME.csv NAME.cu > ncu_NAME.json
    kcheck compare ncu_NAME.json docs/validation/data/NAME.json      # per launch
    docs/validation/check-lines-vs-ncu.py docs/validation/data/NAME.json src/NAME.csv  # per line
NOTE
} >docs/validation/h100.md
echo "wrote docs/validation/h100.md"
