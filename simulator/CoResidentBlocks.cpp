#include "simulator/CoResidentBlocks.h"

#include "simulator/AllBlocks.h"

#include <algorithm>
#include <memory>

namespace kcheck::sim {

namespace {

// The options of runners whose blocks run alongside each other.
RunnerOptions coResidentRunnerOptions(const BlockClassOptions &options) {
  RunnerOptions runnerOptions;
  runnerOptions.printfOut = options.printfOut;
  runnerOptions.overruns = options.overruns;
  runnerOptions.deviceRuntime = options.deviceRuntime;
  runnerOptions.coResident = true;
  return runnerOptions;
}

// The same for a cooperative launch, with the driver's grid workspace
// allocated in `memory`.
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

  RunnerOptions runnerOptions = coResidentRunnerOptions(options);
  runnerOptions.gridWorkspace = workspaceAddress;
  return runnerOptions;
}

// Runs `blocks` (linear indices) alongside each other, each on its own
// runner, until all complete; their results go to `result` and `reports`.
// `cluster`: the runners are a cluster's, by rank (`blocks` in rank order).
void runTogether(const DecodedKernel &kernel, const core::LaunchConfig &config,
                 const std::vector<KernelArg> &args, DeviceMemory &memory,
                 const Limits &limits, const BlockClassOptions &options,
                 RunnerOptions runnerOptions,
                 const std::vector<uint64_t> &blocks, ClusterMembers *cluster,
                 BlockCounter &counter, LaunchResult &result, uint64_t &steps,
                 RunnerReports &reports) {
  const size_t total = blocks.size();
  const uint64_t gridBlocks = config.grid.count();
  // A runner per block that started and has not completed: its warps and
  // shared memory stay while it waits (a cluster's stay until all end: the
  // others may read their shared memory).
  std::vector<std::unique_ptr<BlockRunner>> runners(total);
  if (cluster) {
    runnerOptions.cluster = cluster;
    cluster->byRank.assign(total, nullptr);
    for (size_t i = 0; i < total; ++i) {
      runners[i] = std::make_unique<BlockRunner>(kernel, config, args, memory,
                                                 limits, runnerOptions);
      cluster->byRank[i] = runners[i].get();
    }
  }
  std::vector<bool> started(total, false), done(total, false);
  std::vector<uint64_t> blockSteps(total, 0);
  size_t completed = 0;
  std::string firstWait; // where the first waiting block of a pass waits
  while (completed < total && result.error.empty()) {
    bool progressed = false;
    firstWait.clear();
    for (size_t i = 0; i < total && result.error.empty(); ++i) {
      if (done[i])
        continue;
      core::Dim3 b = blockAt(blocks[i], config.grid);
      BlockResult r;
      if (!started[i]) {
        started[i] = true;
        if (options.progress && blocks[i] % 256 == 0)
          options.progress(blocks[i], gridBlocks);
        if (!runners[i])
          runners[i] = std::make_unique<BlockRunner>(
              kernel, config, args, memory, limits, runnerOptions);
        r = runners[i]->runBlock(b, counter.begin(result, b, blocks[i] == 0));
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
        if (!cluster) {
          reports.add(*runners[i]);
          runners[i].reset();
        }
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
          std::string(cluster ? "cluster" : "cooperative launch") +
          " deadlocked: every block left waits for another and none wrote "
          "memory or arrived at a barrier; " +
          firstWait + " (on a GPU this launch would hang)";
  }
  for (size_t i = 0; i < total; ++i)
    if (runners[i] && started[i])
      reports.add(*runners[i]);
}

} // namespace

LaunchResult runCoResidentBlocks(const DecodedKernel &kernel,
                                 const core::LaunchConfig &config,
                                 const std::vector<KernelArg> &args,
                                 DeviceMemory &memory, const Limits &limits,
                                 const BlockClassOptions &options,
                                 BlockCounter &counter) {
  RunnerOptions runnerOptions = cooperativeRunnerOptions(memory, options);
  std::vector<uint64_t> blocks(config.grid.count());
  for (uint64_t i = 0; i < blocks.size(); ++i)
    blocks[i] = i;
  RunnerReports reports;
  LaunchResult result;
  uint64_t steps = 0;
  runTogether(kernel, config, args, memory, limits, options, runnerOptions,
              blocks, nullptr, counter, result, steps, reports);
  reports.mergeInto(result, config.grid);
  return result;
}

LaunchResult runClusters(const DecodedKernel &kernel,
                         const core::LaunchConfig &config,
                         const std::vector<KernelArg> &args,
                         DeviceMemory &memory, const Limits &limits,
                         const BlockClassOptions &options,
                         BlockCounter &counter) {
  RunnerOptions runnerOptions = config.cooperative
                                    ? cooperativeRunnerOptions(memory, options)
                                    : coResidentRunnerOptions(options);
  const core::Dim3 &g = config.grid, &c = config.cluster;
  RunnerReports reports;
  LaunchResult result;
  uint64_t steps = 0;
  ClusterMembers members;
  // Clusters in the order of their index (x fastest), each cluster's blocks
  // by rank; a cooperative launch's clusters all at once.
  std::vector<uint64_t> all;
  for (uint32_t cz = 0; cz < g.z / c.z; ++cz)
    for (uint32_t cy = 0; cy < g.y / c.y; ++cy)
      for (uint32_t cx = 0; cx < g.x / c.x; ++cx) {
        std::vector<uint64_t> blocks;
        for (uint32_t z = 0; z < c.z; ++z)
          for (uint32_t y = 0; y < c.y; ++y)
            for (uint32_t x = 0; x < c.x; ++x)
              blocks.push_back((uint64_t(cz * c.z + z) * g.y + (cy * c.y + y)) *
                                   g.x +
                               (cx * c.x + x));
        if (config.cooperative) {
          all.insert(all.end(), blocks.begin(), blocks.end());
          continue;
        }
        if (result.error.empty())
          runTogether(kernel, config, args, memory, limits, options,
                      runnerOptions, blocks, &members, counter, result, steps,
                      reports);
      }
  if (config.cooperative && c.count() == 1)
    runTogether(kernel, config, args, memory, limits, options, runnerOptions,
                all, nullptr, counter, result, steps, reports);
  else if (config.cooperative)
    result.error = "a cooperative launch with clusters of more than one "
                   "block is not simulated yet";
  reports.mergeInto(result, config.grid);
  return result;
}

} // namespace kcheck::sim
