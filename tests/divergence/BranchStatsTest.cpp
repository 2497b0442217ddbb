// The Predictor's branch and barrier statistics on simulated launches:
// divergent executions, lanes per side, divergent warps per loop iteration,
// and barriers reached by part of a warp.
#include "analyzer/DeviceCompiler.h"
#include "core/ArchSpec.h"
#include "simulator/Predictor.h"

#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Function.h"

#include <gtest/gtest.h>

namespace kcheck::sim {
namespace {

struct SimulatedRun {
  std::unique_ptr<DecodedKernel> kernel;
  LaunchResult result;
};

SimulatedRun simulate(const std::string &name, core::Dim3 grid,
                      core::Dim3 block) {
  static analyzer::CompiledModule compiled = analyzer::compileDevice(
      std::string(KCHECK_DIVERGENCE_INPUTS) + "/branches.cu", {});
  SimulatedRun run;
  EXPECT_TRUE(compiled.ok) << compiled.diagnostics;
  const llvm::Function *fn = nullptr;
  for (const llvm::Function &f : *compiled.module)
    if (!f.isDeclaration() &&
        llvm::demangle(f.getName().str()).starts_with(name + "("))
      fn = &f;
  EXPECT_NE(fn, nullptr);
  auto decoded = DecodedKernel::decode(*fn);
  EXPECT_TRUE(bool(decoded));
  run.kernel = std::move(*decoded);
  DeviceMemory memory;
  std::vector<KernelArg> args;
  for (unsigned i = 0; i < run.kernel->numArgs(); ++i)
    args.push_back({memory.allocate(1 << 20, "arg")});
  core::LaunchConfig config;
  config.grid = grid;
  config.block = block;
  Predictor predictor(*core::findArch("sm_90"));
  run.result = predictor.run(*run.kernel, config, args, memory, Limits{});
  EXPECT_TRUE(run.result.error.empty()) << run.result.error;
  return run;
}

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
