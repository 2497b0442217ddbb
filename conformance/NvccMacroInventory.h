// What nvcc defines itself, read from the installed nvcc: each option of
// `nvcc --help` (every value of an option with a fixed set of values; not
// those that take free text) is given to `nvcc --dryrun`, whose host and
// device preprocessing commands carry nvcc's -D macros, and whose front
// ends carry the host compiler's version (--gnu_version=120200). A macro
// that an option adds to the commands without it is that option's.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace kcheck::conformance {

struct NvccMacroUse {
  std::string name;   // __CUDACC_DEBUG__
  std::string value;  // "1" for -DNAME
  std::string option; // "" always; --device-debug, --default-stream=per-thread
  bool host = false;  // on nvcc's host pass
  bool device = false;
};

struct NvccMacroInventory {
  std::vector<NvccMacroUse> uses; // by name, then option
  /// nvcc's options tried, and how many of them define a macro.
  size_t optionsTried = 0;
};

/// What the nvcc of the toolkit at `root` defines compiling `input` (an
/// empty .cu); nullopt, with `why`, when the toolkit has no nvcc that runs.
std::optional<NvccMacroInventory> readNvccMacros(const std::string &root,
                                                 const std::string &input,
                                                 std::string &why);

/// The parts of one `nvcc --dryrun` output: each macro of its host and
/// device preprocessing commands (exposed for the unit test).
std::vector<NvccMacroUse> macrosOfDryRun(const std::string &text);

/// The options of `nvcc --help`, each value of a fixed set as
/// `--name=value` (exposed for the unit test).
std::vector<std::string> optionsOfHelp(const std::string &text);

} // namespace kcheck::conformance
