// Shared-memory loads as ptxas shapes them after nvcc's optimizer: passes
// that run on the IR once inline PTX is lowered, since ptxas sees the
// assembly's instructions that NVVM saw only as opaque calls.
#pragma once

#include "llvm/ADT/MapVector.h"
#include "llvm/IR/PassManager.h"

#include <optional>

namespace llvm {
class DataLayout;
class GlobalVariable;
class Instruction;
class Value;
} // namespace llvm

namespace kcheck::analyzer {

/// A simple (not volatile or atomic) load or store of shared memory that was
/// not lowered from inline PTX: what the passes reusing or merging shared
/// accesses may touch.
bool isPlainSharedAccess(const llvm::Instruction &instruction);

/// The static __shared__ variables `kernel` uses, in module order, at the
/// offsets ptxas gives them (core/SharedLayout.h), with each variable's
/// alignment as it is now. The engine's decoder lays out the same way.
llvm::MapVector<llvm::GlobalVariable *, uint64_t>
sharedOffsetsLikePtxas(llvm::Function &kernel);

/// Where a pointer to a static __shared__ variable at a constant offset
/// points in the window laid out by sharedOffsetsLikePtxas.
struct WindowAddress {
  llvm::GlobalVariable *variable = nullptr;
  uint64_t variableOffset = 0; // of the variable, in the window
  uint64_t offset = 0;         // of the address, in the window
};
std::optional<WindowAddress> windowAddressOf(
    llvm::Value *pointer, const llvm::DataLayout &layout,
    const llvm::MapVector<llvm::GlobalVariable *, uint64_t> &offsets);

/// The bytes of the static window those variables fill.
uint64_t
staticSharedBytes(const llvm::MapVector<llvm::GlobalVariable *, uint64_t> &,
                  const llvm::DataLayout &layout);

/// Tags `access`, which covers window bytes [begin, end) through a pointer
/// based on one variable, with the variables it covers
/// (core::kSharedSpanMetadata) when that is more than its base variable.
void markSharedSpan(llvm::Instruction &access, uint64_t begin, uint64_t end,
                    const llvm::MapVector<llvm::GlobalVariable *, uint64_t> &);

// ptxas knows where each static __shared__ variable sits (it lays them out,
// packed: core/SharedLayout.h), so it proves an address's alignment from the
// variable's offset, not from its declared alignment: the loads of words 2-4
// of CUB TempStorage at offset 24 are one LDS.128 (HeCBench channelSum).
// Raises each variable's alignment to what its offset in every kernel that
// uses it proves (at most 16), so that the vectorizer and the passes below
// may merge what ptxas merges; the layout stays the same (an offset is the
// first multiple of its old alignment past the previous variable, so also
// of the new one).
struct AlignSharedGlobalsLikePtxas
    : llvm::PassInfoMixin<AlignSharedGlobalsLikePtxas> {
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &analyses);
  static bool isRequired() { return true; }
};

// Extern __shared__ arrays (declarations, or of zero size) are the dynamic
// window, which starts at a multiple of 16: nvcc's NVVM declares them
// `.align 16` and its load-store vectorizer merges `b[4 * v + i]`, i = 0..3,
// of an `extern __shared__ char[]` cast to float* into one ld.shared.v4
// (HeCBench fma); at their own alignment nothing merges. Runs before
// AlignSharedGlobalsLikePtxas, which raises the static variables only: this
// is what NVVM knows, that is what ptxas adds.
struct AlignDynamicSharedLikeNvvm
    : llvm::PassInfoMixin<AlignDynamicSharedLikeNvvm> {
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &analyses);
  static bool isRequired() { return true; }
};

// ptxas drops a shared load that reloads what a dominating shared load of
// the same address and width read, with no instruction between them that may
// write that memory. NVVM keeps such reloads when an inline-assembly
// statement (a CUB shuffle, `asm volatile("shfl.sync...")`) stands between
// the two, since it cannot see that the statement touches no memory; ptxas
// can. Measured on the H100 (CUB 3.0's BlockScanRaking downsweep re-reads its
// raking segment after a shuffle warp scan: nvcc's PTX has 32 + 31
// `ld.shared.u32`, the SASS 32 LDS; HeCBench topk). What may write memory is
// alias analysis's answer over MemorySSA, so barriers, fences, atomics and
// stores to the same address keep the reload. The earlier load may be wider:
// a reload of one element of a dominating vector load reuses that lane (CUB
// raking scans read a segment as an LDS.64 and re-read its first element
// after the warp scan; HeCBench blockScan, one LDS fewer per block on the
// H100). Addresses compare as linear forms (IrPipelineAddress.h), 32-bit
// wrap included. Assumptions: volatile loads
// and loads lowered from tagged PTX (ldmatrix...) are never dropped; only
// shared memory (global reloads across asm not measured).
struct ForwardSharedReloadsLikePtxas
    : llvm::PassInfoMixin<ForwardSharedReloadsLikePtxas> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
  static bool isRequired() { return true; }
};

// ptxas reads static __shared__ memory in 16-byte chunks (aligned to 16 in
// the kernel's shared window, sharedOffsetsLikePtxas) by this rule, measured
// on the H100:
//  - three or four 4-byte words of a chunk read by loads that the first of
//    them dominates, none in a loop the first is outside of, with nothing
//    between that may write the words, are one LDS.128 of the chunk where the
//    first load stands (with the line of a load that read the whole chunk,
//    if any). CUB's BlockReduce (warp reductions) reads 31 warp aggregates
//    at byte offsets 36..156 as `ld.shared.f32` and ptxas issues 8 LDS.128
//    from offset 32; HeCBench topk: `ld.shared.v2.u32 [counter]` before a
//    branch and `ld.shared.u32 [counter+12]` after it are one LDS.128
//    [counter]; kernels/toolkit/nvcc_parity.cu's shared_chunks: words 1-3
//    of an int array are one LDS.128, words 5-6 two LDS.
//  - a 16-byte vector load of which at most two words are used is loads of
//    the used words (ptxas's narrowing, as NarrowVectorLoadsLikePtxas does
//    for global memory): topk's `ld.shared.v4.u32` of lanes 0 and 3 is two
//    LDS.
// Chunks are the window's (ptxas lays the variables out side by side):
// words of several variables merge too, in one basic block
// (kernels/toolkit/shared_scalars.cu: two `__shared__` scalars every lane
// reads, one LDS.64; three, one LDS.128; HeCBench adamw: two read before and
// after a loop, two LDS); the merged load names them all
// (core::kSharedSpanMetadata).
// Assumptions: only whole 4-byte words of static variables at constant
// offsets, chunks inside the window; sub-word loads, loads of 16-bit
// elements (two LDS.64 of `__half` stay two: HeCBench nlll) and other
// address forms are left as they are.
struct ShapeSharedLoadsLikePtxas
    : llvm::PassInfoMixin<ShapeSharedLoadsLikePtxas> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
  static bool isRequired() { return true; }
};

// ptxas merges 4-byte stores to static __shared__ variables it laid out
// side by side, as it merges an array's: two words of an 8-byte aligned pair
// are one STS.64, four of a 16-byte chunk one STS.128, when nothing between
// the stores touches shared memory (measured on the H100,
// kernels/toolkit/shared_scalars.cu: `__shared__ float s_pred; __shared__ int
// s_label;` written by thread 0, one STS.64, as in HeCBench accuracy; four
// `int` scalars, one STS.128; three, STS.64 + STS). The merged store stands
// where the last of them did. Loads of such words are merged by
// ShapeSharedLoadsLikePtxas. Assumptions: 32-bit int and float stores at
// constant offsets in one basic block; groups within one variable are left
// to the vectorizer.
struct MergeSharedStoresAcrossVariablesLikePtxas
    : llvm::PassInfoMixin<MergeSharedStoresAcrossVariablesLikePtxas> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
  static bool isRequired() { return true; }
};

} // namespace kcheck::analyzer
