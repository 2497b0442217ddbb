#include "simulator/engine/RunnerImpl.h"

#include "simulator/engine/AddressWindows.h"

#include <algorithm>
#include <cstring>

namespace kcheck::sim {

using bc::Inst;
using bc::Op;

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
  usedUnseenInput |= kind != kBarrierDivergence;
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
  lastAllocation = {};
  resetRepeatWatch();
  if (storeBuffer) // blocks never read each other's buffered stores
    storeBuffer->endBlock();
  result = BlockResult();
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
    copyByvalArguments(*w);
  }
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
        result.warpSteps = steps;
        result.wroteMemory = memoryWrites != writesAtEntry;
        return result;
      }
      w->state = stop == WarpStop::Barrier ? State::AtBarrier
                 : stop == WarpStop::Spin  ? State::Spinning
                                           : State::Done;
      // A warp that only spun changed nothing another one could see.
      progressed |= stop != WarpStop::Spin || memoryWrites != writesBefore;
    }
    if (yielded) // their turns go on before any barrier is released
      continue;
    unsigned waiting = 0, done = 0, spinning = 0;
    for (auto &w : warps) {
      waiting += w->state == State::AtBarrier;
      done += w->state == State::Done;
      spinning += w->state == State::Spinning;
    }
    if (spinning) {
      // Spinning warps try again while the block's other warps get on;
      // when none can, the block waits for the other blocks.
      if (!progressed) {
        result.status = BlockResult::Status::Waiting;
        result.warpSteps = steps;
        result.wroteMemory = memoryWrites != writesAtEntry;
        return result;
      }
      for (auto &w : warps)
        if (w->state == State::Spinning)
          w->state = State::Ready;
      continue;
    }
    if (waiting == 0)
      break;
    if (blockRepeatsAtBarrier()) {
      result.warpSteps = steps;
      result.wroteMemory = memoryWrites != writesAtEntry;
      if (options.coResident) { // waits for other blocks, at the barrier
        result.status = BlockResult::Status::Waiting;
        return result;
      }
      result.status = BlockResult::Status::StepLimit;
      result.message = "never leaves its loop: " + result.message +
                       ". If it waits for another block, note that kcheck "
                       "runs blocks one after another, not alongside";
      return result;
    }
    if (done && !notedExitedBarrier) {
      notedExitedBarrier = true;
      addNote("barrier divergence in " + kernel.name() +
              ": some warps exited while others waited at a "
              "__syncthreads(); they were released anyway");
    }
    for (auto &w : warps)
      if (w->state == State::AtBarrier)
        w->state = State::Ready;
  }
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

void BlockRunner::Impl::settle(WarpState &w) {
  while (!w.stack.empty()) {
    const WarpState::Entry &top = w.stack.back();
    if ((top.mask & w.live) != 0 && top.pc != top.reconvPc)
      return;
    w.stack.pop_back();
  }
}

// Phis of the edge's target, as a parallel copy for the transferring lanes.
void BlockRunner::Impl::copyPhis(WarpState &w, uint32_t edgeIndex,
                                 uint32_t mask) {
  const bc::Edge &edge = kernel.edges()[edgeIndex];
  const bc::PhiCopy *copies = kernel.phiCopies().data();
  unsigned count = edge.copyEnd - edge.copyBegin;
  if (count == 0)
    return;
  for (unsigned i = 0; i < count; ++i) {
    const bc::PhiCopy &c = copies[edge.copyBegin + i];
    std::memcpy(&phiTemp[size_t(i) * kWarpSize], w.slot(c.src),
                kWarpSize * sizeof(uint64_t));
    phiTaintTemp[i] = w.taint[c.src];
  }
  for (unsigned i = 0; i < count; ++i) {
    const bc::PhiCopy &c = copies[edge.copyBegin + i];
    uint64_t *dst = w.slot(c.dst);
    const uint64_t *src = &phiTemp[size_t(i) * kWarpSize];
    if (mask == kFullMask) {
      std::memcpy(dst, src, kWarpSize * sizeof(uint64_t));
      w.taint[c.dst] = phiTaintTemp[i];
    } else {
      for (uint32_t m = mask; m; m &= m - 1) {
        unsigned lane = __builtin_ctz(m);
        dst[lane] = src[lane];
      }
      w.taint[c.dst] |= phiTaintTemp[i];
    }
  }
}

// groups: (edge, lanes) in successor order; at least two are non-empty.
void BlockRunner::Impl::diverge(WarpState &w, uint32_t pc,
                                const std::pair<uint32_t, uint32_t> *groups,
                                unsigned count) {
  uint32_t reconv = kernel.reconvergencePc(pc);
  for (unsigned g = 0; g < count; ++g)
    if (groups[g].second)
      copyPhis(w, groups[g].first, groups[g].second);
  w.stack.back().pc = reconv; // the whole group waits at the ipdom
  // Later successors first, so successor 0's lanes run first.
  for (unsigned g = count; g-- > 0;) {
    uint32_t target = kernel.edges()[groups[g].first].targetPc;
    if (groups[g].second && target != reconv)
      w.stack.push_back({target, reconv, groups[g].second});
  }
}

WarpStop BlockRunner::Impl::runWarp(WarpState &w, EventSink &sink) {
  const Inst *code = kernel.code().data();
  const bool instEvents = options.instructionEvents;
  const bool probing = !options.probePcs.empty();
  const bool hooks = instEvents || probing;
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
    // controlTainted changes only at a branch, which ends the inner loop.
    const uint64_t stepLimit =
        w.controlTainted
            ? std::min(limits.maxWarpSteps, limits.maxZeroFillWarpSteps)
            : limits.maxWarpSteps;
    // Straight-line code until a control transfer, barrier or fault.
    for (;;) {
      const Inst &in = code[pc];
      if (++steps > stepLimit) {
        result.status = BlockResult::Status::StepLimit;
        result.message =
            "step budget of " + std::to_string(stepLimit) +
            " warp instructions exceeded at " + where(pc) + " in " +
            kernel.name() + ", block (" + core::toString(blockIdx) + "): " +
            (stepLimit < limits.maxWarpSteps
                 ? "the loop there is steered by input data kcheck did not "
                   "see (zero fill assumed) and may not end as the "
                   "program's would; --run-host runs it on the program's "
                   "data"
                 : "the loop there may not terminate") +
            " (--step-budget raises the budget)";
        return WarpStop::Abort;
      }
      if (hooks) {
        if (instEvents)
          sink.onInstruction(pc, mask);
        if (probing && probeAt[pc])
          sink.onProbe(pc, mask, w.regs.data());
      }
      switch (in.op) {
      case Op::Load:
      case Op::Store:
      case Op::AtomicRmw:
      case Op::CmpXchg:
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
          return WarpStop::Abort;
        // Co-resident blocks: a strong load may be a poll of what another
        // block writes (grid.sync()'s barrier word): check for a repeat from
        // the next basic block on, so that a warp waiting for a block that
        // has not arrived hands over after a few polls, not hundreds.
        if (options.coResident && options.waitCheckAfterPolls &&
            !repeatWatch.armed && in.op == Op::Load &&
            kernel.insts()[pc].isVolatile && in.sub != bc::kSharedAS)
          nextRepeatCheck = std::min(nextRepeatCheck, steps);
        ++pc;
        if (yieldAtGlobalLoads && in.op == Op::Load &&
            in.sub != bc::kSharedAS && in.sub != bc::kLocalAS &&
            in.sub != bc::kConstAS) {
          top.pc = pc;
          return WarpStop::Yield;
        }
        continue;
      case Op::MemCpy:
      case Op::MemSet:
        ++memoryWrites;
        if (!execMemIntrinsic(in, pc, w, mask))
          return WarpStop::Abort;
        ++pc;
        continue;
      case Op::Printf:
        if (!execPrintf(in, pc, w, mask))
          return WarpStop::Abort;
        ++pc;
        continue;
      case Op::Sreg:
        execSreg(in, w, mask);
        ++pc;
        continue;
      case Op::Shfl:
        if (!checkMemberMask(in, pc, w, mask))
          return WarpStop::Abort;
        execShfl(in, w, mask);
        ++pc;
        continue;
      case Op::Vote:
        if (!checkMemberMask(in, pc, w, mask))
          return WarpStop::Abort;
        execVote(in, w, mask);
        ++pc;
        continue;
      case Op::ActiveMask: {
        uint64_t *d = w.slot(in.dst);
        for (uint32_t m = mask; m; m &= m - 1)
          d[__builtin_ctz(m)] = mask;
        w.taint[in.dst] = 0;
        ++pc;
        continue;
      }
      case Op::WarpSync:
        if (!checkMemberMask(in, pc, w, mask))
          return WarpStop::Abort;
        sink.onBarrier({pc, w.index, mask, w.live, /*warpLevel=*/true});
        ++pc;
        continue;
      case Op::Nop:
        ++pc;
        continue;
      case Op::Barrier:
        sink.onBarrier({pc, w.index, mask, w.live});
        if (mask != w.live)
          noteOnce(pc, kBarrierDivergence,
                   "barrier divergence at " + where(pc) +
                       ": __syncthreads() reached by only some threads of "
                       "a warp");
        top.pc = pc + 1;
        return WarpStop::Barrier;
      case Op::Trap:
      case Op::Unreachable: {
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
      case Op::Ret:
        w.live &= ~mask;
        top.pc = DecodedKernel::kExitPc;
        break;
      case Op::Br:
        copyPhis(w, in.aux, mask);
        top.pc = kernel.edges()[in.aux].targetPc;
        break;
      case Op::CondBr: {
        const uint64_t *cond = w.slot(in.a);
        uint32_t taken = 0;
        for (unsigned lane = 0; lane < kWarpSize; ++lane)
          taken |= uint32_t(cond[lane] & 1) << lane;
        taken &= mask;
        sink.onBranch({pc, mask, taken, w.index});
        w.controlTainted |= w.taint[in.a] != 0;
        if (w.taint[in.a])
          noteOnce(pc, kUnseenInputBranch,
                   "branch at " + where(pc) +
                       " depends on input data that kcheck did not see "
                       "(deterministic zero fill assumed)");
        if (taken == mask || taken == 0) {
          uint32_t edge = in.aux + (taken ? 0 : 1);
          copyPhis(w, edge, mask);
          top.pc = kernel.edges()[edge].targetPc;
        } else {
          std::pair<uint32_t, uint32_t> groups[2] = {
              {in.aux, taken}, {in.aux + 1, mask & ~taken}};
          diverge(w, pc, groups, 2);
        }
        break;
      }
      case Op::Switch: {
        // Groups by edge; edges are numbered in successor order (default
        // first), so sorting by edge keeps successor 0 first.
        std::pair<uint32_t, uint32_t> groups[kWarpSize];
        unsigned count = 0;
        const uint64_t *value = w.slot(in.a);
        const bc::SwitchCase *cases = kernel.switchCases().data() + in.aux;
        for (uint32_t m = mask; m; m &= m - 1) {
          unsigned lane = __builtin_ctz(m);
          uint32_t edge = in.b;
          for (uint32_t i = 0; i < in.c; ++i)
            if (cases[i].value == value[lane]) {
              edge = cases[i].edge;
              break;
            }
          unsigned g = 0;
          while (g < count && groups[g].first != edge)
            ++g;
          if (g == count)
            groups[count++] = {edge, 0};
          groups[g].second |= 1u << lane;
        }
        std::sort(groups, groups + count);
        uint32_t toDefault = groups[0].first == in.b ? groups[0].second : 0;
        sink.onBranch({pc, mask, toDefault, w.index});
        w.controlTainted |= w.taint[in.a] != 0;
        if (w.taint[in.a])
          noteOnce(pc, kUnseenInputBranch,
                   "branch at " + where(pc) +
                       " depends on input data that kcheck did not see "
                       "(deterministic zero fill assumed)");
        if (count == 1) {
          copyPhis(w, groups[0].first, mask);
          top.pc = kernel.edges()[groups[0].first].targetPc;
        } else {
          diverge(w, pc, groups, count);
        }
        break;
      }
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
      case Op::FloatFn: {
        execAlu(in, kernel, w, mask);
        unsigned n = resultSlots(in, kernel);
        uint8_t t = operandTaint(in, kernel, w);
        for (unsigned e = 0; e < n; ++e)
          w.taint[in.dst + e] = t;
        ++pc;
        continue;
      }
      }
      break; // control transfer: re-read the stack
    }
  }
}

} // namespace kcheck::sim
