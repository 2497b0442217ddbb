// kcheck-conformance: docs/conformance.md from the installed CUDA toolkit
// and kcheck's tables. `--check` prints only what fails (exit 1 if any).
#include "analyzer/CudaToolkit.h"
#include "conformance/Conformance.h"

#include <cstdio>
#include <cstring>

int main(int argc, char **argv) {
  bool check = argc > 1 && std::strcmp(argv[1], "--check") == 0;
  const char *explicitRoot = argc > 2 ? argv[2] : "";
  std::string why;
  std::optional<kcheck::analyzer::CudaToolkit> toolkit =
      kcheck::analyzer::findCudaToolkit(explicitRoot, why);
  if (!toolkit) {
    std::fprintf(stderr, "kcheck-conformance: no CUDA toolkit: %s\n",
                 why.empty() ? "none found" : why.c_str());
    return 4;
  }
  std::optional<kcheck::conformance::ToolkitInventory> inventory =
      kcheck::conformance::readToolkitInventory(toolkit->root, why);
  if (!inventory) {
    std::fprintf(stderr, "kcheck-conformance: %s\n", why.c_str());
    return 3;
  }
  auto families = kcheck::conformance::conformanceFamilies(*inventory);
  if (check) {
    std::string failures = kcheck::conformance::conformanceFailures(families);
    std::fputs(failures.c_str(), stdout);
    return failures.empty() ? 0 : 1;
  }
  std::fputs(
      kcheck::conformance::conformanceMarkdown(*inventory, families).c_str(),
      stdout);
  return 0;
}
