#include "simulator/engine/RunnerImpl.h"

#include "simulator/engine/AddressWindows.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace kcheck::sim {

using bc::Inst;
using bc::Op;

namespace {
// A load from global memory (or a generic pointer), which on the GPU takes
// long enough for the block's other warps to issue.
bool isGlobalLoad(const Inst &in) {
  return in.op == Op::Load && in.sub != bc::kSharedAS &&
         in.sub != bc::kLocalAS && in.sub != bc::kConstAS;
}
} // namespace

BlockRunner::BlockRunner(const DecodedKernel &kernel,
                         const core::LaunchConfig &launch,
                         std::vector<KernelArg> args, DeviceMemory &memory,
                         Limits limits, RunnerOptions options)
    : impl_(std::make_unique<Impl>(kernel, launch, std::move(args), memory,
                                   limits, options)) {}
BlockRunner::~BlockRunner() = default;

BlockResult BlockRunner::runBlock(core::Dim3 blockIdx, EventSink &sink) {
  return impl_->runBlock(blockIdx, sink);
}

std::vector<std::string> BlockRunner::notes() const { return impl_->notes; }
std::vector<std::pair<uint64_t, std::string>>
BlockRunner::notesByBlock() const {
  std::vector<std::pair<uint64_t, std::string>> out;
  for (size_t i = 0; i < impl_->notes.size(); ++i)
    out.emplace_back(impl_->noteBlocks[i], impl_->notes[i]);
  return out;
}

std::vector<Fault> BlockRunner::overruns() const { return impl_->overruns; }
bool BlockRunner::usedUnseenInput() const { return impl_->usedUnseenInput; }
void BlockRunner::setStoreBuffer(StoreBuffer *buffer) {
  impl_->storeBuffer = buffer;
}

uint64_t BlockRunner::sharedBytes() const { return impl_->sharedBytes; }

BlockRunner::Impl::Impl(const DecodedKernel &kernel,
                        const core::LaunchConfig &launch,
                        std::vector<KernelArg> args, DeviceMemory &memory,
                        Limits limits, RunnerOptions options)
    : kernel(kernel), launch(launch), args(std::move(args)), memory(memory),
      limits(limits), options(options) {
  sharedBytes = kernel.staticSharedBytes() + launch.dynamicSharedBytes;
  shared.resize(sharedBytes);
  noted.resize(kernel.code().size());
  probeAt.assign(kernel.code().size(), 0);
  objectRanges.resize(kernel.code().size());
  for (size_t pc = 0; pc < kernel.insts().size(); ++pc) {
    const InstInfo &info = kernel.insts()[pc];
    if (info.sharedVariable < 0 && info.localVariable < 0)
      continue;
    auto [lo, hi] = objectBounds(info);
    objectRanges[pc] = {lo, hi, true, info.isGenericAddress,
                        info.sharedVariable >= 0 ? MemSpace::Shared
                                                 : MemSpace::Local};
  }
  for (uint32_t pc : this->options.probePcs)
    if (pc < probeAt.size())
      probeAt[pc] = 1;
  phiTemp.resize(size_t(kernel.maxPhiCopies()) * kWarpSize);
  phiTaintTemp.resize(kernel.maxPhiCopies());

  // Register-file template: constants (relocated to this memory's symbols)
  // and arguments are uniform and never overwritten, so fill them once.
  std::vector<uint64_t> symbolBase;
  for (const bc::DeviceSymbol &sym : kernel.deviceSymbols())
    symbolBase.push_back(memory.allocateSymbol(sym.name, sym.bytes, sym.init));
  uint64_t threads = launch.block.count();
  unsigned numWarps = unsigned((threads + kWarpSize - 1) / kWarpSize);
  for (unsigned i = 0; i < numWarps; ++i) {
    auto w = std::make_unique<WarpState>();
    w->regs.assign(size_t(kernel.numSlots()) * kWarpSize, 0);
    w->taint.assign(kernel.numSlots(), 0);
    w->local.assign(kernel.localFrameBytes() * kWarpSize, 0);
    w->stack.reserve(64);
    w->index = i;
    for (const bc::ConstSlot &c : kernel.constSlots()) {
      uint64_t v = c.value + (c.symbol >= 0 ? symbolBase[c.symbol] : 0);
      std::fill_n(w->slot(c.slot), kWarpSize, v);
    }
    const auto &argSlots = kernel.argSlots();
    for (size_t a = 0; a < argSlots.size(); ++a) {
      uint64_t v = argumentRegister(
          argSlots[a], a < this->args.size() ? &this->args[a] : nullptr);
      std::fill_n(w->slot(argSlots[a].slot), kWarpSize, v);
      if (a < this->args.size() && this->args[a].unseen)
        w->taint[argSlots[a].slot] = 1;
    }
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
      uint64_t linear = uint64_t(i) * kWarpSize + lane;
      if (linear >= threads)
        continue;
      w->live |= 1u << lane;
      uint64_t bx = launch.block.x, by = launch.block.y;
      w->tid[0][lane] = uint32_t(linear % bx);
      w->tid[1][lane] = uint32_t(linear / bx % by);
      w->tid[2][lane] = uint32_t(linear / (bx * by));
    }
    warps.push_back(std::move(w));
  }
}

std::string BlockRunner::Impl::where(uint32_t pc) const {
  return kernel.insts()[pc].where();
}

core::Dim3 BlockRunner::Impl::threadOf(const WarpState &w,
                                       unsigned lane) const {
  return {w.tid[0][lane], w.tid[1][lane], w.tid[2][lane]};
}

void BlockRunner::Impl::noteOnce(uint32_t pc, NoteKind kind, std::string text) {
  usedUnseenInput |=
      (kind & (kUnseenInputBranch | kUnseenInputAddress | kUnseenInputLanes)) !=
      0;
  if (noted[pc] & kind)
    return;
  noted[pc] |= kind;
  addNote(std::move(text));
}

void BlockRunner::Impl::addNote(std::string text) {
  const core::Dim3 &g = launch.grid;
  noteBlocks.push_back(
      blockIdx.x + uint64_t(g.x) * (blockIdx.y + uint64_t(g.y) * blockIdx.z));
  notes.push_back(std::move(text));
}

BlockResult BlockRunner::Impl::runBlock(core::Dim3 idx, EventSink &sink) {
  blockIdx = idx;
  steps = 0;
  nextClockCheck = kClockCheckSteps;
  lastAllocation = {};
  resetRepeatWatch();
  if (storeBuffer) // blocks never read each other's buffered stores
    storeBuffer->endBlock();
  result = BlockResult();
  // Between blocks, whichever driver runs them: the analysis's time budget.
  if (limits.pastDeadline()) {
    result.status = BlockResult::Status::TimeBudget;
    result.message = timeBudgetText(limits) + " before block (" +
                     core::toString(blockIdx) + ") of " + kernel.name();
    return result;
  }
  std::fill(shared.begin(), shared.end(), 0);
  sharedTainted = false;
  for (auto &w : warps) {
    w->stack.clear();
    w->live = 0;
    for (unsigned lane = 0; lane < kWarpSize; ++lane)
      if (uint64_t(w->index) * kWarpSize + lane < launch.block.count())
        w->live |= 1u << lane;
    w->stack.push_back({kernel.entryPc(), DecodedKernel::kExitPc, w->live});
    w->state = WarpState::State::Ready;
    w->localTainted = false;
    w->controlTainted = false;
    w->clusterArrivals.fill(0);
    copyByvalArguments(*w);
  }
  blockStarted = true;
  return runWarps(sink);
}

BlockResult BlockRunner::Impl::runWarps(EventSink &sink) {
  using State = WarpState::State;
  result.status = BlockResult::Status::Completed;
  const uint64_t writesAtEntry = memoryWrites;
  // Warps run in turn, each until its next global load (runWarp yields
  // there), barrier or exit; when none is ready, every waiting warp is
  // released together. On the GPU a warp's global load takes hundreds of
  // cycles while the others issue, so between two barriers the warps advance
  // together, not one after another: a value one warp reads from shared
  // memory right after a barrier is read before another warp, past its own
  // loads, overwrites it (HeCBench layernorm's two BlockReduce calls).
  // (Co-resident blocks: a warp that spins waits until another warp or
  // block wrote memory; those warps run to their barriers, unchanged.)
  for (;;) {
    bool progressed = false, yielded = false;
    if (!runReadyWarps(sink, progressed, yielded))
      return finishBlock(writesAtEntry);
    if (yielded) // their turns go on before any barrier is released
      continue;
    unsigned waiting = 0, spinning = 0;
    for (auto &w : warps) {
      waiting += w->state == State::AtBarrier;
      spinning += w->state == State::Spinning;
    }
    if (spinning) {
      // Spinning warps try again while the block's other warps get on;
      // when none can, the block waits for the other blocks.
      if (!progressed) {
        result.status = BlockResult::Status::Waiting;
        return finishBlock(writesAtEntry);
      }
      for (auto &w : warps)
        if (w->state == State::Spinning)
          w->state = State::Ready;
      continue;
    }
    if (waiting == 0)
      break;
    if (blockRepeatsAtBarrier())
      return stopRepeatingBlock(writesAtEntry);
    // Warps that have exited are not waited for (sm_70 and later: the
    // barrier counts the block's threads that have not exited).
    releaseBarrier();
  }
  return finishBlock(writesAtEntry);
}

// Every warp waiting at the barrier goes on, a barrier reduction's result
// in its register.
void BlockRunner::Impl::releaseBarrier() {
  using State = WarpState::State;
  for (auto &w : warps) {
    if (w->state != State::AtBarrier)
      continue;
    w->state = State::Ready;
    WarpState::PendingReduction &r = w->reduction;
    if (r.kind == bc::BarrierReduction::None)
      continue;
    uint64_t value = r.kind == bc::BarrierReduction::Popc ? reductionTrue
                     : r.kind == bc::BarrierReduction::And
                         ? uint64_t(reductionTrue == reductionThreads)
                         : uint64_t(reductionTrue != 0);
    uint64_t *dst = w->slot(r.dst);
    for (uint32_t m = r.mask; m; m &= m - 1)
      dst[__builtin_ctz(m)] = value;
    r = {};
  }
  reductionTrue = reductionThreads = 0;
}

// One turn of each ready warp. False when one aborted the block (its fault,
// if any, reported to the sink).
bool BlockRunner::Impl::runReadyWarps(EventSink &sink, bool &progressed,
                                      bool &yielded) {
  using State = WarpState::State;
  for (auto &w : warps) {
    if (w->state != State::Ready)
      continue;
    uint64_t writesBefore = memoryWrites;
    WarpStop stop = runWarp(*w, sink);
    if (stop == WarpStop::Yield) {
      // Only its turn ended: the repeat watch stays armed (another warp
      // that writes memory disarms it through the write count).
      progressed = yielded = true;
      continue;
    }
    // Other warps run now; they may change what this one will read (a
    // count of barrier rounds kept in registers), so a repeat is judged
    // only within one uninterrupted run of a warp.
    repeatWatch.armed = false;
    if (stop == WarpStop::Abort) {
      if (result.fault)
        sink.onFault(*result.fault);
      return false;
    }
    w->state = stop == WarpStop::Barrier ? State::AtBarrier
               : stop == WarpStop::Spin  ? State::Spinning
                                         : State::Done;
    // A warp that only spun changed nothing another one could see.
    progressed |= stop != WarpStop::Spin || memoryWrites != writesBefore;
  }
  return true;
}

// The block came back to a released barrier in the same state.
BlockResult BlockRunner::Impl::stopRepeatingBlock(uint64_t writesAtEntry) {
  if (options.coResident) { // waits for other blocks, at the barrier
    result.status = BlockResult::Status::Waiting;
    return finishBlock(writesAtEntry);
  }
  result.status = BlockResult::Status::StepLimit;
  result.message = "never leaves its loop: " + result.message +
                   ". If it waits for another block, note that kcheck "
                   "runs blocks one after another, not alongside";
  return finishBlock(writesAtEntry);
}

BlockResult BlockRunner::Impl::finishBlock(uint64_t writesAtEntry) {
  result.warpSteps = steps;
  result.wroteMemory = memoryWrites != writesAtEntry;
  return result;
}

BlockResult BlockRunner::resumeBlock(EventSink &sink) {
  for (auto &w : impl_->warps)
    if (w->state == WarpState::State::Spinning)
      w->state = WarpState::State::Ready;
  return impl_->runWarps(sink);
}

void BlockRunner::checkWaitsOften() {
  Impl &i = *impl_;
  i.options.waitCheckSteps = Impl::kCoResidentRepeatCheckSteps;
  i.options.waitCheckAfterPolls = true;
  i.repeatCheckSteps = Impl::kCoResidentRepeatCheckSteps;
  i.nextRepeatCheck = std::min(i.nextRepeatCheck, i.steps + i.repeatCheckSteps);
  i.nextBarrierCheck =
      std::min(i.nextBarrierCheck, i.steps + i.repeatCheckSteps);
}

WarpStop BlockRunner::Impl::runWarp(WarpState &w, EventSink &sink) {
  // Global loads end the warp's turn when other warps share the block
  // (runWarps); co-resident blocks keep each warp running to its barrier.
  const bool yieldAtGlobalLoads = !options.coResident && warps.size() > 1;
  for (;;) {
    settle(w);
    if (w.stack.empty())
      return WarpStop::Done;
    WarpState::Entry &top = w.stack.back();
    const uint32_t mask = top.mask & w.live;
    uint32_t pc = top.pc;
    if ((steps >= nextRepeatCheck || repeatWatch.armed) && warpRepeats(w, pc))
      return options.coResident ? WarpStop::Spin : WarpStop::Abort;
    if (steps >= nextClockCheck) {
      nextClockCheck = steps + kClockCheckSteps;
      if (limits.pastDeadline())
        return stopAtTimeBudget(pc);
    }
    // controlTainted changes only at a branch, which ends the inner loop.
    const uint64_t stepLimit =
        w.controlTainted
            ? std::min(limits.maxWarpSteps, limits.maxZeroFillWarpSteps)
            : limits.maxWarpSteps;
    if (std::optional<WarpStop> stop =
            runStraightLine(w, top, mask, stepLimit, yieldAtGlobalLoads, sink))
      return *stop;
  }
}

// Straight-line code until a control transfer (nullopt: the caller re-reads
// the stack), barrier or fault.
std::optional<WarpStop>
BlockRunner::Impl::runStraightLine(WarpState &w, WarpState::Entry &top,
                                   uint32_t mask, uint64_t stepLimit,
                                   bool yieldAtGlobalLoads, EventSink &sink) {
  const Inst *code = kernel.code().data();
  const bool hooks = options.instructionEvents || !options.probePcs.empty();
  for (uint32_t pc = top.pc;; ++pc) {
    const Inst &in = code[pc];
    // A barrier waits for the warp's every live lane (sm_70 and later):
    // lanes on another path that can still run go first, to exit or come
    // here, before this path arrives (the barrier is run when it resumes).
    if (in.op == Op::Barrier && mask != w.live) {
      top.pc = pc;
      if (runOtherPathFirst(w))
        return std::nullopt;
    }
    if (++steps > stepLimit)
      return stopAtStepLimit(pc, stepLimit);
    if (hooks)
      reportInstruction(pc, w, mask, sink);
    switch (in.op) {
    case Op::Load:
    case Op::Store:
    case Op::AtomicRmw:
    case Op::CmpXchg:
      if (!execMemoryAccess(in, pc, w, mask, sink))
        return WarpStop::Abort;
      if (yieldAtGlobalLoads && isGlobalLoad(in)) {
        top.pc = pc + 1;
        return WarpStop::Yield;
      }
      break;
    case Op::MemCpy:
    case Op::MemSet:
      ++memoryWrites;
      if (!execMemIntrinsic(in, pc, w, mask))
        return WarpStop::Abort;
      break;
    case Op::Printf:
      if (!execPrintf(in, pc, w, mask))
        return WarpStop::Abort;
      break;
    case Op::DeviceHeap:
      if (!execDeviceHeap(in, pc, w, mask))
        return WarpStop::Abort;
      break;
    case Op::DeviceRuntime:
      ++memoryWrites; // an out-value, a launch other blocks do not see
      if (!execDeviceRuntime(in, pc, w, mask))
        return WarpStop::Abort;
      break;
    case Op::Texture:
      if (!execTexture(in, pc, w, mask))
        return WarpStop::Abort;
      break;
    case Op::Sreg:
    case Op::ActiveMask:
    case Op::Shfl:
    case Op::Vote:
    case Op::WarpSync:
      if (!execWarpLevel(in, pc, w, mask, sink))
        return WarpStop::Abort;
      break;
    case Op::Nop:
      break;
    case Op::Barrier:
      return stopAtBarrier(in, pc, w, top, mask, sink);
    case Op::Cluster:
      // barrier.cluster.wait: until every thread of the cluster arrived;
      // the warp tries again after the others ran (coResident).
      if (in.sub == uint8_t(bc::ClusterOp::Wait) && !clusterArrived(w, mask)) {
        top.pc = pc;
        --steps; // the retry counts as the one execution
        return WarpStop::Spin;
      }
      execCluster(in, w, mask);
      break;
    case Op::Trap:
    case Op::Unreachable:
      return stopAtTrap(in, pc, w, mask);
    case Op::Ret:
    case Op::Br:
    case Op::CondBr:
    case Op::Switch:
      transferControl(in, pc, w, top, mask, sink);
      return std::nullopt; // control transfer: re-read the stack
    // The data-flow ops, each listed: a new op must be placed here or
    // above (-Wswitch names one that is neither).
    case Op::IntBin:
    case Op::FloatBin:
    case Op::FNeg:
    case Op::ICmp:
    case Op::FCmp:
    case Op::Select:
    case Op::Cast:
    case Op::Copy:
    case Op::InsertValue:
    case Op::Repack:
    case Op::ExtractElt:
    case Op::InsertElt:
    case Op::Shuffle:
    case Op::Gep:
    case Op::IntFn:
    case Op::FloatFn:
    case Op::RoundedFloat:
      execDataFlow(in, w, mask);
      break;
    }
  }
}

// The instruction-event and probe hooks, before the instruction runs.
void BlockRunner::Impl::reportInstruction(uint32_t pc, const WarpState &w,
                                          uint32_t mask, EventSink &sink) {
  if (options.instructionEvents)
    sink.onInstruction(pc, mask);
  if (!options.probePcs.empty() && probeAt[pc])
    sink.onProbe(pc, mask, w.regs.data());
}

WarpStop BlockRunner::Impl::stopAtStepLimit(uint32_t pc, uint64_t stepLimit) {
  result.status = BlockResult::Status::StepLimit;
  result.message =
      "step budget of " + std::to_string(stepLimit) +
      " warp instructions exceeded at " + where(pc) + " in " + kernel.name() +
      ", block (" + core::toString(blockIdx) + "): " +
      (stepLimit < limits.maxWarpSteps
           ? "the loop there is steered by input data kcheck did not "
             "see (zero fill assumed) and may not end as the "
             "program's would; --run-host runs it on the program's "
             "data"
           : "the loop there may not terminate") +
      " (--step-budget raises the budget)";
  return WarpStop::Abort;
}

WarpStop BlockRunner::Impl::stopAtTimeBudget(uint32_t pc) {
  result.status = BlockResult::Status::TimeBudget;
  result.message = timeBudgetText(limits) + " at " + where(pc) + " in " +
                   kernel.name() + ", block (" + core::toString(blockIdx) + ")";
  return WarpStop::Abort;
}

std::string timeBudgetText(const Limits &limits) {
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%g", limits.budgetSeconds);
  return std::string("the analysis passed its time budget of ") + seconds +
         " s (--time-budget raises it)";
}

// Load, Store, AtomicRmw, CmpXchg. False after recording a fault.
bool BlockRunner::Impl::execMemoryAccess(const Inst &in, uint32_t pc,
                                         WarpState &w, uint32_t mask,
                                         EventSink &sink) {
  memoryWrites += in.op != Op::Load;
  // An address computed from data kcheck never saw (host input it
  // filled with zeros) makes this access's counts a guess: say so.
  if (w.taint[in.a])
    noteOnce(pc, kUnseenInputAddress,
             "address of the memory access at " + where(pc) +
                 " depends on input data that kcheck did not see "
                 "(deterministic zero fill assumed): its counts are "
                 "not exact");
  if (!execMemory(in, pc, w, mask, sink))
    return false;
  // Co-resident blocks: a strong load may be a poll of what another
  // block writes (grid.sync()'s barrier word): check for a repeat from
  // the next basic block on, so that a warp waiting for a block that
  // has not arrived hands over after a few polls, not hundreds.
  if (options.coResident && options.waitCheckAfterPolls && !repeatWatch.armed &&
      in.op == Op::Load && kernel.insts()[pc].isVolatile &&
      in.sub != bc::kSharedAS)
    nextRepeatCheck = std::min(nextRepeatCheck, steps);
  return true;
}

// Sreg, ActiveMask, and the warp-synchronous Shfl, Vote and WarpSync. False
// after recording a fault.
bool BlockRunner::Impl::execWarpLevel(const Inst &in, uint32_t pc, WarpState &w,
                                      uint32_t mask, EventSink &sink) {
  if (in.op == Op::Sreg) {
    execSreg(in, w, mask);
    return true;
  }
  if (in.op == Op::ActiveMask) {
    uint64_t *d = w.slot(in.dst);
    for (uint32_t m = mask; m; m &= m - 1)
      d[__builtin_ctz(m)] = mask;
    w.taint[in.dst] = 0;
    return true;
  }
  if (!checkMemberMask(in, pc, w, mask))
    return false;
  if (in.op == Op::Shfl)
    execShfl(in, w, mask);
  else if (in.op == Op::Vote)
    execVote(in, w, mask);
  else // Op::WarpSync
    sink.onBarrier({pc, w.index, mask, w.live, /*warpLevel=*/true});
  return true;
}

WarpStop BlockRunner::Impl::stopAtBarrier(const Inst &in, uint32_t pc,
                                          WarpState &w, WarpState::Entry &top,
                                          uint32_t mask, EventSink &sink) {
  // The warp's paths already waiting at this barrier arrive with this one.
  if (mask != w.live)
    mask |= arriveWithPathsAt(w, pc);
  sink.onBarrier({pc, w.index, mask, w.live});
  if (auto kind = bc::BarrierReduction(in.sub);
      kind != bc::BarrierReduction::None) {
    const uint64_t *pred = w.slot(in.a);
    for (uint32_t m = mask; m; m &= m - 1) {
      reductionTrue += pred[__builtin_ctz(m)] & 1;
      ++reductionThreads;
    }
    w.reduction = {kind, in.dst, mask};
  }
  if (mask != w.live)
    noteOnce(pc, kBarrierDivergence,
             "barrier divergence at " + where(pc) +
                 ": __syncthreads() reached by only some threads of "
                 "a warp");
  top.pc = pc + 1;
  return WarpStop::Barrier;
}

// Trap or Unreachable: the block stops with the fault.
WarpStop BlockRunner::Impl::stopAtTrap(const Inst &in, uint32_t pc,
                                       WarpState &w, uint32_t mask) {
  unsigned lane = __builtin_ctz(mask);
  if (in.op == Op::Trap) {
    const TrapInfo &trap = kernel.traps()[in.aux];
    recordFault(FaultCause::Trap, "trap", trap.message, pc, w, lane, 0,
                trap.at.valid() ? &trap.at : nullptr);
    if (!trap.expression.empty())
      result.fault->gpuOutput = assertLine(trap, *result.fault);
  } else {
    recordFault(FaultCause::Unreachable, "unreachable",
                "Reached an 'unreachable' instruction", pc, w, lane, 0);
  }
  return WarpStop::Abort;
}

void BlockRunner::Impl::execDataFlow(const Inst &in, WarpState &w,
                                     uint32_t mask) {
  execAlu(in, kernel, w, mask);
  unsigned n = resultSlots(in, kernel);
  uint8_t t = operandTaint(in, kernel, w);
  for (unsigned e = 0; e < n; ++e)
    w.taint[in.dst + e] = t;
}

} // namespace kcheck::sim
