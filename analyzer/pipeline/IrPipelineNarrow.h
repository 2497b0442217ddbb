// ptxas loads only the used elements of a vector global load.
#pragma once

#include "llvm/IR/PassManager.h"

#include <optional>

namespace llvm {
class DataLayout;
class LoadInst;
} // namespace llvm

namespace kcheck::analyzer {

// Replaces a vector load whose result is read only through constant-lane
// extractelements, and not all of them, by loads of the lanes read: each
// maximal run of used lanes in pieces of power-of-two length aligned to their
// size, as ptxas does; except a 16-byte vector of 4-byte lanes of which three
// or four are used, which ptxas keeps whole. False when nothing changed.
bool narrowToUsedLanes(llvm::LoadInst &load, const llvm::DataLayout &layout);

// A vector load from global memory whose result is read only through
// extractelement of constant lanes, not all of them, becomes loads of the
// used lanes: each maximal run of contiguous used lanes, split into pieces
// of power-of-two length aligned to their size (as ptxas does; measured on
// the H100: `p[i].x += dt * p[i].w` on a 16-byte struct is one
// ld.global.v4.f32 in nvcc's PTX and two LDG per warp in the SASS,
// kernels/patterns/aos_partial.cu), except a 16-byte vector of 4-byte
// lanes of which three or four are used, which ptxas keeps whole (HeCBench
// histogram's float4 pixel of which x, y, z are used: one LDG.128), as it
// does for shared memory (ShapeSharedLoadsLikePtxas). Assumption: longer
// runs of wider vectors split as stores do; shared-memory vector loads are
// ShapeSharedLoadsLikePtxas's.
struct NarrowVectorLoadsLikePtxas
    : llvm::PassInfoMixin<NarrowVectorLoadsLikePtxas> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
  static bool isRequired() { return true; }
};

// An aggregate copy from a local struct to memory that is not local
// (`p[i] = q;`, 8 or 16 bytes) is stored whole by nvcc, unchanged fields
// included (aos_partial.cu's aos4_copy: one st.global.v4.f32, so one LDG.128
// for `q = p[i]`). After SROA, LLVM would see stores of values just loaded
// from the same addresses and drop them, leaving a partly used load. Run
// before SROA: the memcpy becomes one vector load of the local and one
// vector store, which no pass finds to be a no-op.
struct StoreWholeStructCopiesLikeNvcc
    : llvm::PassInfoMixin<StoreWholeStructCopiesLikeNvcc> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
  static bool isRequired() { return true; }
};

// A copy of a whole 8- or 16-byte struct from memory that is not local into
// a local (`float4 p = in[i];`), aligned to its size, is loaded whole by
// nvcc (`ld.global.v4.f32` whichever fields are used; ptxas then narrows it,
// NarrowVectorLoadsLikePtxas). SROA would load only the fields used, which
// the vectorizer cannot merge into one vector when three of four are:
// HeCBench histogram's `PixelType pixel = in[...]` of a float4 whose x, y
// and z are used is one LDG.128 on the H100, not an LDG.64 and an LDG.32.
// Run before SROA: the memcpy becomes one vector load, hidden from the folds
// that would split it again until after O3 (UnfreezeWholeStructCopies).
struct LoadWholeStructCopiesLikeNvcc
    : llvm::PassInfoMixin<LoadWholeStructCopiesLikeNvcc> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
  static bool isRequired() { return true; }
};

// Removes the freezes StoreWholeStructCopiesLikeNvcc and
// LoadWholeStructCopiesLikeNvcc put on whole copies; run after O3.
struct UnfreezeWholeStructCopies
    : llvm::PassInfoMixin<UnfreezeWholeStructCopies> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
  static bool isRequired() { return true; }
};

} // namespace kcheck::analyzer
