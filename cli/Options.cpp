#include "cli/Options.h"

#include "checks/Registry.h"
#include "core/ArchSpec.h"

#include <llvm/Option/Arg.h>
#include <llvm/Option/ArgList.h>
#include <llvm/Option/OptTable.h>
#include <llvm/Option/Option.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <sstream>

namespace kcheck::cli {

namespace {

// The table cli/Options.td describes (llvm-tblgen -gen-opt-parser-defs).
using llvm::opt::DefaultVis;

enum OptionId : unsigned {
  OPT_INVALID = 0,
#define OPTION(...) LLVM_MAKE_OPT_ID(__VA_ARGS__),
#include "cli/Options.inc"
#undef OPTION
};

#define OPTTABLE_STR_TABLE_CODE
#include "cli/Options.inc"
#undef OPTTABLE_STR_TABLE_CODE

#define OPTTABLE_PREFIXES_TABLE_CODE
#include "cli/Options.inc"
#undef OPTTABLE_PREFIXES_TABLE_CODE

#define OPTTABLE_SUBCOMMAND_IDS_TABLE_CODE
#include "cli/Options.inc"
#undef OPTTABLE_SUBCOMMAND_IDS_TABLE_CODE

#define OPTTABLE_SUBCOMMANDS_CODE
#include "cli/Options.inc"
#undef OPTTABLE_SUBCOMMANDS_CODE

constexpr llvm::opt::OptTable::Info kOptionInfos[] = {
#define OPTION(...) LLVM_CONSTRUCT_OPT_INFO(__VA_ARGS__),
#include "cli/Options.inc"
#undef OPTION
};

class KcheckOptTable : public llvm::opt::GenericOptTable {
public:
  KcheckOptTable()
      : GenericOptTable(OptionStrTable, OptionPrefixesTable, kOptionInfos,
                        /*IgnoreCase=*/false, OptionSubCommands,
                        OptionSubCommandIDsTable) {}
};

const KcheckOptTable &optionTable() {
  static const KcheckOptTable table;
  return table;
}

// The help's headings, in its order (the table lists groups by name).
constexpr OptionId kGroupOrder[] = {
    OPT_grp_findings, OPT_grp_output, OPT_grp_fixes,
    OPT_grp_build,    OPT_grp_launch, OPT_grp_host,
    OPT_grp_model,    OPT_grp_limits, OPT_grp_validate};

// The commands the table's subcommands name, in `kcheck --help`'s order.
struct CommandName {
  std::string_view name;
  Command command;
};
constexpr CommandName kCommandNames[] = {
    {"bank-conflicts", Command::BankConflicts},
    {"coalescing", Command::Coalescing},
    {"divergence", Command::Divergence},
    {"check", Command::Check},
    {"memcheck", Command::Memcheck},
    {"initcheck", Command::Initcheck},
    {"racecheck", Command::Racecheck},
    {"synccheck", Command::Synccheck},
    {"sanitize", Command::Sanitize},
    {"predict", Command::Predict},
    {"compare", Command::Compare},
    {"validate", Command::Validate},
    {"run", Command::Run},
    {"list-checks", Command::ListChecks},
    {"explain", Command::Explain},
};

bool parseUnsigned(const std::string &s, uint64_t &out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

// "X[,Y[,Z]]"
std::optional<core::Dim3> parseDim3(const std::string &s) {
  core::Dim3 d;
  uint32_t *parts[3] = {&d.x, &d.y, &d.z};
  size_t start = 0;
  for (int i = 0; i < 3; ++i) {
    size_t comma = s.find(',', start);
    std::string piece = s.substr(start, comma - start);
    uint64_t v;
    if (!parseUnsigned(piece, v) || v == 0 || v > 0xffffffffu)
      return std::nullopt;
    *parts[i] = uint32_t(v);
    if (comma == std::string::npos)
      return d;
    start = comma + 1;
  }
  return std::nullopt;
}

// The commands whose output is findings (what SARIF carries).
bool runsChecks(Command c) {
  switch (c) {
  case Command::BankConflicts:
  case Command::Coalescing:
  case Command::Divergence:
  case Command::Check:
  case Command::Memcheck:
  case Command::Initcheck:
  case Command::Racecheck:
  case Command::Synccheck:
  case Command::Sanitize:
    return true;
  default:
    return false;
  }
}

// The commands whose report is a document with findings: the checks, and
// predict and run, which report the program's own memory errors.
bool reportsFindings(Command c) {
  return runsChecks(c) || c == Command::Predict || c == Command::Run;
}

// Modes that the --arch does not have are usage errors, not silently
// ignored.
std::string modeErrorFor(const Options &o) {
  core::ArchSpec arch = *core::findArch(o.arch);
  return core::validateModelOptions(arch, modelOptionsFor(o, arch));
}

std::string parseFormat(const std::string &v, Options &o) {
  bool table = o.command == Command::Compare || o.command == Command::Validate;
  if (v == "text")
    o.format = OutputFormat::Text;
  else if (v == "json")
    o.format = OutputFormat::Json;
  else if (v == "markdown" && table)
    o.format = OutputFormat::Markdown;
  else if (v == "sarif" && reportsFindings(o.command))
    o.format = OutputFormat::Sarif;
  else if (v == "html" && reportsFindings(o.command))
    o.format = OutputFormat::Html;
  else
    return "unknown format '" + v + "' (text, json" +
           (table                        ? ", markdown)"
            : reportsFindings(o.command) ? ", sarif, html)"
                                         : ")");
  return "";
}

std::string parseArch(const std::string &v, Options &o) {
  if (!core::findArch(v)) {
    std::string error = "unknown architecture '" + v + "' (known:";
    for (const std::string &n : core::knownArchNames())
      error += " " + n;
    return error + ")";
  }
  o.arch = v;
  o.archGiven = true;
  return "";
}

// The limits: a count > 0 (MB for memory and source).
std::string parseLimit(OptionId id, const std::string &name,
                       const std::string &v, Options &o) {
  uint64_t n;
  if (!parseUnsigned(v, n) || n == 0 ||
      (id == OPT_max_memory && n > (1ull << 40)))
    return "bad value '" + v + "' for " + name + " (a number > 0)";
  if (id == OPT_max_launch_steps)
    o.maxLaunchSteps = n;
  else if (id == OPT_max_launches)
    o.maxLaunches = n;
  else if (id == OPT_max_source)
    o.maxSourceBytes = n << 20; // MB
  else
    o.maxMemoryBytes = n << 20; // MB
  return "";
}

std::string parseLaunchValue(OptionId id, const std::string &name,
                             const std::string &v, Options &o) {
  if (id == OPT_grid || id == OPT_block) {
    std::optional<core::Dim3> d = parseDim3(v);
    if (!d)
      return "bad value '" + v + "' for " + name + " (want X[,Y[,Z]])";
    (id == OPT_grid ? o.grid : o.block) = *d;
  } else if (id == OPT_shmem) {
    uint64_t n;
    if (!parseUnsigned(v, n))
      return "bad value '" + v + "' for --shmem";
    o.sharedBytes = n;
  } else if (id == OPT_arg) {
    size_t eq = v.find('=');
    if (eq == std::string::npos || eq == 0)
      return "bad value '" + v + "' for --arg (want NAME=VALUE)";
    o.args.emplace_back(v.substr(0, eq), v.substr(eq + 1));
  } else {
    o.kernel = v;
  }
  return "";
}

std::string parseSimulationValue(OptionId id, const std::string &v,
                                 Options &o) {
  uint64_t n;
  if (id == OPT_jobs) {
    if (!parseUnsigned(v, n) || n == 0 || n > 256)
      return "bad value '" + v + "' for --jobs (1 to 256)";
    o.jobs = unsigned(n);
  } else if (id == OPT_step_budget) {
    if (!parseUnsigned(v, o.stepBudget) || o.stepBudget == 0)
      return "bad value '" + v + "' for --step-budget";
    o.zeroFillStepBudget = o.stepBudget;
  } else if (id == OPT_bank_mode) {
    if (v != "4" && v != "8")
      return "bad value '" + v + "' for --bank-mode (4, 8)";
    o.bankModeBytes = unsigned(std::stoul(v));
  } else if (v != "on" && v != "off") { // OPT_l1_cache
    return "bad value '" + v + "' for --l1-cache (on, off)";
  } else {
    o.l1Cache = v == "on";
  }
  return "";
}

std::string parseHostValue(OptionId id, const std::string &v, Options &o) {
  if (id == OPT_host_budget) {
    char *end = nullptr;
    o.hostBudgetSeconds = std::strtod(v.c_str(), &end);
    if (v.empty() || *end || !(o.hostBudgetSeconds > 0))
      return "bad value '" + v + "' for --host-budget (seconds > 0)";
  } else if (id == OPT_time_budget) {
    char *end = nullptr;
    o.timeBudgetSeconds = std::strtod(v.c_str(), &end);
    if (v.empty() || *end || !(o.timeBudgetSeconds >= 0))
      return "bad value '" + v + "' for --time-budget (seconds >= 0)";
  } else if (id == OPT_program_args) {
    // Split at blanks, as a shell would split an unquoted list.
    std::istringstream words(v);
    for (std::string w; words >> w;)
      o.programArgs.push_back(w);
  } else if (id == OPT_cuda_path) {
    o.cudaPath = v;
  } else if (v.empty()) { // OPT_compile_database
    return "option -p needs a directory";
  } else {
    o.compileDatabase = v;
  }
  return "";
}

/// Applies one option of the command line to `o`; a usage error, or "".
std::string applyOption(const llvm::opt::Arg &a, Options &o) {
  OptionId id = OptionId(a.getOption().getID());
  std::string v = a.getNumValues() ? a.getValue() : "";
  std::string name = a.getOption().getPrefixedName().str();
  switch (id) {
  case OPT_arch:
    return parseArch(v, o);
  case OPT_format:
    return parseFormat(v, o);
  case OPT_checks: {
    std::string error;
    o.disabledChecks = checks::disabledChecks(v, checks::checkIds(), error);
    return error;
  }
  case OPT_kernel:
  case OPT_grid:
  case OPT_block:
  case OPT_shmem:
  case OPT_arg:
    return parseLaunchValue(id, name, v, o);
  case OPT_jobs:
  case OPT_step_budget:
  case OPT_bank_mode:
  case OPT_l1_cache:
    return parseSimulationValue(id, v, o);
  case OPT_max_launch_steps:
  case OPT_max_launches:
  case OPT_max_memory:
  case OPT_max_source:
    return parseLimit(id, name, v, o);
  case OPT_host_budget:
  case OPT_time_budget:
  case OPT_program_args:
  case OPT_cuda_path:
  case OPT_compile_database:
    return parseHostValue(id, v, o);
  case OPT_keep:
    o.keepDir = v;
    return "";
  default:
    break;
  }
  bool *flag = id == OPT_verify             ? &o.verify
               : id == OPT_remarks          ? &o.remarks
               : id == OPT_exhaustive       ? &o.exhaustive
               : id == OPT_fix              ? &o.applyFixes
               : id == OPT_diff             ? &o.printDiff
               : id == OPT_parseable_fixits ? &o.parseableFixIts
               : id == OPT_no_sanitizers    ? &o.noSanitizers
               : id == OPT_quiet            ? &o.quiet
               : id == OPT_run_host         ? &o.runHost
               : id == OPT_per_line         ? &o.perLine
               : id == OPT_bundled_headers  ? &o.bundledHeaders
                                            : nullptr;
  if (id == OPT_no_fixes)
    o.searchFixes = false;
  else if (flag)
    *flag = true;
  else
    return "internal error: option '" + name + "' has no meaning";
  return "";
}

/// The commands that take no options: help, --version, list-checks,
/// explain. True when argv is one of them (`r` then complete).
bool parseWordCommand(const std::vector<std::string> &argv, ParseResult &r) {
  Options &o = r.options;
  const std::string &cmd = argv[0];
  bool askHelp = std::any_of(argv.begin() + 1, argv.end(), [](auto &a) {
    return a == "-h" || a == "--help";
  });
  if ((cmd == "list-checks" || cmd == "explain") && askHelp) {
    o.command = Command::Help;
    o.helpTopic = cmd;
  } else if (cmd == "list-checks") {
    // `--format json`: the registry as data (id, severity, page, kernel).
    o.command = Command::ListChecks;
    if (argv.size() == 3 && argv[1] == "--format" && argv[2] == "json")
      o.format = OutputFormat::Json;
    else if (argv.size() != 1)
      r.error = "list-checks takes no argument but --format json";
  } else if (cmd == "explain") {
    o.command = Command::Explain;
    if (argv.size() != 2)
      r.error = "explain needs one check id (kcheck list-checks lists them)";
    else
      o.file = argv[1];
  } else if (cmd == "-h" || cmd == "--help" || cmd == "help") {
    o.command = Command::Help;
    if (cmd == "help" && argv.size() > 2)
      r.error = "help takes one command (kcheck help COMMAND)";
    else if (cmd == "help" && argv.size() == 2)
      o.helpTopic = argv[1];
  } else if (cmd == "--version") {
    o.command = Command::Version;
  } else {
    return false;
  }
  return true;
}

/// What is still missing or inconsistent once every option is read.
std::string finalCheck(const Options &o) {
  if (o.command == Command::Compare) {
    if (o.compareFiles.empty() || o.compareFiles.size() % 2 != 0)
      return "compare needs pairs of files: PRED.json MEAS.json [...]";
    return "";
  }
  if (o.file.empty() && !o.compileDatabase.empty() && runsChecks(o.command))
    // -p DIR alone: every CUDA source of the database (cli/ProjectCommand).
    return o.format == OutputFormat::Html
               ? "--format html reports one file: give FILE.cu with -p"
               : modeErrorFor(o);
  if (o.file.empty())
    return "no input file";
  return modeErrorFor(o);
}

/// Reads the options and inputs before `--`; a usage error, or "".
std::string parseArguments(const std::vector<const char *> &args,
                           const std::string &command, ParseResult &r) {
  Options &o = r.options;
  unsigned missingIndex = 0, missingCount = 0;
  llvm::opt::InputArgList list =
      optionTable().ParseArgs(args, missingIndex, missingCount);
  if (list.hasArg(OPT_help)) {
    o.command = Command::Help;
    o.helpTopic = command;
    return "";
  }
  for (const llvm::opt::Arg *a : list) {
    const llvm::opt::Option &opt = a->getOption();
    std::string spelling = a->getAsString(list);
    if (opt.matches(OPT_UNKNOWN))
      return "unknown option '" + spelling + "'";
    if (opt.matches(OPT_INPUT)) {
      std::string input = a->getValue();
      if (o.command == Command::Compare)
        o.compareFiles.push_back(input);
      else if (o.file.empty())
        o.file = input;
      else
        return "more than one input file ('" + o.file + "', '" + input + "')";
      continue;
    }
    if (!opt.isRegisteredSC(command))
      return "option '" + opt.getPrefixedName().str() + "' is not one of " +
             command + "'s (kcheck help " + command + ")";
    if (std::string error = applyOption(*a, o); !error.empty())
      return error;
  }
  if (missingCount)
    return "option " + std::string(args[missingIndex]) + " needs a value";
  return finalCheck(o);
}

} // namespace

ParseResult parseOptions(const std::vector<std::string> &argv) {
  ParseResult r;
  Options &o = r.options;
  if (argv.empty()) {
    r.error = "no command given";
    return r;
  }
  if (parseWordCommand(argv, r))
    return r;
  const std::string &command = argv[0];
  auto named =
      std::find_if(std::begin(kCommandNames), std::end(kCommandNames),
                   [&](const CommandName &c) { return c.name == command; });
  if (named == std::end(kCommandNames)) {
    r.error = "unknown command '" + command + "'";
    return r;
  }
  o.command = named->command;
  // After `--`: Clang's arguments, or the program's for `run`.
  auto dashDash = std::find(argv.begin() + 1, argv.end(), "--");
  std::vector<const char *> args;
  for (auto it = argv.begin() + 1; it != dashDash; ++it)
    args.push_back(it->c_str());
  if (dashDash != argv.end())
    (o.command == Command::Run ? o.programArgs : o.clangArgs)
        .assign(dashDash + 1, argv.end());
  r.error = parseArguments(args, command, r);
  if (o.command == Command::Help)
    return r;
  // The engine's shadow state for the checks this command runs; compute-
  // sanitizer's own tools stop a kernel at a small global overrun, as it
  // does, where the other commands count it and go on, as the GPU does.
  o.sanitizers = checks::shadowFor(checks::checksRunBy(o));
  o.stopAtGlobalOverrun =
      o.sanitizers.memcheck &&
      (o.command == Command::Memcheck || o.command == Command::Sanitize);
  return r;
}

std::vector<CommandSummary> commandSummaries() {
  // In kCommandNames' order (the table sorts its commands by name), which
  // the summaries refer to ("the three above").
  std::vector<CommandSummary> out;
  for (const CommandName &name : kCommandNames)
    for (const llvm::opt::OptTable::SubCommand &c :
         optionTable().getSubCommands())
      if (c.Name == name.name)
        out.push_back({c.Name, c.HelpText});
  return out;
}

std::vector<OptionHelp> optionHelp(const std::string &command) {
  const KcheckOptTable &table = optionTable();
  std::vector<OptionHelp> out;
  for (OptionId group : kGroupOrder)
    for (unsigned id = 1; id <= table.getNumOptions(); ++id) {
      llvm::opt::Option opt = table.getOption(id);
      const char *help = table.getOptionHelpText(id);
      if (!help || opt.getGroup().getID() != unsigned(group) ||
          (!command.empty() && !opt.isRegisteredSC(command)))
        continue;
      OptionHelp h{table.getOptionName(group).str(),
                   opt.getPrefixedName().str(), help};
      if (const char *meta = table.getOptionMetaVar(id))
        h.spelling += std::string(" ") + meta;
      out.push_back(std::move(h));
    }
  return out;
}

} // namespace kcheck::cli
