// `kcheck run FILE.cu [-- program args]`: runs the program's own host code
// against a simulated GPU (host/HostRunner.h), so every launch has the grid,
// block, sizes and data the program really computes, then reports each
// launch as `predict` does (counters; --format json: the same schema) and
// the findings of `check`.
#include "checks/Registry.h"
#include "cli/Commands.h"
#include "core/Json.h"
#include "driver/HostRun.h"
#include "driver/Suppressions.h"
#include "emit/Emitter.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <unistd.h>

namespace kcheck::cli {

int runHostProgram(const Options &o, std::ostream &out, std::ostream &err) {
  if (!std::ifstream(o.file)) {
    err << "kcheck: error: cannot read '" << o.file << "'\n";
    return kExitCannotAnalyse;
  }
  core::ArchSpec arch = *core::findArch(o.arch);
  arch.options = modelOptionsFor(o, arch);

  driver::Progress progress(!o.quiet);
  host::RunOptions ro = driver::hostRunOptions(o, arch, progress);
  core::CudaHeaders headers;
  std::vector<std::string> headerErrors;
  if (!chooseCudaHeaders(o, arch, ro.toolkit, headers, headerErrors)) {
    for (const std::string &e : headerErrors)
      err << "kcheck: error: " << e << '\n';
    return kExitCannotAnalyse;
  }
  // A document on stdout (JSON, SARIF, HTML) keeps stdout to itself.
  ro.programStdoutToStderr = emit::emitterFor(o.format)->isDocument();
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

  Session s = driver::sessionOfHostRun(o, run, arch, headers);
  std::vector<std::string> errors = driver::hostRunErrors(run, s);
  for (const std::string &n : s.report.notes)
    err << "kcheck: note: " << n << '\n';
  for (const core::LaunchReport &l : s.report.launches)
    for (const std::string &n : l.notes)
      err << "kcheck: note: launch #" << l.index << " " << l.kernel << ": " << n
          << '\n';
  err << fmt::format("kcheck: note: {}: exit status {}; {}, compile "
                     "{:.2f} s\n",
                     o.file,
                     run.exitStatus ? std::to_string(*run.exitStatus)
                                    : std::string("none (stopped)"),
                     host::launchesSummary(run), run.compileSeconds);

  // --checks and // kcheck-ignore(ID): reason, as for the other commands.
  std::string source = readTextFile(o.file).value_or("");
  size_t suppressed = 0;
  std::vector<core::Diagnostic> diags = reportedDiagnostics(
      o, source, checks::findingsOf(checks::checksRunBy(o), s, o.remarks),
      suppressed);
  std::vector<const checks::Check *> ran = checks::checksRunBy(o);
  std::unique_ptr<emit::Emitter> emitter = emit::emitterFor(o.format);
  emitter->emit({o, s, diags, source, ran, nullptr, suppressed}, out);
  if (suppressed && emitter->isDocument()) // a document holds only itself
    err << "kcheck: note: " << driver::suppressedSummary(suppressed) << '\n';
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
