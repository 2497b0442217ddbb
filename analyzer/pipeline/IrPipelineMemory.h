// IR passes that reshape memory instructions the way nvcc does where LLVM's
// O3 and load-store vectorizer leave others (docs/research/parity-notes.md,
// kernels/patterns/README.md).
#pragma once

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/PassManager.h"
#include "llvm/IR/Type.h"

namespace llvm {
class FreezeInst;
class MemCpyInst;
class Instruction;
class Value;
} // namespace llvm

namespace kcheck::analyzer {

// `value` behind a `freeze` tagged `tag`, inserted before `before`: LLVM's
// folds no longer see what the value is (a load, an insertelement of one).
// removeTaggedFreezes takes the freezes of one tag out again. Used where a
// fold would drop a memory instruction nvcc keeps (HideStoredLoadsLikeNvcc,
// StoreWholeStructCopiesLikeNvcc); false when there was none.
llvm::FreezeInst *hideBehindFreeze(llvm::Value *value,
                                   llvm::Instruction *before,
                                   llvm::StringRef tag);
bool removeTaggedFreezes(llvm::Function &function, llvm::StringRef tag);

// The memcpy calls of `function`, collected before a pass rewrites any.
llvm::SmallVector<llvm::MemCpyInst *, 8> memcpysIn(llvm::Function &function);

// The pieces a constant-length memcpy or memset of `size` bytes becomes, as
// NVPTX expands it (ExpandSmallMemcpys, ExpandSmallMemsets): `widest` bytes
// at a time (the alignment, at most 16), narrower pieces at the end; calls
// `piece` with each one's offset and type (<4 x i32> for 16 bytes, else an
// integer of its width).
void forEachWidePiece(
    llvm::LLVMContext &context, uint64_t size, uint64_t widest,
    llvm::function_ref<void(uint64_t offset, llvm::Type *type)> piece);

// What a pass that rewrites instructions but never the CFG preserves:
// everything when it changed nothing, else the CFG analyses.
inline llvm::PreservedAnalyses cfgPreservedUnless(bool changed) {
  if (!changed)
    return llvm::PreservedAnalyses::all();
  llvm::PreservedAnalyses preserved;
  preserved.preserveSet<llvm::CFGAnalyses>();
  return preserved;
}

// In an if/else diamond, nvcc (NVVM) hoists the loads both arms begin with
// and sinks the stores both arms end with into one store after the join
// (scan_hillis_steele: per step `LDS; @P LDS; STS`). LLVM does neither where
// the two addresses are computed by different instructions, and
// -simplifycfg-sink-common=false (parity-notes item 4) keeps it from sinking.
// Rules, from nvcc 13.0's PTX for such diamonds:
//  - loads: the first memory instruction of each arm, same type and address,
//    repeatedly; the hoisted load has line 0 (ptxas then credits it to the
//    previous located instruction);
//  - stores: the last memory instruction of each arm, same type and address
//    (also after a load of either arm that may alias them:
//    kernels/toolkit/if_else_stores.cu), when the arm laid out second does
//    not store a zero (nvcc keeps
//    `if (c) s[t] = x; else s[t] = 0;` as two stores, reduce_cg, but merges
//    `if (c) s[t] = 0; else s[t] = x;`); the merged store keeps the location
//    of the arm laid out second.
struct MergeDiamondAccessesLikeNvcc
    : llvm::PassInfoMixin<MergeDiamondAccessesLikeNvcc> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
  static bool isRequired() { return true; }
};

// LLVM 22's load-store vectorizer fills gaps in a chain with masked loads
// and stores (`p[i].x += dt * p[i].w` on a 16-byte aligned struct: a masked
// <4 x float> load of lanes 0 and 3), which nvcc never emits and the
// interpreter does not execute. nvcc loads the whole aligned vector (one
// ld.global.v4, LDG.128) and stores the enabled lanes as contiguous runs
// (st.v2 + st for lanes 0, 1, 3). A masked load with a constant mask whose
// alignment covers the vector becomes that plain vector load; a masked store
// with a constant mask becomes stores of its runs, each as wide as its
// length and alignment allow.
struct LowerMaskedMemoryLikeNvcc
    : llvm::PassInfoMixin<LowerMaskedMemoryLikeNvcc> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
  static bool isRequired() { return true; }
};

// nvcc reloads `a[j]` in `t = a[i]; a[i] = a[j]; a[j] += t;` unless it
// proves i != j (scan_blelloch_padded's down-sweep: SASS `LDS` between the
// two `STS` in the steps with offset <= 16, where `ai + (ai >> 5)` and
// `bi + (bi >> 5)` may be equal). LLVM's GVN forwards the first load there
// whatever the aliasing: MemoryDependenceAnalysis skips a may-alias store
// whose value is a load of the queried location from the same block
// (canSkipClobberingStore, LLVM 17+; no option turns it off), since such a
// store leaves the location unchanged either way. NVVM lacks that rule; with
// it gone, LLVM's alias analysis reloads in exactly nvcc's steps.
// HideStoredLoadsLikeNvcc runs before O3: it puts a tagged `freeze` between
// such a load and the store when the location is loaded again after the
// store, so that MemoryDependence sees a store of an unknown value, a
// clobber unless alias analysis proves the addresses different (or equal).
// UnhideStoredLoads, after GVN, puts the load back as the stored value.
struct HideStoredLoadsLikeNvcc : llvm::PassInfoMixin<HideStoredLoadsLikeNvcc> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
  static bool isRequired() { return true; }
};

struct UnhideStoredLoads : llvm::PassInfoMixin<UnhideStoredLoads> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
  static bool isRequired() { return true; }
};

// Inline assembly without side effects (not `volatile`, no memory clobber:
// Clang marks it memory(none)) as an instruction that always completes, so
// that the load-store vectorizer merges accesses on either side of it. Clang
// leaves such a call without `willreturn`, and the vectorizer stops its
// chains at any instruction that may not return; nvcc's does not: HeCBench
// quantAQLM's four `half2` shared loads around `__hfma2` (an `asm` of
// fma.rn.f16x2) are one LDS.128 in nvcc 13.0's SASS, four loads without
// this. Runs right before the vectorizer, after O3, so that nothing else
// (dead-code elimination, hoisting) sees the change.
struct LetVectorizerPassPureAsmLikeNvvm
    : llvm::PassInfoMixin<LetVectorizerPassPureAsmLikeNvvm> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
  static bool isRequired() { return true; }
};

} // namespace kcheck::analyzer
