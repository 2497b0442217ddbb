// Accesses narrower in alignment than in size, as the NVPTX backend
// legalizes them: it splits a load or store whose alignment is below its
// size into accesses of the alignment's width (an `i32` copy of a
// `struct { unsigned char r, g, b, a; }` with alignment 1 is four LDG.U8 /
// STG.U8 on the H100: HeCBench aligned-types, uchar4_misaligned, measured
// 4 instructions per element). Runs last: whatever produced the access.
#pragma once

#include "llvm/IR/PassManager.h"

namespace kcheck::analyzer {

struct SplitUnderalignedAccessesLikeNvptx
    : llvm::PassInfoMixin<SplitUnderalignedAccessesLikeNvptx> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
  static bool isRequired() { return true; }
};

} // namespace kcheck::analyzer
