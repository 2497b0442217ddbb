#include "driver/LaunchFaults.h"

#include "host/CudaRuntime.h"

#include <fmt/format.h>

namespace kcheck::driver {

const char *sanitizerCheckId(sim::SanitizerFinding::Check c) {
  using Check = sim::SanitizerFinding::Check;
  switch (c) {
  case Check::Memcheck:
    return "memcheck";
  case Check::Initcheck:
    return "initcheck";
  case Check::Racecheck:
    return "racecheck";
  case Check::Synccheck: // compute-sanitizer's synccheck, one id
    return "barrier-divergence";
  }
  return "?";
}

const char *faultReportedBy(const sim::LaunchResult &r) {
  if (r.sanitizer)
    for (const sim::SanitizerFinding &f : r.sanitizer->findings)
      if (f.fault)
        return sanitizerCheckId(f.check);
  return nullptr;
}

std::string faultedLaunchNote(const sim::LaunchResult &r) {
  return fmt::format("the kernel faulted (see the {} error): its counters are "
                     "not reported",
                     faultReportedBy(r));
}

const sim::Fault *gpuFault(const sim::LaunchResult &r) {
  return r.fault && !faultReportedBy(r) ? &*r.fault : nullptr;
}

std::string gpuFaultNote(const sim::LaunchResult &r) {
  return fmt::format(
      "the kernel faults (see the kernel-fault error): its counters are those "
      "of the {} block(s) run up to the fault; the GPU ends the launch there "
      "and the program's later CUDA calls return {}",
      r.blocksSimulated, host::faultErrorName(*r.fault));
}

} // namespace kcheck::driver
