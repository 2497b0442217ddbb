// Switches as the NVPTX backend lowers them.
#pragma once

#include "llvm/IR/PassManager.h"

namespace kcheck::analyzer {

// NVPTX has no jump tables in nvcc's PTX: SelectionDAG lowers a switch into
// compares, a binary search over the sorted case values (the first half of
// the clusters on the left) down to groups of at most three, which are tested
// one after the other. The warp splits and meets again at each compare of
// that tree (ptxas's BSSY/BSYNC), not once for the whole switch: measured on
// the H100 (kernels/toolkit/unreachable_paths.cu, a fall-through switch over
// `len & 3`: each byte load of the chain runs once per warp, as the compares
// `== 1`, `== 2`, `!= 3` of nvcc's SASS reconverge at each case label;
// HeCBench murmurhash3's sixteen-case tail: the pivots > 7, > 11, > 3...).
// Clang turns a switch whose cases cover every value of the condition into one
// with an `unreachable` default, keeping as a case the value that went to the
// statement after the switch; NVVM does not, so that case goes back to being
// the default here (otherwise it would be a cluster of its own and change the
// tree). Assumptions: no bit-test or jump-table lowering (switches with few
// destinations over a dense range may be lowered so by ptxas's backend), case
// weights equal.
struct LowerSwitchesLikeNvptx : llvm::PassInfoMixin<LowerSwitchesLikeNvptx> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
  static bool isRequired() { return true; }
};

} // namespace kcheck::analyzer
