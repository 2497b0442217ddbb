// Predictor: runs one launch on the engine and turns its warp events into
// Nsight Compute's counters with the hardware models. It chooses which blocks
// run (today: every block, in order) — the engine knows nothing of that
// choice, the models nothing of LLVM.
#pragma once

#include "core/ArchSpec.h"
#include "core/Launch.h"
#include "core/Metrics.h"
#include "core/Report.h"
#include "simulator/engine/BlockRunner.h"
#include "simulator/engine/DecodedKernel.h"
#include "simulator/engine/DeviceMemory.h"

#include <array>
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

struct InstStats {
  SharedAccessStats shared;
  GlobalAccessStats global;
};

struct LaunchResult {
  core::Counters total;
  std::vector<InstStats> perInst; // indexed like DecodedKernel::insts()
  std::vector<std::string> notes;
  std::string error; // non-empty: the launch stopped (fault, step budget)
  uint64_t blocksSimulated = 0;
};

class Predictor {
public:
  /// `exhaustive`: simulate every block instead of one per proven class.
  explicit Predictor(const core::ArchSpec &arch, bool exhaustive = false)
      : arch_(arch), exhaustive_(exhaustive) {}

  LaunchResult run(const DecodedKernel &kernel,
                   const core::LaunchConfig &config,
                   const std::vector<KernelArg> &args, DeviceMemory &memory,
                   const Limits &limits) const;

private:
  core::ArchSpec arch_;
  bool exhaustive_ = false;
};

/// Rolls per-instruction counters up to source lines: each instruction counts
/// on the innermost line of its inline chain that lies in `mainFile`
/// (or the innermost line when none does).
std::vector<core::LineReport> rollUpLines(const DecodedKernel &kernel,
                                          const LaunchResult &result,
                                          const std::string &mainFile);

/// The line an instruction is reported on (see rollUpLines).
core::SourceLoc userLocation(const InstInfo &inst, const std::string &mainFile);

} // namespace kcheck::sim
