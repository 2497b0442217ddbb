#include "cli/Commands.h"

#include "checks/Registry.h"
#include "driver/Fixes.h"
#include "driver/LaunchFaults.h"
#include "driver/Session.h"
#include "driver/Suppressions.h"
#include "driver/Verify.h"
#include "emit/Emitter.h"
#include "emit/TextEmitter.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace kcheck::cli {

using driver::analyzeFile;
using driver::applyFixes;
using driver::applySuppressions;
using driver::FixSearch;
using driver::parseExpectations;
using driver::parseSuppressions;
using driver::searchesFixes;
using driver::searchFixes;
using driver::sessionFromHostRun;
using driver::suppressedSummary;
using driver::SuppressionOutcome;
using driver::verify;

namespace {

void printNotes(const Session &s, std::ostream &err) {
  // Compiling against the toolkit is the norm (JSON's "cuda_headers" says
  // which); falling back to the bundled headers is worth a line.
  const core::CudaHeaders &headers = s.report.cudaHeaders;
  if (!headers.toolkit && !headers.bundledAsked)
    err << "kcheck: note: device code compiled against kcheck's bundled CUDA "
           "headers: "
        << headers.whyBundled << '\n';
  for (const std::string &n : s.report.notes)
    err << "kcheck: note: " << n << '\n';
  for (const core::LaunchReport &l : s.report.launches)
    for (const std::string &n : l.notes)
      err << "kcheck: note: launch #" << l.index << " " << l.kernel << ": " << n
          << '\n';
}

bool anyFinding(const std::vector<core::Diagnostic> &diags) {
  return std::any_of(diags.begin(), diags.end(), [](const auto &d) {
    return d.severity == core::Severity::Warning ||
           d.severity == core::Severity::Error;
  });
}

} // namespace

std::vector<core::Diagnostic>
reportedDiagnostics(const Options &o, const std::string &source,
                    std::vector<core::Diagnostic> diags, size_t &suppressed) {
  std::erase_if(diags, [&](const core::Diagnostic &d) {
    return std::count(o.disabledChecks.begin(), o.disabledChecks.end(),
                      d.checkId);
  });
  SuppressionOutcome kept = applySuppressions(
      parseSuppressions(source, o.file, checks::checkIds()), std::move(diags),
      o.file, checks::findingIds(checks::checksRunBy(o)));
  suppressed = kept.suppressed;
  return std::move(kept.diagnostics);
}

int checkInputLimits(const Options &o, std::ostream &err) {
  std::error_code ec;
  uintmax_t bytes = std::filesystem::file_size(o.file, ec);
  if (ec || bytes <= o.maxSourceBytes)
    return kExitClean; // an unreadable file is reported where it is read
  err << "kcheck: error: '" << o.file << "' is " << (bytes >> 20)
      << " MB, past --max-source " << (o.maxSourceBytes >> 20)
      << " MB: kcheck declines to compile it (raise --max-source to try)\n";
  return kExitCannotAnalyse;
}

void printCompileFailure(const std::string &clangDiagnostics,
                         const std::vector<std::string> &errors,
                         const std::string &file, std::ostream &err) {
  err << clangDiagnostics;
  for (const std::string &e : errors)
    err << "kcheck: error: " << e << '\n';
  if (clangDiagnostics.empty() && errors.empty())
    err << "kcheck: error: '" << file << "' could not be compiled\n";
}

std::optional<Session> openSession(const Options &o, std::string &source,
                                   std::ostream &err) {
  std::optional<std::string> text = readTextFile(o.file);
  if (!text) {
    err << "kcheck: error: cannot read '" << o.file << "'\n";
    return std::nullopt;
  }
  source = std::move(*text);
  Session s = o.runHost ? sessionFromHostRun(o, err) : analyzeFile(o);
  if (!s.compiled) {
    printCompileFailure(s.clangDiagnostics, s.errors, o.file, err);
    return std::nullopt;
  }
  printNotes(s, err);
  return s;
}

int runCommand(const Options &o, std::ostream &out, std::ostream &err) {
  std::string source;
  std::optional<Session> opened = openSession(o, source, err);
  if (!opened)
    return kExitCannotAnalyse;
  Session &s = *opened;
  bool anySimulated = false;
  for (size_t li = 0; li < s.launches.size(); ++li)
    anySimulated |= s.report.launches[li].simulated ||
                    driver::faultReportedBy(s.launches[li].result);
  if (!anySimulated && s.errors.empty() && !s.makesNoLaunch)
    s.errors.push_back("no launch could be simulated (see the notes above)");

  std::vector<const checks::Check *> run = checks::checksRunBy(o);
  size_t suppressed = 0;
  std::vector<core::Diagnostic> diags = reportedDiagnostics(
      o, source, checks::findingsOf(run, s, o.remarks && !o.verify),
      suppressed);

  if (o.verify) {
    for (const std::string &e : s.errors)
      err << "kcheck: error: " << e << '\n';
    std::vector<std::string> problems =
        verify(parseExpectations(source), diags, o.file);
    for (const std::string &p : problems)
      err << p << '\n';
    if (!s.errors.empty())
      return kExitCannotAnalyse;
    return problems.empty() ? kExitClean : kExitFindings;
  }

  FixSearch fixes; // verified fix suggestions, noted on their findings
  if (searchesFixes(o) && s.errors.empty())
    fixes = searchFixes(o, s, source, diags);

  std::unique_ptr<emit::Emitter> emitter = emit::emitterFor(o.format);
  emitter->emit({o, s, diags, source, run, searchesFixes(o) ? &fixes : nullptr,
                 suppressed},
                out);
  // predict's output carries counters only; the program's own memory
  // errors go to stderr, with the notes.
  if (o.command == Command::Predict)
    emit::emitText(err, diags, isatty(STDERR_FILENO));
  // A document holds only itself: the note goes to stderr.
  if (suppressed && emitter->isDocument())
    err << "kcheck: note: " << suppressedSummary(suppressed) << '\n';
  if ((o.applyFixes || o.printDiff) && s.errors.empty() &&
      !applyFixes(o, s, source, fixes, out, err))
    return kExitCannotAnalyse;
  for (const std::string &e : s.errors)
    err << "kcheck: error: " << e << '\n';
  if (!s.errors.empty())
    return kExitCannotAnalyse;
  return anyFinding(diags) ? kExitFindings : kExitClean;
}

std::optional<std::string> readTextFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

} // namespace kcheck::cli
