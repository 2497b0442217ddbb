// Phis whose incoming values are copies of one computation.
#pragma once

#include "llvm/IR/PassManager.h"

namespace kcheck::analyzer {

// GVN's partial redundancy elimination computes an address index on the one
// path that lacked it and joins the two copies with a phi
// (`phi [zext %i, %a], [zext %i, %b]`); upstream's next SimplifyCFG hoists
// the common instruction and the phi goes, but kcheck runs SimplifyCFG
// without hoisting (MergeDiamondAccessesLikeNvcc hoists loads instead), so
// the phi stayed and hid that `buf[4 * tid + 3]` is the fourth word of
// `buf[4 * tid]`: the LoadStoreVectorizer then split CUB's BlockExchange
// store of four registers into STS.64 + STS + STS, where nvcc's PTX has one
// `st.shared.v4.u32` (HeCBench blockexchange: 8192 STS, 32768 wavefronts on
// the H100). This pass replaces such a phi with one copy of the computation
// in the nearest common dominator of the incoming blocks. Assumptions: the
// copies are identical instructions free of memory access and side effects
// whose operands are available there.
struct FoldPhisOfIdenticalArithmetic
    : llvm::PassInfoMixin<FoldPhisOfIdenticalArithmetic> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
  static bool isRequired() { return true; }
};

} // namespace kcheck::analyzer
