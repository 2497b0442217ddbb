// The loops ptxas unrolls that nvcc's optimizer left rolled.
#pragma once

#include "llvm/IR/PassManager.h"

namespace llvm {
class Loop;
class ScalarEvolution;
} // namespace llvm

namespace kcheck::analyzer {

// NVVM leaves rolled an innermost loop whose trip count is known only at run
// time but is at most 7 (LLVM's rule: no runtime unrolling below
// -unroll-max-upperbound, 8), such as HeCBench fma's `for (k = 0; k < C % 8;
// ++k)`: its PTX has one iteration per trip and no `.pragma "nounroll"`.
// ptxas unrolls such a loop when its count is the same in every lane: a
// loop of 4 copies, then 2 copies run when at least 2 iterations remain,
// then 1 when one remains, and it merges each pair of shared loads of
// adjacent elements whose first address it proves aligned to the pair's
// size (two `ld.shared.u16` into one LDS, two `ld.shared.f32` into one
// LDS.64): copies 0-1 and 2-3, never more than a pair. Measured on an H200
// (sm_90, the H100's SASS; tests/host/programs/short_loops.cu) for such
// loops over 16-bit, __half and float elements with 0-7 iterations:
// ceil(n / 2) LDS per warp for n iterations from an aligned start, n from a
// start one element past it; global loads and stores unmerged (ptxas does
// not know their alignment); with counts that differ between lanes, as many
// LDS per warp as the slowest lane's iterations (the rolled loop's count).
// Loops that NVVM unrolled (their remainder loops carry `nounroll`) and loops
// whose step is not a constant (`i += blockDim.x`) are left as they are.
// Assumption: LLVM's runtime unroller places the leftover iterations after
// the copies where a header phi starts at a constant (all measured loops),
// before them otherwise (not measured).
struct UnrollShortLoopsLikePtxas
    : llvm::PassInfoMixin<UnrollShortLoopsLikePtxas> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
  static bool isRequired() { return true; }
};

/// Whether NVVM leaves `loop` rolled for its small trip count: a trip count
/// that is not a constant, with a constant bound of at most 7 iterations
/// (what LLVM's unroller checks before runtime unrolling). Asked before O3's
/// late passes rewrite the bound (`C % 8` becomes `C - (C / 8) * 8`, whose
/// range ScalarEvolution no longer sees), so such a loop is also marked for
/// UnrollShortLoopsLikePtxas.
bool hasShortRuntimeTripCount(llvm::Loop &loop,
                              llvm::ScalarEvolution &evolution);
void markShortRuntimeTripCount(llvm::Loop &loop);

} // namespace kcheck::analyzer
