// Kernel loads' and stores' source lines kept through the optimizer.
#pragma once

#include "llvm/IR/PassManager.h"

namespace kcheck::analyzer {

// LICM drops the location of a load it hoists out of a loop (sgemm's
// `FETCH_FLOAT4(ldg_reg_a[..]) = FETCH_FLOAT4(A[..])` in a loop that
// becomes straight-line code); NVVM keeps it, so ptxas credits the LDG to
// the copy's line. The line and column of every located load and store of a
// kernel's own code are recorded before the optimizer, in metadata that
// LICM keeps on what it hoists, and given back afterwards to those left with
// no location (line-0 locations are another matter: RelocateLikeNvcc).
struct RecordSourceLines : llvm::PassInfoMixin<RecordSourceLines> {
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

// The same, at O3's peephole extension point (recordSourceLines).
struct RecordSourceLinesInFunction
    : llvm::PassInfoMixin<RecordSourceLinesInFunction> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &);
  static bool isRequired() { return true; }
};

struct RestoreDroppedLines : llvm::PassInfoMixin<RestoreDroppedLines> {
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace kcheck::analyzer
