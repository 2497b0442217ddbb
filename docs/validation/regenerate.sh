#!/usr/bin/env bash
# Regenerates docs/validation/h100.md from the measured JSON in data/ (made on
# the GPU machine by measure-h100.sh, then copied here) and predictions made
# here. Run from the repository root: bash docs/validation/regenerate.sh [KCHECK]
set -u
K=${1:-build-runtime/kcheck}
D=docs/validation/data
mkdir -p $D/predicted
args=()
for f in kernels/*.cu ../shared/corpus/seed/*.cu; do
  n=$(basename "$f" .cu)
  [ -f $D/$n.json ] || continue
  [ -s $D/predicted/$n.json ] || "$K" predict "$f" --arch sm_90 --format json >$D/predicted/$n.json
  args+=($D/predicted/$n.json $D/$n.json)
done
{
  "$K" compare --format markdown "${args[@]}"
  cat <<'NOTE'

## How the measurements were made

On the H100 machine (`device` kind nvidia-h100-x1), from the repository root with the
seed corpus copied to `.devdata/corpus`:

    bash docs/validation/measure-h100.sh .devdata/corpus $OUT

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
