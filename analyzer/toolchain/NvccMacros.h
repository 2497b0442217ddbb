// The macros nvcc defines itself (NvccMacros.def) and the host compiler's
// version, defined for Clang as nvcc defines them, so that a program's
// `#ifdef __NVCC__`, `#if __CUDACC_VER_BUILD__ >= ...` or
// `#if __GNUC__ >= 7` takes the branch nvcc takes (issue 40, item 5).
//
// Assumptions:
//   - nvcc's host compiler is the `g++` on PATH (nvcc's default without
//     -ccbin); Clang reports its version through -fgnuc-version, which sets
//     __GNUC__, __GNUC_MINOR__ and __GNUC_PATCHLEVEL__ and nothing else;
//   - __NVCC__ is defined after the toolkit headers that test it to choose
//     nvcc-only builtins (nv/target, CCCL's compiler detection): those keep
//     their Clang path (kcheck_toolkit_compat.h).
#pragma once

#include "analyzer/toolchain/CudaToolkit.h"

#include <clang/Frontend/FrontendAction.h>
#include <llvm/Support/VirtualFileSystem.h>

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kcheck::analyzer {

enum class NvccMacroPasses { HostAndDevice, DeviceOnly };
enum class NvccMacroValue {
  One,          // 1 (nvcc's -DNAME)
  ToolkitMajor, // 13
  ToolkitMinor, // 0
  ToolkitBuild, // 88
  ArchList,     // 900 for sm_90
  Arch,         // 900 for sm_90
};
enum class NvccMacroDefinedBy {
  Clang,        // Clang's CUDA mode defines it itself
  CompatHeader, // kcheck_toolkit_compat.h, after the toolkit's tests of it
  Argument,     // kcheck's -D (an option's: the compile database adds it)
  Relocatable,  // the option compiles as relocatable device code: -fgpu-rdc
  OptionRule,   // the compile database's rule for an option with a value
};

struct NvccMacro {
  std::string_view name;
  NvccMacroPasses passes;
  NvccMacroValue value;
  std::string_view option;      // "" = always; long spelling
  std::string_view shortOption; // nvcc's short spelling
  NvccMacroDefinedBy definedBy;
};

/// NvccMacros.def's rows.
const std::vector<NvccMacro> &nvccMacros();

/// The row of a plain flag (an option without `=`: -G, --extended-lambda,
/// -dc), in either spelling, that the compile database translates (an
/// Argument or Relocatable row); null when none.
const NvccMacro *nvccMacroOfFlag(std::string_view flag);

/// The value nvcc gives `macro` for `toolkit` and `arch` ("sm_90").
std::string nvccMacroValue(const NvccMacro &macro, const CudaToolkit &toolkit,
                           const std::string &arch);

/// The -D arguments of the rows kcheck defines with an argument always, for
/// one pass.
std::vector<std::string> nvccMacroArguments(const CudaToolkit &toolkit,
                                            const std::string &arch,
                                            bool devicePass);

/// -fgnuc-version=12.2.0 for the g++ on PATH (its `-dumpfullversion`, read
/// once); nullopt without one (Clang keeps its 4.2.1).
std::optional<std::string> hostCompilerGnuVersionArgument();

/// Every macro defined at the end of preprocessing `args` (a Clang command
/// line as runClangAction takes it; its action is replaced by
/// preprocessing), name to replacement text as `-dM` spells it; nullopt,
/// with Clang's diagnostics in `diagnostics`, when it does not preprocess.
std::optional<std::map<std::string, std::string>>
predefinedMacros(const std::vector<std::string> &args,
                 llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fileSystem,
                 std::string &diagnostics);

} // namespace kcheck::analyzer
