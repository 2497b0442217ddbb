// Shared accesses that NVVM leaves apart and ptxas merges, in two steps,
// as the two tools do it.
//
// NVVM's load-store vectorizer knows a `__shared__` variable's declared
// alignment only (PTX `.shared .align 8` for an `int64_t` array), so it
// leaves `op[0]`, `op[1]` of such an array two `ld.shared.u64` even where
// the offsets make them a 16-byte aligned pair. ptxas knows where it put the
// variable (AlignSharedGlobalsLikePtxas raises the alignment to what that
// offset proves) and merges such a pair, but it moves no shared access
// across another that may touch the same memory where one of the two is a
// store. Measured on the H200 (nvcc 13.0, sm_90 SASS,
// docs/validation/probes/ptxas_merge.cu, kernels built around
// `a = o[-2]; b = o[-1]; o[0] = a; o[1] = b;`): the two loads are one
// LDS.128 and the two stores one STS.128 (32-bit elements: LDS.64, STS.64),
// offsets constant or from a loaded index; a shared load, or a global load
// or store, between the two loads, or a global store between the two
// stores, leaves them merged; `o[0] = o[-2]; o[1] = o[-1];` (load, store,
// load, store) stays two LDS.64 and two STS.64, and a store to another
// shared array between two stores keeps them apart. HeCBench langford's
// search loop is the interleaved form: one LDS.64 and one STS.64 per
// iteration more than LLVM's vectorizer, which moves accesses across
// stores it proves apart, gives.
//
// So the vectorizer runs twice: first at the alignment the accesses had when
// O3 (at the declared alignments) ended, which RememberAlignmentLikeNvvm
// records, then at the raised alignment with a fence wherever ptxas would
// not merge across.
#pragma once

#include "llvm/IR/PassManager.h"

namespace llvm {
class Module;
}

namespace kcheck::analyzer {

/// Records each simple load's and store's alignment (metadata), right after
/// O3: what NVVM's vectorizer knows.
struct RememberAlignmentLikeNvvm
    : llvm::PassInfoMixin<RememberAlignmentLikeNvvm> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
  static bool isRequired() { return true; }
};

/// Lowers each access's alignment back to the recorded one, before NVVM's
/// vectorizer; InferAlignment raises what is left afterwards.
struct CapAlignmentLikeNvvm : llvm::PassInfoMixin<CapAlignmentLikeNvvm> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
  static bool isRequired() { return true; }
};

/// Before ptxas's merging: a fence (a call the vectorizer does not move
/// accesses across) between two shared (or generic) accesses that follow
/// each other in a block, unless both are loads or the second store
/// continues the first one's bytes. Loads ptxas may merge take the source
/// line of the run's last load, as in the SASS.
struct FenceLoadStoreTurnsLikePtxas
    : llvm::PassInfoMixin<FenceLoadStoreTurnsLikePtxas> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
  static bool isRequired() { return true; }
};

/// Removes FenceLoadStoreTurnsLikePtxas's fences, and gives the loads the
/// vectorizer left alone their own source lines back.
struct RemoveLoadStoreFences : llvm::PassInfoMixin<RemoveLoadStoreFences> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
  static bool isRequired() { return true; }
};

/// The fences' declaration, once no function calls it.
void eraseLoadStoreFenceDeclaration(llvm::Module &module);

} // namespace kcheck::analyzer
