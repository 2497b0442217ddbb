#!/usr/bin/env bash
# Checks the CUPTI runtime on the GPU machine: builds it runtime-only (with
# the tests when GoogleTest is there), runs ctest, then the fixtures by hand
# (fault with the default batch and with --batch 1, 300 launches, known
# counts per line). Run from the repository root:
#   bash docs/validation/check-runtime-h100.sh OUT_DIR
set -u
OUT=${1:-${OUT:-out}}
mkdir -p "$OUT/fixtures"
B=build-gpu-check
{
  nvidia-smi -L
  cmake -S . -B $B -G Ninja -DKCHECK_RUNTIME_ONLY=ON -DCMAKE_BUILD_TYPE=Release &&
    ninja -C $B
} >"$OUT/build.log" 2>&1 || { echo "build failed"; tail -30 "$OUT/build.log"; exit 1; }
(cd $B && ctest --output-on-failure --timeout 200) >"$OUT/ctest.log" 2>&1
echo "ctest exit $?" >>"$OUT/ctest.log"
P=$PWD/$B/kcheck-profile
F=tests/runtime/fixtures
for t in faulting many_launches known_counts; do
  nvcc -arch=sm_90 -O3 -lineinfo -o "$OUT/fixtures/$t.bin" $F/$t.cu
done
run() { # NAME ARGS...
  local name=$1; shift
  (cd "$OUT/fixtures" && timeout 200 "$P" "$@") >"$OUT/fixtures/$name.log" 2>&1
  echo "exit $?" >>"$OUT/fixtures/$name.log"
}
run fault_default --output "$OUT/fixtures/fault_default.json" -- ./faulting.bin
run fault_batch1 --batch 1 --output "$OUT/fixtures/fault_batch1.json" -- ./faulting.bin
run fault_perline --per-line --output "$OUT/fixtures/fault_perline.json" -- ./faulting.bin
run many --output "$OUT/fixtures/many.json" -- ./many_launches.bin
run known --per-line --output "$OUT/fixtures/known.json" -- ./known_counts.bin
rm -f "$OUT"/fixtures/*.bin
grep -h "exit\|launches" "$OUT"/fixtures/*.log
tail -25 "$OUT/ctest.log"
