// The simulated GPU behind kcheck's CUDA runtime when host code runs: the
// device module's kernels, one DeviceMemory, and the Predictor that runs
// every block of each launch (simulator/AllBlocks) and counts it.
#pragma once

#include "analyzer/toolchain/KernelResourceUsage.h"
#include "host/CudaRuntime.h"
#include "host/HostRunner.h"

#include <atomic>
#include <map>

namespace kcheck::host {

/// Time spent simulating, read by the host-budget watchdog on its thread.
struct SimulationClock {
  std::atomic<bool> running{false};
  std::atomic<int64_t> nanos{0};
};

class HostDevice : public SimulatedDevice {
public:
  HostDevice(const llvm::Module &module, const RunOptions &options,
             std::vector<RunLaunch> &launches, SimulationClock &clock);

  sim::DeviceMemory &memory() override { return memory_; }
  uint64_t symbolAddress(const std::string &name, uint64_t bytes) override;
  LaunchOutcome launch(const std::string &deviceName,
                       const core::LaunchConfig &config, void **args) override;
  std::optional<core::KernelResources> resources(const std::string &deviceName,
                                                 std::string &why) override;
  int launchBound(const std::string &deviceName) override;
  std::optional<std::pair<uint64_t, uint64_t>>
  parameter(const std::string &deviceName, size_t index) override;
  bool bindManaged(const std::string &deviceName, void *host,
                   uint64_t bytes) override;

private:
  /// Simulates a launch of `fn` and then the launches it makes from the
  /// device (`origin`: such a launch's).
  LaunchOutcome simulate(const llvm::Function &fn,
                         const core::LaunchConfig &config,
                         std::vector<sim::KernelArg> args,
                         std::optional<core::DeviceLaunchOrigin> origin);

  /// `fn` decoded once (null, with `error`, when the engine cannot run it).
  std::shared_ptr<const sim::DecodedKernel>
  decodedKernel(const llvm::Function &fn, std::string &error);

  const llvm::Module &module_;
  const RunOptions &options_;
  std::vector<RunLaunch> &launches_;
  SimulationClock &clock_;
  sim::DeviceMemory memory_;
  sim::Predictor predictor_;
  std::map<std::string, std::shared_ptr<const sim::DecodedKernel>> decoded_;
  analyzer::KernelResourceUsage resourceUsage_;
};

/// Names of a kernel for reports: ("reduce_v5<256>", "void
/// reduce_v5<256>(float*, float*)").
std::pair<std::string, std::string> kernelNames(const std::string &mangled);

} // namespace kcheck::host
