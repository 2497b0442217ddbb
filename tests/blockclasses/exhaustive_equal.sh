#!/bin/sh
# Class-based simulation must equal simulating every block: `kcheck predict`
# with and without --exhaustive, same JSON (every launch, every line), same
# notes and exit code; and with --jobs-too, --exhaustive on one thread must
# equal it on two (block scheduling does not depend on the grid, so CMake asks
# for that on one grid per program). Reduced grids keep the runs short.
# usage: exhaustive_equal.sh KCHECK GRID FILE.cu [--jobs-too] [kcheck args...]
kcheck=$1 grid=$2 file=$3
shift 3
jobs_too=0
if [ "${1:-}" = --jobs-too ]; then jobs_too=1; shift; fi
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
"$kcheck" predict "$file" --format json --grid "$grid" "$@" >"$tmp/fast.json" 2>"$tmp/fast.err"
fast=$?
"$kcheck" predict "$file" --format json --grid "$grid" --exhaustive --jobs 2 "$@" >"$tmp/all.json" 2>"$tmp/all.err"
all=$?
status=0
if [ $fast -ne $all ]; then
  echo "exit codes differ: $fast (classes) vs $all (--exhaustive)"
  status=1
fi
if [ $jobs_too -eq 1 ]; then
  "$kcheck" predict "$file" --format json --grid "$grid" --exhaustive --jobs 1 "$@" >"$tmp/one.json" 2>"$tmp/one.err"
  one=$?
  if [ $one -ne $all ] || ! cmp -s "$tmp/one.json" "$tmp/all.json" ||
     ! cmp -s "$tmp/one.err" "$tmp/all.err"; then
    echo "--exhaustive --jobs 1 and --jobs 2 differ for $file --grid $grid"
    diff "$tmp/one.json" "$tmp/all.json" | head -20
    status=1
  fi
fi
if ! diff "$tmp/all.json" "$tmp/fast.json"; then
  echo "JSON differs (< --exhaustive, > classes) for $file --grid $grid"
  status=1
fi
if ! diff "$tmp/all.err" "$tmp/fast.err"; then
  echo "notes differ (< --exhaustive, > classes) for $file --grid $grid"
  status=1
fi
[ -s "$tmp/all.json" ] || { echo "no output"; cat "$tmp/all.err"; status=1; }
exit $status
