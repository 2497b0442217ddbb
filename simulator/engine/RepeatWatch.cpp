// Non-termination check of the block runner. A warp's next instructions
// depend only on its registers, its divergence stack and memory (other warps
// change only memory, and their writes are counted, turns included). If it
// arrives at the start of the same basic block with all three unchanged, it
// is taken to arrive there again forever (a warp polling a flag that another
// warp of its block sets only after a long write-free computation would be
// the exception, as it was when warps ran to their barriers in order):
// a spin-wait on a flag that only another block (which kcheck runs later, not
// alongside) or the host would set, or a loop whose exit condition never
// changes. Reporting that at once lets the step budget be generous for loops
// that do make progress (a grid-stride loop run by one thread is 268 M warp
// instructions). Memory is compared by counting writes, not by content: a
// loop that writes is never called a repeat (it may still never end, and the
// step budget then stops it). In a cooperative launch, whose blocks run
// alongside, such a warp waits instead: its block hands over to the others
// (BlockResult::Status::Waiting) and is resumed after they ran.
#include "simulator/engine/RunnerImpl.h"

namespace kcheck::sim {

void BlockRunner::Impl::resetRepeatWatch() {
  repeatWatch.armed = false;
  repeatCheckSteps = !options.coResident      ? kRepeatCheckSteps
                     : options.waitCheckSteps ? options.waitCheckSteps
                                              : kCoResidentRepeatCheckSteps;
  nextRepeatCheck = repeatCheckSteps;
  barrierWatch.armed = false;
  nextBarrierCheck = repeatCheckSteps;
  memoryWrites = 0;
}

bool BlockRunner::Impl::blockRepeatsAtBarrier() {
  BarrierWatch &b = barrierWatch;
  if (b.armed && b.writes != memoryWrites)
    b.armed = false; // memory changed: the block may get on
  if (b.armed) {
    bool same = true;
    for (size_t i = 0; same && i < warps.size(); ++i)
      same = warps[i]->live == b.live[i] && warps[i]->stack == b.stacks[i] &&
             warps[i]->regs == b.regs[i];
    if (same) {
      b.armed = false;
      const auto &stack = warps.front()->stack;
      result.message = "block (" + core::toString(blockIdx) + ") of " +
                       kernel.name() + " loops around the __syncthreads() " +
                       "before " + where(stack.empty() ? 0 : stack.back().pc) +
                       " with nothing changed (every warp comes back there " +
                       "in the same state, no memory written)";
      return true;
    }
  }
  if (!b.armed && steps >= nextBarrierCheck) {
    nextBarrierCheck = steps + repeatCheckSteps;
    b.armed = true;
    b.writes = memoryWrites;
    b.live.clear(), b.regs.clear(), b.stacks.clear();
    for (const auto &w : warps) {
      b.live.push_back(w->live);
      b.regs.push_back(w->regs);
      b.stacks.push_back(w->stack);
    }
  }
  return false;
}

bool BlockRunner::Impl::warpRepeats(const WarpState &w, uint32_t pc) {
  RepeatWatch &r = repeatWatch;
  if (steps >= nextRepeatCheck) {
    nextRepeatCheck = steps + repeatCheckSteps;
    r.armed = true;
    r.warp = w.index, r.pc = pc, r.live = w.live, r.writes = memoryWrites;
    r.regs = w.regs;
    r.stack = w.stack;
    return false;
  }
  if (!r.armed || r.pc != pc || r.warp != w.index)
    return false;
  r.armed = false;
  if (r.writes != memoryWrites || r.live != w.live || r.stack != w.stack ||
      r.regs != w.regs)
    return false;
  if (options.coResident) { // a spin-wait: runWarp hands over (WarpStop::Spin)
    result.message = "block (" + core::toString(blockIdx) + ") of " +
                     kernel.name() + " waits at " + where(pc) + " (warp " +
                     std::to_string(w.index) +
                     " comes back there with nothing changed)";
    return true;
  }
  result.status = BlockResult::Status::StepLimit;
  result.message =
      "block (" + core::toString(blockIdx) + ") of " + kernel.name() +
      " never leaves the loop at " + where(pc) + ": warp " +
      std::to_string(w.index) +
      " came back there in the same state with no memory written in between "
      "(after " +
      std::to_string(steps) +
      " warp instructions). If it waits for another block, note that kcheck "
      "runs blocks one after another, not alongside";
  return true;
}

} // namespace kcheck::sim
