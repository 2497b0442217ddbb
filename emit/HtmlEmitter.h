// kcheck's HTML report: one self-contained page (inline CSS, JS and SVG, no
// network) with the file's launches and their counts against the ideal, the
// source annotated line by line with its counters, and each finding inline
// under its line with its notes and a picture of its worst warp (lanes ->
// banks for a bank conflict, lanes -> sectors for an uncoalesced access).
//
// Per-line figures count each instruction on its innermost source line (the
// view of kcheck's findings and of the JSON's "lines_innermost"); Nsight
// Compute's source view, the JSON's "lines", also credits an inlined call's
// first line to the call line.
#pragma once

#include "core/Diagnostic.h"
#include "driver/Session.h"

#include <string>
#include <vector>

namespace kcheck::emit {

/// The page for `session`, whose main file's text is `source`;
/// `diagnostics` are the findings the command reports (none for predict).
std::string htmlReport(const driver::Session &session,
                       const std::vector<core::Diagnostic> &diagnostics,
                       const std::string &source);

} // namespace kcheck::emit
