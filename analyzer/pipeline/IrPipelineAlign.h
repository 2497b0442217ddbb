// Accesses narrower in alignment than in size, as the NVPTX backend
// legalizes them: it splits a load or store whose alignment is below its
// size into accesses of the alignment's width (an `i32` copy of a
// `struct { unsigned char r, g, b, a; }` with alignment 1 is four LDG.U8 /
// STG.U8 on the H100: HeCBench aligned-types, uchar4_misaligned, measured
// 4 instructions per element). Runs last: whatever produced the access.
#pragma once

#include "llvm/IR/PassManager.h"

namespace kcheck::analyzer {

struct SplitUnderalignedAccessesLikeNvptx
    : llvm::PassInfoMixin<SplitUnderalignedAccessesLikeNvptx> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
  static bool isRequired() { return true; }
};

// Sub-word shared accesses as ptxas merges them, kept from the vectorizer
// merging more (it merges no chain wider than its alignment, which
// AlignSharedGlobalsLikePtxas raises): measured on the H100 (HeCBench scan,
// nvcc 13.0 SASS), ptxas merges no byte access to shared memory (`temp[2t]`,
// `temp[2t+1]` of a `char` array: two STS.U8, two LDS.U8, at any alignment;
// sixteen bytes of a 16-byte aligned row: sixteen LDS.U8), and no pair of
// 16-bit loads whose values are integers (`short`: two LDS.U16), while it
// does merge 16-bit stores (one STS for the `short` pair; eight `__half`
// stores, one STS.128) and the 16-bit loads of halves, into at most 64 bits
// (HeCBench fma and kernels/toolkit/subword_shared.cu: eight `__half`
// loads of a 16-byte aligned row are two LDS.64, four are one LDS.64).
// Runs between InferAlignment and the vectorizer: a byte access and a
// 16-bit integer load keep only their natural alignment, other 16-bit loads
// at most 8.
struct KeepSubwordSharedAccessesApartLikePtxas
    : llvm::PassInfoMixin<KeepSubwordSharedAccessesApartLikePtxas> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
  static bool isRequired() { return true; }
};

/// The stores of a device-side launch's arguments into its parameter
/// buffer, at each argument's own alignment: Clang writes them knowing the
/// buffer is 64-byte aligned, so LLVM's vectorizer merges neighbours; nvcc
/// does not know it, and its SASS has one ST per argument, a struct's
/// fields one each (measured on the H200: dynamic_parallelism.cu's
/// paramsParent, ST.E.64 at +0x20 and +0x28, ST.E at +0x14, +0x18, +0x1c).
struct ParameterBufferAlignmentLikeNvcc
    : llvm::PassInfoMixin<ParameterBufferAlignmentLikeNvcc> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
  static bool isRequired() { return true; }
};

} // namespace kcheck::analyzer
