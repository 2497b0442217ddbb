// ptxas loads only the used elements of a vector global load.
#pragma once

#include "llvm/IR/PassManager.h"

#include <optional>

namespace llvm {
class DataLayout;
class LoadInst;
} // namespace llvm

namespace kcheck::analyzer {

// How many lanes of a vector load are read, or nullopt when a user is not
// an extractelement of a constant lane (then the whole vector is needed).
std::optional<unsigned> usedVectorLanes(llvm::LoadInst &load);

// Replaces a vector load whose result is read only through constant-lane
// extractelements, and not all of them, by loads of the lanes read: each
// maximal run of used lanes in pieces of power-of-two length aligned to their
// size, as ptxas does. False when nothing changed.
bool narrowToUsedLanes(llvm::LoadInst &load, const llvm::DataLayout &layout);

// A vector load from global memory whose result is read only through
// extractelement of constant lanes, not all of them, becomes loads of the
// used lanes: each maximal run of contiguous used lanes, split into pieces
// of power-of-two length aligned to their size (as ptxas does; measured on
// the H100: `p[i].x += dt * p[i].w` on a 16-byte struct is one
// ld.global.v4.f32 in nvcc's PTX and two LDG per warp in the SASS,
// kernels/patterns/aos_partial.cu). Assumption: the same splitting for
// longer runs (a run of 3 lanes: 2 + 1), as for stores; shared-memory
// vector loads are left whole (not measured).
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

// Removes the freezes StoreWholeStructCopiesLikeNvcc put on whole-copy
// stores; run after O3.
struct UnfreezeWholeStructCopies
    : llvm::PassInfoMixin<UnfreezeWholeStructCopies> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
  static bool isRequired() { return true; }
};

} // namespace kcheck::analyzer
