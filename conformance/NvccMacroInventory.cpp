#include "conformance/NvccMacroInventory.h"

#include "analyzer/toolchain/RunProgram.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <algorithm>
#include <map>
#include <regex>
#include <sstream>

namespace kcheck::conformance {

namespace {

// Splits a command line of --dryrun's output as a shell would, closely
// enough for nvcc's own commands (double quotes, no escapes).
std::vector<std::string> words(const std::string &line) {
  std::vector<std::string> out;
  std::string word;
  bool quoted = false, any = false;
  for (char c : line) {
    if (c == '"') {
      quoted = !quoted;
      any = true;
    } else if (c == ' ' && !quoted) {
      if (any)
        out.push_back(word);
      word.clear();
      any = false;
    } else {
      word += c;
      any = true;
    }
  }
  if (any)
    out.push_back(word);
  return out;
}

} // namespace

std::vector<NvccMacroUse> macrosOfDryRun(const std::string &text) {
  std::map<std::string, NvccMacroUse> byName;
  std::istringstream lines(text);
  std::string line;
  static const std::regex gnuVersion("--gnu_version=([0-9]+)");
  std::smatch m;
  std::string version;
  while (std::getline(lines, line)) {
    if (line.rfind("#$ ", 0) != 0)
      continue;
    std::vector<std::string> w = words(line.substr(3));
    if (w.empty())
      continue;
    if (std::regex_search(line, m, gnuVersion))
      version = m[1].str();
    // The preprocessing commands: the host compiler with -E (nvcc's host
    // pass; with -D__CUDA_ARCH__, its device pass).
    bool preprocess = std::find(w.begin(), w.end(), "-E") != w.end();
    std::string tool = llvm::sys::path::filename(w[0]).str();
    if (!preprocess || tool.find("cicc") != std::string::npos)
      continue;
    bool device = false;
    std::vector<std::pair<std::string, std::string>> defines;
    for (const std::string &a : w) {
      if (a.rfind("-D", 0) != 0 || a.size() == 2)
        continue;
      std::string def = a.substr(2);
      size_t eq = def.find('=');
      std::string name = def.substr(0, eq);
      std::string value = eq == std::string::npos ? "1" : def.substr(eq + 1);
      if (name == "__CUDA_ARCH__")
        device = true;
      defines.push_back({name, value});
    }
    for (const auto &[name, value] : defines) {
      NvccMacroUse &use = byName[name];
      use.name = name;
      use.value = value;
      (device ? use.device : use.host) = true;
    }
  }
  // The host compiler's version, as its own macros give it (120200: 12.2.0).
  if (version.size() >= 5) {
    int v = std::atoi(version.c_str());
    std::pair<const char *, int> gnu[] = {{"__GNUC__", v / 10000},
                                          {"__GNUC_MINOR__", v / 100 % 100},
                                          {"__GNUC_PATCHLEVEL__", v % 100}};
    for (const auto &[name, value] : gnu)
      byName[name] = {name, std::to_string(value), "", true, true};
  }
  std::vector<NvccMacroUse> out;
  for (auto &[name, use] : byName)
    out.push_back(use);
  return out;
}

std::vector<std::string> optionsOfHelp(const std::string &text) {
  std::vector<std::string> out;
  std::istringstream lines(text);
  std::string line;
  // "--name   (-short)", "--name {a|b|c}   (-short)", "--name <value>".
  static const std::regex option(
      R"(^(--[A-Za-z0-9_-]+)(\s+\{([^}]*)\})?(\s+<)?)");
  std::smatch m;
  while (std::getline(lines, line)) {
    if (!std::regex_search(line, m, option) || m[4].matched)
      continue;
    if (!m[2].matched) {
      out.push_back(m[1].str());
      continue;
    }
    std::string values = m[3].str();
    size_t start = 0;
    while (true) {
      size_t bar = values.find('|', start);
      out.push_back(m[1].str() + "=" + values.substr(start, bar - start));
      if (bar == std::string::npos)
        break;
      start = bar + 1;
    }
  }
  return out;
}

std::optional<NvccMacroInventory> readNvccMacros(const std::string &root,
                                                 const std::string &input,
                                                 std::string &why) {
  llvm::SmallString<256> nvcc(root);
  llvm::sys::path::append(nvcc, "bin", "nvcc");
  std::optional<analyzer::ProgramOutput> help =
      llvm::sys::fs::can_execute(nvcc)
          ? analyzer::runProgram(nvcc.str().str(), {"--help"}, 60)
          : std::nullopt;
  if (!help) {
    why = nvcc.str().str() + " does not run";
    return std::nullopt;
  }
  // `input` compiled for sm_90, as kcheck's default --arch.
  auto dryRun = [&](const std::string &option) {
    std::vector<std::string> args = {"--dryrun", "-arch=sm_90", "-c",
                                     input,      "-o",          "/dev/null"};
    if (!option.empty())
      args.push_back(option);
    std::optional<analyzer::ProgramOutput> out =
        analyzer::runProgram(nvcc.str().str(), args, 60);
    return macrosOfDryRun(out ? out->text : "");
  };
  NvccMacroInventory inventory;
  std::vector<NvccMacroUse> base = dryRun("");
  std::map<std::string, NvccMacroUse> baseByName;
  for (const NvccMacroUse &u : base)
    baseByName[u.name] = u;
  inventory.uses = base;
  for (const std::string &option : optionsOfHelp(help->text)) {
    // What only reports or stops: no compile to read.
    if (option == "--dryrun" || option == "--help" || option == "--version")
      continue;
    ++inventory.optionsTried;
    for (NvccMacroUse use : dryRun(option)) {
      auto b = baseByName.find(use.name);
      if (b != baseByName.end() && b->second.value == use.value)
        continue;
      use.option = option;
      inventory.uses.push_back(use);
    }
  }
  if (base.empty()) {
    why = "nvcc --dryrun shows no preprocessing command";
    return std::nullopt;
  }
  std::sort(inventory.uses.begin(), inventory.uses.end(),
            [](const NvccMacroUse &a, const NvccMacroUse &b) {
              return std::tie(a.name, a.option) < std::tie(b.name, b.option);
            });
  return inventory;
}

} // namespace kcheck::conformance
