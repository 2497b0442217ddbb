// Small constant-length memsets as NVPTX lowers them.
#pragma once

#include "llvm/IR/PassManager.h"

namespace kcheck::analyzer {

// NVPTX expands an llvm.memset of constant length into stores (its
// MaxStoresPerMemset is unlimited; NVPTXLowerAggrCopies turns only the
// longer or variable ones into a loop), each as wide as the alignment
// allows, up to 16 bytes: a `memset(malloc(123), 0, 123)` in a kernel is
// 123 ST.E.U8 on the H200 (fengChenHPC perthreadmalloc: 123 stores, 615
// sectors for 5 lanes), where the engine ran the intrinsic as one
// uncounted copy. Expands a constant-length memset of up to 256 bytes (the
// limit ExpandSmallMemcpys takes) into stores of the memset's byte repeated,
// the widest piece first and narrower ones at the end, as the memcpys are.
// Assumptions: the alignment is the larger of the declared and the known
// one; a volatile memset keeps its declared alignment only.
struct ExpandSmallMemsets : llvm::PassInfoMixin<ExpandSmallMemsets> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
  static bool isRequired() { return true; }
};

} // namespace kcheck::analyzer
