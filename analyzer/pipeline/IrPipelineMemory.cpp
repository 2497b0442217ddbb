#include "analyzer/pipeline/IrPipelineMemory.h"

#include "analyzer/pipeline/IrPipelineAddress.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/Local.h"

#include <optional>

namespace kcheck::analyzer {

using namespace llvm;

namespace {

// head: br cond, A, B; A and B each reached only from head and both going
// on to join. `first` is the arm laid out first (Clang's `then`).
struct Diamond {
  BasicBlock *head = nullptr;
  BasicBlock *first = nullptr;
  BasicBlock *second = nullptr;
  BasicBlock *join = nullptr;
};

std::optional<Diamond>
diamondAt(BasicBlock &head,
          const DenseMap<const BasicBlock *, unsigned> &order) {
  auto *branch = dyn_cast<BranchInst>(head.getTerminator());
  if (!branch || !branch->isConditional())
    return std::nullopt;
  BasicBlock *a = branch->getSuccessor(0);
  BasicBlock *b = branch->getSuccessor(1);
  if (a == b || a == &head || b == &head ||
      a->getSinglePredecessor() != &head || b->getSinglePredecessor() != &head)
    return std::nullopt;
  auto *branchA = dyn_cast<BranchInst>(a->getTerminator());
  auto *branchB = dyn_cast<BranchInst>(b->getTerminator());
  if (!branchA || !branchB || branchA->isConditional() ||
      branchB->isConditional() ||
      branchA->getSuccessor(0) != branchB->getSuccessor(0))
    return std::nullopt;
  BasicBlock *join = branchA->getSuccessor(0);
  if (join == a || join == b || join == &head)
    return std::nullopt;
  if (order.lookup(b) < order.lookup(a))
    std::swap(a, b);
  return Diamond{&head, a, b, join};
}

Instruction *firstMemoryAccess(BasicBlock &block) {
  for (Instruction &instruction : block)
    if (instruction.mayReadOrWriteMemory())
      return &instruction;
  return nullptr;
}

Instruction *lastMemoryAccess(BasicBlock &block) {
  for (Instruction &instruction : reverse(block))
    if (instruction.mayReadOrWriteMemory())
      return &instruction;
  return nullptr;
}

// Collects, operands first, the instructions of the diamond's arms that
// `value` needs moved before `at` (pure address arithmetic) for it to be
// available there; false if that is not possible.
bool collectToHoist(Value *value, Instruction *at,
                    function_ref<bool(const BasicBlock *)> movableFrom,
                    const DominatorTree &dominators,
                    SmallVectorImpl<Instruction *> &toMove,
                    unsigned depth = 0) {
  auto *instruction = dyn_cast<Instruction>(value);
  if (!instruction || dominators.dominates(instruction, at) ||
      is_contained(toMove, instruction))
    return true;
  if (depth > 8 || !movableFrom(instruction->getParent()) ||
      isa<PHINode>(instruction) || instruction->mayReadOrWriteMemory() ||
      !isSafeToSpeculativelyExecute(instruction))
    return false;
  for (Value *operand : instruction->operands())
    if (!collectToHoist(operand, at, movableFrom, dominators, toMove,
                        depth + 1))
      return false;
  toMove.push_back(instruction);
  return true;
}

// One of the two (equal) pointers made available before `at`, or null.
Value *availablePointer(Value *a, Value *b, Instruction *at,
                        const Diamond &diamond,
                        const DominatorTree &dominators) {
  for (Value *pointer : {a, b}) {
    SmallVector<Instruction *, 8> toMove;
    auto inArm = [&](const BasicBlock *block) {
      return block == diamond.first || block == diamond.second;
    };
    if (!collectToHoist(pointer, at, inArm, dominators, toMove))
      continue;
    for (Instruction *instruction : toMove) {
      instruction->moveBefore(at->getIterator());
      instruction->dropUBImplyingAttrsAndMetadata();
      // Hoisted out of one arm: no line of its own (ptxas would otherwise
      // credit a following line-0 load to this arm's line).
      if (const DILocation *loc = instruction->getDebugLoc().get())
        instruction->setDebugLoc(DILocation::get(
            loc->getContext(), 0, 0, loc->getScope(), loc->getInlinedAt()));
    }
    return pointer;
  }
  return nullptr;
}

bool sameAccess(const Value *pointerA, const Value *pointerB, Type *typeA,
                Type *typeB, const DataLayout &layout) {
  return typeA == typeB && pointerA->getType() == pointerB->getType() &&
         sameLinearAddress(pointerA, pointerB, layout);
}

bool hoistCommonLoad(const Diamond &diamond, const DominatorTree &dominators) {
  auto *loadA = dyn_cast_or_null<LoadInst>(firstMemoryAccess(*diamond.first));
  auto *loadB = dyn_cast_or_null<LoadInst>(firstMemoryAccess(*diamond.second));
  if (!loadA || !loadB || !loadA->isSimple() || !loadB->isSimple())
    return false;
  const DataLayout &layout = diamond.head->getDataLayout();
  if (!sameAccess(loadA->getPointerOperand(), loadB->getPointerOperand(),
                  loadA->getType(), loadB->getType(), layout))
    return false;
  // As early in the head as its address allows: after the head's last
  // memory access (the __syncthreads() of a scan step), where nvcc's PTX
  // has it, so that the line-0 load is credited to that instruction's line.
  Instruction *at = diamond.head->getTerminator();
  for (Instruction &instruction : reverse(*diamond.head))
    if (instruction.mayReadOrWriteMemory() ||
        instruction.mayHaveSideEffects() || isa<PHINode>(instruction)) {
      at = instruction.getNextNode();
      break;
    }
  Value *pointer =
      availablePointer(loadA->getPointerOperand(), loadB->getPointerOperand(),
                       at, diamond, dominators);
  if (!pointer && at != diamond.head->getTerminator()) {
    at = diamond.head->getTerminator();
    pointer =
        availablePointer(loadA->getPointerOperand(), loadB->getPointerOperand(),
                         at, diamond, dominators);
  }
  if (!pointer)
    return false;
  loadA->moveBefore(at->getIterator());
  loadA->setOperand(LoadInst::getPointerOperandIndex(), pointer);
  loadA->setAlignment(std::min(loadA->getAlign(), loadB->getAlign()));
  combineMetadataForCSE(loadA, loadB, /*DoesKMove=*/true);
  // Two locations merge into line 0, as in nvcc's PTX (`.loc 1 0 0`), which
  // RelocateLikeNvcc then credits as ptxas does. (LLVM 22's merged location
  // keeps a line.)
  if (const DILocation *loc = loadA->getDebugLoc().get();
      loc && loadA->getDebugLoc() != loadB->getDebugLoc())
    loadA->setDebugLoc(DILocation::get(loc->getContext(), 0, 0, loc->getScope(),
                                       loc->getInlinedAt()));
  loadB->replaceAllUsesWith(loadA);
  loadB->eraseFromParent();
  return true;
}

bool isZero(const Value *value) {
  const auto *constant = dyn_cast<Constant>(value);
  return constant && constant->isNullValue();
}

bool sinkCommonStore(const Diamond &diamond, const DominatorTree &dominators) {
  if (!diamond.join->hasNPredecessors(2))
    return false;
  auto *storeA = dyn_cast_or_null<StoreInst>(lastMemoryAccess(*diamond.first));
  auto *storeB = dyn_cast_or_null<StoreInst>(lastMemoryAccess(*diamond.second));
  if (!storeA || !storeB || !storeA->isSimple() || !storeB->isSimple() ||
      isZero(storeB->getValueOperand()))
    return false;
  const DataLayout &layout = diamond.head->getDataLayout();
  if (!sameAccess(storeA->getPointerOperand(), storeB->getPointerOperand(),
                  storeA->getValueOperand()->getType(),
                  storeB->getValueOperand()->getType(), layout))
    return false;
  // Every other access of either arm comes before its store (the stores are
  // the arms' last accesses), so moving the stores to the join reorders
  // nothing: nvcc merges them even after a load that may alias them
  // (kernels/toolkit/if_else_stores.cu's `if (i < n) out[i] = 0; else
  // out[i] = in[i];`, one STG on the H100).
  Value *pointer =
      availablePointer(storeA->getPointerOperand(), storeB->getPointerOperand(),
                       diamond.head->getTerminator(), diamond, dominators);
  if (!pointer)
    return false;
  Value *valueA = storeA->getValueOperand();
  Value *valueB = storeB->getValueOperand();
  Value *value = valueA;
  if (valueA != valueB) {
    PHINode *phi =
        PHINode::Create(valueA->getType(), 2, "sunk", diamond.join->begin());
    phi->addIncoming(valueA, diamond.first);
    phi->addIncoming(valueB, diamond.second);
    phi->setDebugLoc(storeB->getDebugLoc());
    value = phi;
  }
  auto *merged = cast<StoreInst>(storeB->clone());
  merged->insertBefore(diamond.join->getFirstInsertionPt());
  merged->setOperand(0, value);
  merged->setOperand(StoreInst::getPointerOperandIndex(), pointer);
  merged->setAlignment(std::min(storeA->getAlign(), storeB->getAlign()));
  combineMetadataForCSE(merged, storeA, /*DoesKMove=*/true);
  storeA->eraseFromParent();
  storeB->eraseFromParent();
  return true;
}

// The same for a join of three or more arms (an if / else if / else chain,
// workloadDiagonals of HeCBench merge: `s[t] = 0; ... s[t] = 1; ... s[t] =
// x;` is one STS after the join in nvcc's PTX): each predecessor of `join`
// an arm that only branches there, each arm's last memory access a store to
// one address that no other instruction between the arms' common dominator
// and the join reads or writes, the address available before that dominator
// branches, the arm laid out last not storing a zero. The merged store keeps
// the location of the arm laid out second (measured: line 93 of merge's
// three).
// The join's arms, in layout order, each only branching to it, and their
// nearest common dominator (null when the join is not such a chain).
BasicBlock *headOfArms(BasicBlock &join, const DominatorTree &dominators,
                       const DenseMap<const BasicBlock *, unsigned> &order,
                       SmallVector<BasicBlock *, 4> &arms) {
  for (BasicBlock *arm : predecessors(&join))
    if (!is_contained(arms, arm))
      arms.push_back(arm);
  if (arms.size() < 3 || arms.size() > 8)
    return nullptr;
  llvm::sort(arms, [&](const BasicBlock *a, const BasicBlock *b) {
    return order.lookup(a) < order.lookup(b);
  });
  BasicBlock *head = arms.front();
  for (BasicBlock *arm : arms) {
    auto *branch = dyn_cast<BranchInst>(arm->getTerminator());
    if (!branch || branch->isConditional() || !arm->getSinglePredecessor())
      return nullptr;
    head = dominators.findNearestCommonDominator(head, arm);
  }
  if (!head || is_contained(arms, head))
    return nullptr;
  return head;
}

bool regionOfArms(BasicBlock *head, BasicBlock &join,
                  const DominatorTree &dominators,
                  SmallVector<BasicBlock *, 16> &region) {
  // The blocks between head and the arms: each dominated by head, none the
  // join (no loop through it), a handful at most.
  for (size_t i = 0; i < region.size(); ++i)
    for (BasicBlock *from : predecessors(region[i])) {
      if (from == head || is_contained(region, from))
        continue;
      if (from == &join || !dominators.dominates(head, from) ||
          region.size() >= 16)
        return false;
      region.push_back(from);
    }
  return true;
}

// Each arm's last memory access, a simple store to one address that
// nothing else in the region reads or writes; false otherwise.
bool armStoresToMerge(BasicBlock &join,
                      const SmallVector<BasicBlock *, 4> &arms,
                      const SmallVector<BasicBlock *, 16> &region,
                      AAResults &aliases, SmallVector<StoreInst *, 8> &stores) {
  for (BasicBlock *arm : arms) {
    auto *store = dyn_cast_or_null<StoreInst>(lastMemoryAccess(*arm));
    if (!store || !store->isSimple())
      return false;
    stores.push_back(store);
  }
  const DataLayout &layout = join.getDataLayout();
  StoreInst *first = stores.front();
  for (StoreInst *store : stores)
    if (!sameAccess(first->getPointerOperand(), store->getPointerOperand(),
                    first->getValueOperand()->getType(),
                    store->getValueOperand()->getType(), layout))
      return false;
  if (isZero(stores.back()->getValueOperand()))
    return false;
  MemoryLocation location = MemoryLocation::get(first);
  for (BasicBlock *block : region)
    for (Instruction &instruction : *block)
      if (!is_contained(stores, &instruction) &&
          instruction.mayReadOrWriteMemory() &&
          isModOrRefSet(aliases.getModRefInfo(&instruction, location)))
        return false;
  return true;
}

// One store at the join of `value`s (a phi when the arms store different
// ones) to `pointer`, in place of the arms' stores.
void mergeArmStores(BasicBlock &join, const SmallVector<BasicBlock *, 4> &arms,
                    const SmallVector<StoreInst *, 8> &stores, Value *pointer) {
  StoreInst *first = stores.front();
  Value *value = first->getValueOperand();
  if (any_of(stores,
             [&](StoreInst *s) { return s->getValueOperand() != value; })) {
    PHINode *phi =
        PHINode::Create(value->getType(), arms.size(), "sunk", join.begin());
    for (size_t i = 0; i < arms.size(); ++i)
      phi->addIncoming(stores[i]->getValueOperand(), arms[i]);
    phi->setDebugLoc(stores[1]->getDebugLoc());
    value = phi;
  }
  auto *merged = cast<StoreInst>(stores[1]->clone());
  merged->insertBefore(join.getFirstInsertionPt());
  merged->setOperand(0, value);
  merged->setOperand(StoreInst::getPointerOperandIndex(), pointer);
  for (StoreInst *store : stores) {
    merged->setAlignment(std::min(merged->getAlign(), store->getAlign()));
    if (store != stores[1])
      combineMetadataForCSE(merged, store, /*DoesKMove=*/true);
  }
  for (StoreInst *store : stores)
    store->eraseFromParent();
}

bool sinkCommonStoreOfArms(
    BasicBlock &join, const DominatorTree &dominators, AAResults &aliases,
    const DenseMap<const BasicBlock *, unsigned> &order) {
  SmallVector<BasicBlock *, 4> arms;
  BasicBlock *head = headOfArms(join, dominators, order, arms);
  if (!head)
    return false;
  SmallVector<BasicBlock *, 16> region(arms.begin(), arms.end());
  if (!regionOfArms(head, join, dominators, region))
    return false;
  SmallVector<StoreInst *, 8> stores;
  if (!armStoresToMerge(join, arms, region, aliases, stores))
    return false;
  // One store's address, computed before head branches (its pure arithmetic
  // moved there from the region if need be).
  auto inRegion = [&](const BasicBlock *block) {
    return is_contained(region, block);
  };
  Value *pointer = nullptr;
  SmallVector<Instruction *, 8> toMove;
  for (StoreInst *store : stores) {
    toMove.clear();
    if (collectToHoist(store->getPointerOperand(), head->getTerminator(),
                       inRegion, dominators, toMove)) {
      pointer = store->getPointerOperand();
      break;
    }
  }
  if (!pointer)
    return false;
  for (Instruction *instruction : toMove) {
    instruction->moveBefore(head->getTerminator()->getIterator());
    instruction->dropUBImplyingAttrsAndMetadata();
  }
  mergeArmStores(join, arms, stores, pointer);
  return true;
}

} // namespace

PreservedAnalyses
MergeDiamondAccessesLikeNvcc::run(Function &function,
                                  FunctionAnalysisManager &analyses) {
  auto &dominators = analyses.getResult<DominatorTreeAnalysis>(function);
  auto &aliases = analyses.getResult<AAManager>(function);
  DenseMap<const BasicBlock *, unsigned> order;
  for (BasicBlock &block : function)
    order[&block] = order.size();
  bool changed = false;
  for (BasicBlock &block : function) {
    std::optional<Diamond> diamond = diamondAt(block, order);
    if (!diamond)
      continue;
    while (hoistCommonLoad(*diamond, dominators))
      changed = true;
    while (sinkCommonStore(*diamond, dominators))
      changed = true;
  }
  for (BasicBlock &block : function)
    while (sinkCommonStoreOfArms(block, dominators, aliases, order))
      changed = true;
  return cfgPreservedUnless(changed);
}

namespace {

// Tags the freezes HideStoredLoadsLikeNvcc inserts, so that only those are
// removed again.
constexpr StringLiteral kHiddenLoadMetadata = "kcheck.hidden-load";

// Whether some other load of the same type reads `load`'s address after
// `store`: only then can GVN forward through the store (and nvcc reload).
bool reloadedAfter(const LoadInst &load, const StoreInst &store,
                   ArrayRef<const LoadInst *> loads,
                   const DominatorTree &dominators, const DataLayout &layout) {
  return any_of(loads, [&](const LoadInst *other) {
    return other != &load && other->getType() == load.getType() &&
           dominators.dominates(&store, other) &&
           sameLinearAddress(other->getPointerOperand(),
                             load.getPointerOperand(), layout);
  });
}

} // namespace

PreservedAnalyses
HideStoredLoadsLikeNvcc::run(Function &function,
                             FunctionAnalysisManager &analyses) {
  auto &dominators = analyses.getResult<DominatorTreeAnalysis>(function);
  const DataLayout &layout = function.getDataLayout();
  SmallVector<const LoadInst *, 32> loads;
  SmallVector<StoreInst *, 8> stores;
  for (Instruction &instruction : instructions(function)) {
    if (auto *load = dyn_cast<LoadInst>(&instruction); load && load->isSimple())
      loads.push_back(load);
    // The shape MemoryDependence's rule needs: a simple store of a simple
    // load of the same block.
    auto *store = dyn_cast<StoreInst>(&instruction);
    auto *stored =
        store ? dyn_cast<LoadInst>(store->getValueOperand()) : nullptr;
    if (!stored || !store->isSimple() || !stored->isSimple() ||
        stored->getParent() != store->getParent())
      continue;
    // `a[i] = a[i]` stays visible: a store to the loaded address itself is
    // a must-alias definition, which nvcc forwards too (and DSE deletes it
    // only when it sees the load).
    if (sameLinearAddress(store->getPointerOperand(),
                          stored->getPointerOperand(), layout))
      continue;
    stores.push_back(store);
  }
  bool changed = false;
  for (StoreInst *store : stores) {
    auto *stored = cast<LoadInst>(store->getValueOperand());
    if (!reloadedAfter(*stored, *store, loads, dominators, layout))
      continue;
    store->setOperand(0, hideBehindFreeze(stored, store, kHiddenLoadMetadata));
    changed = true;
  }
  return cfgPreservedUnless(changed);
}

FreezeInst *hideBehindFreeze(Value *value, Instruction *before, StringRef tag) {
  auto *hidden = new FreezeInst(value, value->getName() + ".hidden",
                                before->getIterator());
  hidden->setDebugLoc(before->getDebugLoc());
  hidden->setMetadata(tag, MDNode::get(before->getContext(), {}));
  return hidden;
}

bool removeTaggedFreezes(Function &function, StringRef tag) {
  unsigned kind = function.getContext().getMDKindID(tag);
  SmallVector<FreezeInst *, 8> hidden;
  for (Instruction &instruction : instructions(function))
    if (auto *freeze = dyn_cast<FreezeInst>(&instruction);
        freeze && freeze->getMetadata(kind))
      hidden.push_back(freeze);
  for (FreezeInst *freeze : hidden) {
    freeze->replaceAllUsesWith(freeze->getOperand(0));
    freeze->eraseFromParent();
  }
  return !hidden.empty();
}

PreservedAnalyses UnhideStoredLoads::run(Function &function,
                                         FunctionAnalysisManager &) {
  return cfgPreservedUnless(removeTaggedFreezes(function, kHiddenLoadMetadata));
}

SmallVector<MemCpyInst *, 8> memcpysIn(Function &function) {
  SmallVector<MemCpyInst *, 8> copies;
  for (Instruction &instruction : instructions(function))
    if (auto *copy = dyn_cast<MemCpyInst>(&instruction))
      copies.push_back(copy);
  return copies;
}

void forEachWidePiece(LLVMContext &context, uint64_t size, uint64_t widest,
                      function_ref<void(uint64_t, Type *)> piece) {
  for (uint64_t offset = 0, chunk; offset < size; offset += chunk) {
    chunk = widest;
    while (chunk > size - offset)
      chunk /= 2;
    piece(offset, chunk == 16 ? static_cast<Type *>(FixedVectorType::get(
                                    Type::getInt32Ty(context), 4))
                              : Type::getIntNTy(context, unsigned(chunk * 8)));
  }
}

PreservedAnalyses
LetVectorizerPassPureAsmLikeNvvm::run(Function &function,
                                      FunctionAnalysisManager &) {
  bool changed = false;
  for (Instruction &i : instructions(function)) {
    auto *call = dyn_cast<CallBase>(&i);
    if (!call || !call->isInlineAsm() || !call->doesNotAccessMemory() ||
        cast<InlineAsm>(call->getCalledOperand())->hasSideEffects() ||
        call->hasFnAttr(Attribute::WillReturn))
      continue;
    call->addFnAttr(Attribute::WillReturn);
    changed = true;
  }
  return cfgPreservedUnless(changed);
}

} // namespace kcheck::analyzer
