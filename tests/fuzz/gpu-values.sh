#!/usr/bin/env bash
# The interpreter computes the right values, not only the right addresses:
# generated programs (tests/fuzz/KernelGenerator.h, GpuValues mode: inputs
# filled deterministically, every written buffer hashed and printed) run on
# a GPU and under `kcheck run` must print the same hashes.
#   tests/fuzz/gpu-values.sh write DIR [COUNT]  generate COUNT programs (default 20)
#   tests/fuzz/gpu-values.sh gpu DIR            nvcc + run each (GPU machine)
#   tests/fuzz/gpu-values.sh local DIR          kcheck run each (no GPU needed)
#   tests/fuzz/gpu-values.sh compare DIR        the two sides' hashes, per program
# BUILD (default build) is the build directory with kcheck and
# kcheck_fuzz_replay; ARCH (default sm_90) the GPU's.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD:-build}
arch=${ARCH:-sm_90}
mode=${1:?usage: gpu-values.sh write|gpu|local|compare DIR [COUNT]}
dir=${2:?usage: gpu-values.sh write|gpu|local|compare DIR [COUNT]}

case "$mode" in
write)
  "$build/tests/fuzz/kcheck_fuzz_replay" write gpu "$dir" "${3:-20}" >/dev/null
  ls "$dir"/*.cu | wc -l
  ;;
gpu)
  for cu in "$dir"/*.cu; do
    exe=${cu%.cu}.gpu
    nvcc -O2 -arch="$arch" -o "$exe" "$cu"
    "$exe" >"${cu%.cu}.gpu.txt"
  done
  ;;
local)
  for cu in "$dir"/*.cu; do
    # --format json: the program's own output goes to stderr.
    rc=0
    "$build/kcheck" run "$cu" --arch "$arch" --format json -q \
      >"${cu%.cu}.kcheck.json" 2>"${cu%.cu}.kcheck.err" || rc=$?
    grep '^buffer ' "${cu%.cu}.kcheck.err" >"${cu%.cu}.kcheck.txt" || true
    echo "$(basename "$cu"): kcheck run exit $rc, $(wc -l <"${cu%.cu}.kcheck.txt") buffers"
  done
  ;;
compare)
  same=0 differ=0
  for cu in "$dir"/*.cu; do
    gpu=${cu%.cu}.gpu.txt local=${cu%.cu}.kcheck.txt
    if [ -s "$gpu" ] && [ -s "$local" ] && cmp -s <(grep '^buffer ' "$gpu") "$local"; then
      same=$((same + 1))
    else
      differ=$((differ + 1))
      echo "$(basename "$cu"): differs" >&2
      diff <(grep '^buffer ' "$gpu" 2>/dev/null) "$local" >&2 || true
    fi
  done
  echo "$same programs agree, $differ differ"
  [ "$differ" -eq 0 ]
  ;;
*)
  echo "usage: gpu-values.sh write|gpu|local|compare DIR [COUNT]" >&2
  exit 2
  ;;
esac
