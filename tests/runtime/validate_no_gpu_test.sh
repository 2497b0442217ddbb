#!/bin/sh
# kcheck validate on a machine with nvcc and no GPU: it must predict, build,
# and then stop with exit 4 and kcheck-profile's clear message. Skips (77)
# without nvcc or with a GPU (validate_gpu_test.sh covers that case).
kcheck=$1 src=$2
if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "no nvcc: skipped"; exit 77
fi
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  echo "a GPU is present: skipped"; exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$kcheck" validate "$src" --keep "$dir" >"$dir/out" 2>"$dir/err"; rc=$?
cat "$dir/out" "$dir/err"
[ $rc -eq 4 ] || { echo "expected exit 4, got $rc"; exit 1; }
for want in "kcheck: predicted [0-9]* launch" "kcheck: built " \
            "no NVIDIA driver|no usable GPU|CUPTI is missing|ERR_NVGPUCTRPERM" \
            "cannot measure on this machine"; do
  grep -Eq "$want" "$dir/err" || { echo "missing: $want"; exit 1; }
done
# The prediction was kept; no comparison was printed.
[ -s "$dir/$(basename "$src" .cu).predicted.json" ] || { echo "no predicted JSON"; exit 1; }
[ ! -s "$dir/out" ] || { echo "unexpected output on stdout"; exit 1; }
