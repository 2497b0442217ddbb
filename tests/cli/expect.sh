#!/usr/bin/env bash
# usage: expect.sh EXIT_CODE 'REGEX' ['REGEX'...] -- COMMAND ARGS...
# Runs COMMAND; passes when it exits with EXIT_CODE and its stdout+stderr
# match every extended REGEX.
set -u
want=$1; shift
patterns=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do patterns+=("$1"); shift; done
shift
out=$("$@" 2>&1); got=$?
status=0
if [ "$got" -ne "$want" ]; then
  echo "exit code $got, expected $want"; status=1
fi
for p in "${patterns[@]}"; do
  if ! grep -Eq -- "$p" <<<"$out"; then echo "output lacks /$p/"; status=1; fi
done
[ $status -eq 0 ] || { echo "--- output of: $*"; echo "$out" | head -60; }
exit $status
