// The block-choosing driver of a launch: simulates one representative per
// class of provably equivalent blocks and counts it once per member, or every
// block when equivalence cannot be proven (or `exhaustive` is asked for).
//
// Blocks are visited in launch order (x fastest). A block joins an open class
// when every check of the launch's BlockSymmetry holds for it against the
// values the class's representative was observed to use (so it takes the same
// branches, touches the same shared addresses, and its global addresses are
// the representative's shifted by a multiple of the sector granule, inside
// the same allocation); otherwise it becomes the representative of a new
// class and is simulated at its place in the order. Results are deterministic
// and equal to simulating every block, except for what skipped blocks would
// have written to global memory: those bytes keep their earlier values and
// are marked input-derived (tainted), so later launches that branch on them
// are noted. A block joins only a representative that never executed a
// branch or address depending on loaded data (BlockSymmetry's Unreached
// checks), so skipped stores cannot change its counts; where blocks talk
// through global atomics or volatile loads such a kernel runs every block.
// When most of the first kTrialBlocks simulated blocks reach such a pc and
// few join, the rest of the launch runs every block (in parallel).
#pragma once

#include "core/ArchSpec.h"
#include "simulator/Predictor.h"
#include "simulator/engine/BlockSymmetry.h"

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>

namespace kcheck::sim {

/// Counts a block's events into a LaunchResult (the Predictor's models).
class BlockCounter {
public:
  virtual ~BlockCounter();
  /// The sink for `block`'s events, counting into `into`; `firstBlock`: the
  /// launch's block (0,0,0), whose per-execution detail is kept.
  virtual EventSink &begin(LaunchResult &into, core::Dim3 block,
                           bool firstBlock) = 0;
  /// A counter of its own for another thread (same models); null: this
  /// counter cannot be used in parallel and blocks run on one thread.
  virtual std::unique_ptr<BlockCounter> fork() const { return nullptr; }
};

struct BlockClassOptions {
  bool exhaustive = false;
  /// With `exhaustive`: blocks proven to leave nothing behind but their
  /// counts are counted as a representative, not run (IdleBlocks.h). Off
  /// where every block's events are wanted (sanitizer checks, --exhaustive).
  bool skipIdleBlocks = false;
  /// Global shifts must be multiples of this to keep sector counts (the
  /// model's largest granule: 32-byte sectors on sm_90).
  unsigned granuleBytes = 32;
  /// Classes a block is compared with (older ones are closed): bounds memory
  /// and matching time when many blocks differ.
  unsigned maxOpenClasses = 16;
  /// Threads that run blocks when every block runs (simulator/AllBlocks.h).
  unsigned jobs = 1;
  /// Called now and then with (blocks done, blocks in the launch).
  std::function<void(uint64_t, uint64_t)> progress;
  /// Device printf output, in launch order of the blocks that print (null:
  /// dropped).
  std::ostream *printfOut = nullptr;
  /// What a small overrun of a global allocation does (GlobalOverrun).
  GlobalOverrun overruns = GlobalOverrun::Fault;
  /// The launch's device runtime (null: the kernel calls none); with one,
  /// blocks run on one thread (`jobs` 1).
  DeviceRuntime *deviceRuntime = nullptr;
};

/// What the driver did, for tests and diagnostics.
struct BlockClassReport {
  bool provable = false; // classes were used (for some blocks at least)
  /// Why every block ran (!provable), or why the blocks after the first
  /// ones did (provable).
  std::string reason;
  uint64_t classes = 0;
};

/// The shift (bytes) that provably keeps `arch`'s global-memory costs: its
/// largest segment or line, 256 on the half-warp-coalescing generations.
unsigned blockShiftGranule(const core::ArchSpec &arch);

/// Runs the launch's blocks (on its own BlockRunner) through `counter`.
LaunchResult
runBlockClasses(const DecodedKernel &kernel, const core::LaunchConfig &config,
                const std::vector<KernelArg> &args, DeviceMemory &memory,
                const Limits &limits, const BlockClassOptions &options,
                BlockCounter &counter, BlockClassReport *report = nullptr);

/// Adds `part` (the counts of one simulated block) `times` times to `into`.
/// Worst warps keep the launch-order first among equals, as a block-by-block
/// run would. Must cover every field of InstStats.
void accumulate(LaunchResult &into, const LaunchResult &part, uint64_t times);

} // namespace kcheck::sim
