#include "analyzer/pipeline/IrPipelineAtomics.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/Support/NVPTXAddrSpace.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

namespace kcheck::analyzer {

using namespace llvm;

namespace {

bool isFloatArithmetic(AtomicRMWInst::BinOp op) {
  switch (op) {
  case AtomicRMWInst::FAdd:
  case AtomicRMWInst::FSub:
  case AtomicRMWInst::FMax:
  case AtomicRMWInst::FMin:
    return true;
  default:
    return false;
  }
}

bool expands(const AtomicRMWInst &rmw) {
  Type *type = rmw.getValOperand()->getType();
  unsigned space = rmw.getPointerAddressSpace();
  return isFloatArithmetic(rmw.getOperation()) &&
         (type->isFloatTy() || type->isDoubleTy()) &&
         (space == NVPTXAS::ADDRESS_SPACE_SHARED ||
          space == NVPTXAS::ADDRESS_SPACE_GENERIC);
}

Value *apply(IRBuilder<> &b, AtomicRMWInst::BinOp op, Value *old, Value *v) {
  switch (op) {
  case AtomicRMWInst::FAdd:
    return b.CreateFAdd(old, v);
  case AtomicRMWInst::FSub:
    return b.CreateFSub(old, v);
  case AtomicRMWInst::FMax:
    return b.CreateMaxNum(old, v);
  default:
    return b.CreateMinNum(old, v);
  }
}

// Inserts, before `at`, the CAS loop performing `rmw`'s operation on the
// shared pointer `sharedPtr` (`at` and what follows move to a new block,
// which the loop exits to); returns the value the successful pass read.
Value *emitCasLoop(AtomicRMWInst &rmw, Value *sharedPtr, Instruction &at) {
  BasicBlock *before = at.getParent();
  BasicBlock *after = SplitBlock(before, &at);
  BasicBlock *loop = BasicBlock::Create(rmw.getContext(), "atomic.cas",
                                        before->getParent(), after);
  before->getTerminator()->setSuccessor(0, loop);

  IRBuilder<> b(loop);
  b.SetCurrentDebugLocation(rmw.getDebugLoc());
  Type *valueType = rmw.getValOperand()->getType();
  Type *word = b.getIntNTy(valueType->getPrimitiveSizeInBits());
  Align align = rmw.getAlign();
  LoadInst *oldWord = b.CreateAlignedLoad(word, sharedPtr, align);
  oldWord->setAtomic(AtomicOrdering::Monotonic);
  Value *old = b.CreateBitCast(oldWord, valueType);
  Value *updated = apply(b, rmw.getOperation(), old, rmw.getValOperand());
  auto *swap = b.CreateAtomicCmpXchg(
      sharedPtr, oldWord, b.CreateBitCast(updated, word), align,
      AtomicOrdering::Monotonic, AtomicOrdering::Monotonic);
  b.CreateCondBr(b.CreateExtractValue(swap, 1), after, loop);
  return old;
}

void expand(AtomicRMWInst &rmw) {
  Value *ptr = rmw.getPointerOperand();
  Value *old;
  if (rmw.getPointerAddressSpace() == NVPTXAS::ADDRESS_SPACE_SHARED) {
    old = emitCasLoop(rmw, ptr, rmw);
  } else {
    // A generic pointer: the loop where it points into shared memory, the
    // native atomic elsewhere (as ptxas's space test).
    IRBuilder<> b(&rmw);
    b.SetCurrentDebugLocation(rmw.getDebugLoc());
    Value *isShared = b.CreateIntrinsic(Intrinsic::nvvm_isspacep_shared, {ptr});
    Instruction *thenTerm = nullptr, *elseTerm = nullptr;
    SplitBlockAndInsertIfThenElse(isShared, &rmw, &thenTerm, &elseTerm);
    b.SetInsertPoint(thenTerm);
    Value *sharedPtr = b.CreateAddrSpaceCast(
        ptr, PointerType::get(rmw.getContext(), NVPTXAS::ADDRESS_SPACE_SHARED));
    Value *sharedOld = emitCasLoop(rmw, sharedPtr, *thenTerm);
    auto *native = cast<AtomicRMWInst>(rmw.clone());
    native->insertBefore(elseTerm->getIterator());
    BasicBlock *join = rmw.getParent();
    b.SetInsertPoint(join, join->getFirstInsertionPt());
    PHINode *phi = b.CreatePHI(rmw.getType(), 2);
    phi->addIncoming(sharedOld, thenTerm->getParent());
    phi->addIncoming(native, native->getParent());
    old = phi;
  }
  rmw.replaceAllUsesWith(old);
  rmw.eraseFromParent();
}

} // namespace

PreservedAnalyses
ExpandSharedFloatAtomicsLikePtxas::run(Function &function,
                                       FunctionAnalysisManager &) {
  SmallVector<AtomicRMWInst *, 8> work;
  for (Instruction &i : instructions(function))
    if (auto *rmw = dyn_cast<AtomicRMWInst>(&i); rmw && expands(*rmw))
      work.push_back(rmw);
  for (AtomicRMWInst *rmw : work)
    expand(*rmw);
  return work.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
}

} // namespace kcheck::analyzer
