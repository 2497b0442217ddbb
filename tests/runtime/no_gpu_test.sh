#!/bin/sh
# Without a GPU, kcheck-profile must say so and exit 4. With one, this test
# has nothing to check: skip (77).
profile=$1
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  echo "a GPU is present: skipped"; exit 77
fi
out=$("$profile" -- /bin/true 2>&1); rc=$?
echo "$out"
[ $rc -eq 4 ] || { echo "expected exit 4, got $rc"; exit 1; }
echo "$out" | grep -Eq "no NVIDIA driver|no usable GPU|CUPTI is missing" ||
  { echo "no clear message"; exit 1; }
