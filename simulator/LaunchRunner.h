// A launch and the launches its grid makes from the device (dynamic
// parallelism), simulated in the order the GPU runs them. Both host paths
// simulate through it — the static analysis (driver/Session.cpp) and the
// run of the program's host code (host/HostDevice.cpp) — so that decoding,
// the per-launch limits, launch naming and the walk over device-side
// launches are written once; what each path keeps of a launch (a report, a
// RunLaunch) is its own, through the hooks.
#pragma once

#include "simulator/Predictor.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace kcheck::sim {

/// A kernel's name as reports give it, from its mangled name: the function
/// name with template arguments as the source writes them (reduce_v5<256>,
/// not the demangler's 256u), and the demangled signature Nsight Compute
/// shows.
std::pair<std::string, std::string> kernelNames(const std::string &mangled);

/// The kernel's __launch_bounds__ maximum of threads per block (nvvm.maxntid,
/// which ptxas does not report); 0 when it has none.
int kernelLaunchBound(const llvm::Function &kernel);

/// One simulated launch, as the runner hands it to its caller.
struct RunnerLaunch {
  int index = 0; // as the caller's admit hook numbered it
  const llvm::Function *function = nullptr;
  std::string kernelName, signature; // kernelNames(function's name)
  std::shared_ptr<const DecodedKernel> kernel;
  core::LaunchConfig config;
  std::optional<core::DeviceLaunchOrigin> launchedFrom; // null: the host's
  LaunchResult result;
  double seconds = 0; // simulation time
};

class LaunchRunner {
public:
  struct Hooks {
    /// Before a launch is simulated: its index, or nullopt with `refusal`
    /// set (a launch past --max-launches).
    std::function<std::optional<int>(
        const llvm::Function &, const std::optional<core::DeviceLaunchOrigin> &,
        std::string &refusal)>
        admit;
    /// How reports name kernel `mangled` (the translation unit's names,
    /// analyzer/facts/KernelNames.h); nullopt or unset: kernelNames().
    std::function<std::optional<std::pair<std::string, std::string>>(
        const std::string &mangled)>
        names;
    /// Around the simulation, with "launch #N kernel" (progress, clocks).
    std::function<void(const std::string &label)> begin;
    std::function<void()> end;
    /// Takes the simulated launch, before its children run; false stops
    /// the walk (the GPU ran into a fault: no later launch runs).
    std::function<bool(RunnerLaunch &&)> record;
  };

  /// `mainFile`: where a device-side launch's origin is named.
  LaunchRunner(const llvm::Module &module, Predictor &predictor,
               DeviceMemory &memory, const Limits &limits, std::string mainFile,
               Hooks hooks);

  /// The decoded form of `fn`, decoded once; null with `error` set.
  std::shared_ptr<const DecodedKernel> decoded(const llvm::Function &fn,
                                               std::string &error);

  /// Simulates a launch of `fn` and, after it, the launches its grid made
  /// (each after its own parent, in the order the grid made them). The
  /// first error ("kernel 'k' not found in the device code", a decode
  /// error, a refusal) stops the walk and is returned; "" when none.
  std::string run(const llvm::Function &fn, const core::LaunchConfig &config,
                  const std::vector<KernelArg> &args,
                  const std::optional<core::DeviceLaunchOrigin> &origin = {});
  /// While a launch is simulated: the origin of work its instruction
  /// `instId` makes (a graph it launches from the device).
  std::optional<core::DeviceLaunchOrigin> originOf(uint32_t instId) const;

private:
  // The launch being simulated (its index and kernel), for originOf.
  int runningIndex_ = -1;
  const DecodedKernel *runningKernel_ = nullptr;
  const llvm::Module &module_;
  Predictor &predictor_;
  DeviceMemory &memory_;
  Limits limits_;
  std::string mainFile_;
  Hooks hooks_;
  std::map<const llvm::Function *, std::shared_ptr<const DecodedKernel>>
      decoded_;
  bool stopped_ = false; // record said no: none of the grid's children runs
};

} // namespace kcheck::sim
