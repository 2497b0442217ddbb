// SARIF 2.1.0 (OASIS, for GitHub code scanning and other viewers) of one
// check run: one run whose tool.driver lists every check as a rule (its
// docs/checks/ID.md page as help), one result per finding.
//
// Choices, for how GitHub renders a result:
// - the notes go into message.text as lines after the finding's message
//   (every note is at the finding's own location, so relatedLocations would
//   only repeat it);
// - artifactLocation.uri is relative to the current directory under
//   uriBaseId %SRCROOT% when the file lies below it (upload from the
//   repository root), else an absolute file: URI;
// - partialFingerprints["kcheckLineHash/v1"] hashes the rule, the file and
//   the line's text with its whitespace removed (plus which occurrence of
//   that triple it is), so an alert survives edits that move the line;
// - kcheck's per-launch figures (geometry, Nsight Compute metrics) go into
//   the run's property bag, the check's own numbers stay in the notes.
#pragma once

#include "core/Diagnostic.h"
#include "driver/Session.h"

#include <string>
#include <vector>

namespace kcheck::emit {

/// The whole SARIF log (UTF-8 JSON). `diagnostics` are the findings as the
/// text output lists them; `session.errors` make the invocation
/// unsuccessful and become notifications.
std::string sarifLog(const driver::Session &session,
                     const std::vector<core::Diagnostic> &diagnostics);

} // namespace kcheck::emit
