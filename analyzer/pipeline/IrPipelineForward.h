// Values nvcc's optimizer (NVVM) forwards from a store to a later load.
#pragma once

#include "llvm/IR/PassManager.h"

namespace kcheck::analyzer {

// After it unrolls a loop, NVVM forwards the value stored to shared memory to
// a later load of the same address when nothing between may write it; LLVM's
// O3 runs GVN before LoopUnroll and none after, so the unrolled copies keep
// their reloads. Measured on the H100 (HeCBench moe-align,
// `tokens_cnts[i * n + tid] += tokens_cnts[(i - 1) * n + tid]` unrolled by
// 4: one reload per 4 iterations, the first copy's; and `cumsum[i - 1]`,
// whose first value is the `cumsum[0] = 0` just stored, never loaded).
// Rules: a plain shared load whose nearest clobbering access (MemorySSA) is
// a simple store of the same type to the same linear address
// (IrPipelineAddress.h) takes the stored value. A store to an address that
// only may alias stands between and keeps the load (as nvcc keeps it,
// HideStoredLoadsLikeNvcc); nothing crosses a loop's back edge (the clobber
// there is a MemoryPhi), which nvcc crosses only for simple addresses.
// Addresses compare as linear forms whose opaque terms are taken by
// representative: `i * n` computed again in each unrolled copy is one value.
// Assumptions: shared memory only (global forwarding not measured); volatile
// and atomic accesses and PTX-tagged loads are never forwarded.
struct ForwardStoredValuesLikeNvvm
    : llvm::PassInfoMixin<ForwardStoredValuesLikeNvvm> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
  static bool isRequired() { return true; }
};

// LLVM's InstCombine replaces a local variable that is only ever copied
// from a constant global (`Mixed m = {...};` copied out whole) by that
// global, and rewrites the variable's cast to the local address space as a
// cast of the global: `load (addrspacecast (ptr @__const.m to ptr
// addrspace(5)))`, a local address that is no variable's (LLVM's mistake;
// NVVM reads the constant). Such a load of a constant global is folded to
// its value where LLVM can (NVVM folds it: the SASS stores immediates), and
// otherwise reads the global through its own address.
struct ReadConstantsCastToLocalLikeNvvm
    : llvm::PassInfoMixin<ReadConstantsCastToLocalLikeNvvm> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
  static bool isRequired() { return true; }
};

} // namespace kcheck::analyzer
