#include "driver/Verify.h"
#include "core/SourcePath.h"

#include <regex>
#include <sstream>

namespace kcheck::driver {

namespace {

bool severityFromWord(const std::string &w, core::Severity &s) {
  if (w == "warning")
    s = core::Severity::Warning;
  else if (w == "error")
    s = core::Severity::Error;
  else if (w == "note")
    s = core::Severity::Note;
  else if (w == "remark")
    s = core::Severity::Remark;
  else
    return false;
  return true;
}

// `file` as the diagnostics carry it and `main` as the user named it may
// differ in directory; the base name decides.
} // namespace

ExpectationSet parseExpectations(const std::string &sourceText) {
  ExpectationSet set;
  // expected-<sev>[@<loc>][ <count>] {{text}} ... possibly several {{}} per
  // directive is not supported; one directive per {{}}.
  static const std::regex directive(
      R"(expected-(warning|error|note|remark)(@([+-]?[0-9]+))?(\s+([0-9]+))?\s*\{\{(.*?)\}\})");
  std::istringstream in(sourceText);
  std::string line;
  unsigned lineNo = 0;
  while (std::getline(in, line)) {
    ++lineNo;
    if (line.find("expected-no-diagnostics") != std::string::npos)
      set.noDiagnostics = true;
    for (auto it = std::sregex_iterator(line.begin(), line.end(), directive);
         it != std::sregex_iterator(); ++it) {
      const std::smatch &m = *it;
      Expectation e;
      severityFromWord(m[1].str(), e.severity);
      e.written = lineNo;
      e.line = lineNo;
      if (m[3].matched) {
        std::string off = m[3].str();
        long v = std::stol(off);
        if (off[0] == '+' || off[0] == '-')
          e.line = unsigned(long(lineNo) + v);
        else
          e.line = unsigned(v);
      }
      if (m[5].matched)
        e.count = unsigned(std::stoul(m[5].str()));
      e.text = m[6].str();
      set.expected.push_back(e);
    }
    if (line.find("expected-") != std::string::npos &&
        line.find("{{") == std::string::npos &&
        line.find("expected-no-diagnostics") == std::string::npos &&
        line.find("// expected-") != std::string::npos)
      set.parseErrors.push_back("line " + std::to_string(lineNo) +
                                ": expectation without {{text}}");
  }
  return set;
}

std::vector<std::string> verify(const ExpectationSet &expectations,
                                const std::vector<core::Diagnostic> &emitted,
                                const std::string &mainFile) {
  bool checkNotes = false;
  for (const Expectation &e : expectations.expected)
    checkNotes |= e.severity == core::Severity::Note;

  // Flatten what was emitted into the diagnostics that take part.
  struct Seen {
    const core::Diagnostic *d;
    bool used = false;
  };
  std::vector<Seen> seen;
  for (const core::Diagnostic &d : emitted) {
    if (d.severity == core::Severity::Warning ||
        d.severity == core::Severity::Error)
      seen.push_back({&d});
    if (checkNotes)
      for (const core::Diagnostic &n : d.notes)
        seen.push_back({&n});
  }

  std::vector<std::string> problems = expectations.parseErrors;
  for (const Expectation &e : expectations.expected) {
    unsigned found = 0;
    for (Seen &s : seen) {
      if (found == e.count)
        break;
      if (s.used || s.d->severity != e.severity || s.d->loc.line != e.line ||
          !core::sameSourceFile(s.d->loc.file, mainFile) ||
          s.d->message.find(e.text) == std::string::npos)
        continue;
      s.used = true;
      ++found;
    }
    if (found < e.count)
      problems.push_back("error: 'expected-" +
                         std::string(core::severityName(e.severity)) +
                         "' diagnostics expected but not seen: line " +
                         std::to_string(e.line) + ": " + e.text);
  }
  for (const Seen &s : seen)
    if (!s.used)
      problems.push_back("error: '" +
                         std::string(core::severityName(s.d->severity)) +
                         "' diagnostics seen but not expected: line " +
                         std::to_string(s.d->loc.line) + ": " + s.d->message);
  if (expectations.noDiagnostics && !expectations.expected.empty())
    problems.push_back("error: 'expected-no-diagnostics' directive cannot "
                       "follow other expected directives");
  if (!expectations.noDiagnostics && expectations.expected.empty() &&
      expectations.parseErrors.empty())
    problems.push_back("error: no expected directives found: consider use "
                       "of 'expected-no-diagnostics'");
  return problems;
}

} // namespace kcheck::driver
