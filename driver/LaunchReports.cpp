#include "driver/LaunchReports.h"

#include "driver/LaunchBranches.h"
#include "driver/LaunchFaults.h"

namespace kcheck::driver {

namespace {

// Counters, per-line figures (Nsight Compute's view and the innermost
// lines), SIMT counts and the SASS branch-divergence prediction.
void reportSimulatedLaunch(const SimulatedLaunch &sl,
                           const std::string &mainFile,
                           core::LaunchReport &lr) {
  lr.metrics = sl.result.total;
  lr.lines = sim::rollUpLines(*sl.kernel, sl.result, mainFile,
                              sim::LineView::NsightCompute);
  lr.innermostLines = sim::rollUpLines(*sl.kernel, sl.result, mainFile,
                                       sim::LineView::Innermost);
  lr.simt = sim::simtCounts(sl.result);
  if (std::optional<uint64_t> sass =
          predictSassDivergentTargets(sl, mainFile)) {
    lr.metrics[core::Metric::BranchTargetsDivergent] = *sass;
    lr.alsoPredicted.push_back(core::Metric::BranchTargetsDivergent);
  }
}

} // namespace

LaunchEnd LaunchReportBuilder::report(sim::RunnerLaunch &&l,
                                      core::LaunchReport &lr,
                                      SimulatedLaunch &sl) {
  if (lr.kernel.empty()) {
    lr.kernel = l.kernelName;
    lr.signature = l.signature;
  }
  lr.config = l.config;
  lr.launchedFrom = l.launchedFrom;
  if (l.launchedFrom && !sl.launchLoc.valid())
    sl.launchLoc = l.launchedFrom->where;
  sl.kernel = l.kernel;
  // Every command: the divergence check's explanations, and the
  // prediction's SASS branch divergence (driver/LaunchBranches.h).
  auto &branches = branches_[l.function];
  if (!branches)
    branches = std::make_shared<std::vector<analyzer::StaticBranch>>(
        analyzer::analyzeBranches(*l.function));
  sl.branches = branches;
  sl.result = std::move(l.result);
  lr.simulated = sl.result.error.empty();
  for (const std::string &n : sl.result.notes)
    lr.notes.push_back(n);
  if (faultReportedBy(sl.result)) {
    // A finding of `kcheck memcheck`/`synccheck`, not an analysis error.
    lr.notes.push_back(faultedLaunchNote(sl.result));
    return LaunchEnd::SanitizerFault;
  }
  if (gpuFault(sl.result)) {
    // The GPU faults too ([kernel-fault]): the launch up to the fault.
    lr.simulated = true;
    reportSimulatedLaunch(sl, mainFile_, lr);
    lr.notes.push_back(gpuFaultNote(sl.result));
    return LaunchEnd::GpuFault;
  }
  if (!sl.result.error.empty()) {
    lr.notes.push_back(sl.result.error);
    return LaunchEnd::NotSimulated;
  }
  reportSimulatedLaunch(sl, mainFile_, lr);
  return LaunchEnd::Ran;
}

} // namespace kcheck::driver
