#!/usr/bin/env bash
# Compares kcheck's GPU-free sanitizer with NVIDIA compute-sanitizer on the
# planted bugs of kernels/sanitize/ (each a runnable program: main allocates,
# launches the fixed kernel and then the buggy one, copies back, prints).
#
#   gpu-compare.sh --gpu OUTDIR         # on the GPU machine: nvcc 13 + compute-sanitizer
#   gpu-compare.sh --kcheck BIN OUTDIR  # here: kcheck sanitize (static and --run-host)
#   gpu-compare.sh --table OUTDIR       # the source lines each side reported, per program
#
# --gpu builds each program with `nvcc -arch=sm_90 -lineinfo` and runs
# `compute-sanitizer --tool memcheck|racecheck|initcheck|synccheck`, one log
# per program and tool (OUTDIR/NAME.TOOL.log). --kcheck writes
# OUTDIR/NAME.kcheck.log (static launches) and OUTDIR/NAME.kcheck-run.log
# (--run-host). Run both into one OUTDIR, then --table.
#
# Expected differences (docs/checks/*.md): compute-sanitizer's initcheck
# tracks global memory, kcheck's initcheck shared memory; its racecheck
# reports warp-level hazards as warnings and may report the volatile
# warpReduce too (independent thread scheduling), kcheck accepts volatile;
# the GPU stops at the first fault of a program, kcheck's static run
# simulates every launch; kcheck reports an index past a local array that
# stays inside the thread's frame, compute-sanitizer only past the frame.
set -u
here=$(cd "$(dirname "$0")" && pwd)
programs=$(ls "$here"/../../kernels/sanitize/*.cu)

usage() {
  sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
}

gpu() {
  local out=$1
  mkdir -p "$out"
  for p in $programs; do
    local n
    n=$(basename "$p" .cu)
    if ! nvcc -arch=sm_90 -lineinfo -o "$out/$n" "$p" >"$out/$n.nvcc.log" 2>&1; then
      echo "$n: nvcc failed (see $out/$n.nvcc.log)"
      continue
    fi
    for tool in memcheck racecheck initcheck synccheck; do
      local extra=()
      [ "$tool" = racecheck ] && extra=(--racecheck-report all --racecheck-detect-level info)
      compute-sanitizer --tool "$tool" "${extra[@]}" --print-limit 100 \
        "$out/$n" >"$out/$n.$tool.log" 2>&1
      echo "$n: compute-sanitizer --tool $tool: exit $?"
    done
  done
}

kcheck() {
  local bin=$1 out=$2
  mkdir -p "$out"
  for p in $programs; do
    local n
    n=$(basename "$p" .cu)
    "$bin" sanitize -q "$p" >"$out/$n.kcheck.log" 2>&1
    echo "$n: kcheck sanitize: exit $?"
    "$bin" sanitize --run-host -q "$p" >"$out/$n.kcheck-run.log" 2>&1
    echo "$n: kcheck sanitize --run-host: exit $?"
  done
}

# The source lines a log reports: compute-sanitizer's "at ... NAME.cu:LINE"
# (memcheck, initcheck, synccheck) and "NAME.cu:LINE" of racecheck's
# hazards; kcheck's "NAME.cu:LINE:COL: error|warning".
lines_of() {
  local log=$1 n=$2
  [ -f "$log" ] || { echo "-"; return; }
  grep -oE "$n\.cu:[0-9]+(:[0-9]+: (error|warning))?" "$log" |
    sed -E "s/^$n\.cu:([0-9]+).*/\1/" | sort -n | uniq | tr '\n' ' '
}

table() {
  local out=$1
  printf '%-34s %-10s %s\n' program source "lines reported"
  for p in $programs; do
    local n
    n=$(basename "$p" .cu)
    for src in memcheck racecheck initcheck synccheck kcheck kcheck-run; do
      printf '%-34s %-10s %s\n' "$n" "$src" "$(lines_of "$out/$n.$src.log" "$n")"
    done
  done
}

case "${1:-}" in
--gpu) [ $# -eq 2 ] || usage; gpu "$2" ;;
--kcheck) [ $# -eq 3 ] || usage; kcheck "$2" "$3" ;;
--table) [ $# -eq 2 ] || usage; table "$2" ;;
*) usage ;;
esac
