// The conformance family "the host compiler's predefined macros" (issue 40,
// item 5): each macro the host compiler nvcc runs (the `gcc` on PATH, as
// `nvcc --dryrun` shows it: `gcc -E -x c++ -m64`, its default dialect)
// defines for an empty C++ translation unit, against what kcheck's Clang
// defines when it compiles the same empty program for the host: the static
// host parse and the host compile of `kcheck run`. Values are compared as
// values: integers by number (0x7fffffff is 2147483647), floating limits in
// their type, type names by their specifiers (`short unsigned int` is
// `unsigned short`), token pasting without its spaces.
#pragma once

#include "conformance/Conformance.h"
#include "conformance/NvccMacroFamily.h"

#include <optional>
#include <string>

namespace kcheck::conformance {

/// The family from `gcc`'s macros (`-dM` output parsed into name and
/// replacement, a function-like macro's parameters first) and kcheck's.
Family hostMacroFamily(const MacroTable &gcc, const KcheckMacros &kcheck);

/// Whether two replacement texts of macro `name` are the same value.
bool sameMacroValue(const std::string &name, const std::string &a,
                    const std::string &b);

/// The family for the toolkit at `root` and the `gcc` on PATH; nullopt,
/// with `why`, when either cannot be run.
std::optional<Family> hostMacroFamilyOf(const std::string &root,
                                        std::string &why);

} // namespace kcheck::conformance
