#include "cli/Commands.h"

#include "cli/BankConflicts.h"
#include "cli/Session.h"
#include "cli/TextEmitter.h"
#include "cli/Verify.h"

#include <fmt/format.h>

#include <fstream>
#include <sstream>
#include <unistd.h>

namespace kcheck::cli {

namespace {

bool readFile(const std::string &path, std::string &text) {
  std::ifstream in(path);
  if (!in)
    return false;
  std::stringstream ss;
  ss << in.rdbuf();
  text = ss.str();
  return true;
}

void printNotes(const Session &s, std::ostream &err) {
  for (const std::string &n : s.report.notes)
    err << "kcheck: note: " << n << '\n';
  for (const core::LaunchReport &l : s.report.launches)
    for (const std::string &n : l.notes)
      err << "kcheck: note: launch #" << l.index << " " << l.kernel << ": " << n
          << '\n';
}

std::string predictText(const Session &s) {
  std::string out;
  for (const core::LaunchReport &l : s.report.launches) {
    out += fmt::format("launch #{} {}{}\n", l.index, describeLaunch(l),
                       l.simulated ? "" : ": not simulated");
    if (!l.simulated)
      continue;
    for (unsigned m = 0; m < core::kMetricCount; ++m)
      out += fmt::format("  {:<66} {:>14}\n", core::metricName(core::Metric(m)),
                         l.metrics.v[m]);
  }
  return out;
}

} // namespace

int runCommand(const Options &o, std::ostream &out, std::ostream &err) {
  std::string source;
  if (!readFile(o.file, source)) {
    err << "kcheck: error: cannot read '" << o.file << "'\n";
    return kExitCannotAnalyse;
  }
  Session s = analyzeFile(o);
  if (!s.compiled) {
    err << s.clangDiagnostics;
    for (const std::string &e : s.errors)
      err << "kcheck: error: " << e << '\n';
    if (s.clangDiagnostics.empty() && s.errors.empty())
      err << "kcheck: error: '" << o.file << "' could not be compiled\n";
    return kExitCannotAnalyse;
  }
  printNotes(s, err);
  bool anySimulated = false;
  for (const core::LaunchReport &l : s.report.launches)
    anySimulated |= l.simulated;
  if (!anySimulated && s.errors.empty())
    s.errors.push_back("no launch could be simulated (see the notes above)");

  std::vector<core::Diagnostic> diags;
  if (o.command == Command::BankConflicts)
    diags = bankConflictDiagnostics(s);

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

  if (o.format == OutputFormat::Json) {
    out << core::toJson(s.report);
  } else if (o.command == Command::BankConflicts) {
    emitText(out, diags, isatty(STDOUT_FILENO));
    out << bankConflictSummary(s);
  } else {
    out << predictText(s);
  }
  for (const std::string &e : s.errors)
    err << "kcheck: error: " << e << '\n';
  if (!s.errors.empty())
    return kExitCannotAnalyse;
  return diags.empty() ? kExitClean : kExitFindings;
}

} // namespace kcheck::cli
