// Compiler-style text: `file:line:col: warning: message [check-id]`, notes
// after their warning. Colour only when writing to a terminal.
#pragma once

#include "core/Diagnostic.h"

#include <ostream>
#include <vector>

namespace kcheck::cli {

void emitText(std::ostream &os, const std::vector<core::Diagnostic> &diags,
              bool colour);

} // namespace kcheck::cli
