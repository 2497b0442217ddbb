#include "runtime/CuptiMessages.h"

namespace kcheck::runtime {

namespace {
// CUptiResult values (cupti_result.h) without including CUPTI here.
constexpr int kInsufficientPrivileges = 35;
constexpr int kLegacyProfilerNotSupported = 38;
constexpr int kMultipleSubscribers = 39;
constexpr int kVirtualizedInsufficientPrivileges = 40;
} // namespace

std::string cuptiFailureMessage(const std::string &call, int code,
                                const std::string &text) {
  std::string m =
      call + " failed: CUPTI error " + std::to_string(code) + " (" + text + ")";
  switch (code) {
  case kInsufficientPrivileges:
  case kVirtualizedInsufficientPrivileges:
    m += std::string(". ") + kNoProfilingMarker +
         ": this user may not read the GPU's performance counters. Run as "
         "root (or with CAP_SYS_ADMIN; in a container, --cap-add SYS_ADMIN), "
         "or have an administrator set 'options nvidia "
         "NVreg_RestrictProfilingToAdminUsers=0' and reload the driver; see "
         "https://developer.nvidia.com/ERR_NVGPUCTRPERM";
    if (code == kVirtualizedInsufficientPrivileges)
      m += " (on a vGPU, profiling must also be enabled for the VM)";
    break;
  case kMultipleSubscribers:
    m += std::string(". ") + kNoProfilingMarker +
         ": another CUPTI client (ncu, nsys, a profiler library) is attached "
         "to this process; run kcheck-profile without it";
    break;
  case kLegacyProfilerNotSupported:
    m += ": the legacy event/metric API is not available on this CUDA";
    break;
  default:
    break;
  }
  return m;
}

bool isEnvironmentFailure(int code) {
  return code == kInsufficientPrivileges ||
         code == kVirtualizedInsufficientPrivileges ||
         code == kMultipleSubscribers;
}

} // namespace kcheck::runtime
