#include "analyzer/pipeline/IrPipelineUnroll.h"

#include "analyzer/pipeline/IrPipelinePtxasUnroll.h"

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/CodeMetrics.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Metadata.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/UnrollLoop.h"

namespace kcheck::analyzer {

using namespace llvm;

namespace {

// NVVM's budget for a runtime-unrolled body and its largest count (see the
// header); LLVM's loop-size estimate counts the latch's compare and branch
// once whatever the count.
constexpr uint64_t kUnrolledSizeBudget = 200;
constexpr unsigned kMaxRuntimeCount = 4;
constexpr unsigned kBackedgeInstructions = 2;

unsigned runtimeCount(uint64_t rolledSize) {
  if (rolledSize <= kBackedgeInstructions)
    return kMaxRuntimeCount;
  unsigned count = kMaxRuntimeCount;
  while (count > 1 &&
         (rolledSize - kBackedgeInstructions) * count + kBackedgeInstructions >
             kUnrolledSizeBudget)
    count /= 2;
  return count;
}

constexpr const char *kRuntimeDisable = "llvm.loop.unroll.runtime.disable";

// Whether the loop's unrolling is already decided: a pragma (count, full,
// enable, disable) or KeepSpecialRegisterLoopsRolledLikeNvvm's mark.
bool hasUnrollMetadata(const Loop &loop) {
  // Present or not, as LLVM's unroller reads it (addStringMetadataToLoop
  // gives it an operand 0, so getBooleanLoopAttribute would say false). A
  // loop may have no llvm.loop node at all (one whose only latch was made by
  // a `break`); GetUnrollMetadata does not take a null one.
  MDNode *id = loop.getLoopID();
  return hasUnrollTransformation(&loop) != TM_Unspecified ||
         (id && GetUnrollMetadata(id, kRuntimeDisable));
}

// A read of a special register: the intrinsic, or (before inlining) an
// accessor that returns one, as Clang's `blockDim.x` is
// (__cuda_builtin_blockDim_t::__fetch_builtin_x).
bool isSpecialRegisterRead(const Value *value, unsigned depth = 0) {
  const auto *call = dyn_cast<CallBase>(value);
  const Function *callee = call ? call->getCalledFunction() : nullptr;
  if (!callee)
    return false;
  if (callee->getName().starts_with("llvm.nvvm.read.ptx.sreg."))
    return true;
  if (depth > 0 || callee->isDeclaration() || callee->size() != 1)
    return false;
  const auto *ret = dyn_cast<ReturnInst>(callee->front().getTerminator());
  return ret && ret->getReturnValue() &&
         isSpecialRegisterRead(ret->getReturnValue(), depth + 1);
}

// Whether an exit test of `loop` depends on a special register read inside
// the loop (through the loop's own instructions and phis).
bool exitTestReadsSpecialRegister(const Loop &loop) {
  SmallVector<BasicBlock *, 4> exiting;
  loop.getExitingBlocks(exiting);
  SmallVector<const Value *, 16> work;
  for (BasicBlock *block : exiting)
    if (auto *branch = dyn_cast<BranchInst>(block->getTerminator());
        branch && branch->isConditional())
      work.push_back(branch->getCondition());
  SmallPtrSet<const Value *, 32> seen;
  while (!work.empty()) {
    const auto *instruction = dyn_cast<Instruction>(work.pop_back_val());
    if (!instruction || !loop.contains(instruction) ||
        !seen.insert(instruction).second)
      continue;
    if (isSpecialRegisterRead(instruction))
      return true;
    for (const Value *operand : instruction->operands())
      work.push_back(operand);
  }
  return false;
}

} // namespace

PreservedAnalyses
UnrollRuntimeLoopsLikeNvvm::run(Function &function,
                                FunctionAnalysisManager &analyses) {
  auto &loops = analyses.getResult<LoopAnalysis>(function);
  auto &evolution = analyses.getResult<ScalarEvolutionAnalysis>(function);
  auto &costs = analyses.getResult<TargetIRAnalysis>(function);
  auto &assumptions = analyses.getResult<AssumptionAnalysis>(function);
  bool changed = false;
  for (Loop *loop : loops.getLoopsInPreorder()) {
    // Not necessarily in simplified form yet: LoopUnroll's adaptor puts it so.
    // Runtime unrolling needs a trip count computable at run time; a loop
    // left by breaks only (a `while (true)` binary search, HeCBench merge)
    // stays rolled, as nvcc leaves it.
    if (!loop->isInnermost() || hasUnrollMetadata(*loop) ||
        evolution.getSmallConstantTripCount(loop) != 0 ||
        isa<SCEVCouldNotCompute>(evolution.getBackedgeTakenCount(loop)))
      continue;
    // One of at most 7 iterations stays rolled, as LLVM's unroller leaves it
    // (ptxas unrolls it: IrPipelinePtxasUnroll.h).
    if (hasShortRuntimeTripCount(*loop, evolution)) {
      markShortRuntimeTripCount(*loop);
      changed = true;
      continue;
    }
    SmallPtrSet<const Value *, 32> ephemeral;
    CodeMetrics::collectEphemeralValues(loop, &assumptions, ephemeral);
    UnrollCostEstimator size(loop, costs, ephemeral, kBackedgeInstructions);
    if (!size.canUnroll() || !size.ConvergenceAllowsRuntime)
      continue;
    unsigned count = runtimeCount(size.getRolledLoopSize());
    if (count < 2)
      continue;
    addStringMetadataToLoop(loop, "llvm.loop.unroll.count", count);
    changed = true;
  }
  // Only loop metadata changed; the analyses are dropped all the same, so
  // that no cached loop keeps the old ID.
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

PreservedAnalyses
KeepSpecialRegisterLoopsRolledLikeNvvm::run(Function &function,
                                            FunctionAnalysisManager &analyses) {
  auto &loops = analyses.getResult<LoopAnalysis>(function);
  bool changed = false;
  for (Loop *loop : loops.getLoopsInPreorder())
    if (exitTestReadsSpecialRegister(*loop)) {
      addStringMetadataToLoop(loop, kRuntimeDisable);
      changed = true;
    }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace kcheck::analyzer
