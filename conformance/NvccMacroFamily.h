// The conformance family "nvcc's predefined macros": each macro nvcc
// defines itself (NvccMacroInventory, read from the installed nvcc), with
// the option that brings it, against what kcheck's Clang defines when it
// compiles the same empty program from the same nvcc command: the device
// compile, the static host parse and the host compile of `kcheck run`.
#pragma once

#include <functional>

#include "analyzer/toolchain/CudaToolkit.h"
#include "conformance/Conformance.h"
#include "conformance/NvccMacroInventory.h"

#include <map>
#include <string>

namespace kcheck::conformance {

/// One pass's macros, name to value, as Clang's -dM gives them.
using MacroTable = std::map<std::string, std::string>;

struct KcheckMacros {
  MacroTable device, hostParse, hostRun;
};

/// kcheck's macros for an nvcc command `nvcc OPTION input` ("" none),
/// through the compile database's translation of OPTION; `why` set (and
/// nullopt) when a compile does not preprocess.
std::optional<KcheckMacros>
kcheckMacrosForOption(const analyzer::CudaToolkit &toolkit,
                      const std::string &input, const std::string &option,
                      std::string &why);

Family nvccMacroFamily(const NvccMacroInventory &inventory,
                       const std::map<std::string, KcheckMacros> &byOption);

/// `make(path)` for a new empty .cu file at `path`, removed after; nullopt,
/// with `why`, when no such file can be made.
std::optional<Family> withEmptyProgram(
    const std::function<std::optional<Family>(const std::string &)> &make,
    std::string &why);

/// The family for the toolkit at `root`: its nvcc read, kcheck's compile of
/// each option that defines a macro preprocessed; nullopt, with `why`, when
/// either cannot be done.
std::optional<Family> nvccMacroFamilyOf(const std::string &root,
                                        std::string &why);

} // namespace kcheck::conformance
