// [memcheck]: out-of-bounds and misaligned accesses, as compute-sanitizer's
// --tool memcheck reports them (docs/checks/memcheck.md). The shadow state
// makes a shared, local or misaligned access that leaves its allocation stop
// the kernel, as on the GPU; a small overrun of a global allocation, which
// the GPU makes and goes on after, every command reports
// (overrunDiagnostics).
#include "checks/Registry.h"
#include "checks/Sanitizers.h"

namespace kcheck::checks {

extern const Check kMemcheckCheck{
    "memcheck",
    core::Severity::Error,
    {driver::Command::Memcheck},
    /*sanitizer=*/true,
    &sim::SanitizerOptions::memcheck,
    [](const driver::Session &s, bool) {
      return sanitizerDiagnostics(s, sim::SanitizerFinding::Check::Memcheck);
    },
    /*summaryRows=*/nullptr, // the sanitizers share one row (Registry.cpp)
    "sanitize/memcheck_shared_off_by_one.cu",
};

} // namespace kcheck::checks
