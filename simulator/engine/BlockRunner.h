// Runs the blocks of one launch of a DecodedKernel, warp by warp, against an
// EventSink. Assumes one BlockRunner per driver thread (it owns the warps'
// register files and the block's shared memory) and that the DeviceMemory it
// is given is not mutated concurrently (with a StoreBuffer it only reads it).
// Warps of a block take turns, each until its next global load, barrier or
// exit (co-resident blocks: until its barrier or exit); divergent branches
// reconverge at the immediate post-dominator on the paths that return
// (Reconvergence.h).
#pragma once

#include "core/Launch.h"
#include "core/SourceLoc.h"
#include "simulator/engine/DecodedKernel.h"
#include "simulator/engine/DeviceMemory.h"
#include "simulator/engine/DeviceRuntime.h"
#include "simulator/engine/Events.h"

#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kcheck::sim {

/// Scalar bits (zero-extended; floats as their IEEE bits) or a device pointer;
/// for a struct passed by value, its bytes as the host laid them out.
struct KernelArg {
  KernelArg() = default;
  KernelArg(uint64_t scalarBits) : bits(scalarBits) {} // NOLINT: {bits}
  uint64_t bits = 0;
  std::vector<uint8_t> bytes; // by-value structs only
  // A value host code computes from data kcheck did not see: simulated as
  // `bits` and tainted like such data, so that a branch or address that
  // depends on it is noted.
  bool unseen = false;
};

/// The register value argument slot `slot` starts with: the scalar's bits, or
/// for a by-value struct the generic address of the thread's copy.
uint64_t argumentRegister(const bc::ArgSlot &slot, const KernelArg *arg);

struct Limits {
  uint64_t maxWarpSteps = 2'000'000'000; // executed warp instructions per block
  // ... once the block's control depends on data kcheck did not see (zero
  // fill): its trip counts are guesses, a runaway one is no program's.
  uint64_t maxZeroFillWarpSteps = 2'000'000'000;
  // Per launch (checked by the drivers between blocks): warp instructions of
  // every block, each block costing at least one; and memory touched (the
  // DeviceMemory's backed pages, whose limit the Predictor sets).
  uint64_t maxLaunchSteps = ~0ull;
  uint64_t maxMemoryBytes = ~0ull;
  // The whole analysis (--time-budget, checked between launches, between
  // blocks and every kClockCheckSteps warp instructions): past `deadline`
  // the launch stops, saying which option raises `budgetSeconds`.
  std::chrono::steady_clock::time_point deadline =
      std::chrono::steady_clock::time_point::max();
  double budgetSeconds = 0;
  bool pastDeadline() const {
    return deadline != std::chrono::steady_clock::time_point::max() &&
           std::chrono::steady_clock::now() > deadline;
  }
};

/// What a launch or block stopped by the time budget says.
std::string timeBudgetText(const Limits &limits);

class StoreBuffer;

/// What stopped a kernel on the GPU.
enum class FaultCause : uint8_t {
  Memory,         // an access out of bounds or misaligned (memcheck)
  Trap,           // a failed device assert, __trap()
  Unreachable,    // an `unreachable` reached (undefined behaviour)
  WarpMemberMask, // a warp-synchronous call whose member mask leaves out
                  // the calling thread (synccheck: "Invalid arguments")
};

/// A memory error, reported like compute-sanitizer does.
struct Fault {
  FaultCause cause = FaultCause::Memory;
  std::string kind; // "out-of-bounds shared write", "misaligned global read"...
  std::string message;
  // The same, in parts: "__shared__ write of size 4 bytes" and "address 0x80
  // is out of bounds, 0 bytes after 'sdata' [0x0, 0x80)" (empty for traps).
  std::string access, problem;
  core::SourceLoc loc;
  core::Dim3 thread, block;
  uint64_t address = 0; // WarpMemberMask: the member mask
  uint32_t instId = 0;
  // What the GPU prints when it happens (a failed assert's line, as
  // __assertfail formats it), or empty.
  std::string gpuOutput;
};

/// What a global access outside every allocation but inside the simulated
/// heap (an overrun of a few elements past a cudaMalloc'd buffer) does.
/// Hardware rule: the GPU checks no bounds; its driver maps device memory in
/// 2 MiB pages and packs cudaMalloc buffers into them, so such an access reads
/// or writes mapped memory of another buffer (or none) and the kernel goes
/// on; only an unmapped address faults ("an illegal memory access").
enum class GlobalOverrun {
  /// Stop the block, as compute-sanitizer's memcheck stops the kernel.
  Fault,
  /// Count the access (its sectors are real traffic), do not perform it:
  /// kcheck cannot know what lies there, so a load gives 0 marked as data
  /// it did not see, and a store or atomic is dropped. Reported through
  /// BlockRunner::overruns().
  CountAndGoOn,
};

struct RunnerOptions {
  std::ostream *printfOut =
      nullptr; // device printf goes here (dropped if null)
  GlobalOverrun overruns = GlobalOverrun::Fault;
  bool instructionEvents = false; // call EventSink::onInstruction
  std::vector<uint32_t> probePcs; // call EventSink::onProbe before these pcs
  // A cooperative launch: the device address of its grid workspace (what
  // %envreg1/%envreg2 give cooperative groups' grid.sync()), and blocks run
  // alongside each other: a warp that spins waiting for memory another
  // block writes makes its block return BlockResult::Status::Waiting, to be
  // resumed (resumeBlock) after other blocks ran.
  uint64_t gridWorkspace = 0;
  bool coResident = false;
  // How soon a co-resident block notices that it waits: every this many
  // warp instructions (0: RunnerImpl.h's default), and also right after a
  // volatile or atomic load of global memory (a poll). Blocks that may wait
  // but mostly do not (the in-order driver) check rarely: each check copies
  // the warp's registers.
  uint64_t waitCheckSteps = 0;
  bool waitCheckAfterPolls = true;
  // The runners of the block's cluster (Cluster.h), when the launch's
  // blocks run cluster by cluster (null: each block is a cluster of one).
  // Needs coResident: a warp waiting at the cluster barrier hands over.
  const struct ClusterMembers *cluster = nullptr;
  // Where the kernel's device-runtime calls go (null: each fails, as a
  // kernel's calls would without the device runtime linked).
  DeviceRuntime *deviceRuntime = nullptr;
};

struct BlockResult {
  // Waiting: co-resident blocks only (RunnerOptions::coResident); every
  // warp left spins, waiting for memory another block writes: resumeBlock().
  enum class Status {
    Completed,
    Faulted,
    StepLimit,
    TimeBudget,
    Error,
    Waiting
  };
  Status status = Status::Completed;
  std::optional<Fault> fault; // when Faulted
  std::string message;        // StepLimit / Error / Waiting: what and where
  uint64_t warpSteps = 0;     // of the block so far (resumes included)
  // Since runBlock or resumeBlock was called: the block stored to memory
  // (another block waiting on it may go on).
  bool wroteMemory = false;
  bool ok() const { return status == Status::Completed; }
};

class BlockRunner {
public:
  BlockRunner(const DecodedKernel &kernel, const core::LaunchConfig &launch,
              std::vector<KernelArg> args, DeviceMemory &memory,
              Limits limits = {}, RunnerOptions options = {});
  ~BlockRunner();
  BlockRunner(const BlockRunner &) = delete;
  BlockRunner &operator=(const BlockRunner &) = delete;

  /// Runs one whole block (all its warps, barriers included).
  BlockResult runBlock(core::Dim3 blockIdx, EventSink &sink);
  /// Goes on with a block that returned Status::Waiting (co-resident blocks:
  /// one runner per block, as a cooperative launch keeps every block
  /// resident).
  BlockResult resumeBlock(EventSink &sink);
  /// From now on the block notices at once that it waits, as a cooperative
  /// launch's blocks do (RunnerOptions::waitCheckSteps): for a block that
  /// has waited once and will be resumed.
  void checkWaitsOften();

  /// Things worth telling the user, each once (tainted branches, barrier
  /// divergence), in the order first seen.
  std::vector<std::string> notes() const;
  /// The notes with the linear index (x fastest) of the block that first
  /// raised each, for drivers merging several runners' notes in launch order.
  std::vector<std::pair<uint64_t, std::string>> notesByBlock() const;
  /// Global overruns performed as counted traffic (GlobalOverrun::
  /// CountAndGoOn) in the blocks run so far: the first of each instruction,
  /// in the order first seen.
  std::vector<Fault> overruns() const;
  /// Whether the blocks run so far used data kcheck did not see (host input
  /// it filled with zeros) in a branch or an address: their counts are a
  /// guess.
  bool usedUnseenInput() const;

  /// Global stores go to `buffer` (and global loads read through it) instead
  /// of the DeviceMemory, which the runner then only reads: several runners
  /// may share one memory. Null: back to direct stores.
  void setStoreBuffer(StoreBuffer *buffer);

  /// Bytes of the block's shared window (static + dynamic).
  uint64_t sharedBytes() const;

  struct Impl; // RunnerImpl.h

private:
  std::unique_ptr<Impl> impl_;
};

} // namespace kcheck::sim
