#include "conformance/NvccMacroFamily.h"

#include "analyzer/toolchain/CudaStubHeaders.h"
#include "analyzer/toolchain/CudaToolkit.h"
#include "analyzer/toolchain/DeviceCompiler.h"
#include "analyzer/toolchain/NvccMacros.h"
#include "driver/CompileDatabase.h"
#include "host/HostCompiler.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Process.h>

#include <set>

namespace kcheck::conformance {

namespace {

struct NvccMacroExclusion {
  const char *name, *option, *reason;
};
constexpr NvccMacroExclusion kExclusions[] = {
#define KCHECK_NVCC_MACRO_EXCLUDED(name, option, reason) {name, option, reason},
#include "conformance/NvccMacroExclusions.def"
};

} // namespace

std::optional<KcheckMacros>
kcheckMacrosForOption(const analyzer::CudaToolkit &toolkit,
                      const std::string &input, const std::string &option,
                      std::string &why) {
  clang::tooling::CompileCommand command;
  command.Directory = "/";
  command.Filename = input;
  command.CommandLine = {"nvcc", "-arch=sm_90", "-c", command.Filename};
  if (!option.empty())
    command.CommandLine.push_back(option);
  driver::FrontEndFlags flags = driver::frontEndFlags(command);

  analyzer::CompileOptions device;
  device.toolkit = toolkit;
  device.extraClangArgs = flags.clangArgs;
  host::HostCompileOptions host;
  host.toolkit = toolkit;
  host.extraClangArgs = flags.clangArgs;
  host.relocatableDeviceCode = analyzer::relocatableDeviceCode(device);

  KcheckMacros out;
  std::string diagnostics;
  auto fs = analyzer::makeFileSystemWithCudaStubs();
  std::pair<MacroTable *, std::vector<std::string>> passes[] = {
      {&out.device, analyzer::deviceCompileArguments(command.Filename, device)},
      {&out.hostParse, analyzer::hostParseArguments(command.Filename, device)},
      {&out.hostRun, host::hostCompileArguments(command.Filename, host)}};
  for (auto &[table, args] : passes) {
    auto macros = analyzer::predefinedMacros(args, fs, diagnostics);
    if (!macros) {
      why = "an empty program with " + (option.empty() ? "no option" : option) +
            " does not preprocess: " + diagnostics;
      return std::nullopt;
    }
    *table = std::move(*macros);
  }
  return out;
}

Family nvccMacroFamily(const NvccMacroInventory &inventory,
                       const std::map<std::string, KcheckMacros> &byOption) {
  Family f;
  f.name = "nvcc's predefined macros";
  f.source = "the -D macros and the host compiler's version on the commands "
             "of `nvcc --dryrun`, without an option and with each of `nvcc "
             "--help`'s (" +
             std::to_string(inventory.optionsTried) + " tried)";
  f.provider = "`analyzer/toolchain/NvccMacros.def` (the compile database "
               "adds an option's); checked by preprocessing an empty program "
               "as kcheck compiles it (device, static host parse, host of "
               "`kcheck run`); exclusions in "
               "`conformance/NvccMacroExclusions.def`";
  std::map<std::pair<std::string, std::string>, std::string> excluded;
  for (const NvccMacroExclusion &x : kExclusions)
    excluded[{x.name, x.option}] = x.reason;
  std::set<std::pair<std::string, std::string>> seen;
  for (const NvccMacroUse &use : inventory.uses) {
    Entry e;
    e.name = use.name + (use.option.empty() ? "" : " with " + use.option);
    seen.insert({use.name, use.option});
    auto k = byOption.find(use.option);
    std::string differs;
    if (k == byOption.end()) {
      differs = "not preprocessed";
    } else {
      std::pair<const char *, const MacroTable *> passes[] = {
          {"device", use.device ? &k->second.device : nullptr},
          {"static host parse", use.host ? &k->second.hostParse : nullptr},
          {"host of kcheck run", use.host ? &k->second.hostRun : nullptr}};
      for (const auto &[pass, table] : passes) {
        if (!table)
          continue;
        auto m = table->find(use.name);
        if (m == table->end())
          differs +=
              std::string(differs.empty() ? "" : "; ") + pass + ": not defined";
        else if (m->second != use.value)
          differs += std::string(differs.empty() ? "" : "; ") + pass + ": " +
                     m->second;
      }
    }
    auto x = excluded.find({use.name, use.option});
    std::string passes = use.host && use.device ? "host and device"
                         : use.device           ? "device"
                                                : "host";
    if (differs.empty()) {
      e.status = Status::Provided;
      e.note = passes + ": " + use.value;
      if (x != excluded.end())
        f.stale.push_back(e.name + ": provided and excluded");
    } else if (x != excluded.end()) {
      e.status = Status::Excluded;
      e.note = x->second;
    } else {
      e.note = "nvcc (" + passes + "): " + use.value + "; kcheck: " + differs;
    }
    f.entries.push_back(std::move(e));
  }
  for (const auto &[key, why] : excluded)
    if (!seen.count(key))
      f.stale.push_back(key.first + " with '" + key.second +
                        "': excluded, but nvcc defines no such macro");
  return f;
}

std::optional<Family> nvccMacroFamilyOf(const std::string &root,
                                        std::string &why) {
  std::optional<analyzer::CudaToolkit> toolkit =
      analyzer::findCudaToolkit(root, why);
  if (!toolkit)
    return std::nullopt;
  // One empty program, compiled by nvcc and by kcheck.
  return withEmptyProgram(
      [&](const std::string &input) -> std::optional<Family> {
        std::optional<NvccMacroInventory> inventory =
            readNvccMacros(toolkit->root, input, why);
        if (!inventory)
          return std::nullopt;
        std::map<std::string, KcheckMacros> byOption;
        for (const NvccMacroUse &use : inventory->uses) {
          if (byOption.count(use.option))
            continue;
          std::optional<KcheckMacros> macros =
              kcheckMacrosForOption(*toolkit, input, use.option, why);
          if (!macros)
            return std::nullopt;
          byOption[use.option] = std::move(*macros);
        }
        return nvccMacroFamily(*inventory, byOption);
      },
      why);
}

std::optional<Family> withEmptyProgram(
    const std::function<std::optional<Family>(const std::string &)> &make,
    std::string &why) {
  llvm::SmallString<128> input;
  int fd = -1;
  if (llvm::sys::fs::createTemporaryFile("kcheck-macros", "cu", fd, input)) {
    why = "no temporary file";
    return std::nullopt;
  }
  llvm::sys::Process::SafelyCloseFileDescriptor(fd);
  std::optional<Family> family = make(input.str().str());
  llvm::sys::fs::remove(input);
  return family;
}

} // namespace kcheck::conformance
