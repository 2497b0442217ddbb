// Static divergence analysis of a kernel's conditional branches: is each
// condition the same for every thread of a warp (uniform), the same within
// each warp though not across the block (warp-uniform), or thread-dependent,
// and which sources make it so (threadIdx.x, the lane id, data loaded per
// thread)?
//
// Assumes the IR after kcheck's pipeline (analyzer/pipeline/IrPipeline.h:
// everything inlined into the kernel). Uniformity is LLVM's UniformityInfo on a
// clone of the module whose blockIdx/blockDim/gridDim reads are replaced by
// loads of a constant-space global, because NVPTX's TTI treats every sreg call
// as divergent (research/toolchain.md, pitfall 1). Warp-uniform means: derived
// only from uniform values and threadIdx.x / 32^k-granular expressions
// (`threadIdx.x / 32`, `threadIdx.x >> 5`, `threadIdx.x & ~31`), which holds
// when blockDim.x is a multiple of 32; conditions such as `tid < s` with s a
// multiple of 32 are thread-dependent here and only the simulation shows them
// warp-uniform.
#pragma once

#include "core/SourceLoc.h"

#include <string>
#include <vector>

namespace llvm {
class Function;
} // namespace llvm

namespace kcheck::analyzer {

enum class BranchUniformity { Uniform, WarpUniform, ThreadDependent };

const char *toString(BranchUniformity u);

/// One conditional `br` or `switch` of the kernel, in function order (the
/// order of the simulator's decoded branches).
struct StaticBranch {
  // Innermost DILocation first, then each inlinedAt, outward.
  std::vector<core::SourceLoc> inlineChain;
  BranchUniformity uniformity = BranchUniformity::Uniform;
  // What makes the condition differ between threads, in source terms:
  // "threadIdx.x", "the lane id", "data loaded per thread from 'g_idata'",
  // "values merged after a thread-dependent branch". Empty when uniform.
  std::vector<std::string> sources;
  bool isSwitch = false;
  bool leavesLoop = false; // a successor lies outside the loop holding it
  // The code between the branch and its reconvergence point (immediate
  // post-dominator): IR instructions, and whether it holds a loop or a
  // barrier. ptxas predicates short loop-free bodies instead of branching.
  unsigned regionInstructions = 0;
  bool regionHasLoop = false;
  bool regionHasBarrier = false;
  // A phi at the reconvergence point takes a value the region computed from
  // a load of global (or generic) memory: `v = c ? in[i] : 0`.
  bool regionMergesGlobalLoad = false;
};

/// Every conditional branch of `kernel`, in function order. Does not modify
/// `kernel` (the analysis runs on a clone of its module).
std::vector<StaticBranch> analyzeBranches(const llvm::Function &kernel);

} // namespace kcheck::analyzer
