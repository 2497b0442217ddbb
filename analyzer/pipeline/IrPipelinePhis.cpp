#include "analyzer/pipeline/IrPipelinePhis.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"

namespace kcheck::analyzer {

using namespace llvm;

namespace {

bool isPureArithmetic(const Instruction &instruction) {
  return !isa<PHINode>(instruction) && !isa<CallBase>(instruction) &&
         !instruction.isTerminator() && !instruction.mayReadOrWriteMemory() &&
         !instruction.mayHaveSideEffects() &&
         isSafeToSpeculativelyExecute(&instruction);
}

// The one computation every incoming value of `phi` copies, or null.
Instruction *commonComputation(const PHINode &phi) {
  auto *first = dyn_cast<Instruction>(phi.getIncomingValue(0));
  if (!first || !isPureArithmetic(*first))
    return nullptr;
  for (Value *incoming : phi.incoming_values()) {
    auto *other = dyn_cast<Instruction>(incoming);
    if (!other || !other->isIdenticalTo(first))
      return nullptr;
  }
  return first;
}

bool foldPhi(PHINode &phi, const DominatorTree &dominators) {
  Instruction *computation = commonComputation(phi);
  if (!computation)
    return false;
  BasicBlock *at = phi.getIncomingBlock(0);
  for (BasicBlock *incoming : phi.blocks())
    at = dominators.findNearestCommonDominator(at, incoming);
  if (!at)
    return false;
  Instruction *before = at->getTerminator();
  for (Value *operand : computation->operands())
    if (auto *defined = dyn_cast<Instruction>(operand);
        defined && !dominators.dominates(defined, before))
      return false;
  Instruction *copy = computation->clone();
  copy->insertBefore(before->getIterator());
  copy->takeName(&phi);
  phi.replaceAllUsesWith(copy);
  phi.eraseFromParent();
  return true;
}

} // namespace

PreservedAnalyses
FoldPhisOfIdenticalArithmetic::run(Function &function,
                                   FunctionAnalysisManager &analyses) {
  const auto &dominators = analyses.getResult<DominatorTreeAnalysis>(function);
  bool changed = false;
  for (BasicBlock &block : function)
    for (PHINode &phi : make_early_inc_range(block.phis()))
      changed |= foldPhi(phi, dominators);
  if (!changed)
    return PreservedAnalyses::all();
  PreservedAnalyses kept;
  kept.preserveSet<CFGAnalyses>();
  return kept;
}

} // namespace kcheck::analyzer
