// kcheck-conformance: docs/conformance.md from the installed CUDA toolkit
// and kcheck's tables. `--check` prints only what fails (exit 1 if any);
// `--nvvm-program` writes tests/conformance/programs/nvvm_calls.cu, a call of
// every device function Clang compiles for sm_90 (slow: it searches the
// constants Clang accepts); `--unexecuted` lists the device functions the
// engine does not run (the calls nvvm_calls.cu is to skip under kcheck).
#include "analyzer/toolchain/CudaToolkit.h"
#include "conformance/Conformance.h"
#include "conformance/HostMacroFamily.h"
#include "conformance/NvccMacroFamily.h"

#include <cstdio>
#include <cstring>

namespace {

constexpr const char *kCallProgram =
    KCHECK_SOURCE_DIR "/tests/conformance/programs/nvvm_calls.cu";

} // namespace

int main(int argc, char **argv) {
  using namespace kcheck::conformance;
  const char *mode = argc > 1 ? argv[1] : "";
  bool check = std::strcmp(mode, "--check") == 0;
  bool program = std::strcmp(mode, "--nvvm-program") == 0;
  bool unexecuted = std::strcmp(mode, "--unexecuted") == 0;
  const char *explicitRoot = argc > 2 ? argv[2] : "";
  std::string why;
  std::optional<kcheck::analyzer::CudaToolkit> toolkit =
      kcheck::analyzer::findCudaToolkit(explicitRoot, why);
  if (!toolkit) {
    std::fprintf(stderr, "kcheck-conformance: no CUDA toolkit: %s\n",
                 why.empty() ? "none found" : why.c_str());
    return 4;
  }
  std::optional<ToolkitInventory> inventory =
      readToolkitInventory(toolkit->root, why);
  if (!inventory) {
    std::fprintf(stderr, "kcheck-conformance: %s\n", why.c_str());
    return 3;
  }
  if (program) {
    std::vector<std::string> rejected;
    std::vector<DeviceCall> calls = chooseDeviceCalls(
        inventory->deviceFunctions, toolkit->root, "sm_90", rejected);
    std::fputs(nvvmCallProgram(calls, rejected).c_str(), stdout);
    return calls.empty() ? 3 : 0;
  }
  std::optional<DeviceCallResults> calls =
      readDeviceCallResults(kCallProgram, toolkit->root, why);
  if (!calls) {
    std::fprintf(stderr, "kcheck-conformance: %s\n", why.c_str());
    return 3;
  }
  auto families = conformanceFamilies(*inventory, *calls);
  std::optional<Family> macros = nvccMacroFamilyOf(toolkit->root, why);
  if (!macros) {
    std::fprintf(stderr, "kcheck-conformance: %s\n", why.c_str());
    return 3;
  }
  families.push_back(std::move(*macros));
  std::optional<Family> hostMacros = hostMacroFamilyOf(toolkit->root, why);
  if (!hostMacros) {
    std::fprintf(stderr, "kcheck-conformance: %s\n", why.c_str());
    return 3;
  }
  families.push_back(std::move(*hostMacros));
  if (unexecuted) {
    for (const Family &f : families)
      if (f.deviceFunctions)
        for (const Entry &e : f.entries)
          if (e.status != Status::Provided)
            std::printf("%s\n", e.name.c_str());
    return 0;
  }
  if (check) {
    std::string failures = conformanceFailures(families);
    std::fputs(failures.c_str(), stdout);
    return failures.empty() ? 0 : 1;
  }
  std::fputs(conformanceMarkdown(*inventory, families).c_str(), stdout);
  return 0;
}
