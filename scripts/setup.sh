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
packages=(clang-22 libclang-22-dev llvm-22-dev libomp-22-dev libfmt-dev nlohmann-json3-dev libgtest-dev
          cmake ninja-build python3 python3-jsonschema)
# Only `test` needs these: the HTML report's test renders it in a browser
# (large), and the sanitizer build links Clang's ASan/UBSan/libFuzzer runtimes.
if [ "$mode" = test ]; then packages+=(chromium libclang-rt-22-dev); fi
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
# build/ is the Release kcheck and the tests that drive it; `test` builds and
# runs the unit tests (GoogleTest) in the sanitizer build.
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DKCHECK_UNIT_TESTS=OFF >/dev/null
ninja -C build -j"$jobs"

case "$mode" in
demo)
  # A seed kernel with bank conflicts: exit 1 means "findings", which is the point.
  build/kcheck bank-conflicts kernels/reduce_v0_v8.cu || [ $? -eq 1 ]
  ;;
test)
  if [ "${KCHECK_CI_SANITIZERS:-1}" = 0 ]; then
    # A quicker local run: every test of the Release build, no sanitizers.
    (cd build && ctest --output-on-failure -j"$jobs")
  else
    # The Release kcheck itself: the seed corpus against the H100's counters,
    # kernels/'s inline expectations, and the resource limits with their
    # strict time and memory bounds (docs/reliability.md).
    (cd build && ctest --output-on-failure -j"$jobs" -R '^(corpus|kernels|limits)[.]')
    # ... and the long simulations labelled release-stage, which the
    # sanitizer stage leaves out (the same code its other tests run).
    (cd build && ctest --output-on-failure -j"$jobs" -L release-stage)
    # Then the whole suite, unit tests included, under ASan + UBSan, and the
    # fuzz targets, from one instrumented build (CMakePresets.json asan-ubsan).
    cmake --preset asan-ubsan >/dev/null
    ninja -C build-asan -j"$jobs"
    ctest --preset asan-ubsan -j"$jobs" -LE release-stage
    tests/fuzz/run.sh "${KCHECK_CI_FUZZ_SECONDS:-60}"
  fi
  ;;
*)
  echo "usage: scripts/setup.sh [demo|test]" >&2
  exit 2
  ;;
esac
