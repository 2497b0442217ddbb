// The simulated GPU behind kcheck's CUDA runtime when host code runs: the
// device module's kernels, one DeviceMemory, and the Predictor that runs
// every block of each launch (simulator/AllBlocks) and counts it.
#pragma once

#include "analyzer/toolchain/KernelResourceUsage.h"
#include "host/CudaRuntime.h"
#include "host/HostRunner.h"

#include <atomic>
#include <chrono>
#include <map>

namespace kcheck::host {

/// Time spent simulating, read by the host-budget watchdog on its thread.
struct SimulationClock {
  std::atomic<bool> running{false};
  std::atomic<int64_t> nanos{0};
};

class HostDevice : public SimulatedDevice {
public:
  /// `device`: the compiled device side (its module and kernel names).
  HostDevice(const analyzer::CompiledModule &device, const RunOptions &options,
             std::vector<RunLaunch> &launches, SimulationClock &clock);

  sim::DeviceMemory &memory() override { return memory_; }
  uint64_t symbolAddress(const std::string &name, uint64_t bytes) override;
  LaunchOutcome
  launch(const std::string &deviceName, const core::LaunchConfig &config,
         void **args,
         const std::optional<core::DeviceLaunchOrigin> &origin) override;
  std::optional<core::DeviceLaunchOrigin>
  originOfCall(uint32_t instId) override {
    return runner_.originOf(instId);
  }
  std::optional<core::KernelResources> resources(const std::string &deviceName,
                                                 std::string &why) override;
  int launchBound(const std::string &deviceName) override;
  std::optional<core::Dim3> clusterDims(const std::string &deviceName) override;
  std::optional<std::pair<uint64_t, uint64_t>>
  parameter(const std::string &deviceName, size_t index) override;
  bool bindManaged(const std::string &deviceName, void *host,
                   uint64_t bytes) override;
  sim::GraphConditionals &graphConditionals() override { return conditionals_; }
  void setDeviceRuntimeServices(sim::KernelQueries *queries,
                                sim::DeviceGraphs *graphs) override {
    predictor_.setDeviceRuntimeContext({&conditionals_, queries, graphs});
  }

private:
  /// Simulates a launch of `fn` and then the launches it makes from the
  /// device (`origin`: such a launch's).
  LaunchOutcome simulate(const llvm::Function &fn,
                         const core::LaunchConfig &config,
                         std::vector<sim::KernelArg> args,
                         std::optional<core::DeviceLaunchOrigin> origin);
  /// What the runner does around each launch of a walk: number it after
  /// the program's launches, time it, keep it as a RunLaunch.
  sim::LaunchRunner::Hooks hooks();

  const llvm::Module &module_;
  const std::map<std::string, analyzer::KernelName> &kernelNames_;
  std::string nameOf(const std::string &mangled) const;
  const RunOptions &options_;
  std::vector<RunLaunch> &launches_;
  SimulationClock &clock_;
  sim::DeviceMemory memory_;
  sim::Predictor predictor_;
  sim::GraphConditionals conditionals_;
  analyzer::KernelResourceUsage resourceUsage_;
  sim::LaunchRunner runner_;
  LaunchOutcome outcome_; // of the launch being simulated, children included
  std::chrono::steady_clock::time_point started_;
};

} // namespace kcheck::host
