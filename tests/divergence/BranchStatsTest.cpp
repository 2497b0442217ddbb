// The Predictor's branch and barrier statistics on simulated launches:
// divergent executions, lanes per side, divergent warps per loop iteration,
// and barriers reached by part of a warp.
#include "SimulateUtil.h"

namespace kcheck::sim {
namespace {

using test::simulate;
using test::SimulatedRun;

/// Stats of the conditional branch on `line` (the first one there).
const InstStats *atLine(const SimulatedRun &run, unsigned line, bool branch) {
  for (size_t pc = 0; pc < run.kernel->insts().size(); ++pc) {
    const InstInfo &info = run.kernel->insts()[pc];
    bool isBarrier = run.result.perInst[pc].barrier.arrivals > 0;
    if (!info.inlineChain.empty() && info.inlineChain.front().line == line &&
        (branch ? info.isConditionalBranch : isBarrier))
      return &run.result.perInst[pc];
  }
  return nullptr;
}

TEST(BranchStats, ModuloDivergesPerIteration) {
  SimulatedRun run = simulate("modulo", {2, 1, 1}, {256, 1, 1});
  const InstStats *s = atLine(run, 18, true);
  ASSERT_NE(s, nullptr);
  // 8 iterations (s = 1..128) x 8 warps x 2 blocks.
  EXPECT_EQ(s->branch.executions, 128u);
  // s = 1..16 split every warp; s = 32, 64, 128 split 4, 2, 1 warps.
  std::vector<uint32_t> perIteration{8, 8, 8, 8, 8, 4, 2, 1};
  EXPECT_EQ(s->branch.divergentWarpsByExecution, perIteration);
  EXPECT_EQ(s->branch.divergentExecutions, 2u * (5 * 8 + 4 + 2 + 1));
  EXPECT_EQ(s->branch.activeLanes, 128u * 32);
  // Lanes with tid % 2s == 0: 256/2s per block and iteration.
  uint64_t taken = 0;
  for (unsigned step = 1; step < 256; step *= 2)
    taken += 2 * (256 / (2 * step));
  EXPECT_EQ(s->branch.takenLanes, taken);
}

TEST(BranchStats, UniformBranchNeverDiverges) {
  SimulatedRun run = simulate("modulo", {1, 1, 1}, {256, 1, 1});
  const InstStats *loop = atLine(run, 17, true);
  ASSERT_NE(loop, nullptr);
  EXPECT_GT(loop->branch.executions, 0u);
  EXPECT_EQ(loop->branch.divergentExecutions, 0u);
}

TEST(BranchStats, BarrierReachedByPartOfAWarp) {
  SimulatedRun run = simulate("barrierInBranch", {1, 1, 1}, {64, 1, 1});
  const InstStats *s = atLine(run, 42, false);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->barrier.arrivals, 1u); // warp 0 only; warp 1 skips it
  EXPECT_EQ(s->barrier.divergentArrivals, 1u);
  EXPECT_EQ(s->barrier.firstDivergent.warp, 0u);
  EXPECT_EQ(s->barrier.firstDivergent.missingMask, 0xffff0000u);
}

} // namespace
} // namespace kcheck::sim
