// Loads ptxas moves below a branch.
#pragma once

#include "llvm/IR/PassManager.h"

namespace kcheck::analyzer {

// ptxas executes a load after the branch that ends its block when only one
// side of the branch uses what it reads: measured on the H100
// (kernels/toolkit/sunk_loads.cu), two `__restrict__` global loads used in
// one arm of an `if` are executed by the warps that take that arm only, and
// two shared loads before `if (threadIdx.x >= n) return;` by the warps that
// stay (HeCBench dense-embedding: `offset[b]`, `offset[b + 1]` after the
// early exit, so a 1024-thread block of whose threads 256 work loads them in
// 8 warps, not 32). A load the branch's condition needs stays. This pass
// moves such a load, with the arithmetic between it and its users, to the
// start of the successor whose region holds every user, when that successor
// has no other predecessor and nothing after the load in its block may
// write memory. Assumptions: one level (the block's own branch), plain
// loads (not volatile or atomic, no inline-PTX form), the moved arithmetic
// free of side effects.
struct SinkLoadsIntoTheirBranchLikePtxas
    : llvm::PassInfoMixin<SinkLoadsIntoTheirBranchLikePtxas> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
  static bool isRequired() { return true; }
};

} // namespace kcheck::analyzer
