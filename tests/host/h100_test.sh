#!/bin/sh
# kcheck run against the H100: the program's output must equal what it
# printed on the H100 (STDOUT) and every launch's counters, per launch and per
# line, kcheck-profile's measurement there (MEAS.json; made by
# `kcheck-profile --per-line` on the H100, nvcc 13.0 -O3 -lineinfo).
# usage: h100_test.sh KCHECK PROGRAM.cu STDOUT MEAS.json|- [program args]
kcheck=$1 src=$2 stdout=$3 meas=$4
shift 4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$kcheck" run "$src" --format json -q -- "$@" >"$tmp/run.json" 2>"$tmp/run.err"
# The program's output: not kcheck's own lines (a message's indented
# continuation lines included).
awk '/^kcheck: /{own=1; next} own && /^    /{next} {own=0; print}' \
  "$tmp/run.err" >"$tmp/out.txt"
if ! cmp -s "$tmp/out.txt" "$stdout"; then
  echo "program output differs from the H100's:"
  diff "$tmp/out.txt" "$stdout"
  exit 1
fi
# MEAS "-": the launches faulted, as on the H100, which counted nothing.
[ "$meas" = - ] && exit 0
"$kcheck" compare "$tmp/run.json" "$meas" 2>/dev/null
