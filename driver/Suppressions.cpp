#include "driver/Suppressions.h"
#include "core/SourcePath.h"

#include <algorithm>
#include <cctype>
#include <tuple>

namespace kcheck::driver {

namespace {

struct LineComment {
  unsigned line = 0;
  unsigned col = 0;        // 1-based column of the text after `//`
  bool aloneOnLine = true; // nothing but blanks before the `//`
  std::string text;        // after `//`, up to the end of the line
};

/// The `//` comments of C++ source, skipping string and character literals
/// and block comments (raw strings are rare in kernels and read as plain
/// strings: a `//` inside one could be misread, never a real comment lost).
std::vector<LineComment> lineComments(const std::string &src) {
  std::vector<LineComment> out;
  enum class State { Code, String, Char, Block } state = State::Code;
  unsigned line = 1;
  size_t lineStart = 0;
  bool onlyBlanks = true; // since lineStart, in code
  for (size_t i = 0; i < src.size(); ++i) {
    char c = src[i];
    char next = i + 1 < src.size() ? src[i + 1] : '\0';
    if (c == '\n') {
      ++line;
      lineStart = i + 1;
      onlyBlanks = true;
      if (state == State::String || state == State::Char)
        state = State::Code; // unterminated: the compiler will say so
      continue;
    }
    switch (state) {
    case State::Code:
      if (c == '/' && next == '/') {
        size_t end = src.find('\n', i);
        if (end == std::string::npos)
          end = src.size();
        out.push_back({line, unsigned(i + 2 - lineStart + 1), onlyBlanks,
                       src.substr(i + 2, end - i - 2)});
        i = end - 1; // the newline is handled above
        continue;
      }
      if (c == '/' && next == '*') {
        state = State::Block;
        ++i;
      } else if (c == '"') {
        state = State::String;
      } else if (c == '\'') {
        state = State::Char;
      }
      if (!std::isspace(static_cast<unsigned char>(c)))
        onlyBlanks = false;
      break;
    case State::String:
    case State::Char:
      if (c == '\\')
        ++i; // an escaped character (an escaped newline is rare: ignored)
      else if (c == (state == State::String ? '"' : '\''))
        state = State::Code;
      break;
    case State::Block:
      if (c == '*' && next == '/') {
        state = State::Code;
        ++i;
      }
      break;
    }
  }
  return out;
}

std::string trimmed(const std::string &s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos)
    return "";
  size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

bool isIdChar(char c) {
  return std::islower(static_cast<unsigned char>(c)) ||
         std::isdigit(static_cast<unsigned char>(c)) || c == '-';
}

constexpr std::string_view kKeyword = "kcheck-ignore";

/// Parses one directive starting at `text[at]` (the keyword). Returns the
/// problem's message, or "" with `s` filled.
std::string parseDirective(const std::string &text, size_t at,
                           const std::vector<std::string> &known,
                           Suppression &s) {
  const std::string usage =
      " (want // kcheck-ignore(check-id[,check-id...]): reason)";
  size_t p = text.find_first_not_of(" \t", at + kKeyword.size());
  if (p == std::string::npos || text[p] != '(')
    return "kcheck-ignore needs the ids of the checks it suppresses" + usage;
  size_t close = text.find(')', p);
  if (close == std::string::npos)
    return "kcheck-ignore( is not closed" + usage;
  std::string list = text.substr(p + 1, close - p - 1);
  size_t start = 0;
  while (true) {
    size_t comma = list.find(',', start);
    std::string id = trimmed(list.substr(start, comma - start));
    if (id.empty())
      return "kcheck-ignore has an empty check id" + usage;
    if (!std::all_of(id.begin(), id.end(), isIdChar))
      return "kcheck-ignore takes check ids, not '" + id +
             "': no globs, each check is named";
    if (std::find(known.begin(), known.end(), id) == known.end())
      return "unknown check '" + id +
             "' in kcheck-ignore (kcheck list-checks lists them)";
    s.checkIds.push_back(id);
    if (comma == std::string::npos)
      break;
    start = comma + 1;
  }
  size_t colon = text.find_first_not_of(" \t", close + 1);
  if (colon == std::string::npos || text[colon] != ':' ||
      trimmed(text.substr(colon + 1)).empty())
    return "kcheck-ignore needs a reason after ':'" + usage;
  s.reason = trimmed(text.substr(colon + 1));
  return "";
}

bool isFinding(const core::Diagnostic &d) {
  return d.severity == core::Severity::Warning ||
         d.severity == core::Severity::Error;
}

} // namespace

SuppressionSet
parseSuppressions(const std::string &sourceText, const std::string &file,
                  const std::vector<std::string> &knownCheckIds) {
  SuppressionSet set;
  for (const LineComment &c : lineComments(sourceText)) {
    size_t at = c.text.find(kKeyword);
    if (at == std::string::npos)
      continue;
    // Prose that mentions kcheck-ignore is no directive. A directive is the
    // keyword right before '(' anywhere (`kcheck-ignore (` in prose, e.g. an
    // expected message, is not), or starting the comment before '(' or ':'
    // (`// kcheck-ignore: reason` lacks its ids: a warning).
    size_t next = c.text.find_first_not_of(" \t", at + kKeyword.size());
    char after = next == std::string::npos ? '\0' : c.text[next];
    bool startsComment = trimmed(c.text).rfind(kKeyword, 0) == 0;
    if (c.text.compare(at + kKeyword.size(), 1, "(") != 0 &&
        !(startsComment && (after == '(' || after == ':')))
      continue;
    Suppression s;
    s.written = c.line;
    s.line = c.aloneOnLine ? c.line + 1 : c.line;
    s.col = c.col + unsigned(at);
    std::string problem = parseDirective(c.text, at, knownCheckIds, s);
    if (problem.empty()) {
      set.suppressions.push_back(std::move(s));
      continue;
    }
    core::Diagnostic d;
    d.severity = core::Severity::Warning;
    d.loc = {file, s.written, s.col};
    d.message = problem + "; it suppresses nothing";
    d.checkId = kSuppressionCheckId;
    set.problems.push_back(std::move(d));
  }
  return set;
}

SuppressionOutcome applySuppressions(
    const SuppressionSet &set, std::vector<core::Diagnostic> diagnostics,
    const std::string &mainFile, const std::vector<std::string> &checksRun) {
  SuppressionOutcome out;
  // used[i][j]: suppression i's j-th id matched a finding.
  std::vector<std::vector<bool>> used;
  for (const Suppression &s : set.suppressions)
    used.emplace_back(s.checkIds.size(), false);

  for (core::Diagnostic &d : diagnostics) {
    bool removed = false;
    if (!d.checkId.empty() && core::sameSourceFile(d.loc.file, mainFile))
      for (size_t i = 0; i < set.suppressions.size(); ++i) {
        const Suppression &s = set.suppressions[i];
        if (s.line != d.loc.line)
          continue;
        auto id = std::find(s.checkIds.begin(), s.checkIds.end(), d.checkId);
        if (id == s.checkIds.end())
          continue;
        removed = true;
        // Only findings use a suppression up: a remark on the line (with
        // --remarks) must not make an unused suppression look used.
        if (isFinding(d))
          used[i][size_t(id - s.checkIds.begin())] = true;
      }
    if (!removed)
      out.diagnostics.push_back(std::move(d));
    else if (isFinding(d))
      ++out.suppressed;
  }

  // The comments' diagnostics spell the main file as its findings do, so
  // that they sort among them.
  std::string spelling = mainFile;
  for (const core::Diagnostic &d : out.diagnostics)
    if (core::sameSourceFile(d.loc.file, mainFile)) {
      spelling = d.loc.file;
      break;
    }
  for (core::Diagnostic problem : set.problems) {
    problem.loc.file = spelling;
    out.diagnostics.push_back(std::move(problem));
  }
  for (size_t i = 0; i < set.suppressions.size(); ++i) {
    const Suppression &s = set.suppressions[i];
    for (size_t j = 0; j < s.checkIds.size(); ++j) {
      const std::string &id = s.checkIds[j];
      if (used[i][j] ||
          std::find(checksRun.begin(), checksRun.end(), id) == checksRun.end())
        continue;
      core::Diagnostic n;
      n.severity = core::Severity::Note;
      n.loc = {spelling, s.written, s.col};
      n.message = "unused suppression: no [" + id + "] finding on line " +
                  std::to_string(s.line);
      n.checkId = kSuppressionCheckId;
      out.diagnostics.push_back(std::move(n));
    }
  }
  std::stable_sort(out.diagnostics.begin(), out.diagnostics.end(),
                   [](const core::Diagnostic &a, const core::Diagnostic &b) {
                     return std::tie(a.loc.file, a.loc.line, a.loc.col) <
                            std::tie(b.loc.file, b.loc.line, b.loc.col);
                   });
  return out;
}

std::string suppressedSummary(size_t suppressed) {
  return std::to_string(suppressed) +
         (suppressed == 1 ? " finding" : " findings") +
         " suppressed by kcheck-ignore";
}

} // namespace kcheck::driver
