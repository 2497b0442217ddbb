#!/usr/bin/env bash
# Runs each program of kernels/, kernels/patterns/, tests/host/ and the seed
# corpus on the GPU machine and keeps its standard output, so that `kcheck
# run` (issue 8) can be checked against what the program prints on the H100.
# Run from the repository root:
#   bash docs/validation/program-outputs.sh CORPUS_DIR OUT_DIR
# Writes OUT_DIR/stdout/NAME.txt (stdout) and NAME.rc (exit status).
set -u
CORPUS=${1:-../shared/corpus}
OUT=${2:-${OUT:-out}}
B=$(mktemp -d)
mkdir -p "$OUT/stdout"
for f in "$CORPUS"/seed/*.cu kernels/*.cu kernels/patterns/*.cu tests/host/*.cu; do
  [ -f "$f" ] || continue
  n=$(basename "$f" .cu)
  (nvcc -arch=sm_90 -O3 -o "$B/$n" "$f" >"$B/$n.log" 2>&1 &&
    (cd "$B" && timeout 60 "./$n" >"$OUT/stdout/$n.txt" 2>"$OUT/stdout/$n.err"; echo $? >"$OUT/stdout/$n.rc")) ||
    echo "build failed: $(tail -3 "$B/$n.log")" >"$OUT/stdout/$n.err" &
done
wait
ls "$OUT/stdout" | wc -l
