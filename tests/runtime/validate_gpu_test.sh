#!/bin/sh
# kcheck validate --per-line on a kernel whose prediction matches the H100
# exactly (docs/validation/h100.md): exit 0, every launch and line agrees.
# Skips (77) without a GPU or nvcc.
kcheck=$1 src=$2
if ! (command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1); then
  echo "no GPU: skipped"; exit 77
fi
if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "no nvcc: skipped"; exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$kcheck" validate "$src" --per-line --keep "$dir"; rc=$?
[ $rc -eq 0 ] || { echo "expected exit 0, got $rc"; exit 1; }
[ -s "$dir/$(basename "$src" .cu).measured.json" ] || { echo "no measured JSON"; exit 1; }
