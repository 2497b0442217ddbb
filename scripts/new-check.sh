#!/usr/bin/env bash
# usage: scripts/new-check.sh ID "what it reports, in a few words" [warning|error]
#        [--root DIR]
#
# Scaffolds a new check, touching exactly the four places a check lives:
#   checks/NAME.cpp        its registry row and run function (NAME: the id
#                          in PascalCase), to be written;
#   checks/Registry.cpp    its two lines in the registry's list;
#   docs/checks/ID.md      its page (`kcheck explain ID`, SARIF's rule text);
#   kernels/ID.cu          a program whose expected-warning the check must
#                          produce: kernels.verify.ID fails until it does.
# The build picks the new file up (checks/CMakeLists.txt globs checks/*.cpp)
# and the registry test (checks.registry) requires the page and the kernel.
set -euo pipefail
id=${1:?usage: new-check.sh ID "summary" [warning|error]}
summary=${2:?usage: new-check.sh ID "summary" [warning|error]}
severity=${3:-warning}
root=$(cd "$(dirname "$0")/.." && pwd)
if [ "${4:-}" = --root ]; then root=${5:?--root needs a directory}; fi
[[ $id =~ ^[a-z][a-z0-9]*(-[a-z0-9]+)*$ ]] ||
  { echo "new-check.sh: '$id' is no check id (lower-case words joined by -)" >&2; exit 2; }
[[ $severity = warning || $severity = error ]] ||
  { echo "new-check.sh: severity is warning or error, not '$severity'" >&2; exit 2; }
name=$(sed -E 's/(^|-)([a-z0-9])/\U\2/g' <<<"$id")
Severity=${severity^}
registry=$root/checks/Registry.cpp
for f in "$root/checks/$name.cpp" "$root/docs/checks/$id.md" "$root/kernels/$id.cu"; do
  [ ! -e "$f" ] || { echo "new-check.sh: $f exists" >&2; exit 2; }
done
grep -q "k${name}Check" "$registry" && { echo "new-check.sh: $id is registered" >&2; exit 2; }

cat > "$root/checks/$name.cpp" <<CPP
// [$id]: $summary (docs/checks/$id.md).
//
// Assumptions: what the check takes from the simulation, and the source of
// each hardware rule it applies (a model in simulator/models/ belongs there,
// with its property tests).
#include "checks/Registry.h"

namespace kcheck::checks {

namespace {

/// One finding per source line, explained by notes.
std::vector<core::Diagnostic> ${name}Diagnostics(const driver::Session &s,
                                                 bool remarks) {
  std::vector<core::Diagnostic> out;
  (void)s;
  (void)remarks;
  return out;
}

} // namespace

extern const Check k${name}Check{
    "$id",
    core::Severity::$Severity,
    {}, // the commands that run it besides \`check\`
    /*sanitizer=*/false,
    /*shadow=*/nullptr,
    ${name}Diagnostics,
    /*summaryRows=*/nullptr,
    "$id.cu",
};

} // namespace kcheck::checks
CPP

sed -i "s|^// (new-check.sh: declarations above)|extern const Check k${name}Check;\n&|" "$registry"
sed -i "s|^      // (new-check.sh: rows above)|      k${name}Check,\n&|" "$registry"

cat > "$root/docs/checks/$id.md" <<MD
# $id: $summary ($severity)

**What it reports.** 

**How kcheck counts.** 

**The message.** 

**Typical fixes.** 
MD

cat > "$root/kernels/$id.cu" <<CU
// [$id]: the smallest program with the pattern, and one without it; the
// expected diagnostics are what \`kcheck check --verify\` requires.
__global__ void withPattern(float *out, const float *in) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i]; // expected-$severity {{...}}
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 1 << 20);
  cudaMalloc(&out, 1 << 20);
  withPattern<<<64, 256>>>(out, in);
  cudaDeviceSynchronize();
  return 0;
}
CU
echo "new-check.sh: $id scaffolded:"
for f in "checks/$name.cpp" checks/Registry.cpp "docs/checks/$id.md" "kernels/$id.cu"; do
  echo "  $f"
done
