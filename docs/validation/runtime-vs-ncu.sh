#!/usr/bin/env bash
# Compares kcheck-profile's measurements with Nsight Compute's, from the files
# measure-h100.sh brought back (both measured in the same call on the H100):
# per launch (data/ncu-launch/NAME.csv, ncu --metrics --csv) and per line
# (data/ncu-lines/NAME.csv, the source page). Prints a markdown table.
# Run from the repository root: bash docs/validation/runtime-vs-ncu.sh [KCHECK]
set -u
K=${1:-build/kcheck}
D=docs/validation/data
T=$(mktemp -d)
echo "| program | launches agree | per-launch values agree | per-line values agree |"
echo "|---|---|---|---|"
for csv in $D/ncu-launch/*.csv; do
  n=$(basename "$csv" .csv)
  meas=$D/$n.json
  [ -f "$meas" ] || meas=kernels/patterns/h100/meas/$n.json
  python3 docs/validation/ncu-to-measurement.py ncu "$csv" "$n.cu" >"$T/$n.json"
  launches=$("$K" compare "$T/$n.json" "$meas" | sed -n 's/.*exact: \([0-9]*\/[0-9]*\) launches agree (\([0-9]*\/[0-9]*\).*/\1 \2/p')
  lines=$(python3 docs/validation/check-lines-vs-ncu.py "$meas" "$D/ncu-lines/$n.csv" | tail -1 | awk '{print $2}')
  echo "| $n | ${launches% *} | ${launches#* } | $lines |"
done
rm -rf "$T"
