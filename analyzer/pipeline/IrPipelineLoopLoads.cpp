#include "analyzer/pipeline/IrPipelineLoopLoads.h"

#include "analyzer/pipeline/IrPipelineMemory.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"

namespace kcheck::analyzer {

using namespace llvm;

namespace {

// A load LICM hoisted out of `loop` while the loop still stores to its
// address.
bool isLoadOnlyPromotion(const LoadInst &load, const Loop &loop) {
  if (!load.isSimple() || !load.getName().ends_with(".promoted"))
    return false;
  const Value *address = load.getPointerOperand();
  if (!loop.isLoopInvariant(address))
    return false;
  for (const BasicBlock *block : loop.blocks())
    for (const Instruction &instruction : *block)
      if (const auto *store = dyn_cast<StoreInst>(&instruction);
          store && store->getPointerOperand() == address)
        return true;
  return false;
}

// Undoes one promotion; false (nothing changed) when the carried value
// leaves the loop.
bool keepLoadsInLoop(LoadInst &hoisted, const Loop &loop) {
  // The phis that carry the location's value, and the instructions in the
  // loop that read it from them.
  SetVector<PHINode *> carried;
  SmallVector<Use *, 8> reads;
  SmallVector<Value *, 8> work = {&hoisted};
  while (!work.empty()) {
    Value *value = work.pop_back_val();
    for (Use &use : value->uses()) {
      auto *user = cast<Instruction>(use.getUser());
      if (!loop.contains(user))
        return false;
      if (auto *phi = dyn_cast<PHINode>(user)) {
        if (carried.insert(phi))
          work.push_back(phi);
      } else {
        reads.push_back(&use);
      }
    }
  }
  if (reads.empty())
    return false;
  for (Use *use : reads) {
    auto *user = cast<Instruction>(use->getUser());
    auto *reload =
        new LoadInst(hoisted.getType(), hoisted.getPointerOperand(), "", false,
                     hoisted.getAlign(), user->getIterator());
    reload->setAAMetadata(hoisted.getAAMetadata());
    reload->setDebugLoc(user->getDebugLoc());
    use->set(reload);
  }
  // What is left is a cycle of phis and the hoisted load feeding it.
  for (PHINode *phi : carried)
    phi->replaceAllUsesWith(PoisonValue::get(phi->getType()));
  for (PHINode *phi : carried)
    phi->eraseFromParent();
  hoisted.replaceAllUsesWith(PoisonValue::get(hoisted.getType()));
  hoisted.eraseFromParent();
  return true;
}

} // namespace

PreservedAnalyses
KeepConditionalLoopLoadsLikeNvcc::run(Function &function,
                                      FunctionAnalysisManager &analyses) {
  LoopInfo &loops = analyses.getResult<LoopAnalysis>(function);
  bool changed = false;
  for (Loop *loop : loops.getLoopsInPreorder()) {
    BasicBlock *preheader = loop->getLoopPreheader();
    if (!preheader)
      continue;
    SmallVector<LoadInst *, 4> hoisted;
    for (Instruction &instruction : *preheader)
      if (auto *load = dyn_cast<LoadInst>(&instruction);
          load && isLoadOnlyPromotion(*load, *loop))
        hoisted.push_back(load);
    for (LoadInst *load : hoisted)
      changed |= keepLoadsInLoop(*load, *loop);
  }
  return cfgPreservedUnless(changed);
}

} // namespace kcheck::analyzer
