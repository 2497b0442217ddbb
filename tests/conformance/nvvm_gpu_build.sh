#!/bin/sh
# Builds tests/conformance/programs/nvvm_calls.cu for the GPU with Clang (the
# compiler whose builtins it calls; nvcc has none of them), leaving out the
# kernels Clang's NVPTX backend cannot select for sm_90 (each intrinsic the
# program calls is tried alone with llc) and those ptxas rejects (the .entry
# around each line it names). Each left out is named on stderr, with why.
#   nvvm_gpu_build.sh OUT [CUDA_PATH]
set -eu
out=$1
cuda=${2:-/usr/local/cuda}
here=$(cd "$(dirname "$0")" && pwd)
src=$here/programs/nvvm_calls.cu
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
clang=${CLANGXX:-clang++-22}
llc=${LLC:-llc-22}
command -v "$llc" > /dev/null || llc=/usr/lib/llvm-22/bin/llc
common="-x cuda --cuda-gpu-arch=sm_90 --cuda-path=$cuda -O3 -w"
$clang $common --cuda-device-only -S -emit-llvm -o "$work/calls.ll" "$src"
triple=$(sed -n 's/^target triple = //p' "$work/calls.ll")
layout=$(sed -n 's/^target datalayout = //p' "$work/calls.ll")
: > "$work/omit"
# Each intrinsic alone: a function that calls it with poison arguments.
grep '^declare .*@llvm\.nvvm\.' "$work/calls.ll" | while read -r decl; do
  name=$(printf '%s\n' "$decl" | sed 's/.*@\(llvm\.nvvm\.[A-Za-z0-9_.]*\)(.*/\1/')
  ret=$(printf '%s\n' "$decl" | sed 's/^declare \(.*\) @llvm.*/\1/' |
    sed 's/range([^)]*)//g; s/\(noundef\|nonnull\|signext\|zeroext\|noalias\) //g; s/^ *//')
  params=$(printf '%s\n' "$decl" | sed 's/.*@llvm\.nvvm\.[A-Za-z0-9_.]*(\(.*\)).*/\1/' |
    sed 's/ *\(noundef\|captures([a-z]*)\|nocapture\|readonly\|writeonly\|align [0-9]*\)//g')
  # The probe's own parameters as arguments (constants fold away), an
  # immarg as 0; the result stored, so that the call stays.
  formals=$(printf '%s\n' "$params" | awk -F', ' '{ n = 0; for (i = 1; i <= NF; ++i) if ($i !~ /immarg/) printf "%s%s %%a%d", (n++ ? ", " : ""), $i, i }')
  args=$(printf '%s\n' "$params" | awk -F', ' '{ for (i = 1; i <= NF; ++i) { t = $i; sub(/ immarg/, "", t); printf "%s%s %s", (i > 1 ? ", " : ""), t, ($i ~ /immarg/ ? "0" : "%a" i) } }')
  body="call $ret @$name($args)"
  store=""
  if [ "$ret" != void ]; then
    body="%r = $body"
    store="store volatile $ret %r, ptr %out"
  fi
  cat > "$work/one.ll" <<IR
target datalayout = $layout
target triple = $triple
$(printf '%s\n' "$decl" | sed 's/#[0-9]*$//')
define ptx_kernel void @probe(ptr %out${formals:+, $formals}) {
  $body
  $store
  ret void
}
IR
  if ! "$llc" -mcpu=sm_90 -o /dev/null "$work/one.ll" 2> "$work/llc.err"; then
    why=$(grep -m1 -o 'Cannot select.*' "$work/llc.err" | head -1)
    if [ -z "$why" ]; then # the probe itself: said, nothing left out
      echo "probe of $name failed: $(head -1 "$work/llc.err")" >&2
      continue
    fi
    awk -v want="@$name(" '
      /^define / { match($0, /@kc[A-Za-z0-9_]+\(/); k = substr($0, RSTART + 3, RLENGTH - 4) }
      index($0, want) && !/^declare/ && k != "" { print k }' "$work/calls.ll" |
      sort -u | while read -r k; do
        echo "$k llc: $name: ${why:-rejected}" >> "$work/omit"
      done
  fi
done
omits() { cut -d' ' -f1 "$work/omit" | sort -u | sed 's/^/-DKC_OMIT_/' | tr '\n' ' '; }
$clang $common --cuda-device-only -S $(omits) -o "$work/calls.ptx" "$src"
# ptxas, once: every line it rejects, by the kernel around it.
if ! "$cuda/bin/ptxas" -arch=sm_90 "$work/calls.ptx" -o /dev/null 2> "$work/ptxas.err"; then
  sed -n 's/.*, line \([0-9]*\); error *: \(.*\)/\1 \2/p' "$work/ptxas.err" |
    while read -r line message; do
      k=$(head -n "$line" "$work/calls.ptx" | sed -n 's/.*\.entry kc\([A-Za-z0-9_]*\)(.*/\1/p' | tail -1)
      echo "$k ptxas: $message" >> "$work/omit"
    done
fi
sort -u -k1,1 "$work/omit" | sed 's/^/omitted /' >&2
# Static: the binary runs on a GPU machine without this toolkit.
$clang $common $(omits) -o "$out" "$src" -L"$cuda/lib64" -lcudart_static -ldl -lrt -lpthread
