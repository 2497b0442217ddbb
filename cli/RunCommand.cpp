// `kcheck run FILE.cu [-- program args]`: runs the program's own host code
// against a simulated GPU (host/HostRunner.h), so every launch has the grid,
// block, sizes and data the program really computes, then reports each
// launch as `predict` does (counters; --format json: the same schema) and
// the findings of `check`.
#include "cli/BankConflicts.h"
#include "cli/Coalescing.h"
#include "cli/Commands.h"
#include "cli/Divergence.h"
#include "cli/JsonEmitter.h"
#include "cli/Progress.h"
#include "cli/Sanitize.h"
#include "cli/Session.h"
#include "cli/Suppressions.h"
#include "cli/TextEmitter.h"
#include "core/Json.h"
#include "host/HostRunner.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <thread>
#include <tuple>
#include <unistd.h>

namespace kcheck::cli {

namespace {

/// The run's launches as a Session, so the checks and emitters of the other
/// commands apply unchanged.
Session sessionOf(const Options &o, host::RunResult &run,
                  const core::ArchSpec &arch,
                  const core::CudaHeaders &headers) {
  Session s;
  s.compiled = true;
  s.mainFile = o.file;
  s.arch = arch;
  s.report.arch = o.arch;
  s.report.file = o.file;
  s.subscripts = run.device.subscripts;
  s.report.notes = run.notes;
  s.report.cudaHeaders = headers;
  std::map<const llvm::Function *,
           std::shared_ptr<const std::vector<analyzer::StaticBranch>>>
      branches;
  for (host::RunLaunch &l : run.launches) {
    core::LaunchReport lr;
    lr.index = l.index;
    lr.kernel = l.kernelName;
    lr.signature = l.signature;
    lr.config = l.config;
    SimulatedLaunch sl;
    sl.kernel = l.kernel;
    auto &b = branches[l.function];
    if (!b)
      b = std::make_shared<std::vector<analyzer::StaticBranch>>(
          analyzer::analyzeBranches(*l.function));
    sl.branches = b;
    sl.result = std::move(l.result);
    lr.simulated = sl.result.error.empty();
    lr.notes = sl.result.notes;
    // Every block runs (results must be computed): say where time goes.
    if (l.seconds >= 1)
      lr.notes.push_back(fmt::format("{} blocks simulated in {:.1f} s",
                                     sl.result.blocksSimulated, l.seconds));
    if (!lr.simulated) {
      lr.notes.push_back(sl.result.error);
    } else {
      lr.metrics = sl.result.total;
      lr.lines = sim::rollUpLines(*sl.kernel, sl.result, o.file,
                                  sim::LineView::NsightCompute);
      lr.innermostLines = sim::rollUpLines(*sl.kernel, sl.result, o.file,
                                           sim::LineView::Innermost);
      lr.simt = sim::simtCounts(sl.result);
      if (std::optional<uint64_t> sass =
              predictSassDivergentTargets(sl, o.file)) {
        lr.metrics[core::Metric::BranchTargetsDivergent] = *sass;
        lr.alsoPredicted.push_back(core::Metric::BranchTargetsDivergent);
      }
    }
    s.report.launches.push_back(std::move(lr));
    s.launches.push_back(std::move(sl));
  }
  return s;
}

/// Every check's findings, in source order (as `check`).
std::vector<core::Diagnostic> allDiagnostics(const Options &o,
                                             const Session &s) {
  std::vector<core::Diagnostic> diags = bankConflictDiagnostics(s);
  for (auto more : {coalescingDiagnostics(s, o.remarks),
                    divergenceDiagnostics(s, o.remarks)})
    diags.insert(diags.end(), std::make_move_iterator(more.begin()),
                 std::make_move_iterator(more.end()));
  std::stable_sort(diags.begin(), diags.end(),
                   [](const core::Diagnostic &a, const core::Diagnostic &b) {
                     return std::tie(a.loc.file, a.loc.line, a.loc.col) <
                            std::tie(b.loc.file, b.loc.line, b.loc.col);
                   });
  return diags;
}

} // namespace

namespace {

/// The run of FILE.cu's host code that `run` and `--run-host` both make:
/// the options' architecture, budgets and jobs, progress on stderr.
host::RunOptions runOptionsFor(const Options &o, const core::ArchSpec &arch,
                               Progress &progress) {
  host::RunOptions ro;
  ro.file = o.file;
  ro.programArgs = o.programArgs;
  ro.clangArgs = o.clangArgs; // -p's flags, --run-host's `-- clang args`
  ro.arch = arch;
  ro.hostBudgetSeconds = o.hostBudgetSeconds;
  ro.stepBudget = o.stepBudget;
  ro.zeroFillStepBudget = o.zeroFillStepBudget;
  ro.maxLaunchSteps = o.maxLaunchSteps;
  ro.maxMemoryBytes = o.maxMemoryBytes;
  ro.maxLaunches = o.maxLaunches;
  ro.jobs =
      o.jobs ? o.jobs : std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
  ro.beginLaunch = [&progress](const std::string &label) {
    progress.beginLaunch(label);
  };
  ro.progress = [&progress](uint64_t done, uint64_t total) {
    progress.update(done, total);
  };
  ro.endLaunch = [&progress] { progress.endLaunch(); };
  return ro;
}

} // namespace

Session sessionFromHostRun(const Options &o, std::ostream &err) {
  core::ArchSpec arch = *core::findArch(o.arch);
  arch.options = modelOptionsFor(o, arch);
  Progress progress(!o.quiet);
  host::RunOptions ro = runOptionsFor(o, arch, progress);
  core::CudaHeaders headers;
  std::vector<std::string> headerErrors;
  if (!chooseCudaHeaders(o, arch, ro.toolkit, headers, headerErrors)) {
    Session failed;
    failed.errors = headerErrors;
    return failed;
  }
  ro.programStdoutToStderr = true; // stdout is the report's
  ro.printfOut = &err;
  ro.sanitizer = sanitizerOptionsFor(o); // kcheck memcheck --run-host
  auto run = std::make_shared<host::RunResult>(host::runProgram(ro));
  std::fflush(stdout);
  if (!run->compiled) {
    Session failed;
    failed.clangDiagnostics = run->diagnostics;
    failed.errors = run->errors;
    return failed;
  }
  Session s = sessionOf(o, *run, arch, headers);
  // A launch that faulted under memcheck or synccheck is its finding (the
  // program's run stopped there, as its CUDA calls would fail on a GPU), not an
  // error.
  for (const std::string &e : run->errors)
    if (std::none_of(s.launches.begin(), s.launches.end(),
                     [&](const SimulatedLaunch &l) {
                       return faultReportedBy(l.result) &&
                              e.find(l.result.error) != std::string::npos;
                     }))
      s.errors.push_back(e);
  for (size_t i = 0; i < s.launches.size(); ++i)
    if (faultReportedBy(s.launches[i].result))
      s.report.launches[i].notes = {faultedLaunchNote(s.launches[i].result)};
  s.report.notes.push_back(fmt::format(
      "launches from running the host code (--run-host): exit status {}; {} "
      "launch{} simulated in {:.2f} s, host code {:.2f} s",
      run->exitStatus ? std::to_string(*run->exitStatus)
                      : std::string("none (stopped)"),
      run->launches.size(), run->launches.size() == 1 ? "" : "es",
      run->simulationSeconds, run->hostSeconds));
  // Host code ran to its end (returned, exited or aborted) without a
  // launch: the GPU would run nothing, which is not an input kcheck cannot
  // analyse.
  if (run->launches.empty() && run->exitStatus && s.errors.empty()) {
    s.report.notes.push_back("the program makes no kernel launch");
    s.makesNoLaunch = true;
  }
  s.keepAlive = run;
  return s;
}

int runHostProgram(const Options &o, std::ostream &out, std::ostream &err) {
  if (!std::ifstream(o.file)) {
    err << "kcheck: error: cannot read '" << o.file << "'\n";
    return kExitCannotAnalyse;
  }
  core::ArchSpec arch = *core::findArch(o.arch);
  arch.options = modelOptionsFor(o, arch);

  Progress progress(!o.quiet);
  host::RunOptions ro = runOptionsFor(o, arch, progress);
  core::CudaHeaders headers;
  std::vector<std::string> headerErrors;
  if (!chooseCudaHeaders(o, arch, ro.toolkit, headers, headerErrors)) {
    for (const std::string &e : headerErrors)
      err << "kcheck: error: " << e << '\n';
    return kExitCannotAnalyse;
  }
  ro.programStdoutToStderr = o.format == OutputFormat::Json;
  // std::cout writes through stdio's stdout, like host code's printf: the
  // two stay in order, and both follow the redirection.
  ro.printfOut = &out;
  // The program writes through stdio; keep kcheck's own output after it.
  out.flush();
  host::RunResult run = host::runProgram(ro);
  std::fflush(stdout);
  if (!run.compiled) {
    printCompileFailure(run.diagnostics, run.errors, o.file, err);
    return kExitCannotAnalyse;
  }

  Session s = sessionOf(o, run, arch, headers);
  std::vector<std::string> errors = run.errors;
  for (const std::string &n : s.report.notes)
    err << "kcheck: note: " << n << '\n';
  for (const core::LaunchReport &l : s.report.launches)
    for (const std::string &n : l.notes)
      err << "kcheck: note: launch #" << l.index << " " << l.kernel << ": " << n
          << '\n';
  err << fmt::format("kcheck: note: {}: exit status {}; {} launch{} "
                     "simulated in {:.2f} s, host code {:.2f} s, compile "
                     "{:.2f} s\n",
                     o.file,
                     run.exitStatus ? std::to_string(*run.exitStatus)
                                    : std::string("none (stopped)"),
                     run.launches.size(), run.launches.size() == 1 ? "" : "es",
                     run.simulationSeconds, run.hostSeconds,
                     run.compileSeconds);

  // --checks and // kcheck-ignore(ID): reason, as for the other commands.
  std::ifstream sourceFile(o.file);
  std::string source{std::istreambuf_iterator<char>(sourceFile), {}};
  size_t suppressed = 0;
  std::vector<core::Diagnostic> diags =
      reportedDiagnostics(o, source, allDiagnostics(o, s), suppressed);
  if (o.format == OutputFormat::Json) {
    out << core::toJson(s.report, [&diags](core::JsonWriter &w) {
      writeFindingsJson(w, diags);
    });
  } else {
    emitText(out, diags, isatty(STDOUT_FILENO));
    if (suppressed)
      out << suppressedSummary(suppressed) << '\n';
    for (size_t i = 0; i < s.report.launches.size(); ++i) {
      const core::LaunchReport &l = s.report.launches[i];
      out << "launch " << describeLaunchCall(s, i)
          << (l.simulated ? "" : ": not simulated") << '\n';
      if (l.simulated)
        out << countersText(l);
    }
  }
  for (const std::string &e : errors)
    err << "kcheck: error: " << e << '\n';
  if (!errors.empty())
    return kExitCannotAnalyse;
  return std::any_of(diags.begin(), diags.end(),
                     [](const core::Diagnostic &d) {
                       return d.severity == core::Severity::Warning ||
                              d.severity == core::Severity::Error;
                     })
             ? kExitFindings
             : kExitClean;
}

} // namespace kcheck::cli
