// How far nvcc unrolls a loop whose trip count is known only at run time.
#pragma once

#include "llvm/IR/PassManager.h"

namespace kcheck::analyzer {

// NVVM runtime-unrolls an innermost loop by the largest power of two up to 4
// whose unrolled body stays within about 200 of LLVM's size units, with the
// 0-3 leftover iterations run first in a loop of their own; LLVM 22's NVPTX
// preferences allow 75 units and up to 8 copies, and leave a loop rolled
// when its trip count needs a division. The count matters wherever lanes of a
// warp run different trip counts (the warp runs the leftover loop as long as
// its slowest lane, then the unrolled one), and where copies of a body merge
// or split their accesses: HeCBench jenkins-hash's `while (length > 12)` over
// 3 words (nvcc: a leftover loop of 3 loads and a 4x body of 12, 53206 LDG on
// the H100; rolled, 34810), rmsnorm's and layernorm's float4 row loops.
// Found by comparing nvcc's PTX for loops of 1 to 8 statements with runtime
// and constant trip counts: a loop of one small statement x4 (LLVM: x8), of
// three x4 (LLVM: rolled), of six x1. This pass writes that count as the
// loop's `llvm.loop.unroll.count` for LoopUnroll to apply. Assumptions:
// innermost loops whose trip count is computable but not constant (a loop
// left only by breaks stays rolled, as in nvcc's PTX for HeCBench merge's
// binary search; so does one of at most 7 iterations, as LLVM leaves it:
// IrPipelinePtxasUnroll.h), without unroll metadata of their own; loops with a
// constant trip count keep O3's rule (measured there: x8 within 75 units); size
// as LLVM's UnrollCostEstimator counts it.
struct UnrollRuntimeLoopsLikeNvvm
    : llvm::PassInfoMixin<UnrollRuntimeLoopsLikeNvvm> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
  static bool isRequired() { return true; }
};

// NVVM does not runtime-unroll a loop whose exit test reads a special
// register inside the loop: `for (i = tid; i < n; i += blockDim.x)` stays
// rolled, `int stride = blockDim.x; for (...; i += stride)` is unrolled x4
// (nvcc's PTX for eighteen variants: blockDim, gridDim or blockDim.y in the
// increment or the bound, read in the loop or before it; a parameter stride
// is unrolled). Clang reads the register where the source names it, so
// before O3 hoists the read this pass marks such loops
// `llvm.loop.unroll.runtime.disable` (kernels/toolkit/nvcc_parity.cu's
// conditional_update_in_loop: 1152 LDS on the H100, rolled).
struct KeepSpecialRegisterLoopsRolledLikeNvvm
    : llvm::PassInfoMixin<KeepSpecialRegisterLoopsRolledLikeNvvm> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
  static bool isRequired() { return true; }
};

} // namespace kcheck::analyzer
