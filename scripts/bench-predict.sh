#!/usr/bin/env bash
# Benchmark (not a test): wall time and peak memory of `kcheck predict` on the
# seed programs at their full launch sizes (reduce_bbuf: 32M elements, 9
# launches). usage: scripts/bench-predict.sh [FILE.cu ...]
set -euo pipefail
cd "$(dirname "$0")/.."
kcheck=build/kcheck
[ -x "$kcheck" ] || { echo "build kcheck first (scripts/setup.sh demo)" >&2; exit 2; }
files=("$@")
[ ${#files[@]} -gt 0 ] || files=(../shared/corpus/seed/reduce_bbuf.cu)
for f in "${files[@]}"; do
  stats=$(mktemp)
  /usr/bin/time -o "$stats" -f '%e %M' "$kcheck" predict "$f" --format json >/dev/null 2>&1 || true
  read -r secs kb <"$stats"
  rm -f "$stats"
  printf '%-40s %8.2f s wall  %8.1f MB peak\n' "$(basename "$f")" "$secs" "$(echo "$kb / 1024" | bc -l)"
done
