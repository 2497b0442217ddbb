// Where the lanes of a warp that split at a branch meet again.
#pragma once

#include "llvm/ADT/DenseMap.h"

namespace llvm {
class BasicBlock;
class Function;
} // namespace llvm

namespace kcheck::sim {

// For each block of `function` that can still reach a `ret`, its immediate
// post-dominator on the paths that do: the block where lanes that diverged at
// its terminator reconverge. Paths that end in `unreachable` (a trap, a failed
// assert, a switch default the compiler proved impossible) are left out, as
// ptxas leaves them out of its reconvergence regions: the lanes that take
// them never come back. LLVM's PostDominatorTree counts each such block as an
// exit of its own, so a switch over `len & 15` with all sixteen cases (its
// default `unreachable`) had no post-dominator and its cases never met again
// (HeCBench murmurhash3: the two hash stores after the fall-through chain ran
// once per case group, 8768 STG where the H100 runs 626). Blocks absent from
// the map (the post-dominator is the function's exit, or the block cannot
// reach a `ret`) reconverge only at exit.
llvm::DenseMap<const llvm::BasicBlock *, const llvm::BasicBlock *>
reconvergenceBlocks(const llvm::Function &function);

} // namespace kcheck::sim
