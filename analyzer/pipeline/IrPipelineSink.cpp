#include "analyzer/pipeline/IrPipelineSink.h"

#include "core/PtxTags.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"

namespace kcheck::analyzer {

using namespace llvm;

namespace {

bool isPlainLoad(const Instruction &instruction) {
  const auto *load = dyn_cast<LoadInst>(&instruction);
  return load && load->isSimple() &&
         !load->getMetadata(core::kPtxInstructionMetadata);
}

// Arithmetic that may move with a load: no memory, no side effects, no phi.
bool isMovableArithmetic(const Instruction &instruction) {
  return !isa<PHINode>(instruction) && !instruction.isTerminator() &&
         !instruction.mayReadOrWriteMemory() &&
         !instruction.mayHaveSideEffects() && !isa<CallBase>(instruction);
}

// The instructions of `block` that `load` feeds through movable arithmetic
// in `block`, the load first, in block order; empty when one of them is
// used in `block` by an instruction that cannot move (the terminator's
// condition, a store...).
SmallSetVector<Instruction *, 8> chainOf(LoadInst &load, BasicBlock &block) {
  SmallSetVector<Instruction *, 8> chain;
  chain.insert(&load);
  for (size_t k = 0; k < chain.size(); ++k)
    for (User *user : chain[k]->users()) {
      auto *inner = cast<Instruction>(user);
      if (inner->getParent() != &block)
        continue;
      if (!isMovableArithmetic(*inner))
        return {};
      chain.insert(inner);
    }
  // In block order, so that each keeps its operands before it.
  SmallVector<Instruction *, 8> ordered(chain.begin(), chain.end());
  llvm::sort(ordered,
             [](Instruction *a, Instruction *b) { return a->comesBefore(b); });
  return SmallSetVector<Instruction *, 8>(ordered.begin(), ordered.end());
}

// Whether `successor` (of `branch`) tests a second condition of the same
// `if`, one that the chain's values decide: `if (a || b) return;` where b
// needs the loads. ptxas evaluates both tests as one predicate, the loads
// before it (sunk_loads.cu's in_exit_test: every warp loads).
bool testsWithChain(const BasicBlock &successor, const BranchInst &branch,
                    const SmallSetVector<Instruction *, 8> &chain) {
  const auto *next = dyn_cast<BranchInst>(successor.getTerminator());
  if (!next || !next->isConditional() ||
      !llvm::any_of(next->successors(), [&](const BasicBlock *target) {
        return llvm::is_contained(branch.successors(), target);
      }))
    return false;
  SmallVector<Value *, 8> work = {next->getCondition()};
  SmallPtrSet<Value *, 16> seen;
  while (!work.empty()) {
    auto *value = dyn_cast<Instruction>(work.pop_back_val());
    if (!value || !seen.insert(value).second)
      continue;
    if (chain.contains(value))
      return true;
    if (value->getParent() == &successor)
      llvm::append_range(work, value->operands());
  }
  return false;
}

// The successor of `block` that dominates every use outside `block` of the
// chain, if it has no other predecessor.
BasicBlock *targetOf(const SmallSetVector<Instruction *, 8> &chain,
                     BasicBlock &block, const DominatorTree &dominators) {
  auto *branch = dyn_cast<BranchInst>(block.getTerminator());
  if (!branch || !branch->isConditional())
    return nullptr;
  for (BasicBlock *successor : branch->successors()) {
    if (successor->getUniquePredecessor() != &block ||
        testsWithChain(*successor, *branch, chain))
      continue;
    bool all = true, any = false;
    for (Instruction *member : chain)
      for (Use &use : member->uses()) {
        auto *inner = cast<Instruction>(use.getUser());
        if (inner->getParent() == &block)
          continue;
        any = true;
        // A phi uses its value at the end of the incoming block.
        BasicBlock *at = inner->getParent();
        if (auto *phi = dyn_cast<PHINode>(inner))
          at = phi->getIncomingBlock(use);
        all &= dominators.dominates(successor, at);
      }
    if (any && all)
      return successor;
  }
  return nullptr;
}

bool writesAfter(const LoadInst &load) {
  for (const Instruction *i = load.getNextNode(); i; i = i->getNextNode())
    if (i->mayWriteToMemory())
      return true;
  return false;
}

} // namespace

PreservedAnalyses
SinkLoadsIntoTheirBranchLikePtxas::run(Function &function,
                                       FunctionAnalysisManager &analyses) {
  DominatorTree &dominators =
      analyses.getResult<DominatorTreeAnalysis>(function);
  bool changed = false;
  for (BasicBlock &block : function) {
    SmallVector<LoadInst *, 8> loads;
    for (Instruction &instruction : block)
      if (isPlainLoad(instruction))
        loads.push_back(cast<LoadInst>(&instruction));
    // Last first: a later load's chain moves before an earlier one's, and
    // the moved instructions keep their order.
    for (LoadInst *load : llvm::reverse(loads)) {
      if (load->getParent() != &block || writesAfter(*load))
        continue;
      SmallSetVector<Instruction *, 8> chain = chainOf(*load, block);
      if (chain.empty())
        continue;
      BasicBlock *target = targetOf(chain, block, dominators);
      if (!target)
        continue;
      Instruction *insertAt = &*target->getFirstInsertionPt();
      for (Instruction *member : chain)
        member->moveBefore(insertAt->getIterator());
      changed = true;
    }
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace kcheck::analyzer
