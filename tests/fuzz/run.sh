#!/usr/bin/env bash
# Builds the fuzz targets in build-asan (CMakePresets.json "asan-ubsan":
# clang++-22, ASan, UBSan, libFuzzer coverage; CI has built it already) and
# runs the three targets side by side, each for a bounded time, from its
# corpus in tests/fuzz/corpus/TARGET (new inputs go to a scratch directory,
# the repo's corpus is left as it is). Prints executions, inputs and crashes
# per target; exits 1 if any target crashed, leaked, timed out or failed an
# oracle (the input is then under build-asan/fuzz/artifacts/TARGET/: add it
# to tests/fuzz/regressions/TARGET/ with the fix).
#   tests/fuzz/run.sh [SECONDS_PER_TARGET]   (default 60)
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-60}
jobs=${JOBS:-$(nproc)}
targets=(fuzz_pipeline fuzz_pipeline_mutated fuzz_json)
[ -f build-asan/build.ninja ] || cmake --preset asan-ubsan >/dev/null
ninja -C build-asan -j"$jobs" "${targets[@]}"

work=build-asan/fuzz
run_target() {
  local target=$1 max_len
  case $target in
  fuzz_pipeline) max_len=512 ;;
  fuzz_pipeline_mutated) max_len=8192 ;;
  fuzz_json) max_len=4096 ;;
  esac
  rm -rf "$work/artifacts/$target" "$work/scratch/$target"
  mkdir -p "$work/artifacts/$target" "$work/scratch/$target"
  local rc=0
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    build-asan/tests/fuzz/$target -max_total_time="$seconds" -timeout=60 -rss_limit_mb=4096 \
    -max_len=$max_len -print_final_stats=1 -artifact_prefix="$work/artifacts/$target/" \
    "$work/scratch/$target" "tests/fuzz/corpus/${target#fuzz_}" >"$work/$target.log" 2>&1 || rc=$?
  echo "$rc" >"$work/$target.rc"
}
# Side by side: the CI budget is wall time, and each target is one process.
for target in "${targets[@]}"; do run_target "$target" & done
wait

status=0
for target in "${targets[@]}"; do
  log=$work/$target.log
  rc=$(cat "$work/$target.rc")
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  inputs=$(find "$work/scratch/$target" -type f | wc -l)
  crashes=$(find "$work/artifacts/$target" -type f | wc -l)
  echo "$target: ${execs:-0} executions in ${seconds} s, $inputs new inputs kept, $crashes crashes (exit $rc, log $log)"
  if [ "$rc" -ne 0 ] || [ "$crashes" -ne 0 ]; then
    status=1
    tail -40 "$log" >&2
  fi
done
exit $status
