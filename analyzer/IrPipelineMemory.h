// IR passes that reshape memory instructions the way nvcc does where LLVM's
// O3 and load-store vectorizer leave others (docs/research/parity-notes.md,
// kernels/patterns/README.md).
#pragma once

#include "llvm/IR/PassManager.h"

namespace kcheck::analyzer {

// In an if/else diamond, nvcc (NVVM) hoists the loads both arms begin with
// and sinks the stores both arms end with into one store after the join
// (scan_hillis_steele: per step `LDS; @P LDS; STS`). LLVM does neither where
// the two addresses are computed by different instructions, and
// -simplifycfg-sink-common=false (parity-notes item 4) keeps it from sinking.
// Rules, from nvcc 13.0's PTX for such diamonds:
//  - loads: the first memory instruction of each arm, same type and address,
//    repeatedly; the hoisted load has line 0 (ptxas then credits it to the
//    previous located instruction);
//  - stores: the last memory instruction of each arm, same type and address,
//    when no other instruction of either arm may read or write that address
//    and the arm laid out second does not store a zero (nvcc keeps
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

} // namespace kcheck::analyzer
