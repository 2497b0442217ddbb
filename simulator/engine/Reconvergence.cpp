#include "simulator/engine/Reconvergence.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"

#include <vector>

namespace kcheck::sim {

using namespace llvm;

namespace {

// Blocks from which a `ret` can be reached.
DenseMap<const BasicBlock *, bool> blocksReachingReturn(const Function &f) {
  DenseMap<const BasicBlock *, bool> live;
  SmallVector<const BasicBlock *, 32> work;
  for (const BasicBlock &block : f)
    if (isa<ReturnInst>(block.getTerminator()) && !live[&block]) {
      live[&block] = true;
      work.push_back(&block);
    }
  while (!work.empty()) {
    const BasicBlock *block = work.pop_back_val();
    for (const BasicBlock *pred : predecessors(block))
      if (!live[pred]) {
        live[pred] = true;
        work.push_back(pred);
      }
  }
  return live;
}

} // namespace

// Cooper, Harvey and Kennedy's iterative dominator algorithm ("A Simple, Fast
// Dominance Algorithm", 2001) on the reversed CFG of the blocks that reach a
// return, rooted at a virtual exit that every returning block flows into.
DenseMap<const BasicBlock *, const BasicBlock *>
reconvergenceBlocks(const Function &function) {
  DenseMap<const BasicBlock *, const BasicBlock *> result;
  if (function.isDeclaration())
    return result;
  DenseMap<const BasicBlock *, bool> live = blocksReachingReturn(function);
  auto isLive = [&](const BasicBlock *b) { return live.lookup(b); };

  // Postorder of the reversed graph from the virtual exit (node 0).
  std::vector<const BasicBlock *> order; // index = postorder number - 1
  DenseMap<const BasicBlock *, unsigned> number;
  {
    struct Frame {
      const BasicBlock *block;
      const_pred_iterator next, end;
    };
    DenseMap<const BasicBlock *, bool> seen;
    for (const BasicBlock &root : function) {
      if (!isa<ReturnInst>(root.getTerminator()))
        continue;
      if (seen[&root])
        continue;
      seen[&root] = true;
      std::vector<Frame> stack{{&root, pred_begin(&root), pred_end(&root)}};
      while (!stack.empty()) {
        Frame &top = stack.back();
        if (top.next != top.end) {
          const BasicBlock *pred = *top.next++;
          if (isLive(pred) && !seen[pred]) {
            seen[pred] = true;
            stack.push_back({pred, pred_begin(pred), pred_end(pred)});
          }
          continue;
        }
        order.push_back(top.block);
        number[top.block] = unsigned(order.size()); // 1-based; 0 = exit
        stack.pop_back();
      }
    }
  }
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
