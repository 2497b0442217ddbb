// Internal state of a BlockRunner: warps (register files, reconvergence
// stacks), the block's shared memory, and the executor's helpers. Assumes the
// DecodedKernel's slot 0 is a constant zero (unused operands point at it).
#pragma once

#include "simulator/engine/BlockRunner.h"
#include "simulator/engine/StoreBuffer.h"

#include <array>
#include <functional>
#include <optional>

namespace kcheck::sim {

struct WarpState {
  struct Entry {
    uint32_t pc;       // next instruction for this lane group
    uint32_t reconvPc; // pop when pc reaches it
    uint32_t mask;
    bool operator==(const Entry &) const = default;
  };
  enum class State : uint8_t { Ready, AtBarrier, Done, Spinning };

  std::vector<uint64_t> regs; // slot-major: slot * 32 + lane
  std::vector<uint8_t> taint; // per slot, warp-wide
  std::vector<uint8_t> local; // lane l's frame at l * frameBytes
  std::vector<Entry> stack;
  uint32_t live = 0; // lanes that exist and have not exited
  uint32_t index = 0;
  State state = State::Ready;
  bool localTainted = false;
  // A branch on data kcheck did not see has been taken: what follows (a loop
  // bound, an index walked past its end) may differ from the program's run.
  bool controlTainted = false;
  std::array<std::array<uint32_t, kWarpSize>, 3> tid{};
  // A barrier reduction this warp waits at: its result goes to `dst` of
  // the lanes in `mask` when the barrier is released.
  struct PendingReduction {
    bc::BarrierReduction kind = bc::BarrierReduction::None;
    uint32_t dst = 0, mask = 0;
  } reduction;
  // How often each lane arrived at the cluster barrier (Cluster.h).
  std::array<uint32_t, kWarpSize> clusterArrivals{};

  uint64_t *slot(uint32_t s) { return regs.data() + size_t(s) * kWarpSize; }
  const uint64_t *slot(uint32_t s) const {
    return regs.data() + size_t(s) * kWarpSize;
  }
};

/// How runWarp stopped. Spin: in a cooperative launch, the warp came back to
/// a loop head in the same state with no memory written (warpRepeats): it
/// waits for another block or warp. Yield: it issued a global load and lets
/// the block's other warps run (runWarps).
enum class WarpStop : uint8_t { Barrier, Done, Abort, Spin, Yield };

struct BlockRunner::Impl {
  Impl(const DecodedKernel &kernel, const core::LaunchConfig &launch,
       std::vector<KernelArg> args, DeviceMemory &memory, Limits limits,
       RunnerOptions options);

  BlockResult runBlock(core::Dim3 blockIdx, EventSink &sink);
  /// Runs the block's ready warps, releasing barriers, until it completes,
  /// stops, or (co-resident only) every warp left waits (Status::Waiting).
  BlockResult runWarps(EventSink &sink);
  bool runReadyWarps(EventSink &sink, bool &progressed, bool &yielded);
  BlockResult stopRepeatingBlock(uint64_t writesAtEntry);
  /// The result, with the steps and memory writes since `writesAtEntry`.
  BlockResult finishBlock(uint64_t writesAtEntry);
  WarpStop runWarp(WarpState &w, EventSink &sink);
  std::optional<WarpStop> runStraightLine(WarpState &w, WarpState::Entry &top,
                                          uint32_t mask, uint64_t stepLimit,
                                          bool yieldAtGlobalLoads,
                                          EventSink &sink);
  void reportInstruction(uint32_t pc, const WarpState &w, uint32_t mask,
                         EventSink &sink);
  WarpStop stopAtStepLimit(uint32_t pc, uint64_t stepLimit);
  WarpStop stopAtTimeBudget(uint32_t pc);
  bool execMemoryAccess(const bc::Inst &in, uint32_t pc, WarpState &w,
                        uint32_t mask, EventSink &sink);
  bool execWarpLevel(const bc::Inst &in, uint32_t pc, WarpState &w,
                     uint32_t mask, EventSink &sink);
  void execDataFlow(const bc::Inst &in, WarpState &w, uint32_t mask);
  /// The block's barrier reduction of the current round (releaseBarrier
  /// hands it to the waiting warps): how many threads arrived with a true
  /// predicate, and how many arrived.
  uint64_t reductionTrue = 0, reductionThreads = 0;
  void releaseBarrier();
  WarpStop stopAtBarrier(const bc::Inst &in, uint32_t pc, WarpState &w,
                         WarpState::Entry &top, uint32_t mask, EventSink &sink);
  WarpStop stopAtTrap(const bc::Inst &in, uint32_t pc, WarpState &w,
                      uint32_t mask);

  // Control flow (ExecControl.cpp).
  /// At a barrier that only some of `w`'s live lanes have reached: moves to
  /// the top of the stack a path of the warp's other lanes that can run on
  /// (not at a barrier, not waiting to reconverge). False when none can.
  bool runOtherPathFirst(WarpState &w);
  /// The lanes of `w`'s other paths waiting at the barrier at `pc`, moved
  /// past it: they arrive with the top's.
  uint32_t arriveWithPathsAt(WarpState &w, uint32_t pc);
  void copyPhis(WarpState &w, uint32_t edge, uint32_t mask);
  void diverge(WarpState &w, uint32_t pc,
               const std::pair<uint32_t, uint32_t> *groups, unsigned count);
  static void settle(WarpState &w);
  void transferControl(const bc::Inst &in, uint32_t pc, WarpState &w,
                       WarpState::Entry &top, uint32_t mask, EventSink &sink);
  void branchOnCondition(const bc::Inst &in, uint32_t pc, WarpState &w,
                         WarpState::Entry &top, uint32_t mask, EventSink &sink);
  void branchOnSwitch(const bc::Inst &in, uint32_t pc, WarpState &w,
                      WarpState::Entry &top, uint32_t mask, EventSink &sink);
  void noteUnseenInputBranch(const bc::Inst &in, uint32_t pc, WarpState &w);

  // Memory (ExecMemory.cpp). Return false after recording a fault.
  bool execMemory(const bc::Inst &in, uint32_t pc, WarpState &w, uint32_t mask,
                  EventSink &sink);
  bool execMemIntrinsic(const bc::Inst &in, uint32_t pc, WarpState &w,
                        uint32_t mask);
  // Parts of execMemory, over the lanes' resolved spaces and addresses.
  uint32_t dropLanesLeavingMemory(const bc::Inst &in, uint32_t pc,
                                  const WarpState &w, uint32_t mask);
  void reportAccesses(const bc::Inst &in, uint32_t pc, const WarpState &w,
                      AccessKind kind, uint32_t mask, const uint32_t *spaceMask,
                      const uint64_t *addrs, EventSink &sink);
  void loadLanes(const bc::Inst &in, WarpState &w, uint32_t mask,
                 uint32_t zeroed, uint32_t overran, const MemSpace *spaces,
                 const uint64_t *addrs);
  void storeLanes(const bc::Inst &in, WarpState &w, uint32_t performed,
                  const MemSpace *spaces, const uint64_t *addrs);
  void atomicLanes(const bc::Inst &in, WarpState &w, uint32_t mask,
                   uint32_t overran, const MemSpace *spaces,
                   const uint64_t *addrs);
  bool execPrintf(const bc::Inst &in, uint32_t pc, WarpState &w, uint32_t mask);
  bool execTexture(const bc::Inst &in, uint32_t pc, WarpState &w,
                   uint32_t mask);
  bool execDeviceHeap(const bc::Inst &in, uint32_t pc, WarpState &w,
                      uint32_t mask);
  bool execDeviceRuntime(const bc::Inst &in, uint32_t pc, WarpState &w,
                         uint32_t mask);
  // A lane's generic address as a space and an offset in it, if valid for
  // `n` bytes (no fault recorded).
  bool genericPlace(uint64_t generic, uint64_t n, MemSpace &space,
                    uint64_t &addr) const;
  // Resolves lane `lane`'s pointer of IR address space `as`. Returns false
  // (and records a fault) if [addr, addr+bytes) is not valid memory.
  bool resolve(unsigned as, uint64_t raw, uint32_t bytes, bool isWrite,
               bool atomic, uint32_t pc, const WarpState &w, unsigned lane,
               MemSpace &space, uint64_t &addr, bool checkAlignment = true);
  // Lanes of a memory instruction that would fault, found without faulting.
  uint32_t lanesOutsideMemory(const bc::Inst &in, uint32_t pc,
                              const WarpState &w, uint32_t mask);
  bool quietFaults = false;
  // The global allocation resolve() found last; reset for each block.
  struct {
    uint64_t base = 0, size = 0;
  } lastAllocation;
  DeviceMemory::ReadCursor readCursor; // the global page read last
  // Set by resolve() when it let a global overrun through
  // (GlobalOverrun::CountAndGoOn): the caller counts the lane's access but
  // does not perform it, and clears the flag.
  bool laneOverran = false;
  // The first overrun of each instruction, over every block this runner
  // ran, and per pc whether it has one.
  std::vector<Fault> overruns;
  std::vector<bool> overranAt;
  /// Lanes of `mask` whose access leaves the object the IR names at `pc`.
  uint32_t objectBoundsOutside(const bc::Inst &in, uint32_t pc, uint32_t mask,
                               const MemSpace *spaces,
                               const uint64_t *addrs) const;
  bool checkObjectBounds(const bc::Inst &in, uint32_t pc, const WarpState &w,
                         uint32_t mask, const MemSpace *spaces,
                         const uint64_t *addrs);
  // Memory errors (SanitizerFaults.cpp): records the fault, with the
  // allocation the access missed; returns false.
  bool memoryFault(bool misaligned, MemSpace space, const char *op,
                   uint32_t bytes, uint64_t addr, uint32_t pc,
                   const WarpState &w, unsigned lane);
  // The same error, recorded as an overrun the launch goes on after.
  void recordOverrun(const char *op, uint32_t bytes, uint64_t addr, uint32_t pc,
                     const WarpState &w, unsigned lane);
  Fault accessFault(bool misaligned, MemSpace space, const char *op,
                    uint32_t bytes, uint64_t addr, uint32_t pc,
                    const WarpState &w, unsigned lane) const;
  std::pair<uint64_t, uint64_t> objectBounds(const InstInfo &info) const;
  std::string nearestAllocation(MemSpace space, uint64_t addr, uint32_t bytes,
                                uint32_t pc) const;
  bool readBytes(MemSpace space, uint64_t addr, void *dst, uint64_t n,
                 WarpState &w, unsigned lane);
  void writeBytes(MemSpace space, uint64_t addr, const void *src, uint64_t n,
                  bool tainted, WarpState &w, unsigned lane);

  // Thread-block clusters (ExecCluster.cpp): the shared bytes at a
  // shared::cluster address (this block's, or another's of the cluster) and
  // their taint; whether its rank names a block of the cluster; whether
  // every thread of the cluster arrived at the barrier as often as the lanes
  // of `mask`; mapa, getctarank and the barrier's arrival.
  uint8_t *sharedAt(uint64_t addr);
  bool &sharedTaintAt(uint64_t addr);
  bool sharedRankValid(uint64_t addr) const;
  bool clusterArrived(const WarpState &w, uint32_t mask) const;
  void execCluster(const bc::Inst &in, WarpState &w, uint32_t mask);
  bool blockStarted = false; // runBlock ran (its warps exist)

  // Warp-level intrinsics and special registers (ExecWarp.cpp).
  void execSreg(const bc::Inst &in, WarpState &w, uint32_t mask);
  uint64_t sregValue(bc::SregKind kind, const WarpState &w,
                     unsigned lane) const;
  void execShfl(const bc::Inst &in, WarpState &w, uint32_t mask);
  void execVote(const bc::Inst &in, WarpState &w, uint32_t mask);
  /// False (and the fault recorded) when a lane of `mask` calls a
  /// warp-synchronous instruction whose runtime member mask leaves it out.
  bool checkMemberMask(const bc::Inst &in, uint32_t pc, const WarpState &w,
                       uint32_t mask);

  /// `at`: where to say it happened, if not at the instruction's location.
  void recordFault(FaultCause cause, std::string kind, std::string message,
                   uint32_t pc, const WarpState &w, unsigned lane,
                   uint64_t address, const core::SourceLoc *at = nullptr);
  Fault makeFault(std::string kind, std::string message, uint32_t pc,
                  const WarpState &w, unsigned lane, uint64_t address,
                  const core::SourceLoc *at = nullptr) const;
  core::Dim3 threadOf(const WarpState &w, unsigned lane) const;
  // What a note is about: each once per instruction (noted[pc] bits).
  enum NoteKind : uint8_t {
    kUnseenInputBranch = 1, // a branch on data kcheck did not see
    kBarrierDivergence = 2,
    kUnseenInputAddress = 4, // an address computed from such data
    kUnseenInputLanes = 8,   // lanes dropped: such an address left memory
    kDistributedShared = 16, // another block's shared memory (Cluster.h)
  };
  void noteOnce(uint32_t pc, NoteKind kind, std::string text);
  std::string where(uint32_t pc) const;
  void addNote(std::string text);
  void copyByvalArguments(WarpState &w);

  const DecodedKernel &kernel;
  core::LaunchConfig launch;
  std::vector<KernelArg> args;
  DeviceMemory &memory;
  Limits limits;
  RunnerOptions options;
  uint64_t sharedBytes = 0;
  std::vector<uint8_t> shared;
  bool sharedTainted = false;
  std::vector<std::unique_ptr<WarpState>> warps;
  std::vector<uint64_t> phiTemp;
  std::vector<uint8_t> phiTaintTemp;
  std::vector<std::string> notes;
  // A note of a kUnseenInput* kind was made: the counts are a guess that
  // running the program's host code would make exact.
  bool usedUnseenInput = false;
  std::vector<uint64_t> noteBlocks;   // linear block of each note
  StoreBuffer *storeBuffer = nullptr; // global stores go here when set
  std::vector<uint8_t> noted;         // per pc: NoteKind bits
  std::vector<uint8_t> probeAt;       // per pc: 1 if options.probePcs lists it
  // Per pc: the bounds of the access's underlying object, when the IR names
  // one (checkObjectBounds); filled once, so the check reads no InstInfo.
  struct ObjectRange {
    uint64_t lo = 0, hi = ~0ull;
    bool bounded = false, generic = false;
    MemSpace space = MemSpace::Global;
  };
  std::vector<ObjectRange> objectRanges;
  // Per block run.
  core::Dim3 blockIdx;
  uint64_t steps = 0;
  BlockResult result;
  // The time budget (Limits::deadline) is read every kClockCheckSteps warp
  // instructions, at a control transfer: a few milliseconds apart.
  static constexpr uint64_t kClockCheckSteps = 1u << 18;
  uint64_t nextClockCheck = kClockCheckSteps;

  // Non-termination (RepeatWatch.cpp): every kRepeatCheckSteps warp
  // instructions a snapshot of the running warp is taken at a block start;
  // the warp coming back there in the same state with no memory written in
  // between can never leave its loop, whatever the step budget.
  static constexpr uint64_t kRepeatCheckSteps = 1u << 20;
  struct RepeatWatch {
    bool armed = false;
    uint32_t warp = 0, pc = 0, live = 0;
    uint64_t writes = 0;
    std::vector<uint64_t> regs;
    std::vector<WarpState::Entry> stack;
  } repeatWatch;
  // Co-resident blocks check far more often: a spinning warp hands over to
  // the other blocks after a few hundred instructions, not a million.
  static constexpr uint64_t kCoResidentRepeatCheckSteps = 256;
  uint64_t repeatCheckSteps = kRepeatCheckSteps;
  uint64_t nextRepeatCheck = kRepeatCheckSteps;
  uint64_t memoryWrites = 0; // stores, atomics, memcpy/memset of the block
  void resetRepeatWatch();
  // The same across barriers: a block whose warps loop around a
  // __syncthreads() while they wait (HeCBench bh's SortKernel) is checked at
  // each barrier release, every warp's state against a snapshot taken at an
  // earlier release, with no memory written in between.
  struct BarrierWatch {
    bool armed = false;
    uint64_t writes = 0;
    std::vector<uint32_t> live;
    std::vector<std::vector<uint64_t>> regs;
    std::vector<std::vector<WarpState::Entry>> stacks;
  } barrierWatch;
  uint64_t nextBarrierCheck = kRepeatCheckSteps;
  /// At a barrier release: true (result.message set) when the block came
  /// back to a released barrier in the same state.
  bool blockRepeatsAtBarrier();
  /// At the start of a basic block: arms the watch, or checks it; true when
  /// the warp repeats (result.status/message are then set, unless the
  /// blocks are co-resident: the warp then waits for another one).
  bool warpRepeats(const WarpState &w, uint32_t pc);
};

/// ALU, casts, vector shuffles and math (ExecAlu.cpp). Computes the active
/// lanes of in.dst; inactive lanes keep their previous values.
void execAlu(const bc::Inst &in, const DecodedKernel &kernel, WarpState &w,
             uint32_t mask);
/// Number of slots an instruction writes.
unsigned resultSlots(const bc::Inst &in, const DecodedKernel &kernel);
/// Warp-wide taint of an instruction's register operands.
bool operandTaint(const bc::Inst &in, const DecodedKernel &kernel,
                  const WarpState &w);

/// Formats one lane's device printf (Printf.cpp). `readArg` copies bytes of
/// the argument buffer; `readString` returns the C string at a device address.
std::string formatDevicePrintf(
    const std::string &format,
    const std::function<void(uint64_t offset, void *dst, unsigned n)> &readArg,
    const std::function<std::string(uint64_t address)> &readString);

/// The line the GPU prints for failed assert `trap` at fault `f`
/// (SanitizerFaults.cpp).
std::string assertLine(const TrapInfo &trap, const Fault &f);

} // namespace kcheck::sim
