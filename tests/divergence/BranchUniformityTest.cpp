// analyzeBranches on small kernels: uniform loops, thread-dependent and
// warp-uniform conditions, and the sources named for each.
#include "analyzer/facts/BranchUniformity.h"
#include "analyzer/toolchain/DeviceCompiler.h"

#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Function.h"

#include <gtest/gtest.h>

namespace kcheck::analyzer {
namespace {

const llvm::Function *kernelNamed(const llvm::Module &m,
                                  const std::string &name) {
  for (const llvm::Function &f : m)
    if (!f.isDeclaration() &&
        llvm::demangle(f.getName().str()).starts_with(name + "("))
      return &f;
  return nullptr;
}

class BranchUniformityTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    compiled = new CompiledModule(compileDevice(
        std::string(KCHECK_DIVERGENCE_INPUTS) + "/branches.cu", {}));
  }
  static void TearDownTestSuite() { delete compiled; }

  /// The branches of `kernel` on source line `line`.
  std::vector<StaticBranch> onLine(const std::string &kernel, unsigned line) {
    EXPECT_TRUE(compiled->ok) << compiled->diagnostics;
    const llvm::Function *f = kernelNamed(*compiled->module, kernel);
    EXPECT_NE(f, nullptr) << kernel;
    std::vector<StaticBranch> out;
    if (!f)
      return out;
    for (StaticBranch &b : analyzeBranches(*f))
      if (!b.inlineChain.empty() && b.inlineChain.front().line == line)
        out.push_back(b);
    return out;
  }

  static CompiledModule *compiled;
};
CompiledModule *BranchUniformityTest::compiled = nullptr;

TEST_F(BranchUniformityTest, BlockDimLoopIsUniform) {
  // blockDim is uniform although NVPTX's TTI says every sreg diverges.
  auto branches = onLine("uniformLoop", 7);
  ASSERT_FALSE(branches.empty());
  for (const StaticBranch &b : branches) {
    EXPECT_EQ(b.uniformity, BranchUniformity::Uniform);
    EXPECT_TRUE(b.sources.empty());
  }
}

TEST_F(BranchUniformityTest, ModuloOfThreadIdxIsThreadDependent) {
  auto branches = onLine("modulo", 18);
  ASSERT_EQ(branches.size(), 1u);
  EXPECT_EQ(branches[0].uniformity, BranchUniformity::ThreadDependent);
  EXPECT_EQ(branches[0].sources, std::vector<std::string>{"threadIdx.x"});
  EXPECT_FALSE(branches[0].regionHasLoop);
  EXPECT_FALSE(branches[0].regionHasBarrier);
  EXPECT_LE(branches[0].regionInstructions, 10u);
  // The loop around it is uniform (s depends on blockDim only).
  for (const StaticBranch &b : onLine("modulo", 17))
    EXPECT_EQ(b.uniformity, BranchUniformity::Uniform);
}

TEST_F(BranchUniformityTest, WarpIndexConditionIsWarpUniform) {
  auto branches = onLine("warpUniformSlides", 28);
  ASSERT_FALSE(branches.empty()); // the input's store keeps a branch
  for (const StaticBranch &b : branches)
    EXPECT_EQ(b.uniformity, BranchUniformity::WarpUniform);
}

TEST_F(BranchUniformityTest, LoadedDataIsNamed) {
  auto branches = onLine("dataDependent", 34);
  ASSERT_EQ(branches.size(), 1u);
  EXPECT_EQ(branches[0].uniformity, BranchUniformity::ThreadDependent);
  ASSERT_FALSE(branches[0].sources.empty());
  EXPECT_NE(branches[0].sources[0].find("data loaded per thread"),
            std::string::npos);
}

TEST_F(BranchUniformityTest, BarrierInsideBranchIsSeen) {
  auto branches = onLine("barrierInBranch", 40);
  ASSERT_EQ(branches.size(), 1u);
  EXPECT_EQ(branches[0].uniformity, BranchUniformity::ThreadDependent);
  EXPECT_TRUE(branches[0].regionHasBarrier);
}

// The facts behind the SASS branch rule (simulator/models/SassBranchRule):
// which short bodies ptxas may keep as real branches.
TEST_F(BranchUniformityTest, GridStrideExitLeavesTheLoop) {
  auto branches = onLine("gridStride", 49);
  ASSERT_FALSE(branches.empty());
  bool exits = false;
  for (const StaticBranch &b : branches)
    exits |= b.uniformity == BranchUniformity::ThreadDependent && b.leavesLoop;
  EXPECT_TRUE(exits);
}

TEST_F(BranchUniformityTest, TernaryGlobalLoadMergesALoadedValue) {
  auto branches = onLine("ternaryGlobalLoad", 56);
  ASSERT_EQ(branches.size(), 1u);
  EXPECT_TRUE(branches[0].regionMergesGlobalLoad);
  EXPECT_FALSE(branches[0].regionHasLoop);
}

TEST_F(BranchUniformityTest, SharedLoadAndMergedAddressAreNotGlobalLoads) {
  auto shared = onLine("ternarySharedLoad", 64);
  ASSERT_EQ(shared.size(), 1u);
  EXPECT_FALSE(shared[0].regionMergesGlobalLoad);
  // The body loads from global, but what is merged after it is the index
  // GVN shares between the body and the code after (no loaded value).
  auto store = onLine("storeThenUse", 70);
  ASSERT_EQ(store.size(), 1u);
  EXPECT_FALSE(store[0].regionMergesGlobalLoad);
}

} // namespace
} // namespace kcheck::analyzer
