#!/usr/bin/env bash
# `kcheck run` (issue 8) against the H100: for each program, the program's own
# output must equal what it printed on the H100 (data/stdout/NAME.txt, made by
# program-outputs.sh) and its launches' counters the H100's (seed_exact.csv,
# kernels/h100/exact.csv, kernels/patterns/h100/exact.csv). Prints a markdown
# table. Run from the repository root:
#   bash docs/validation/run-vs-h100.sh [KCHECK] [FILE.cu ...]
set -u
K=${1:-build/kcheck}
shift || true
D=docs/validation/data
T=$(mktemp -d)
files=("$@")
[ ${#files[@]} -gt 0 ] || files=(kernels/*.cu ../shared/corpus/seed/*.cu kernels/patterns/*.cu)
echo "| program | output as on the H100 | launches exact (memory metrics) | run time |"
echo "|---|---|---|---|"
for f in "${files[@]}"; do
  n=$(basename "$f" .cu)
  case $f in
  ../shared/corpus/seed/*) table=../shared/corpus/h100/seed_exact.csv ;;
  kernels/patterns/*) table=kernels/patterns/h100/exact.csv ;;
  *) table=kernels/h100/exact.csv ;;
  esac
  start=$(date +%s.%N)
  "$K" run "$f" --format json -q >"$T/$n.json" 2>"$T/$n.err"
  rc=$?
  secs=$(python3 -c "import time; print('%.1f s' % (time.time() - $start))")
  # The program's stdout goes to stderr with --format json; kcheck's own
  # lines there start with "kcheck: ".
  grep -v '^kcheck: ' "$T/$n.err" >"$T/$n.out"
  if [ ! -f "$D/stdout/$n.txt" ]; then
    same="not measured"
  elif cmp -s "$T/$n.out" "$D/stdout/$n.txt"; then
    same="same ($(wc -l <"$T/$n.out") lines)"
  else
    same="**differs**: $(diff "$T/$n.out" "$D/stdout/$n.txt" | head -3 | tr '\n' ' ')"
  fi
  python3 docs/validation/ncu-to-measurement.py table "$table" "$n.cu" >"$T/$n.h100.json"
  launches=$("$K" compare "$T/$n.json" "$T/$n.h100.json" 2>/dev/null | sed -n 's/.*exact: \([0-9]*\/[0-9]*\) launches agree.*/\1/p')
  echo "| $n | $same | ${launches:-exit $rc} | $secs |"
done
rm -rf "$T"
