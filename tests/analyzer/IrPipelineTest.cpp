// The nvcc-like IR pipeline on constructs where LLVM 22 alone differs from
// nvcc (analyzer/IrPipelineMemory.h, kernels/patterns/README.md).
#include "TestSupport.h"

#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

#include <gtest/gtest.h>

namespace kcheck::analyzer {
namespace {

const llvm::Function &kernel(const llvm::Module &module, llvm::StringRef name) {
  for (const llvm::Function &function : module)
    if (!function.isDeclaration() && function.getName().contains(name))
      return function;
  ADD_FAILURE() << "no function " << name.str();
  return *module.begin();
}

struct Accesses {
  std::vector<const llvm::LoadInst *> loads;
  std::vector<const llvm::StoreInst *> stores;
  unsigned maskedCalls = 0;
};

Accesses accesses(const llvm::Function &function, unsigned addressSpace) {
  Accesses result;
  for (const llvm::Instruction &instruction : llvm::instructions(function)) {
    if (const auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction);
        load && load->getPointerAddressSpace() == addressSpace)
      result.loads.push_back(load);
    if (const auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction);
        store && store->getPointerAddressSpace() == addressSpace)
      result.stores.push_back(store);
    if (const auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(&instruction);
        call && (call->getIntrinsicID() == llvm::Intrinsic::masked_load ||
                 call->getIntrinsicID() == llvm::Intrinsic::masked_store))
      ++result.maskedCalls;
  }
  return result;
}

std::string kernelsPatterns(const std::string &name) {
  return std::string(KCHECK_SOURCE_DIR) + "/kernels/patterns/" + name;
}

// p[i].x += dt * p[i].w on a 16-byte aligned struct: one whole 16-byte load
// (nvcc's ld.global.v4.f32), not a masked load, and a scalar store of x.
TEST(IrPipeline, GappedFieldLoadsBecomeOneVectorLoad) {
  CompiledModule compiled =
      compileDevice(kernelsPatterns("aos_partial.cu"), {});
  ASSERT_TRUE(compiled.ok) << compiled.diagnostics;
  for (const char *name : {"aos4_xw", "aos4_xz", "aos4_copy"}) {
    Accesses global = accesses(kernel(*compiled.module, name), 1);
    EXPECT_EQ(global.maskedCalls, 0u) << name;
    ASSERT_EQ(global.loads.size(), 1u) << name;
    EXPECT_TRUE(global.loads[0]->getType()->isVectorTy()) << name;
    for (const llvm::StoreInst *store : global.stores)
      EXPECT_FALSE(store->getValueOperand()->getType()->isVectorTy()) << name;
  }
}

// Hillis-Steele step `if (tid >= offset) out = in[tid] + in[tid - offset];
// else out = in[tid];`: nvcc hoists the common load and stores once (per
// step LDS; @P LDS; STS), whichever way LLVM computes the two addresses.
TEST(IrPipeline, DiamondLoadsHoistedAndStoresSunk) {
  CompiledModule compiled = compileDevice(kernelsPatterns("scan.cu"), {});
  ASSERT_TRUE(compiled.ok) << compiled.diagnostics;
  Accesses shared = accesses(kernel(*compiled.module, "scan_hillis_steele"), 3);
  // The initial store, one per step (8 steps), and the final load; per step
  // two loads.
  EXPECT_EQ(shared.stores.size(), 1u + 8u);
  EXPECT_EQ(shared.loads.size(), 2u * 8u + 1u);
  // The hoisted loads are on line 0 or credited to the barrier before them
  // (scan.cu lines 37 and 45), never to one arm's line.
  unsigned onBarrierLines = 0;
  for (const llvm::LoadInst *load : shared.loads)
    if (const llvm::DILocation *loc = load->getDebugLoc().get();
        loc && (loc->getLine() == 37 || loc->getLine() == 45))
      ++onBarrierLines;
  EXPECT_EQ(onBarrierLines, 8u);
}

// `if (i < n) sdata[tid] = g_in[i]; else sdata[tid] = 0;` stays two stores,
// as in nvcc's PTX (reduce_cg; parity-notes item 4).
TEST(IrPipeline, StoreOfZeroInElseArmIsNotMerged) {
  std::string path = testing::writeSource("zero_else.cu", R"(
__global__ void k(const int *g, int n, int *o) {
  __shared__ int s[256];
  int t = threadIdx.x; int i = blockIdx.x * 256 + t;
  if (i < n) s[t] = g[i]; else s[t] = 0;
  __syncthreads();
  o[i] = s[t ^ 1];
}
)");
  CompiledModule compiled = compileDevice(path, {});
  ASSERT_TRUE(compiled.ok) << compiled.diagnostics;
  EXPECT_EQ(accesses(kernel(*compiled.module, "k"), 3).stores.size(), 2u);
}

} // namespace
} // namespace kcheck::analyzer
