// Compiler-style text: `file:line:col: warning: message [check-id]`, notes
// after their warning. Colour only when writing to a terminal.
#pragma once

#include "core/Diagnostic.h"
#include "driver/Fixes.h"

#include <ostream>
#include <string>
#include <vector>

namespace kcheck::emit {

void emitText(std::ostream &os, const std::vector<core::Diagnostic> &diags,
              bool colour);

/// How a verified fix's edits follow its finding.
enum class FixItStyle {
  // As Clang shows fix-it hints: the source line, the replaced range marked
  // under it (^~~) and the replacement text beneath.
  UnderCaret,
  // Clang's -fdiagnostics-parseable-fixits: `fix-it:"file":{l:c-l:c}:"text"`,
  // one line per edit, for editors and scripts (--parseable-fixits).
  Parseable,
};

/// The diagnostics as text, each offered fix's edits after its finding (a
/// fix shared by several findings once).
void emitTextWithFixIts(std::ostream &out,
                        const std::vector<core::Diagnostic> &diags,
                        const driver::Session &s, const std::string &source,
                        const driver::FixSearch &search, bool colour,
                        FixItStyle style);

} // namespace kcheck::emit
