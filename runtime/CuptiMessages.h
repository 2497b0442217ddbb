// What to tell the user about a CUPTI failure: the CUPTI error text plus
// what to change (research/cupti.md §1.4). Pure, testable without CUPTI.
#pragma once

#include <string>

namespace kcheck::runtime {

/// Marker that kcheck-profile looks for to exit 4 (no usable GPU profiling).
inline constexpr const char *kNoProfilingMarker = "ERR_NVGPUCTRPERM";

/// Ends the error kcheck-profile's injection writes when a fault left the
/// counters of earlier launches unread; kcheck-profile then measures those
/// launches again, one read-out per launch.
inline constexpr const char *kLostAfterFaultMarker =
    "counters lost after the fault";

/// `call` failed with CUPTI result `code` (`text` from cuptiGetResultString).
std::string cuptiFailureMessage(const std::string &call, int code,
                                const std::string &text);

/// True when the failure means this machine cannot profile at all (no
/// permission, another profiler attached, unsupported device).
bool isEnvironmentFailure(int code);

} // namespace kcheck::runtime
