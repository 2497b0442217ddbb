#!/usr/bin/env bash
# Builds build-fuzz (CMakePresets.json "fuzz": clang++-22, libFuzzer, ASan,
# UBSan) and runs each fuzz target for a bounded time from its corpus in
# tests/fuzz/corpus/TARGET (new inputs go to a scratch directory, the repo's
# corpus is left as it is). Prints executions, inputs and crashes per target;
# exits 1 if any target crashed, leaked, timed out or failed an oracle (the
# input is then under build-fuzz/artifacts/TARGET/: add it to
# tests/fuzz/regressions/TARGET/ with the fix).
#   tests/fuzz/run.sh [SECONDS_PER_TARGET]   (default 60)
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-60}
jobs=${JOBS:-$(nproc)}
cmake --preset fuzz >/dev/null
ninja -C build-fuzz -j"$jobs" fuzz_pipeline fuzz_pipeline_mutated fuzz_json

status=0
for target in fuzz_pipeline fuzz_pipeline_mutated fuzz_json; do
  case $target in
  fuzz_pipeline) max_len=512 ;;
  fuzz_pipeline_mutated) max_len=8192 ;;
  fuzz_json) max_len=4096 ;;
  esac
  corpus=tests/fuzz/corpus/${target#fuzz_}
  artifacts=build-fuzz/artifacts/$target
  scratch=build-fuzz/scratch/$target
  log=build-fuzz/$target.log
  mkdir -p "$artifacts" "$scratch"
  rc=0
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    build-fuzz/tests/fuzz/$target -max_total_time="$seconds" -timeout=60 -rss_limit_mb=4096 \
    -max_len=$max_len -print_final_stats=1 -artifact_prefix="$artifacts/" \
    "$scratch" "$corpus" >"$log" 2>&1 || rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  inputs=$(find "$scratch" -type f | wc -l)
  crashes=$(find "$artifacts" -type f | wc -l)
  echo "$target: ${execs:-0} executions, $inputs new inputs kept, $crashes crashes (exit $rc, log $log)"
  if [ "$rc" -ne 0 ] || [ "$crashes" -ne 0 ]; then
    status=1
    tail -40 "$log" >&2
  fi
done
exit $status
