// synccheck: warp-synchronous calls whose member mask leaves out a calling
// lane, and barriers reached by part of a block, reported as
// [barrier-divergence] (docs/checks/synccheck.md).
#include "checks/Registry.h"
#include "checks/Sanitizers.h"

namespace kcheck::checks {

extern const Check kSynccheckCheck{
    "synccheck",
    core::Severity::Error,
    {driver::Command::Synccheck},
    /*sanitizer=*/true,
    &sim::SanitizerOptions::synccheck,
    [](const driver::Session &s, bool) {
      return sanitizerDiagnostics(s, sim::SanitizerFinding::Check::Synccheck);
    },
    /*summaryRows=*/nullptr, // the sanitizers share one row (Registry.cpp)
    "sanitize/synccheck_member_mask.cu",
    "barrier-divergence",
};

} // namespace kcheck::checks
