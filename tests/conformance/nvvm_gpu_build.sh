#!/bin/sh
# Builds tests/conformance/programs/nvvm_calls.cu for the GPU with Clang (the
# compiler whose builtins it calls; nvcc has none of them), leaving out the
# kernels Clang's NVPTX backend cannot select for sm_90 ("Cannot select:
# intrinsic %llvm.nvvm.X") and those ptxas rejects (a line of the kernel's
# PTX): each is named on stderr with the reason.
#   nvvm_gpu_build.sh OUT [CUDA_PATH]
set -eu
out=$1
cuda=${2:-/usr/local/cuda}
here=$(cd "$(dirname "$0")" && pwd)
src=$here/programs/nvvm_calls.cu
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
clang=${CLANGXX:-clang++-22}
common="-x cuda --cuda-gpu-arch=sm_90 --cuda-path=$cuda -O3 -w"
omit=""
# The device IR, once: which kernel calls which intrinsic.
$clang $common --cuda-device-only -S -emit-llvm -o "$work/calls.ll" "$src"
while :; do
  if ! $clang $common --cuda-device-only -S $omit -o "$work/calls.ptx" \
      "$src" 2> "$work/err"; then
    intrinsic=$(sed -n 's/.*Cannot select: intrinsic %\([A-Za-z0-9_.]*\).*/\1/p' \
      "$work/err" | head -1)
    [ -n "$intrinsic" ] || { cat "$work/err" >&2; exit 1; }
    # The error names the intrinsic without its type suffix (.f16, .v2f16).
    kernels=$(awk -v want="@$intrinsic" '
      /^define / { match($0, /@kc[A-Za-z0-9_]+\(/); name = substr($0, RSTART + 3, RLENGTH - 4) }
      {
        i = index($0, want)
        c = substr($0, i + length(want), 1)
        if (i && name != "" && !/^declare/ && (c == "(" || c == ".")) print name
      }' "$work/calls.ll" | sort -u)
    why="Clang cannot select $intrinsic for sm_90"
  elif ! "$cuda/bin/ptxas" -arch=sm_90 "$work/calls.ptx" -o "$work/calls.cubin" \
      2> "$work/err"; then
    lines=$(sed -n 's/.*, line \([0-9]*\); error.*/\1/p' "$work/err" | sort -un)
    [ -n "$lines" ] || { cat "$work/err" >&2; exit 1; }
    kernels=$(for l in $lines; do
      head -n "$l" "$work/calls.ptx" | sed -n 's/.*\.entry kc\([A-Za-z0-9_]*\)(.*/\1/p' | tail -1
    done | sort -u)
    why="ptxas: $(sed -n 's/.*; error *: //p' "$work/err" | head -1)"
  else
    break
  fi
  [ -n "$kernels" ] || { echo "no kernel to omit: $why" >&2; exit 1; }
  for k in $kernels; do
    echo "omitted $k: $why" >&2
    omit="$omit -DKC_OMIT_$k"
  done
done
$clang $common $omit -o "$out" "$src" -L"$cuda/lib64" -lcudart
