// [racecheck]: two unordered accesses to one __shared__ byte, one a write
// (docs/checks/racecheck.md).
#include "checks/Registry.h"
#include "checks/Sanitizers.h"

namespace kcheck::checks {

extern const Check kRacecheckCheck{
    "racecheck",
    core::Severity::Error,
    {driver::Command::Racecheck},
    /*sanitizer=*/true,
    &sim::SanitizerOptions::racecheck,
    [](const driver::Session &s, bool) {
      return sanitizerDiagnostics(s, sim::SanitizerFinding::Check::Racecheck);
    },
    /*summaryRows=*/nullptr, // the sanitizers share one row (Registry.cpp)
    "sanitize/racecheck_missing_syncthreads.cu",
};

} // namespace kcheck::checks
