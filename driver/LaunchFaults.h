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

/// A launch the GPU itself would stop with a fault (a failed device assert,
/// a trap, an illegal address), outside any sanitizer: reported up to the
/// fault, as a [kernel-fault] finding; null when it did not fault so.
const sim::Fault *gpuFault(const sim::LaunchResult &launch);

/// The note such a launch carries: what its counters are, and what the GPU
/// answers the program's next calls.
std::string gpuFaultNote(const sim::LaunchResult &launch);

} // namespace kcheck::driver
