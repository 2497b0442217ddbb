#!/usr/bin/env bash
# One command from a fresh Debian 12 machine to a working kcheck:
#   scripts/setup.sh demo   install what is missing, build, run kcheck on a seed kernel
#   scripts/setup.sh test   install what is missing, build, run the whole test suite
# Installs only what is missing (apt), builds into build/ with Ninja.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-demo}

need=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
packages=(clang-22 libclang-22-dev llvm-22-dev libfmt-dev libgtest-dev cmake ninja-build
          python3 python3-jsonschema)
# The HTML report's test renders it in a browser; only `test` installs one (large).
if [ "$mode" = test ]; then packages+=(chromium); fi
for p in "${packages[@]}"; do
  have_pkg "$p" || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  echo "kcheck setup: installing ${need[*]}" >&2
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi

jobs=$(nproc)
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C build -j"$jobs"

case "$mode" in
demo)
  # A seed kernel with bank conflicts: exit 1 means "findings", which is the point.
  build/kcheck bank-conflicts kernels/reduce_v0_v8.cu || [ $? -eq 1 ]
  ;;
test)
  (cd build && ctest --output-on-failure -j"$jobs")
  # Optional stages (docs/reliability.md; each needs its own sanitizer build,
  # too long for the default CI budget on 2 cores):
  #   KCHECK_CI_FUZZ=SECONDS  libFuzzer targets, SECONDS each (tests/fuzz/run.sh)
  #   KCHECK_CI_ASAN=1        the whole suite under ASan + UBSan (preset asan-ubsan)
  if [ -n "${KCHECK_CI_FUZZ:-}" ] || [ -n "${KCHECK_CI_ASAN:-}" ]; then
    have_pkg libclang-rt-22-dev || {
      SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
      DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq libclang-rt-22-dev >/dev/null
    }
  fi
  if [ -n "${KCHECK_CI_FUZZ:-}" ]; then
    tests/fuzz/run.sh "$KCHECK_CI_FUZZ"
  fi
  if [ -n "${KCHECK_CI_ASAN:-}" ]; then
    cmake --preset asan-ubsan >/dev/null
    ninja -C build-asan -j"$jobs"
    ctest --preset asan-ubsan -j"$jobs"
  fi
  ;;
*)
  echo "usage: scripts/setup.sh [demo|test]" >&2
  exit 2
  ;;
esac
