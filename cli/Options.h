// Every command-line option of kcheck in one struct (Bloaty/cppcheck style);
// parsing is the only place that reads argv.
#pragma once

#include "core/ArchSpec.h"
#include "core/Launch.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kcheck::cli {

enum class Command {
  BankConflicts,
  Coalescing,
  Divergence,
  Check,
  Predict,
  Compare,
  Validate,
  Run,
  ListChecks,
  Explain,
  Help,
  Version
};
enum class OutputFormat { Text, Json, Markdown };

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
  uint64_t stepBudget = 50'000'000; // warp instructions per block
  bool exhaustive = false; // simulate every block, not one per proven class
  unsigned jobs = 0;       // threads running blocks (0: the machine's, capped)
  bool quiet = false;      // no progress line on stderr
  std::vector<std::string> clangArgs; // after `--` (run: programArgs)
  // run: the program's arguments (after `--`), and the seconds its host code
  // may run, not counting the simulation of its launches.
  std::vector<std::string> programArgs;
  double hostBudgetSeconds = 120;
  // predict/check/...: take the launches from running the program's host
  // code (as `run` does) instead of static extraction. Never the default:
  // it executes the program.
  bool runHost = false;
  // validate: also measure per source line; keep the JSON files in DIR.
  bool perLine = false;
  std::string keepDir;
};

struct ParseResult {
  Options options;
  std::string error; // non-empty: usage error (exit 2)
};

ParseResult parseOptions(const std::vector<std::string> &argv);
/// The models' options for `arch`: its defaults, overridden by --bank-mode
/// and --l1-cache.
core::ModelOptions modelOptionsFor(const Options &options,
                                   const core::ArchSpec &arch);
std::string usageText();

} // namespace kcheck::cli
