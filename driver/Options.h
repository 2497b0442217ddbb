// Every option of an analysis in one struct (Bloaty/cppcheck style): what
// the driver takes in. cli/Options.cpp fills it from argv, the only place
// that reads argv.
#pragma once

#include "core/ArchSpec.h"
#include "core/Launch.h"
#include "simulator/engine/SanitizerOptions.h"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kcheck::sim {
struct Limits;
} // namespace kcheck::sim

namespace kcheck::driver {

/// As `kcheck --version` prints it (also in SARIF and HTML reports).
inline constexpr const char *kKcheckVersion = "0.1";

enum class Command {
  BankConflicts,
  Coalescing,
  Divergence,
  Check,
  Predict,
  Compare,
  Validate,
  Run,
  // compute-sanitizer's tools without a GPU (checks/Sanitizers.h); Sanitize:
  // all.
  Memcheck,
  Initcheck,
  Racecheck,
  Synccheck,
  Sanitize,
  ListChecks,
  Explain,
  Help,
  Version
};
// Sarif: SARIF 2.1.0 (check commands); Html: one self-contained page
// (check commands and predict); Markdown: compare and validate only.
/// --max-memory's default: half of this machine's memory (the smaller of
/// its physical memory and the cgroup's limit, where one is set), at least
/// 512 MB. A backed page costs about 1.25 times its bytes (the written
/// bitmaps), so the simulation stays within about two thirds of it.
uint64_t defaultMaxMemoryBytes();

enum class OutputFormat { Text, Json, Markdown, Sarif, Html };

struct Options {
  Command command = Command::Help;
  std::string file;
  // compare: PRED.json MEAS.json [PRED2.json MEAS2.json ...]
  std::vector<std::string> compareFiles;
  std::string arch = "sm_90";
  OutputFormat format = OutputFormat::Text;
  bool verify = false;
  bool remarks = false; // also explain accesses that are not findings
  // Hardware modes passed to the models; unset: the architecture's default.
  std::optional<unsigned> bankModeBytes; // --bank-mode 4|8 (cc 3.x)
  std::optional<bool> l1Cache;           // --l1-cache on|off
  // Launch overrides: supply what static extraction could not evaluate.
  std::string kernel; // only launches of this kernel (and its default launch)
  std::optional<core::Dim3> grid, block;
  std::optional<uint64_t> sharedBytes;
  std::vector<std::pair<std::string, std::string>> args; // --arg NAME=VALUE
  // Warp instructions per block (docs/reliability.md): 1G take about 2.5 min
  // on one core; a loop steered by input data kcheck did not see (zero fill)
  // gets 20M, about 3 s, since its trip count is a guess. A warp that comes
  // back to the same state is stopped at once, whatever the budget.
  // --step-budget sets both.
  uint64_t stepBudget = 1'000'000'000;
  uint64_t zeroFillStepBudget = 20'000'000;
  // Limits (docs/reliability.md): past one, that launch stops with a message
  // (exit 3) and the other launches are still reported.
  uint64_t maxLaunchSteps = 1'000'000'000; // warp instructions per launch
  // Simulated memory touched (pages are backed lazily, when written):
  // defaultMaxMemoryBytes(), what this machine can hold.
  uint64_t maxMemoryBytes = defaultMaxMemoryBytes();
  // The .cu itself: past this size kcheck declines before compiling (the
  // device compile of a multi-megabyte file can take minutes).
  uint64_t maxSourceBytes = 4ull << 20;
  uint64_t maxLaunches = 100'000; // launches per program
  // Seconds the whole analysis may take, compiling included, from
  // `startedAt` (--time-budget; 0: none); past it the launch being simulated
  // stops, the earlier ones are reported, exit 3.
  double timeBudgetSeconds = 600;
  std::chrono::steady_clock::time_point startedAt =
      std::chrono::steady_clock::now();
  bool exhaustive = false; // simulate every block, not one per proven class
  unsigned jobs = 0;       // threads running blocks (0: the machine's, capped)
  bool quiet = false;      // no progress line on stderr
  std::vector<std::string> clangArgs; // after `--` (run: programArgs)
  // The CUDA toolkit whose headers compile the device side: --cuda-path,
  // else found as nvcc and Clang find it (analyzer/toolchain/CudaToolkit.h);
  // with
  // --bundled-headers, or when none is found, kcheck's own stub headers.
  std::string cudaPath;
  bool bundledHeaders = false;
  // -p DIR: the project's compile_commands.json, whose flags for the file go
  // in front of clangArgs (driver/CompileDatabase.h); it may set the --arch
  // when the command line gives none.
  std::string compileDatabase;
  bool archGiven = false;
  // --checks=LIST: the check ids whose findings are not reported.
  std::vector<std::string> disabledChecks;
  // check --no-sanitizers: leave out compute-sanitizer's checks.
  bool noSanitizers = false;
  // The engine's shadow state for the checks the command runs (the check
  // registry sets it: checks::shadowFor), and whether a small overrun of a
  // global allocation stops the kernel (compute-sanitizer's memcheck) or is
  // counted and gone on after (as the GPU does, and reported as [memcheck]).
  sim::SanitizerOptions sanitizers;
  bool stopAtGlobalOverrun = false;
  // `help COMMAND`, `COMMAND --help`: the command to explain (cli/Help.h).
  std::string helpTopic;
  // The program's arguments (run: after `--`; every command:
  // --program-args), and the seconds its host code may run, not counting the
  // simulation of its launches.
  std::vector<std::string> programArgs;
  double hostBudgetSeconds = 120;
  // predict/check/...: take the launches from running the program's host
  // code (as `run` does) instead of static extraction. Never the default:
  // it executes the program.
  bool runHost = false;
  // Check commands: verified fix suggestions (driver/Fixes.h). -fix writes
  // them to the file, --diff prints them as a unified diff, --no-fixes skips
  // the search (it re-simulates each candidate).
  bool applyFixes = false;
  bool printDiff = false;
  bool searchFixes = true;
  // Text output: a fix's edits as parseable `fix-it:` lines rather than
  // under the caret (--parseable-fixits).
  bool parseableFixIts = false;
  // validate: also measure per source line; keep the JSON files in DIR.
  bool perLine = false;
  std::string keepDir;
};

/// Threads that simulate a launch's blocks: --jobs, else the machine's
/// cores, at most 8 (the engine's blocks scale little past a few cores; the
/// result never depends on it).
unsigned simulationThreads(const Options &options);

/// A launch's budgets (steps per block and per launch, memory touched), as
/// both host paths simulate it.
sim::Limits launchLimits(const Options &options);

/// The models' options for `arch`: its defaults, overridden by --bank-mode
/// and --l1-cache.
core::ModelOptions modelOptionsFor(const Options &options,
                                   const core::ArchSpec &arch);

} // namespace kcheck::driver
