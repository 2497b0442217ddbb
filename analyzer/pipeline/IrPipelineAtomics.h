// Atomics as ptxas compiles them for the SASS of sm_90.
#pragma once

#include "llvm/IR/PassManager.h"

namespace kcheck::analyzer {

// The H100's shared-memory atomic unit (ATOMS) has no floating-point
// arithmetic: ptxas compiles a shared `atom.add.f32` / `.f64` into a
// compare-and-swap loop, `loop: LDS old, [a]; new = old + v;
// ATOMS.CAST.SPIN ok, [a], old, new; @!ok BRA loop` (an `atomicAdd` through
// a generic pointer first tests the address's space, and only the shared
// path loops). Each pass of the loop is one LDS, which Nsight Compute counts
// as a shared load; lanes of a warp on the same word succeed one per pass,
// so a warp's passes are the most lanes any one word has. Measured on the
// H100 (nvcc 13.0; kernels/toolkit/shared_atomics.cu): 32 lanes on distinct
// words, 1 LDS; on one word, 32; 8 words of 4 lanes, 4; `double`, the same
// with LDS.64. Integer and bitwise atomics and float exchange are native
// ATOMS instructions, global float atomics native RED/ATOM: left as they
// are. Passes between warps that meet on a word depend on the scheduler
// (HeCBench scatterAdd: 20481 to 20605 shared loads over ten identical
// launches); the loop models none (warps do not interleave in kcheck).
// Assumptions: fadd/fsub/fmin/fmax of f32 and f64 only (16-bit float
// atomics keep the per-half lowering of analyzer/ptx); the loop's load is
// an atomic load, so the sanitizers see no race with other warps' atomics.
struct ExpandSharedFloatAtomicsLikePtxas
    : llvm::PassInfoMixin<ExpandSharedFloatAtomicsLikePtxas> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
  static bool isRequired() { return true; }
};

} // namespace kcheck::analyzer
