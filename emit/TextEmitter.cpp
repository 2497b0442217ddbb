#include "emit/TextEmitter.h"

#include <fmt/format.h>

#include <set>

namespace kcheck::emit {

namespace {

const char *colourOf(core::Severity s) {
  switch (s) {
  case core::Severity::Error:
    return "\033[1;31m";
  case core::Severity::Warning:
    return "\033[1;35m";
  case core::Severity::Note:
  case core::Severity::Remark:
    return "\033[1;36m";
  }
  return "";
}

void emitOne(std::ostream &os, const core::Diagnostic &d, bool colour) {
  if (d.loc.valid())
    os << d.loc.file << ':' << d.loc.line << ':' << d.loc.col << ": ";
  else
    os << "kcheck: ";
  if (colour)
    os << colourOf(d.severity);
  os << core::severityName(d.severity) << ':';
  if (colour)
    os << "\033[0m";
  os << ' ' << d.message;
  if (!d.checkId.empty())
    os << " [" << d.checkId << ']';
  os << '\n';
}

/// Clang's escaping of a fix-it's text (-fdiagnostics-parseable-fixits).
std::string escaped(const std::string &text) {
  std::string out;
  for (char ch : text) {
    if (ch == '\\' || ch == '"')
      out += '\\';
    if (ch == '\n') {
      out += "\\n";
      continue;
    }
    out += ch;
  }
  return out;
}

/// Line `line` (1-based) of `source`, without its newline.
std::string sourceLine(const std::string &source, unsigned line) {
  size_t begin = 0;
  for (unsigned l = 1; l < line && begin != std::string::npos; ++l) {
    begin = source.find('\n', begin);
    if (begin != std::string::npos)
      ++begin;
  }
  if (begin == std::string::npos || begin > source.size())
    return "";
  size_t end = source.find('\n', begin);
  return source.substr(begin, end == std::string::npos ? end : end - begin);
}

/// The first `columns - 1` characters of `line` as blanks, tabs kept, so
/// that what follows lines up under column `columns` however tabs expand.
std::string padTo(const std::string &line, unsigned columns) {
  std::string pad;
  for (size_t i = 0; i + 1 < columns; ++i)
    pad += i < line.size() && line[i] == '\t' ? '\t' : ' ';
  return pad;
}

/// One edit as Clang shows a fix-it hint:
///    68 |   __shared__ float tile[32][32];
///       |                             ^~
///       |                             33
void showUnderCaret(std::ostream &out, const std::string &source,
                    const analyzer::TextEdit &edit, bool colour) {
  driver::EditRange r = driver::editRange(source, edit);
  std::string text = sourceLine(source, r.beginLine);
  // A range past its first line is marked to the end of that line.
  unsigned endCol =
      r.endLine == r.beginLine ? r.endCol : unsigned(text.size()) + 1;
  std::string marks = "^";
  if (endCol > r.beginCol + 1)
    marks += std::string(endCol - r.beginCol - 1, '~');
  std::string replacement = edit.replacement;
  if (size_t nl = replacement.find('\n'); nl != std::string::npos)
    replacement = replacement.substr(0, nl) + " ...";
  const char *green = colour ? "\033[1;32m" : "";
  const char *plain = colour ? "\033[0m" : "";
  out << fmt::format("{:>5} | {}\n", r.beginLine, text);
  out << fmt::format("      | {}{}{}{}\n", padTo(text, r.beginCol), green,
                     marks, plain);
  out << fmt::format("      | {}{}{}{}\n", padTo(text, r.beginCol), green,
                     replacement, plain);
}

} // namespace

void emitText(std::ostream &os, const std::vector<core::Diagnostic> &diags,
              bool colour) {
  for (const core::Diagnostic &d : diags) {
    emitOne(os, d, colour);
    for (const core::Diagnostic &n : d.notes)
      emitOne(os, n, colour);
  }
}

void emitTextWithFixIts(std::ostream &out,
                        const std::vector<core::Diagnostic> &diags,
                        const driver::Session &s, const std::string &source,
                        const driver::FixSearch &search, bool colour,
                        FixItStyle style) {
  std::set<size_t> shown; // a fix shared by several findings: edits once
  for (size_t di = 0; di < diags.size(); ++di) {
    emitText(out, {diags[di]}, colour);
    for (const driver::OfferedFix &f : search.fixes) {
      if (f.diagnostic != di || !shown.insert(f.candidate).second)
        continue;
      for (const analyzer::TextEdit &e : s.fixCandidates[f.candidate].edits) {
        if (style == FixItStyle::UnderCaret) {
          showUnderCaret(out, source, e, colour);
          continue;
        }
        driver::EditRange r = driver::editRange(source, e);
        out << fmt::format("fix-it:\"{}\":{{{}:{}-{}:{}}}:\"{}\"\n",
                           escaped(diags[di].loc.file), r.beginLine, r.beginCol,
                           r.endLine, r.endCol, escaped(e.replacement));
      }
    }
  }
}

} // namespace kcheck::emit
