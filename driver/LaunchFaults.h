// A launch that faulted under a sanitizer (an out-of-bounds access under
// memcheck, a divergent barrier under synccheck) stopped there, as the
// kernel would on a GPU: that is the check's finding, not an analysis error.
#pragma once

#include "simulator/Predictor.h"

#include <string>

namespace kcheck::driver {

/// The check id of a sanitizer finding: "memcheck", "initcheck",
/// "racecheck", and "barrier-divergence" for synccheck.
const char *sanitizerCheckId(sim::SanitizerFinding::Check check);

/// The check whose finding is the fault launch `launch` stopped on; nullptr
/// when there is none.
const char *faultReportedBy(const sim::LaunchResult &launch);

/// "the kernel faulted (see the memcheck error): ..." for such a launch.
std::string faultedLaunchNote(const sim::LaunchResult &launch);

} // namespace kcheck::driver
