// LowerMaskedMemoryLikeNvcc (IrPipelineMemory.h): the load-store
// vectorizer's masked loads and stores as nvcc's plain ones.
#include "analyzer/pipeline/IrPipelineMemory.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"

#include <optional>

namespace kcheck::analyzer {

using namespace llvm;

namespace {

// The constant mask's lanes; nullopt unless every lane is a known bit.
std::optional<SmallVector<bool, 8>> constantMask(Value *value) {
  auto *mask = dyn_cast<Constant>(value);
  auto *type = dyn_cast<FixedVectorType>(value->getType());
  if (!mask || !type)
    return std::nullopt;
  SmallVector<bool, 8> lanes;
  for (unsigned lane = 0; lane < type->getNumElements(); ++lane) {
    auto *bit = dyn_cast_or_null<ConstantInt>(mask->getAggregateElement(lane));
    if (!bit)
      return std::nullopt;
    lanes.push_back(bit->isOne());
  }
  return lanes;
}

bool lowerMaskedLoad(IntrinsicInst &call, const DataLayout &layout) {
  auto *type = dyn_cast<FixedVectorType>(call.getType());
  Value *pointer = call.getArgOperand(0);
  Value *passThrough = call.getArgOperand(2);
  std::optional<SmallVector<bool, 8>> lanes =
      constantMask(call.getArgOperand(1));
  Align align = call.getParamAlign(0).valueOrOne();
  // Only a vector that its alignment keeps inside one aligned block, so that
  // loading the disabled lanes cannot fault (what the NVPTX backend relies
  // on too).
  if (!type || !lanes || align.value() < layout.getTypeStoreSize(type))
    return false;
  IRBuilder<> builder(&call);
  LoadInst *load = builder.CreateAlignedLoad(type, pointer, align);
  load->copyMetadata(call);
  Value *result = load;
  if (!isa<PoisonValue, UndefValue>(passThrough) &&
      !all_of(*lanes, [](bool enabled) { return enabled; }))
    result = builder.CreateSelect(call.getArgOperand(1), load, passThrough);
  call.replaceAllUsesWith(result);
  call.eraseFromParent();
  return true;
}

bool lowerMaskedStore(IntrinsicInst &call, const DataLayout &layout) {
  Value *value = call.getArgOperand(0);
  Value *pointer = call.getArgOperand(1);
  auto *type = dyn_cast<FixedVectorType>(value->getType());
  std::optional<SmallVector<bool, 8>> lanes =
      constantMask(call.getArgOperand(2));
  if (!type || !lanes)
    return false;
  Align align = call.getParamAlign(1).valueOrOne();
  Type *element = type->getElementType();
  uint64_t elementBytes = layout.getTypeStoreSize(element);
  if (elementBytes == 0 || layout.getTypeAllocSize(element) != elementBytes)
    return false;
  IRBuilder<> builder(&call);
  unsigned count = type->getNumElements();
  for (unsigned lane = 0; lane < count;) {
    if (!(*lanes)[lane]) {
      ++lane;
      continue;
    }
    unsigned run = 1;
    while (lane + run < count && (*lanes)[lane + run])
      ++run;
    // The run as pieces of 4, 2 or 1 lanes, at most 16 bytes, each as wide
    // as its offset's alignment allows (ptxas's widest store is 16 bytes).
    for (unsigned end = lane + run; lane < end;) {
      uint64_t offset = lane * elementBytes;
      Align pieceAlign = commonAlignment(align, offset);
      unsigned width = 1;
      for (unsigned candidate : {4u, 2u})
        if (candidate <= end - lane && candidate * elementBytes <= 16 &&
            pieceAlign.value() >= candidate * elementBytes) {
          width = candidate;
          break;
        }
      Value *address = builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(),
                                                          pointer, offset);
      Value *piece;
      if (width == 1) {
        piece = builder.CreateExtractElement(value, builder.getInt64(lane));
      } else {
        SmallVector<int, 4> indices;
        for (unsigned i = 0; i < width; ++i)
          indices.push_back(int(lane + i));
        piece = builder.CreateShuffleVector(value, indices);
      }
      StoreInst *store = builder.CreateAlignedStore(piece, address, pieceAlign);
      store->copyMetadata(call);
      lane += width;
    }
  }
  call.eraseFromParent();
  return true;
}

} // namespace

PreservedAnalyses LowerMaskedMemoryLikeNvcc::run(Function &function,
                                                 FunctionAnalysisManager &) {
  const DataLayout &layout = function.getDataLayout();
  SmallVector<IntrinsicInst *, 8> calls;
  for (Instruction &instruction : instructions(function))
    if (auto *call = dyn_cast<IntrinsicInst>(&instruction))
      if (call->getIntrinsicID() == Intrinsic::masked_load ||
          call->getIntrinsicID() == Intrinsic::masked_store)
        calls.push_back(call);
  bool changed = false;
  for (IntrinsicInst *call : calls)
    changed |= call->getIntrinsicID() == Intrinsic::masked_load
                   ? lowerMaskedLoad(*call, layout)
                   : lowerMaskedStore(*call, layout);
  return cfgPreservedUnless(changed);
}

} // namespace kcheck::analyzer
