// The one place a simulated launch becomes its report, for both host
// paths: the static analysis (driver/Session.cpp) and the run of the
// program's host code (driver/HostRun.cpp). What a launch ran to — the end,
// a fault the GPU has too, a sanitizer's fault, or an error of kcheck's —
// decides its counters and notes the same way in both.
#pragma once

#include "driver/Session.h"
#include "simulator/LaunchRunner.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace kcheck::driver {

/// How a simulated launch ended, as its report tells it.
enum class LaunchEnd {
  Ran,            // to its end: counters, lines, SIMT counts
  GpuFault,       // the GPU faults too ([kernel-fault]): counters up to it
  SanitizerFault, // stopped by memcheck/synccheck: the check's finding
  NotSimulated,   // kcheck could not simulate it (a budget, the engine)
};

class LaunchReportBuilder {
public:
  explicit LaunchReportBuilder(std::string mainFile)
      : mainFile_(std::move(mainFile)) {}

  /// Fills `lr` and `sl` from `launch`: the kernel's names (unless `lr`
  /// has them from the source), configuration and origin, then what its
  /// result says, after the notes `lr` already has. The kernel's branches
  /// are analysed once per kernel.
  LaunchEnd report(sim::RunnerLaunch &&launch, core::LaunchReport &lr,
                   SimulatedLaunch &sl);

private:
  std::string mainFile_;
  std::map<const llvm::Function *,
           std::shared_ptr<const std::vector<analyzer::StaticBranch>>>
      branches_;
};

} // namespace kcheck::driver
