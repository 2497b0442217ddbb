// Predictor: runs one launch on the engine and turns its warp events into
// Nsight Compute's counters with the hardware models. It chooses which blocks
// run (today: every block, in order) — the engine knows nothing of that
// choice, the models nothing of LLVM.
#pragma once

#include "core/ArchSpec.h"
#include "core/Launch.h"
#include "core/Metrics.h"
#include "core/Report.h"
#include "simulator/CopyOnWriteVector.h"
#include "simulator/DeviceLaunches.h"
#include "simulator/engine/BlockRunner.h"
#include "simulator/engine/DecodedKernel.h"
#include "simulator/engine/DeviceMemory.h"
#include "simulator/engine/Sanitizer.h"

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kcheck::sim {

/// The warp execution of a shared access that cost the most wavefronts.
struct WorstWarp {
  std::array<uint64_t, 32> addrs{};
  uint32_t activeMask = 0;
  uint32_t wavefronts = 0;
  uint32_t ideal = 0;
  core::Dim3 block;
  unsigned warp = 0;
};

struct SharedAccessStats {
  uint64_t executions = 0, wavefronts = 0, ideal = 0, activeLanes = 0;
  uint64_t conflictedExecutions = 0; // degree > 1
  uint32_t minConflictDegree = 0;    // smallest degree > 1 seen (0: none)
  uint32_t maxDegree = 0;
  WorstWarp worst;
  /// In the first block simulated: the k-th execution of this access by a
  /// warp (k = loop iteration for an access in a loop), worst degree over the
  /// warps that executed it a k-th time.
  std::vector<uint32_t> degreeByExecution;
};

/// The warp execution of a global access kept to explain its pattern: the
/// first one with the most sectors over the ideal.
struct GlobalWarp {
  std::array<uint64_t, 32> addrs{};
  uint32_t activeMask = 0;
  uint32_t bytesPerLane = 0;
  uint32_t sectors = 0;
  uint32_t ideal = 0;
  core::Dim3 block;
  unsigned warp = 0;
  bool recorded = false;
};

struct GlobalAccessStats {
  uint64_t executions = 0, requests = 0, sectors = 0, activeLanes = 0;
  /// Nsight Compute's "L2 Theoretical Sectors Global Ideal": per execution,
  /// the sectors the lanes' bytes (active lanes x bytes per lane) would need
  /// if contiguous and aligned, never more than the sectors actually
  /// requested (a broadcast needs fewer than its lanes' bytes; measured: the
  /// naive matmul's `Md[Row*Width+k]`, kernels/h100/lines.csv).
  uint64_t ideal = 0;
  uint64_t usedBytes = 0;           // distinct bytes the active lanes accessed
  uint64_t excessExecutions = 0;    // executions with sectors > ideal
  uint64_t broadcastExecutions = 0; // >1 lane, every lane one address
  GlobalWarp worst;
};

/// A conditional branch or switch, as the warps executed it (source-level
/// divergence: the IR's branches, before ptxas predicates short bodies).
struct BranchStats {
  uint64_t executions = 0;          // warp executions
  uint64_t divergentExecutions = 0; // active lanes went to more than one side
  uint64_t activeLanes = 0;         // sum of popcount(activeMask)
  uint64_t takenLanes = 0;          // lanes to successor 0 (true / default)
  /// In the first block simulated: how many warps diverged at their k-th
  /// execution of this branch (k = loop iteration for a branch in a loop).
  std::vector<uint32_t> divergentWarpsByExecution;
};

/// A barrier a warp reached with some of its live lanes elsewhere.
struct DivergentBarrier {
  core::Dim3 block;
  unsigned warp = 0;
  uint32_t missingMask = 0; // live lanes that did not arrive (0: none seen)
};

struct BarrierStats {
  uint64_t arrivals = 0;          // warp arrivals
  uint64_t divergentArrivals = 0; // arrivals with live lanes missing
  DivergentBarrier firstDivergent;
};

struct InstStats {
  SharedAccessStats shared;
  GlobalAccessStats global;
  BranchStats branch;
  BarrierStats barrier;
};

struct LaunchResult {
  core::Counters total;
  // Indexed like DecodedKernel::insts(); shared with the launch a repeated
  // one repeats.
  CopyOnWriteVector<InstStats> perInst;
  std::vector<std::string> notes;
  // A branch or an address used data kcheck did not see (BlockRunner::
  // usedUnseenInput): the counts are a guess that --run-host makes exact.
  bool usedUnseenInput = false;
  std::string error; // non-empty: the launch stopped (fault, step budget)
  // The fault that stopped it, where the GPU would have faulted too (not a
  // budget of kcheck's): after it the CUDA context is unusable.
  std::optional<Fault> fault;
  // Global accesses a little past an allocation that the launch counted and
  // went on after (GlobalOverrun::CountAndGoOn): each instruction's first.
  std::vector<Fault> overruns;
  uint64_t blocksSimulated = 0;
  // Blocks of an every-block run counted as an idle block that ran, not run
  // themselves (simulator/IdleBlocks.h).
  uint64_t blocksIdle = 0;
  // Not simulated: the result of an earlier launch it repeats on unchanged
  // input (simulator/RepeatedLaunches.h).
  bool repeated = false;
  // The sanitizer's findings when Predictor::setSanitizer enabled it.
  std::shared_ptr<const SanitizerReport> sanitizer;
  // What the grid asked the device runtime to do after it: child launches,
  // copies and sets, in the order they run (simulator/DeviceLaunches.h).
  std::vector<DeviceWork> deviceWork;
};

class RepeatedLaunches;

class Predictor {
public:
  /// `exhaustive`: simulate every block instead of one per proven class.
  explicit Predictor(const core::ArchSpec &arch, bool exhaustive = false)
      : arch_(arch), exhaustive_(exhaustive) {}

  /// Threads that run a launch's blocks when all of them must run (results
  /// do not depend on it; see simulator/AllBlocks.h).
  void setJobs(unsigned jobs) { jobs_ = jobs ? jobs : 1; }
  /// Where the kernels' device printf goes (null: dropped).
  void setPrintf(std::ostream *out) { printfOut_ = out; }
  /// What the kernels' device runtime calls answer from beside the device:
  /// the conditional handles cudaGraphSetConditional may set, the kernels'
  /// resources (DeviceRuntimeContext; by default neither).
  void setDeviceRuntimeContext(DeviceRuntimeContext c) { deviceContext_ = c; }
  /// Also run these sanitizer checks (LaunchResult::sanitizer); off by
  /// default, since they keep shadow state and run blocks on one thread.
  void setSanitizer(SanitizerOptions options) { sanitizer_ = options; }
  /// What a small overrun of a global allocation does (GlobalOverrun):
  /// compute-sanitizer's memcheck stops the kernel (Fault), the GPU goes on.
  void setGlobalOverruns(GlobalOverrun overruns) { overruns_ = overruns; }
  /// Called now and then during run() with (blocks done, blocks in launch).
  void setProgress(std::function<void(uint64_t, uint64_t)> progress) {
    progress_ = std::move(progress);
  }

  /// Simulates a launch, or takes the result of an earlier launch it repeats
  /// on unchanged input (simulator/RepeatedLaunches.h; then the result says
  /// so in `repeated`).
  LaunchResult run(const DecodedKernel &kernel,
                   const core::LaunchConfig &config,
                   const std::vector<KernelArg> &args, DeviceMemory &memory,
                   const Limits &limits);
  /// Off: every launch is simulated (for tests that compare both ways).
  void setReuseRepeats(bool on) { reuseRepeats_ = on; }
  /// Where every block runs (`exhaustive`), count blocks proven idle as
  /// their representative instead of running them (simulator/IdleBlocks.h);
  /// never while sanitizer checks run (they want every block's accesses).
  void setSkipIdleBlocks(bool on) { skipIdleBlocks_ = on; }

private:
  core::ArchSpec arch_;
  bool exhaustive_ = false;
  unsigned jobs_ = 1;
  std::function<void(uint64_t, uint64_t)> progress_;
  std::ostream *printfOut_ = nullptr;
  DeviceRuntimeContext deviceContext_;
  SanitizerOptions sanitizer_;
  GlobalOverrun overruns_ = GlobalOverrun::Fault;
  bool reuseRepeats_ = true;
  bool skipIdleBlocks_ = false;
  std::shared_ptr<RepeatedLaunches> repeats_; // made on the first run()

  LaunchResult simulate(const DecodedKernel &kernel,
                        const core::LaunchConfig &config,
                        const std::vector<KernelArg> &args,
                        DeviceMemory &memory, const Limits &limits) const;
};

/// Which lines an instruction counts on.
enum class LineView {
  /// The innermost line of its inline chain that lies in the main file (or
  /// the innermost line when none does): the SASS line table's, and
  /// kcheck-profile's CUPTI correlation's.
  Innermost,
  /// Nsight Compute's source view: the innermost line, and also the call
  /// line(s) for the instructions of an inlined call's first line.
  NsightCompute,
};

/// Rolls per-instruction counters up to source lines of `mainFile`: the
/// memory metrics of the loads and stores on each line, and the SIMT counts
/// of its loads, stores and conditional branches (so a line may hold only
/// SIMT counts).
std::vector<core::LineReport> rollUpLines(const DecodedKernel &kernel,
                                          const LaunchResult &result,
                                          const std::string &mainFile,
                                          LineView view = LineView::Innermost);

/// kcheck's SIMT counts (core::SimtCounts) of one instruction, and of a
/// launch: the sum over its instructions, so over the lines of either view
/// of rollUpLines when each instruction counts on one line.
core::SimtCounts simtCounts(const InstStats &stats);
core::SimtCounts simtCounts(const LaunchResult &result);

/// The line an instruction is reported on (see rollUpLines).
core::SourceLoc userLocation(const InstInfo &inst, const std::string &mainFile);

} // namespace kcheck::sim
