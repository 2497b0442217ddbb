#include "simulator/CoResidentBlocks.h"

#include "simulator/AllBlocks.h"

#include <algorithm>
#include <memory>

namespace kcheck::sim {

namespace {

// The options of a cooperative launch's runners, with the driver's grid
// workspace allocated in `memory`.
RunnerOptions cooperativeRunnerOptions(DeviceMemory &memory,
                                       const BlockClassOptions &options) {
  // The driver's grid workspace (driver_abi.h's grid_workspace: its size,
  // then the barrier word grid.sync() counts arrivals in), zeroed by the
  // driver before the launch.
  struct GridWorkspace {
    uint32_t wsSize = sizeof(GridWorkspace), barrier = 0;
  } workspace;
  uint64_t workspaceAddress = memory.allocateSymbol(
      "cooperative launch grid workspace", sizeof workspace, {});
  memory.write(workspaceAddress, &workspace, sizeof workspace);

  RunnerOptions runnerOptions;
  runnerOptions.printfOut = options.printfOut;
  runnerOptions.overruns = options.overruns;
  runnerOptions.deviceRuntime = options.deviceRuntime;
  runnerOptions.gridWorkspace = workspaceAddress;
  runnerOptions.coResident = true;
  return runnerOptions;
}

} // namespace

LaunchResult runCoResidentBlocks(const DecodedKernel &kernel,
                                 const core::LaunchConfig &config,
                                 const std::vector<KernelArg> &args,
                                 DeviceMemory &memory, const Limits &limits,
                                 const BlockClassOptions &options,
                                 BlockCounter &counter) {
  RunnerOptions runnerOptions = cooperativeRunnerOptions(memory, options);

  const uint64_t total = config.grid.count();
  // A runner per block that started and has not completed: its warps and
  // shared memory stay while it waits.
  std::vector<std::unique_ptr<BlockRunner>> runners(total);
  std::vector<uint64_t> blockSteps(total, 0);
  std::vector<bool> done(total, false);
  RunnerReports reports;
  LaunchResult result;
  uint64_t steps = 0, completed = 0;
  std::string firstWait; // where the first waiting block of a pass waits
  while (completed < total && result.error.empty()) {
    bool progressed = false;
    firstWait.clear();
    for (uint64_t i = 0; i < total && result.error.empty(); ++i) {
      if (done[i])
        continue;
      core::Dim3 b = blockAt(i, config.grid);
      BlockResult r;
      if (!runners[i]) {
        if (options.progress && i % 256 == 0)
          options.progress(i, total);
        runners[i] = std::make_unique<BlockRunner>(kernel, config, args, memory,
                                                   limits, runnerOptions);
        r = runners[i]->runBlock(b, counter.begin(result, b, i == 0));
        progressed = true; // a block that started may have arrived somewhere
      } else {
        // Block (0,0,0)'s per-execution detail stops at its first wait: a
        // resumed block's accesses would restart its iteration numbers.
        r = runners[i]->resumeBlock(counter.begin(result, b, false));
      }
      steps += std::max<uint64_t>(r.warpSteps - blockSteps[i], 1);
      blockSteps[i] = r.warpSteps;
      progressed |= r.wroteMemory;
      if (r.status == BlockResult::Status::Waiting) {
        if (firstWait.empty())
          firstWait = r.message;
      } else {
        done[i] = true;
        ++completed;
        progressed = true;
        result.blocksSimulated++;
        reports.add(*runners[i]);
        runners[i].reset();
        if (!r.ok()) {
          result.error = r.fault ? r.fault->message : r.message;
          result.fault = r.fault;
        }
      }
      if (result.error.empty())
        result.error = launchLimitError(limits, steps, memory);
    }
    if (!progressed && result.error.empty())
      result.error =
          "cooperative launch deadlocked: every block left waits for "
          "another and none wrote memory; " +
          firstWait + " (on a GPU this launch would hang)";
  }
  for (const auto &runner : runners)
    if (runner)
      reports.add(*runner);
  reports.mergeInto(result, config.grid);
  return result;
}

} // namespace kcheck::sim
