#include "analyzer/pipeline/IrPipelineFma.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

#include <vector>

namespace kcheck::analyzer {

using namespace llvm;

namespace {

bool isContractingAddOrSub(const Value *v) {
  const auto *op = dyn_cast<BinaryOperator>(v);
  return op &&
         (op->getOpcode() == Instruction::FAdd ||
          op->getOpcode() == Instruction::FSub) &&
         op->hasAllowContract() && op->getType()->isFloatingPointTy();
}

// A product every user of which is an add or subtract in its block.
bool isFusable(const Value *v) {
  const auto *mul = dyn_cast<BinaryOperator>(v);
  if (!mul || mul->getOpcode() != Instruction::FMul ||
      !mul->hasAllowContract() || !mul->getType()->isFloatingPointTy() ||
      mul->use_empty())
    return false;
  for (const User *user : mul->users())
    if (!isContractingAddOrSub(user) ||
        cast<Instruction>(user)->getParent() != mul->getParent())
      return false;
  return true;
}

} // namespace

PreservedAnalyses FuseMultiplyAddsLikeNvcc::run(Function &function,
                                                FunctionAnalysisManager &) {
  // Decided on the products as the function has them, before any rewrite.
  SmallPtrSet<const Value *, 16> fusable;
  std::vector<BinaryOperator *> adds;
  for (BasicBlock &block : function)
    for (Instruction &inst : block) {
      if (isFusable(&inst))
        fusable.insert(&inst);
      if (isContractingAddOrSub(&inst))
        adds.push_back(cast<BinaryOperator>(&inst));
    }
  if (fusable.empty())
    return PreservedAnalyses::all();
  SmallSetVector<Instruction *, 16> products;
  for (BinaryOperator *add : adds) {
    unsigned which = fusable.count(add->getOperand(0)) ? 0 : 1;
    auto *mul = dyn_cast<BinaryOperator>(add->getOperand(which));
    if (!fusable.count(mul))
      continue;
    Value *other = add->getOperand(1 - which);
    Value *a = mul->getOperand(0), *b = mul->getOperand(1);
    IRBuilder<> builder(add);
    builder.setFastMathFlags(add->getFastMathFlags());
    if (add->getOpcode() == Instruction::FSub) {
      if (which == 0)
        other = builder.CreateFNeg(other); // a*b - c
      else
        a = builder.CreateFNeg(a); // c - a*b
    }
    // The builder gives the new instructions the add's location.
    Value *fma = builder.CreateIntrinsic(Intrinsic::fma, {add->getType()},
                                         {a, b, other});
    fma->takeName(add);
    add->replaceAllUsesWith(fma);
    add->eraseFromParent();
    products.insert(mul);
  }
  for (Instruction *mul : products)
    if (mul->use_empty())
      mul->eraseFromParent();
  PreservedAnalyses kept;
  kept.preserveSet<CFGAnalyses>();
  return kept;
}

} // namespace kcheck::analyzer
