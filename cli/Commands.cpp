#include "cli/Commands.h"

#include "cli/BankConflicts.h"
#include "cli/Coalescing.h"
#include "cli/Divergence.h"
#include "cli/Session.h"
#include "cli/TextEmitter.h"
#include "cli/Verify.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <tuple>
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
      if (core::isPredicted(core::Metric(m)) ||
          std::count(l.alsoPredicted.begin(), l.alsoPredicted.end(),
                     core::Metric(m)))
        out += fmt::format("  {:<66} {:>14}\n",
                           core::metricName(core::Metric(m)), l.metrics.v[m]);
  }
  return out;
}

bool runsBankConflicts(Command c) {
  return c == Command::BankConflicts || c == Command::Check;
}
bool runsCoalescing(Command c) {
  return c == Command::Coalescing || c == Command::Check;
}
bool runsDivergence(Command c) {
  return c == Command::Divergence || c == Command::Check;
}

/// Every check the command runs, in source order (a stable sort keeps a
/// line's shared findings before its global ones).
std::vector<core::Diagnostic> diagnosticsOf(const Options &o,
                                            const Session &s) {
  std::vector<core::Diagnostic> diags;
  if (runsBankConflicts(o.command))
    diags = bankConflictDiagnostics(s);
  if (runsCoalescing(o.command)) {
    std::vector<core::Diagnostic> global =
        coalescingDiagnostics(s, o.remarks && !o.verify);
    diags.insert(diags.end(), std::make_move_iterator(global.begin()),
                 std::make_move_iterator(global.end()));
  }
  if (runsDivergence(o.command)) {
    std::vector<core::Diagnostic> branches =
        divergenceDiagnostics(s, o.remarks && !o.verify);
    diags.insert(diags.end(), std::make_move_iterator(branches.begin()),
                 std::make_move_iterator(branches.end()));
  }
  std::stable_sort(diags.begin(), diags.end(),
                   [](const core::Diagnostic &a, const core::Diagnostic &b) {
                     return std::tie(a.loc.file, a.loc.line, a.loc.col) <
                            std::tie(b.loc.file, b.loc.line, b.loc.col);
                   });
  return diags;
}

std::string summaryText(const Options &o, const Session &s) {
  std::string out;
  for (size_t li = 0; li < s.report.launches.size(); ++li) {
    const core::LaunchReport &l = s.report.launches[li];
    out += "launch " + describeLaunchCall(s, li);
    if (!l.simulated) {
      out += ": not simulated\n";
      continue;
    }
    out += "\n";
    if (runsBankConflicts(o.command))
      out += bankConflictSummaryRows(s, li);
    if (runsCoalescing(o.command))
      out += coalescingSummaryRows(s, li);
    if (runsDivergence(o.command))
      out += divergenceSummaryRows(s, li);
  }
  return out;
}

bool anyFinding(const std::vector<core::Diagnostic> &diags) {
  return std::any_of(diags.begin(), diags.end(), [](const auto &d) {
    return d.severity == core::Severity::Warning ||
           d.severity == core::Severity::Error;
  });
}

} // namespace

int runCommand(const Options &o, std::ostream &out, std::ostream &err) {
  std::string source;
  if (!readFile(o.file, source)) {
    err << "kcheck: error: cannot read '" << o.file << "'\n";
    return kExitCannotAnalyse;
  }
  Session s = o.runHost ? sessionFromHostRun(o, err) : analyzeFile(o);
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

  std::vector<core::Diagnostic> diags = diagnosticsOf(o, s);

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
  } else if (o.command != Command::Predict) {
    emitText(out, diags, isatty(STDOUT_FILENO));
    out << summaryText(o, s);
  } else {
    out << predictText(s);
  }
  for (const std::string &e : s.errors)
    err << "kcheck: error: " << e << '\n';
  if (!s.errors.empty())
    return kExitCannotAnalyse;
  return anyFinding(diags) ? kExitFindings : kExitClean;
}

} // namespace kcheck::cli
