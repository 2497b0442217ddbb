#!/usr/bin/env bash
# usage: paths_test.sh KCHECK INPUT_DIR
# A project laid out as src/, include/ and build/, analysed from build/ as a
# build system runs tools: every file kcheck prints must open from there, and
# the main file must be printed as it was given. Clang's debug info names
# /tmp/x/proj/src/main.cu "src/main.cu" under the directory they share with
# the working directory /tmp/x/proj/build (core/SourcePath.h); printed alone,
# that named no file.
set -u
kcheck=$1; input=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cp -r "$input" "$tmp/proj"; mkdir "$tmp/proj/build"; cd "$tmp/proj/build" || exit 1
status=0
check() { # FILE_AS_GIVEN HEADER_AS_PRINTED [kcheck options]
  local given=$1 header=$2; shift 2
  local out; out=$("$kcheck" coalescing "$given" --quiet "$@" 2>&1)
  for want in "$given:7:19: warning: uncoalesced global load of 'in'" \
              "$header:7:12: warning: uncoalesced global load of 'in'"; do
    grep -qF -- "$want" <<<"$out" || { echo "lacks: $want ($*)"; echo "$out" | head -20; status=1; }
  done
  # Every path printed at a diagnostic opens from the working directory.
  while read -r f; do
    [ -f "$f" ] || { echo "printed '$f', which is no file here ($*)"; status=1; }
  done < <(grep -oE '^[^ :]+:[0-9]+:[0-9]+: (warning|error|note|remark)' <<<"$out" | cut -d: -f1 | sort -u)
  local json; json=$("$kcheck" coalescing "$given" --quiet --format json "$@" 2>/dev/null)
  grep -qF "\"file\": \"$given\"" <<<"$json" || { echo "JSON does not name '$given' ($*)"; status=1; }
  grep -qF "\"file\": \"$header\"" <<<"$json" || { echo "JSON does not name '$header' ($*)"; status=1; }
}
check "$tmp/proj/src/main.cu" "$tmp/proj/include/strided.cuh"
check ../src/main.cu ../include/strided.cuh
check "$tmp/proj/src/main.cu" "$tmp/proj/include/strided.cuh" --run-host
exit $status
