// Loads in loops where nvcc keeps them and LLVM 22's LICM does not.
#pragma once

#include "llvm/IR/PassManager.h"

namespace kcheck::analyzer {

// LLVM 22's LICM, when it cannot sink a loop's store to a location out of
// the loop (the store is conditional and the location may be seen by other
// threads: any shared or global variable), still hoists the location's load
// into the preheader and carries its value around the loop in registers
// ("load-only" promotion; the stores stay). NVVM (CUDA 13.0) does not: in
// `for (i = tid; ...) if (hit(i)) { c->bits |= b; c->k = ...; }` nvcc loads
// `c->bits` inside the `if`, once per hit, where LLVM loads it once per
// thread before the loop (HeCBench topk's choose_bucket: the H100 executes
// the LDS once per block, not once per warp). This pass undoes such a
// promotion after O3: each use of the carried value inside the loop loads
// the location again, just before the instruction that uses it.
// LICM names the hoisted load `<pointer>.promoted`, and that name is how a
// load-only promotion is told from GVN's load PRE (`.pre`), which NVVM does
// too; a promotion whose carried value is used after the loop is left as is.
struct KeepConditionalLoopLoadsLikeNvcc
    : llvm::PassInfoMixin<KeepConditionalLoopLoadsLikeNvcc> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
  static bool isRequired() { return true; }
};

} // namespace kcheck::analyzer
