// Multiply-adds as the GPU computes them: one rounding (FFMA/DFMA) where
// nvcc's code fuses them, two where it does not.
#pragma once

#include "llvm/IR/PassManager.h"

namespace kcheck::analyzer {

// nvcc contracts a*b+c by default (-fmad=true): NVVM emits fma for some and
// ptxas fuses the PTX mul/add/sub pairs it is given without a rounding
// modifier. Read from the H100's SASS and results
// (tests/host/programs/fma_contraction.cu, measured values in tests/host/h100):
// a product (fmul) all of whose users are adds or subtracts is fused into
// each of them, computed again in each FFMA (`m = u*v; m + x; m + y`: two
// FFMA); a product that is also stored or used otherwise is rounded once and
// added (FMUL + FADD). An add of two fusable products fuses the first
// operand's and rounds the second (`x*u - y*w`: FMUL y*w, FFMA x*u - that).
// Both sides of a subtract fuse (FFMA -w*v + z). Clang keeps the pair as two
// instructions with `contract` flags, which the engine would round twice.
// Assumptions: the product and its add in one basic block; a negated product
// (fneg) is not fused; vector types left alone.
struct FuseMultiplyAddsLikeNvcc
    : llvm::PassInfoMixin<FuseMultiplyAddsLikeNvcc> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
  static bool isRequired() { return true; }
};

} // namespace kcheck::analyzer
