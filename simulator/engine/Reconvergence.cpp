#include "simulator/engine/Reconvergence.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"

#include <vector>

namespace kcheck::sim {

using namespace llvm;

// Cooper, Harvey and Kennedy's iterative dominator algorithm ("A Simple, Fast
// Dominance Algorithm", 2001) on the reversed CFG of the blocks that reach a
// return, rooted at a virtual exit that every returning block flows into.
DenseMap<const BasicBlock *, const BasicBlock *>
reconvergenceBlocks(const Function &function) {
  DenseMap<const BasicBlock *, const BasicBlock *> result;
  if (function.isDeclaration())
    return result;
  // Postorder of the reversed graph from the virtual exit, whose children are
  // the returning blocks: it visits exactly the blocks that reach a return.
  SmallPtrSet<const BasicBlock *, 32> live;
  std::vector<const BasicBlock *> order; // index = postorder number - 1
  for (const BasicBlock &root : function)
    if (isa<ReturnInst>(root.getTerminator()))
      for (const BasicBlock *block : inverse_post_order_ext(&root, live))
        order.push_back(block);
  DenseMap<const BasicBlock *, unsigned> number; // 1-based; 0 = not live
  for (unsigned k = 0; k < order.size(); ++k)
    number[order[k]] = k + 1;
  auto isLive = [&](const BasicBlock *b) { return live.contains(b); };
  const unsigned exitNumber = unsigned(order.size()) + 1; // highest: the root
  std::vector<unsigned> idom(exitNumber + 1, 0);          // 0 = undefined
  idom[exitNumber] = exitNumber;
  auto numberOf = [&](const BasicBlock *b) { return number.lookup(b); };
  auto intersect = [&](unsigned a, unsigned b) {
    while (a != b) {
      while (a < b)
        a = idom[a];
      while (b < a)
        b = idom[b];
    }
    return a;
  };
  // A block's predecessors in the reversed graph: its live successors, and
  // the exit when it returns.
  bool changed = true;
  while (changed) {
    changed = false;
    for (unsigned n = unsigned(order.size()); n >= 1; --n) {
      const BasicBlock *block = order[n - 1];
      unsigned newIdom = 0;
      auto consider = [&](unsigned p) {
        if (p == 0 || idom[p] == 0)
          return;
        newIdom = newIdom == 0 ? p : intersect(p, newIdom);
      };
      if (isa<ReturnInst>(block->getTerminator()))
        consider(exitNumber);
      for (const BasicBlock *succ : successors(block))
        if (isLive(succ))
          consider(numberOf(succ));
      if (newIdom != 0 && idom[n] != newIdom) {
        idom[n] = newIdom;
        changed = true;
      }
    }
  }
  for (unsigned n = 1; n <= order.size(); ++n)
    if (idom[n] != 0 && idom[n] != exitNumber)
      result[order[n - 1]] = order[idom[n] - 1];
  return result;
}

} // namespace kcheck::sim
