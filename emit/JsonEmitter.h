// The findings of a command in its JSON report: every diagnostic the text
// and SARIF emitters carry (check id, severity, location, message, notes),
// written into the report object as its "findings" member.
#pragma once

#include "core/Diagnostic.h"
#include "driver/Fixes.h"

#include <vector>

namespace kcheck::core {
class JsonValue;
class JsonWriter;
} // namespace kcheck::core

namespace kcheck::emit {

void writeFindingsJson(core::JsonWriter &w,
                       const std::vector<core::Diagnostic> &diags);

/// The findings writeFindingsJson wrote into a report (its "findings"
/// member), read back: what `check -p DIR` gathers from each file's run.
std::vector<core::Diagnostic> readFindingsJson(const core::JsonValue &report);

/// The report's "fixes" and "fix_search" members (and "diff" with --diff),
/// written into the report object `w` has open.
void writeFixesJson(core::JsonWriter &w, const driver::Options &o,
                    const driver::Session &s, const std::string &source,
                    const driver::FixSearch &search);

} // namespace kcheck::emit
