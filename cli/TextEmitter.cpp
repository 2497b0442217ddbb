#include "cli/TextEmitter.h"

namespace kcheck::cli {

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

} // namespace

void emitText(std::ostream &os, const std::vector<core::Diagnostic> &diags,
              bool colour) {
  for (const core::Diagnostic &d : diags) {
    emitOne(os, d, colour);
    for (const core::Diagnostic &n : d.notes)
      emitOne(os, n, colour);
  }
}

} // namespace kcheck::cli
