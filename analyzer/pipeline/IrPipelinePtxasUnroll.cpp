#include "analyzer/pipeline/IrPipelinePtxasUnroll.h"

#include "analyzer/pipeline/IrPipelineAddress.h"
#include "analyzer/pipeline/IrPipelineShared.h"

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/NVPTXAddrSpace.h"
#include "llvm/Transforms/Utils/LCSSA.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/UnrollLoop.h"

namespace kcheck::analyzer {

using namespace llvm;

namespace {

constexpr const char *kShortTripMark = "kcheck.loop.short_runtime_trip";

// LLVM's -unroll-max-upperbound (8): below it, no runtime unrolling.
constexpr unsigned kShortestUnrolledBound = 8;
// ptxas's copies per trip, then the pair it runs for the leftover.
constexpr unsigned kPtxasCopies = 4;
constexpr unsigned kPtxasLeftoverCopies = 2;
// The trip count's expansion is a division at most; LLVM's default budget
// (4) would refuse some of the measured loops' `C % 8`.
constexpr unsigned kTripCountExpansionBudget = 64;

bool isMergeableSharedLoad(const Instruction &instruction) {
  const auto *load = dyn_cast<LoadInst>(&instruction);
  if (!load || !isPlainSharedAccess(instruction))
    return false;
  Type *type = load->getType();
  if (!type->isIntegerTy() && !type->isFloatingPointTy())
    return false;
  unsigned bits = type->getPrimitiveSizeInBits().getFixedValue();
  // ptxas merges no byte access to shared memory (IrPipelineAlign.h).
  return bits == 16 || bits == 32 || bits == 64;
}

// An instruction between two loads of a pair that keeps them apart: one that
// may write shared memory (a store to global or local memory cannot).
bool mayWriteShared(const Instruction &instruction) {
  if (!instruction.mayWriteToMemory())
    return false;
  if (const auto *store = dyn_cast<StoreInst>(&instruction)) {
    unsigned space = store->getPointerAddressSpace();
    return space != NVPTXAS::ADDRESS_SPACE_GLOBAL &&
           space != NVPTXAS::ADDRESS_SPACE_LOCAL;
  }
  return true;
}

// The trailing zero bits `expression` is known to have: ScalarEvolution's
// count, looking also through the phis that join an unrolled loop's exit to
// its leftover iterations (`k.epil.init = phi [0], [k.unr]`, with `k.unr` a
// multiple of 4), which ScalarEvolution and ValueTracking look through only
// one deep.
unsigned trailingZeros(const SCEV *expression, ScalarEvolution &evolution,
                       unsigned depth = 0) {
  constexpr unsigned kPhiDepth = 6;
  unsigned known = evolution.getMinTrailingZeros(expression);
  unsigned width = evolution.getTypeSizeInBits(expression->getType());
  auto operandsMin = [&](const SCEVNAryExpr *nary) {
    unsigned least = width;
    for (const SCEV *operand : nary->operands())
      least = std::min(least, trailingZeros(operand, evolution, depth));
    return least;
  };
  unsigned derived = 0;
  if (const auto *unknown = dyn_cast<SCEVUnknown>(expression)) {
    auto *phi = dyn_cast<PHINode>(unknown->getValue());
    if (phi && depth < kPhiDepth) {
      derived = width;
      for (Value *incoming : phi->incoming_values())
        if (incoming != phi)
          derived = std::min(derived, trailingZeros(evolution.getSCEV(incoming),
                                                    evolution, depth + 1));
    }
  } else if (const auto *add = dyn_cast<SCEVAddExpr>(expression)) {
    derived = operandsMin(add);
  } else if (const auto *recurrence = dyn_cast<SCEVAddRecExpr>(expression)) {
    derived = operandsMin(recurrence);
  } else if (const auto *product = dyn_cast<SCEVMulExpr>(expression)) {
    for (const SCEV *operand : product->operands())
      derived += trailingZeros(operand, evolution, depth);
  } else if (const auto *cast = dyn_cast<SCEVCastExpr>(expression)) {
    derived = trailingZeros(cast->getOperand(), evolution, depth);
  }
  return std::min(width, std::max(known, derived));
}

// The load of the element next to `first`'s among the loads after it in its
// block, and whether `first` is the lower of the two.
std::optional<std::pair<LoadInst *, bool>> adjacentLoad(LoadInst &first) {
  Type *type = first.getType();
  const DataLayout &layout = first.getModule()->getDataLayout();
  int64_t size = static_cast<int64_t>(layout.getTypeStoreSize(type));
  for (Instruction *next = first.getNextNode(); next;
       next = next->getNextNode()) {
    if (auto *load = dyn_cast<LoadInst>(next);
        load && load->getType() == type && isMergeableSharedLoad(*load)) {
      std::optional<int64_t> distance = constantDistance(
          load->getPointerOperand(), first.getPointerOperand(), layout);
      if (distance && (*distance == size || *distance == -size))
        return std::make_pair(load, *distance == size);
    }
    if (mayWriteShared(*next))
      return std::nullopt;
  }
  return std::nullopt;
}

// Merges the pairs of `block`'s shared loads as ptxas does in its copies:
// each load with the next copy's load of the adjacent element, when the
// lower address is aligned to the pair; a load taken as the second of a pair
// is not paired again, merged or not (ptxas pairs copies 0-1 and 2-3: from
// a start one element past alignment it merges nothing).
void mergeSharedLoadPairs(BasicBlock &block, ScalarEvolution &evolution) {
  SmallVector<LoadInst *, 16> loads;
  for (Instruction &instruction : block)
    if (isMergeableSharedLoad(instruction))
      loads.push_back(cast<LoadInst>(&instruction));
  // Holds erased loads too, compared by address only.
  SmallPtrSet<Instruction *, 16> paired;
  for (LoadInst *load : loads) {
    if (paired.contains(load))
      continue;
    LoadInst &first = *load;
    auto adjacent = adjacentLoad(first);
    if (!adjacent || paired.contains(adjacent->first))
      continue;
    auto [second, firstIsLower] = *adjacent;
    paired.insert(second);
    Type *type = first.getType();
    uint64_t size = first.getModule()->getDataLayout().getTypeStoreSize(type);
    Value *lower =
        firstIsLower ? first.getPointerOperand() : second->getPointerOperand();
    if (trailingZeros(evolution.getSCEV(lower), evolution) < Log2_64(2 * size))
      continue;
    IRBuilder<> builder(&first);
    Value *address = first.getPointerOperand();
    if (!firstIsLower)
      address = builder.CreateConstGEP1_64(builder.getInt8Ty(), address,
                                           -static_cast<int64_t>(size));
    LoadInst *pair = builder.CreateAlignedLoad(
        FixedVectorType::get(type, 2), address, Align(2 * size), "ptxas.pair");
    pair->setDebugLoc(first.getDebugLoc());
    Value *lowerValue = builder.CreateExtractElement(pair, uint64_t{0});
    Value *upperValue = builder.CreateExtractElement(pair, uint64_t{1});
    first.replaceAllUsesWith(firstIsLower ? lowerValue : upperValue);
    second->replaceAllUsesWith(firstIsLower ? upperValue : lowerValue);
    second->eraseFromParent();
    first.eraseFromParent();
  }
}

// Whether `value` is the same in every thread of a block: computed from
// constants, kernel parameters and the block's and grid's coordinates and
// sizes only (not threadIdx, the lane id or a load).
bool isSameInEveryThread(const Value *value, unsigned depth = 0) {
  constexpr unsigned kDepth = 12;
  if (isa<Constant>(value) || isa<Argument>(value))
    return true;
  const auto *instruction = dyn_cast<Instruction>(value);
  if (!instruction || depth > kDepth || isa<PHINode>(instruction) ||
      instruction->mayReadOrWriteMemory())
    return false;
  if (const auto *call = dyn_cast<CallBase>(instruction)) {
    const Function *callee = call->getCalledFunction();
    StringRef name = callee ? callee->getName() : "";
    return name.consume_front("llvm.nvvm.read.ptx.sreg.") &&
           (name.starts_with("ctaid") || name.starts_with("ntid") ||
            name.starts_with("nctaid"));
  }
  return all_of(instruction->operands(), [&](const Value *operand) {
    return isSameInEveryThread(operand, depth + 1);
  });
}

// Whether every thread of a warp runs `loop` as often: its trip count's
// values are the same in every thread. Where the count differs between
// lanes, ptxas's SASS issues as many LDS per warp as the slowest lane's
// iterations, merging none (measured: a count of (C + 3 * threadIdx.x) % 8),
// as the rolled loop does: such a loop is left rolled.
bool hasWarpUniformTripCount(Loop &loop, ScalarEvolution &evolution) {
  return !SCEVExprContains(
      evolution.getBackedgeTakenCount(&loop), [](const SCEV *node) {
        const auto *unknown = dyn_cast<SCEVUnknown>(node);
        return unknown && !isSameInEveryThread(unknown->getValue());
      });
}

void prepare(Loop &loop, DominatorTree &dominators, LoopInfo &loops,
             ScalarEvolution &evolution, AssumptionCache &assumptions) {
  simplifyLoop(&loop, &dominators, &loops, &evolution, &assumptions, nullptr,
               /*PreserveLCSSA=*/false);
  formLCSSARecursively(loop, dominators, &loops, &evolution);
}

} // namespace

bool hasShortRuntimeTripCount(Loop &loop, ScalarEvolution &evolution) {
  if (evolution.getSmallConstantTripCount(&loop) != 0 ||
      isa<SCEVCouldNotCompute>(evolution.getBackedgeTakenCount(&loop)))
    return false;
  unsigned bound = evolution.getSmallConstantMaxTripCount(&loop);
  return bound != 0 && bound < kShortestUnrolledBound;
}

void markShortRuntimeTripCount(Loop &loop) {
  addStringMetadataToLoop(&loop, kShortTripMark);
}

PreservedAnalyses
UnrollShortLoopsLikePtxas::run(Function &function,
                               FunctionAnalysisManager &analyses) {
  auto &loops = analyses.getResult<LoopAnalysis>(function);
  auto &evolution = analyses.getResult<ScalarEvolutionAnalysis>(function);
  auto &dominators = analyses.getResult<DominatorTreeAnalysis>(function);
  auto &assumptions = analyses.getResult<AssumptionAnalysis>(function);
  auto &costs = analyses.getResult<TargetIRAnalysis>(function);
  OptimizationRemarkEmitter remarks(&function);

  SmallVector<Loop *, 4> candidates;
  for (Loop *loop : loops.getLoopsInPreorder())
    if (loop->isInnermost() &&
        hasUnrollTransformation(loop) == TM_Unspecified &&
        findStringMetadataForLoop(loop, kShortTripMark) &&
        evolution.getSmallConstantTripCount(loop) == 0 &&
        !isa<SCEVCouldNotCompute>(evolution.getBackedgeTakenCount(loop)) &&
        hasWarpUniformTripCount(*loop, evolution))
      candidates.push_back(loop);

  SmallVector<BasicBlock *, 8> copied;
  for (Loop *loop : candidates) {
    prepare(*loop, dominators, loops, evolution, assumptions);
    UnrollLoopOptions options;
    options.Count = kPtxasCopies;
    options.Force = false;
    options.Runtime = true;
    options.AllowExpensiveTripCount = true;
    options.UnrollRemainder = false;
    options.ForgetAllSCEV = false;
    options.SCEVExpansionBudget = kTripCountExpansionBudget;
    Loop *leftover = nullptr;
    if (UnrollLoop(loop, options, &loops, &evolution, &dominators, &assumptions,
                   &costs, &remarks, /*PreserveLCSSA=*/true,
                   &leftover) != LoopUnrollResult::PartiallyUnrolled)
      continue;
    // The 0-3 leftover iterations: a pair when two remain, then one.
    bool pairs = false;
    if (leftover) {
      prepare(*leftover, dominators, loops, evolution, assumptions);
      UnrollLoopOptions pair = options;
      pair.Count = kPtxasLeftoverCopies;
      pair.UnrollRemainder = true;
      pairs = UnrollLoop(leftover, pair, &loops, &evolution, &dominators,
                         &assumptions, &costs, &remarks,
                         /*PreserveLCSSA=*/true) ==
              LoopUnrollResult::PartiallyUnrolled;
    }
    copied.append(loop->block_begin(), loop->block_end());
    // (The runtime unroller's loops exit at their latch.)
    if (!pairs || !leftover->isLoopExiting(leftover->getLoopLatch()))
      continue;
    // At most 3 iterations are left, so the pair runs at most once: the
    // straight-line block that ptxas predicates, whose start (a multiple of
    // 4 past the loop's) the alignment analyses then see.
    copied.append(leftover->block_begin(), leftover->block_end());
    breakLoopBackedge(leftover, dominators, evolution, loops, nullptr);
  }
  if (candidates.empty())
    return PreservedAnalyses::all();
  for (BasicBlock *block : copied)
    mergeSharedLoadPairs(*block, evolution);
  return PreservedAnalyses::none();
}

} // namespace kcheck::analyzer
