// The findings of a command in its JSON report: every diagnostic the text
// and SARIF emitters carry (check id, severity, location, message, notes),
// the report's "findings" member.
#pragma once

#include "core/Diagnostic.h"
#include "driver/Fixes.h"

#include "core/JsonFwd.h"

#include <vector>

namespace kcheck::emit {

using core::Json;

/// The report's "findings" member.
Json findingsJson(const std::vector<core::Diagnostic> &diags);

/// The findings of a report's "findings" member, read back: what
/// `check -p DIR` gathers from each file's run.
std::vector<core::Diagnostic> readFindingsJson(const Json &report);

/// Adds the report's "fixes" and "fix_search" members (and "diff" with
/// --diff) to `report`.
void addFixesJson(Json &report, const driver::Options &o,
                  const driver::Session &s, const std::string &source,
                  const driver::FixSearch &search);

} // namespace kcheck::emit
