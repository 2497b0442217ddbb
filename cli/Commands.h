// The commands behind `kcheck <command>`: each returns the process exit code
// (0 clean, 1 findings, 2 usage, 3 input could not be analysed).
#pragma once

#include "cli/Options.h"
#include "core/Diagnostic.h"
#include "driver/Session.h"

#include <cstddef>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace kcheck::cli {

// The driver's vocabulary, as every command uses it.
using driver::describeLaunchCall;
using driver::Session;

enum ExitCode : int {
  kExitClean = 0,
  kExitFindings = 1,
  kExitUsage = 2,
  kExitCannotAnalyse = 3,
  kExitNoGpu = 4,
};

int runCommand(const Options &options, std::ostream &out, std::ostream &err);

/// The whole text of the file at `path`; nullopt when it cannot be read.
std::optional<std::string> readTextFile(const std::string &path);

/// The input limits checked before anything is compiled (--max-source):
/// kExitClean when FILE.cu is within them, else the message and exit code.
int checkInputLimits(const Options &options, std::ostream &err);

/// A command's findings less what the user asked not to see: the checks
/// --checks disabled, and those a `// kcheck-ignore(ID): reason` in
/// `source` (the main file) suppresses, counted in `suppressed`; with the
/// malformed-comment warnings and unused-suppression notes added
/// (driver/Suppressions.h).
std::vector<core::Diagnostic>
reportedDiagnostics(const Options &options, const std::string &source,
                    std::vector<core::Diagnostic> diags, size_t &suppressed);

/// Prints why a file could not be compiled: Clang's diagnostics, kcheck's
/// errors, or, when there are neither, that it could not be.
void printCompileFailure(const std::string &clangDiagnostics,
                         const std::vector<std::string> &errors,
                         const std::string &file, std::ostream &err);

/// The start every analysing command shares: reads `options.file` into
/// `source`, analyses it (or runs its host code with --run-host), prints the
/// session's notes. On failure, prints why to `err` and returns nullopt (the
/// command exits kExitCannotAnalyse).
std::optional<Session> openSession(const Options &options, std::string &source,
                                   std::ostream &err);

/// `kcheck check -p DIR` (no file): every CUDA source of the compile
/// database, in parallel, one report (cli/ProjectCommand.cpp). `argv` is
/// the command line after the program name, given to each file's run.
int runProject(const Options &options, const std::vector<std::string> &argv,
               std::ostream &out, std::ostream &err);

/// `kcheck compare`: needs no LLVM (cli/CompareCommand.cpp).
int runCompare(const Options &options, std::ostream &out, std::ostream &err);

/// `kcheck validate`: predict, build with nvcc, measure with kcheck-profile,
/// compare (cli/ValidateCommand.cpp); exit 4 without a GPU.
int runValidate(const Options &options, std::ostream &out, std::ostream &err);

/// `kcheck run`: runs the program's host code against a simulated GPU and
/// reports its launches (cli/RunCommand.cpp).
int runHostProgram(const Options &options, std::ostream &out,
                   std::ostream &err);

} // namespace kcheck::cli
