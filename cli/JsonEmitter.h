// The findings of a command in its JSON report: every diagnostic the text
// and SARIF emitters carry (check id, severity, location, message, notes),
// written into the report object as its "findings" member.
#pragma once

#include "core/Diagnostic.h"

#include <vector>

namespace kcheck::core {
class JsonWriter;
}

namespace kcheck::cli {

void writeFindingsJson(core::JsonWriter &w,
                       const std::vector<core::Diagnostic> &diags);

} // namespace kcheck::cli
