#include "cli/Options.h"

#include "checks/Registry.h"
#include "core/ArchSpec.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <sstream>

namespace kcheck::cli {

namespace {

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

} // namespace

std::string usageText() {
  return R"(usage: kcheck <command> FILE.cu [options] [-- clang args]

Predicts, without a GPU, what the GPU does with a CUDA kernel's memory
accesses, with Nsight Compute's metrics, per launch and per source line.

commands:
  bank-conflicts   shared-memory bank conflicts per source line [bank-conflict]
  coalescing       global accesses that move more 32-byte sectors than their
                   bytes need, per source line [uncoalesced-access]
  divergence       thread-dependent branches, how often warps diverge there,
                   SIMT efficiency [divergent-branch]; __syncthreads() reached
                   by part of a block [barrier-divergence] (error)
  check            every check: the three above and compute-sanitizer's four
                   below (--no-sanitizers: without them)
  predict          all predicted counters (use --format json for the schema)
  compare          PRED.json MEAS.json [...]: predicted vs measured counters
                   per launch and line (exit 0 all agree, 1 any differs)
  validate         predict FILE.cu, build it with nvcc -lineinfo, measure it
                   with kcheck-profile on this machine's GPU and compare
                   (exit 0 all agree, 1 any differs, 4 no GPU)
  memcheck         compute-sanitizer's tools, without a GPU: out-of-bounds
  initcheck        and misaligned accesses [memcheck]; shared memory read
  racecheck        before written [initcheck]; shared-memory races between
  synccheck        warps, and within a warp without __syncwarp or volatile
  sanitize         [racecheck]; barrier divergence [barrier-divergence];
                   sanitize: all four (with --run-host: the program's run)
  list-checks      the checks, by id (the [id] of each finding)
  explain ID       what a check reports, how kcheck counts it, typical fixes
  run              FILE.cu [-- program args]: run the program's own host code
                   (in-process, against a simulated GPU: it executes the
                   program!), simulate every launch it makes with its real
                   sizes and data, then report each launch like predict and
                   check (--format json: the program's stdout goes to stderr)

options:
  --arch sm_XX         target architecture (default sm_90)
  --format text|json|markdown|sarif|html  output format (default text;
                       markdown: compare, validate; sarif: SARIF 2.1.0 for
                       code scanning; html: one self-contained page with the
                       annotated source and pictures of the worst warps;
                       sarif and html: the check commands, predict, run)
  --verify             check the file's // expected-warning {{...}} comments
  --remarks            also explain the accesses that are not findings
                       (coalesced, broadcast)
  --bank-mode 4|8      shared-memory bank width in bytes (cc 3.x only)
  --l1-cache on|off    whether global loads are cached in L1 (cc 2.0 and
                       later; on sm_90 as -Xptxas -dlcm=ca|cg)
  --kernel NAME        analyse only launches of kernel NAME
  --grid X[,Y,Z]       grid of the launch (overrides what host code says)
  --block X[,Y,Z]      block of the launch
  --shmem BYTES        dynamic shared memory of the launch
  --arg NAME=VALUE     value of kernel parameter NAME (its name, the argument
                       as written at the launch, or #INDEX)
  --exhaustive         simulate every block (default: one per class of
                       blocks proven to behave the same)
  --step-budget N      warp instructions one block may execute (default
                       1000000000; 20000000 once a branch on input data
                       kcheck did not see steers it)
  --max-launch-steps N warp instructions one launch may execute, each block
                       costing at least one (default 1000000000)
  --max-memory MB      simulated memory one launch may touch: global pages,
                       shared and local memory (default 2048)
  --max-launches N     launches simulated per program (default 10000)
  --max-source MB      size of FILE.cu kcheck compiles (default 4)
                       (past a limit that launch stops with a message, exit
                       3, and the other launches are still reported)
  --jobs N             threads that simulate blocks (default: the machine's
                       cores, at most 8); results do not depend on it
  -q, --quiet          no progress line on stderr for long simulations
  -fix, --fix          bank-conflicts, coalescing, check: apply the fixes
                       that re-simulation verified to FILE.cu in place
  --diff               the same fixes as a unified diff on stdout
  --no-fixes           do not search for fixes (each is re-simulated)
  --parseable-fixits   print a fix's edits as Clang's
                       -fdiagnostics-parseable-fixits lines, not under the
                       caret
  --no-sanitizers      check: leave out memcheck, initcheck, racecheck and
                       synccheck (their shadow state runs blocks on one thread)
  --run-host           predict, check, bank-conflicts, coalescing, divergence:
                       take the launches (sizes, arguments, data) from running
                       the program's host code, as `run` does (it executes
                       the program; never the default)
  --host-budget SECS   run, --run-host: seconds host code may run, simulations not
                       counted (default 120); past it, exit 3
  --per-line           validate: also measure and compare per source line
  --keep DIR           validate: keep the predicted and measured JSON in DIR
  --program-args "A B" the program's arguments (argv[1..]; default: none, argc
                       1): static extraction reads them where host code
                       converts argv (atoi, strtol, std::stoi, atof...);
                       --run-host and run pass them to the program
  --cuda-path DIR      the CUDA toolkit to compile against (default: as nvcc
                       and Clang find it: CUDA_PATH, CUDA_HOME, nvcc on
                       PATH, /usr/local/cuda)
  --bundled-headers    compile against kcheck's own CUDA headers, not a
                       toolkit (what happens when no toolkit is found)
  -p DIR               take FILE.cu's include paths, macros and -std from
                       DIR/compile_commands.json (as clang-tidy -p); without
                       FILE.cu (check commands): every .cu of the database,
                       --jobs files at a time, one report
  --checks=LIST        the checks to report, clang-tidy style globs:
                       -*,bank-conflict (only it), -divergent-branch
  -h, --help           this text; kcheck help COMMAND (or COMMAND --help):
                       a command's options and examples

A finding the code accepts: // kcheck-ignore(CHECK-ID): reason, on its line
or alone on the line before it.

exit codes: 0 clean, 1 findings, 2 usage, 3 input could not be analysed

example:
  kcheck bank-conflicts reduce_v1.cu
  kcheck check --verify kernels/slides_coalescing.cu
  kcheck predict reduce.cu --format json --kernel reduce_v8 --grid 1056
)";
}

ParseResult parseOptions(const std::vector<std::string> &argv) {
  ParseResult r;
  Options &o = r.options;
  if (argv.empty()) {
    r.error = "no command given";
    return r;
  }
  const std::string &cmd = argv[0];
  // `list-checks --help`, `explain -h`: commands that take no options.
  if ((cmd == "list-checks" || cmd == "explain") &&
      std::any_of(argv.begin() + 1, argv.end(), [](const std::string &a) {
        return a == "-h" || a == "--help";
      })) {
    o.command = Command::Help;
    o.helpTopic = cmd;
    return r;
  }
  if (cmd == "bank-conflicts")
    o.command = Command::BankConflicts;
  else if (cmd == "coalescing")
    o.command = Command::Coalescing;
  else if (cmd == "divergence")
    o.command = Command::Divergence;
  else if (cmd == "check")
    o.command = Command::Check;
  else if (cmd == "predict")
    o.command = Command::Predict;
  else if (cmd == "compare")
    o.command = Command::Compare;
  else if (cmd == "validate")
    o.command = Command::Validate;
  else if (cmd == "run")
    o.command = Command::Run;
  else if (cmd == "memcheck")
    o.command = Command::Memcheck;
  else if (cmd == "initcheck")
    o.command = Command::Initcheck;
  else if (cmd == "racecheck")
    o.command = Command::Racecheck;
  else if (cmd == "synccheck")
    o.command = Command::Synccheck;
  else if (cmd == "sanitize")
    o.command = Command::Sanitize;
  else if (cmd == "list-checks") {
    // `--format json`: the registry as data (id, severity, page, kernel).
    o.command = Command::ListChecks;
    if (argv.size() == 3 && argv[1] == "--format" && argv[2] == "json")
      o.format = OutputFormat::Json;
    else if (argv.size() != 1)
      r.error = "list-checks takes no argument but --format json";
    return r;
  } else if (cmd == "explain") {
    o.command = Command::Explain;
    if (argv.size() != 2)
      r.error = "explain needs one check id (kcheck list-checks lists them)";
    else
      o.file = argv[1];
    return r;
  } else if (cmd == "-h" || cmd == "--help" || cmd == "help") {
    o.command = Command::Help;
    if (cmd == "help" && argv.size() > 2)
      r.error = "help takes one command (kcheck help COMMAND)";
    else if (cmd == "help" && argv.size() == 2)
      o.helpTopic = argv[1];
    return r;
  } else if (cmd == "--version") {
    o.command = Command::Version;
    return r;
  } else {
    r.error = "unknown command '" + cmd + "'";
    return r;
  }

  auto needValue = [&](size_t &i,
                       const std::string &name) -> const std::string * {
    if (i + 1 >= argv.size()) {
      r.error = "option " + name + " needs a value";
      return nullptr;
    }
    return &argv[++i];
  };

  for (size_t i = 1; i < argv.size(); ++i) {
    std::string a = argv[i];
    // Accept --opt=value as well as --opt value.
    std::string inlineValue;
    bool hasInline = false;
    if (a.rfind("--", 0) == 0 && a.find('=') != std::string::npos &&
        a != "--") {
      inlineValue = a.substr(a.find('=') + 1);
      a = a.substr(0, a.find('='));
      hasInline = true;
    }
    auto value = [&]() -> const std::string * {
      return hasInline ? &inlineValue : needValue(i, a);
    };
    if (a == "--") {
      (o.command == Command::Run ? o.programArgs : o.clangArgs)
          .assign(argv.begin() + long(i) + 1, argv.end());
      break;
    } else if (a == "-h" || a == "--help") {
      o.command = Command::Help;
      o.helpTopic = cmd;
      return r;
    } else if (a == "--arch") {
      const std::string *v = value();
      if (!v)
        return r;
      if (!core::findArch(*v)) {
        r.error = "unknown architecture '" + *v + "' (known:";
        for (const std::string &n : core::knownArchNames())
          r.error += " " + n;
        r.error += ")";
        return r;
      }
      o.arch = *v;
      o.archGiven = true;
    } else if (a == "--format") {
      const std::string *v = value();
      if (!v)
        return r;
      if (*v == "text")
        o.format = OutputFormat::Text;
      else if (*v == "json")
        o.format = OutputFormat::Json;
      else if (*v == "markdown" && (o.command == Command::Compare ||
                                    o.command == Command::Validate))
        o.format = OutputFormat::Markdown;
      else if (*v == "sarif" && reportsFindings(o.command))
        o.format = OutputFormat::Sarif;
      else if (*v == "html" && reportsFindings(o.command))
        o.format = OutputFormat::Html;
      else {
        r.error =
            "unknown format '" + *v + "' (text, json" +
            (o.command == Command::Compare || o.command == Command::Validate
                 ? ", markdown)"
             : reportsFindings(o.command) ? ", sarif, html)"
                                          : ")");
        return r;
      }
    } else if (a == "--verify") {
      o.verify = true;
    } else if (a == "--remarks") {
      o.remarks = true;
    } else if (a == "--bank-mode") {
      const std::string *v = value();
      if (!v)
        return r;
      if (*v != "4" && *v != "8") {
        r.error = "bad value '" + *v + "' for --bank-mode (4, 8)";
        return r;
      }
      o.bankModeBytes = unsigned(std::stoul(*v));
    } else if (a == "--l1-cache") {
      const std::string *v = value();
      if (!v)
        return r;
      if (*v != "on" && *v != "off") {
        r.error = "bad value '" + *v + "' for --l1-cache (on, off)";
        return r;
      }
      o.l1Cache = *v == "on";
    } else if (a == "--kernel") {
      const std::string *v = value();
      if (!v)
        return r;
      o.kernel = *v;
    } else if (a == "--grid" || a == "--block") {
      const std::string *v = value();
      if (!v)
        return r;
      auto d = parseDim3(*v);
      if (!d) {
        r.error = "bad value '" + *v + "' for " + a + " (want X[,Y[,Z]])";
        return r;
      }
      (a == "--grid" ? o.grid : o.block) = *d;
    } else if (a == "--shmem") {
      const std::string *v = value();
      uint64_t n;
      if (!v)
        return r;
      if (!parseUnsigned(*v, n)) {
        r.error = "bad value '" + *v + "' for --shmem";
        return r;
      }
      o.sharedBytes = n;
    } else if (a == "--per-line" && o.command == Command::Validate) {
      o.perLine = true;
    } else if (a == "--keep" && o.command == Command::Validate) {
      const std::string *v = value();
      if (!v)
        return r;
      o.keepDir = *v;
    } else if (a == "--exhaustive") {
      o.exhaustive = true;
    } else if (a == "-fix" || a == "--fix") {
      o.applyFixes = true;
    } else if (a == "--diff") {
      o.printDiff = true;
    } else if (a == "--no-fixes") {
      o.searchFixes = false;
    } else if (a == "--parseable-fixits") {
      o.parseableFixIts = true;
    } else if (a == "--no-sanitizers" && o.command == Command::Check) {
      o.noSanitizers = true;
    } else if (a == "--quiet" || a == "-q") {
      o.quiet = true;
    } else if (a == "--jobs" || a == "-j") {
      const std::string *v = value();
      uint64_t n;
      if (!v)
        return r;
      if (!parseUnsigned(*v, n) || n == 0 || n > 256) {
        r.error = "bad value '" + *v + "' for --jobs (1 to 256)";
        return r;
      }
      o.jobs = unsigned(n);
    } else if (a == "--step-budget") {
      const std::string *v = value();
      if (!v)
        return r;
      if (!parseUnsigned(*v, o.stepBudget) || o.stepBudget == 0) {
        r.error = "bad value '" + *v + "' for --step-budget";
        return r;
      }
      o.zeroFillStepBudget = o.stepBudget;
    } else if (a == "--max-launch-steps" || a == "--max-launches" ||
               a == "--max-memory" || a == "--max-source") {
      const std::string *v = value();
      uint64_t n;
      if (!v)
        return r;
      if (!parseUnsigned(*v, n) || n == 0 ||
          (a == "--max-memory" && n > (1ull << 40))) {
        r.error = "bad value '" + *v + "' for " + a + " (a number > 0)";
        return r;
      }
      if (a == "--max-launch-steps")
        o.maxLaunchSteps = n;
      else if (a == "--max-launches")
        o.maxLaunches = n;
      else if (a == "--max-source")
        o.maxSourceBytes = n << 20; // MB
      else
        o.maxMemoryBytes = n << 20; // MB
    } else if (a == "--run-host" && o.command != Command::Run &&
               o.command != Command::Compare &&
               o.command != Command::Validate) {
      o.runHost = true;
    } else if (a == "--program-args") {
      const std::string *v = value();
      if (!v)
        return r;
      // Split at blanks, as a shell would split an unquoted list.
      std::istringstream words(*v);
      for (std::string w; words >> w;)
        o.programArgs.push_back(w);
    } else if (a == "--cuda-path") {
      const std::string *v = value();
      if (!v)
        return r;
      o.cudaPath = *v;
    } else if (a == "--bundled-headers") {
      o.bundledHeaders = true;
    } else if (a == "--host-budget") {
      const std::string *v = value();
      if (!v)
        return r;
      char *end = nullptr;
      o.hostBudgetSeconds = std::strtod(v->c_str(), &end);
      if (v->empty() || *end || !(o.hostBudgetSeconds > 0)) {
        r.error = "bad value '" + *v + "' for --host-budget (seconds > 0)";
        return r;
      }
    } else if (a == "--arg") {
      const std::string *v = value();
      if (!v)
        return r;
      size_t eq = v->find('=');
      if (eq == std::string::npos || eq == 0) {
        r.error = "bad value '" + *v + "' for --arg (want NAME=VALUE)";
        return r;
      }
      o.args.emplace_back(v->substr(0, eq), v->substr(eq + 1));
    } else if ((a == "-p" || a.rfind("-p=", 0) == 0) &&
               o.command != Command::Compare) {
      // clang-tidy's spellings: -p DIR, -p=DIR (DIR or its
      // compile_commands.json).
      const std::string *v = a == "-p" ? needValue(i, a) : nullptr;
      if (a == "-p" && !v)
        return r;
      o.compileDatabase = v ? *v : a.substr(3);
      if (o.compileDatabase.empty()) {
        r.error = "option -p needs a directory";
        return r;
      }
    } else if (a == "--checks") {
      const std::string *v = value();
      if (!v)
        return r;
      o.disabledChecks =
          checks::disabledChecks(*v, checks::checkIds(), r.error);
      if (!r.error.empty())
        return r;
    } else if (!a.empty() && a[0] == '-') {
      r.error = "unknown option '" + a + "'";
      return r;
    } else if (o.command == Command::Compare) {
      o.compareFiles.push_back(a);
    } else if (o.file.empty()) {
      o.file = a;
    } else {
      r.error = "more than one input file ('" + o.file + "', '" + a + "')";
      return r;
    }
  }
  if (o.command == Command::Compare) {
    if (o.compareFiles.empty() || o.compareFiles.size() % 2 != 0)
      r.error = "compare needs pairs of files: PRED.json MEAS.json [...]";
  } else if (o.file.empty() && !o.compileDatabase.empty() &&
             runsChecks(o.command)) {
    // -p DIR alone: every CUDA source of the database (cli/ProjectCommand).
    r.error = o.format == OutputFormat::Html
                  ? "--format html reports one file: give FILE.cu with -p"
                  : modeErrorFor(o);
  } else if (o.file.empty()) {
    r.error = "no input file";
  } else {
    r.error = modeErrorFor(o);
  }
  // The engine's shadow state for the checks this command runs; compute-
  // sanitizer's own tools stop a kernel at a small global overrun, as it
  // does, where the other commands count it and go on, as the GPU does.
  o.sanitizers = checks::shadowFor(checks::checksRunBy(o));
  o.stopAtGlobalOverrun =
      o.sanitizers.memcheck &&
      (o.command == Command::Memcheck || o.command == Command::Sanitize);
  return r;
}

} // namespace kcheck::cli
