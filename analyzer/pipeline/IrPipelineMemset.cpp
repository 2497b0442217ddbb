#include "analyzer/pipeline/IrPipelineMemset.h"

#include "analyzer/pipeline/IrPipelineMemory.h"

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

namespace kcheck::analyzer {

namespace {

// `byte` repeated over `type` (an integer or <4 x i32>).
Value *repeated(IRBuilder<> &builder, Value *byte, Type *type) {
  auto *vector = dyn_cast<FixedVectorType>(type);
  Type *lane = vector ? vector->getElementType() : type;
  unsigned bits = lane->getIntegerBitWidth();
  Value *value;
  if (auto *c = dyn_cast<ConstantInt>(byte)) {
    value = ConstantInt::get(lane, APInt::getSplat(bits, c->getValue()));
  } else {
    Value *wide = builder.CreateZExt(byte, lane);
    value =
        bits == 8
            ? wide
            : builder.CreateMul(
                  wide,
                  ConstantInt::get(lane, APInt::getSplat(bits, APInt(8, 1))));
  }
  return vector ? builder.CreateVectorSplat(vector->getNumElements(), value)
                : value;
}

} // namespace

PreservedAnalyses ExpandSmallMemsets::run(Function &function,
                                          FunctionAnalysisManager &analyses) {
  const DataLayout &layout = function.getDataLayout();
  auto &assumptions = analyses.getResult<AssumptionAnalysis>(function);
  SmallVector<MemSetInst *, 8> memsets;
  for (Instruction &i : instructions(function))
    if (auto *set = dyn_cast<MemSetInst>(&i))
      memsets.push_back(set);
  bool changed = false;
  for (MemSetInst *set : memsets) {
    auto *length = dyn_cast<ConstantInt>(set->getLength());
    if (!length)
      continue;
    uint64_t size = length->getZExtValue();
    if (size == 0 || size > 256)
      continue;
    const bool isVolatile = set->isVolatile();
    Align align = set->getDestAlign().valueOrOne();
    if (!isVolatile)
      align = std::max(align, getKnownAlignment(set->getRawDest(), layout, set,
                                                &assumptions));
    uint64_t widest = std::min<uint64_t>(16, align.value());
    IRBuilder<> builder(set); // inherits the memset's debug location
    forEachWidePiece(function.getContext(), size, widest,
                     [&](uint64_t offset, Type *chunkType) {
                       Value *dest = builder.CreateConstInBoundsGEP1_64(
                           builder.getInt8Ty(), set->getRawDest(), offset);
                       builder.CreateAlignedStore(
                           repeated(builder, set->getValue(), chunkType), dest,
                           commonAlignment(align, offset), isVolatile);
                     });
    set->eraseFromParent();
    changed = true;
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace kcheck::analyzer
