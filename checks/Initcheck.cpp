// [initcheck]: shared memory read before any thread of the block wrote it
// (docs/checks/initcheck.md).
#include "checks/Registry.h"
#include "checks/Sanitizers.h"

namespace kcheck::checks {

extern const Check kInitcheckCheck{
    "initcheck",
    core::Severity::Error,
    {driver::Command::Initcheck},
    /*sanitizer=*/true,
    &sim::SanitizerOptions::initcheck,
    [](const driver::Session &s, bool) {
      return sanitizerDiagnostics(s, sim::SanitizerFinding::Check::Initcheck);
    },
    /*summaryRows=*/nullptr, // the sanitizers share one row (Registry.cpp)
    "sanitize/initcheck_shared.cu",
};

} // namespace kcheck::checks
