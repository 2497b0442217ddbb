#include "analyzer/pipeline/IrPipelineNarrow.h"

#include "analyzer/pipeline/IrPipelineAddress.h"
#include "analyzer/pipeline/IrPipelineMemory.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

namespace kcheck::analyzer {

using namespace llvm;

namespace {

constexpr unsigned kGlobalAS = 1;
constexpr StringLiteral kWholeCopyMetadata = "kcheck.whole-copy";

// The lanes of `load` that are read, or nullopt when a user is not a
// constant-lane extractelement (then the whole vector is needed).
std::optional<SmallVector<bool, 16>> usedLanes(LoadInst &load, unsigned lanes) {
  SmallVector<bool, 16> used(lanes, false);
  for (User *user : load.users()) {
    auto *extract = dyn_cast<ExtractElementInst>(user);
    auto *index =
        extract ? dyn_cast<ConstantInt>(extract->getIndexOperand()) : nullptr;
    if (!index || index->getZExtValue() >= lanes)
      return std::nullopt;
    // The load-store vectorizer's gap-filling lanes are extracted and
    // never used.
    if (!extract->use_empty())
      used[index->getZExtValue()] = true;
  }
  return used;
}

// The length of `copy` when it copies all of `local` (8 or 16 bytes, a
// constant length, not volatile): the copies nvcc moves as one vector.
std::optional<uint64_t> wholeLocalCopy(const MemCpyInst &copy,
                                       const AllocaInst &local,
                                       const DataLayout &layout) {
  auto *length = dyn_cast<ConstantInt>(copy.getLength());
  if (!length || copy.isVolatile())
    return std::nullopt;
  const uint64_t size = length->getZExtValue();
  std::optional<TypeSize> localSize = local.getAllocationSize(layout);
  if ((size != 8 && size != 16) || !localSize ||
      localSize->getFixedValue() != size)
    return std::nullopt;
  return size;
}

} // namespace

bool narrowToUsedLanes(LoadInst &load, const DataLayout &layout) {
  auto *type = dyn_cast<FixedVectorType>(load.getType());
  if (!type || load.isVolatile() || !load.isSimple())
    return false;
  const unsigned lanes = type->getNumElements();
  std::optional<SmallVector<bool, 16>> used = usedLanes(load, lanes);
  if (!used || llvm::all_of(*used, [](bool u) { return u; }) ||
      llvm::none_of(*used, [](bool u) { return u; }))
    return false;
  Type *element = type->getElementType();
  const uint64_t elementBytes = layout.getTypeStoreSize(element);
  // ptxas keeps a 16-byte vector of 4-byte words of which 3 or 4 are used
  // (one LDG.128 / LDS.128), in global and shared memory alike.
  if (elementBytes == 4 && lanes == 4 && llvm::count(*used, true) >= 3)
    return false;
  const uint64_t alignment = load.getAlign().value();

  IRBuilder<> builder(&load);
  Type *i8 = builder.getInt8Ty();
  // lane -> the loaded value of that lane
  SmallVector<Value *, 16> values(lanes, nullptr);
  for (unsigned lane = 0; lane < lanes;) {
    if (!(*used)[lane]) {
      ++lane;
      continue;
    }
    unsigned end = lane;
    while (end < lanes && (*used)[end])
      ++end;
    // Pieces of the run [lane, end): the longest power of two that fits and
    // whose byte offset (from an `alignment`-aligned base) is a multiple of
    // its size.
    while (lane < end) {
      unsigned piece = 1;
      while (lane + piece * 2 <= end &&
             (uint64_t(lane) * elementBytes) % (piece * 2 * elementBytes) ==
                 0 &&
             piece * 2 * elementBytes <= alignment)
        piece *= 2;
      Value *address = builder.CreateConstInBoundsGEP1_64(
          i8, load.getPointerOperand(), lane * elementBytes);
      Align pieceAlign =
          commonAlignment(load.getAlign(), uint64_t(lane) * elementBytes);
      if (piece == 1) {
        LoadInst *scalar =
            builder.CreateAlignedLoad(element, address, pieceAlign);
        scalar->copyMetadata(load);
        values[lane] = scalar;
      } else {
        LoadInst *vector = builder.CreateAlignedLoad(
            FixedVectorType::get(element, piece), address, pieceAlign);
        vector->copyMetadata(load);
        for (unsigned k = 0; k < piece; ++k)
          values[lane + k] = builder.CreateExtractElement(vector, k);
      }
      lane += piece;
    }
  }
  SmallVector<ExtractElementInst *, 16> extracts;
  for (User *user : load.users())
    extracts.push_back(cast<ExtractElementInst>(user));
  for (ExtractElementInst *extract : extracts) {
    unsigned lane =
        unsigned(cast<ConstantInt>(extract->getIndexOperand())->getZExtValue());
    if (!extract->use_empty())
      extract->replaceAllUsesWith(values[lane]);
    extract->eraseFromParent();
  }
  load.eraseFromParent();
  return true;
}

PreservedAnalyses NarrowVectorLoadsLikePtxas::run(Function &function,
                                                  FunctionAnalysisManager &) {
  const DataLayout &layout = function.getDataLayout();
  SmallVector<LoadInst *, 16> loads;
  for (Instruction &instruction : instructions(function))
    if (auto *load = dyn_cast<LoadInst>(&instruction))
      if (load->getType()->isVectorTy())
        loads.push_back(load);
  bool changed = false;
  for (LoadInst *load : loads)
    if (load->getPointerAddressSpace() == kGlobalAS)
      changed |= narrowToUsedLanes(*load, layout);
  return cfgPreservedUnless(changed);
}

PreservedAnalyses
LoadWholeStructCopiesLikeNvcc::run(Function &function,
                                   FunctionAnalysisManager &) {
  const DataLayout &layout = function.getDataLayout();
  bool changed = false;
  for (MemCpyInst *copy : memcpysIn(function)) {
    auto *local = dyn_cast<AllocaInst>(copy->getRawDest());
    std::optional<uint64_t> wholeBytes =
        local ? wholeLocalCopy(*copy, *local, layout) : std::nullopt;
    if (!wholeBytes)
      continue;
    const uint64_t size = *wholeBytes;
    // From memory a kernel reads with ld.global/ld.shared/ld (not another
    // local, not a by-value parameter, which are no such loads).
    const Value *source = getUnderlyingObject(copy->getRawSource());
    if (isa<AllocaInst>(source))
      continue;
    if (const auto *argument = dyn_cast<Argument>(source);
        argument && argument->hasByValAttr())
      continue;
    const Align align =
        std::min(copy->getSourceAlign().valueOrOne(), local->getAlign());
    if (align.value() < size)
      continue; // nvcc loads an under-aligned struct field by field
    IRBuilder<> builder(copy); // the memcpy's debug location
    // Lanes of the struct's own field type when all fields share one (so
    // that SROA extracts them without casts), else 4-byte words.
    Type *lane = builder.getInt32Ty();
    if (auto *type = dyn_cast<StructType>(local->getAllocatedType());
        type && type->getNumElements() > 1) {
      Type *field = type->getElementType(0);
      if (field->isSingleValueType() && !field->isVectorTy() &&
          llvm::all_of(type->elements(), [&](Type *t) { return t == field; }) &&
          layout.getTypeStoreSize(field) * type->getNumElements() == size)
        lane = field;
    }
    Type *vector = FixedVectorType::get(
        lane, unsigned(size / layout.getTypeStoreSize(lane)));
    LoadInst *whole =
        builder.CreateAlignedLoad(vector, copy->getRawSource(), align);
    builder.CreateAlignedStore(
        hideBehindFreeze(whole, copy, kWholeCopyMetadata), local,
        local->getAlign());
    copy->eraseFromParent();
    changed = true;
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

PreservedAnalyses
StoreWholeStructCopiesLikeNvcc::run(Function &function,
                                    FunctionAnalysisManager &) {
  const DataLayout &layout = function.getDataLayout();
  bool changed = false;
  for (MemCpyInst *copy : memcpysIn(function)) {
    auto *local = dyn_cast<AllocaInst>(copy->getRawSource());
    std::optional<uint64_t> wholeBytes =
        local ? wholeLocalCopy(*copy, *local, layout) : std::nullopt;
    if (!wholeBytes || isa<AllocaInst>(getUnderlyingObject(copy->getRawDest())))
      continue;
    const uint64_t size = *wholeBytes;
    // Only a copy back to where the local was copied from (`q = p[i]; ...;
    // p[i] = q`): there LLVM would find stores of unchanged fields to be
    // no-ops; a copy elsewhere keeps all its stores anyway.
    bool copiedBack = false;
    for (User *user : local->users())
      if (auto *in = dyn_cast<MemCpyInst>(user);
          in && in != copy && in->getRawDest() == local &&
          sameLinearAddress(in->getRawSource(), copy->getRawDest(), layout))
        copiedBack = true;
    if (!copiedBack)
      continue;
    const Align align =
        std::min(copy->getDestAlign().valueOrOne(), local->getAlign());
    if (align.value() < size)
      continue; // nvcc splits an under-aligned copy; LLVM does the same
    IRBuilder<> builder(copy); // the memcpy's debug location
    Type *vector =
        FixedVectorType::get(builder.getInt32Ty(), unsigned(size / 4));
    LoadInst *whole =
        builder.CreateAlignedLoad(vector, local, local->getAlign());
    // Hidden from VectorCombine, which would store only x of `store
    // (insertelement (load p), x, 0), p`, until after O3.
    builder.CreateAlignedStore(
        hideBehindFreeze(whole, copy, kWholeCopyMetadata), copy->getRawDest(),
        align);
    copy->eraseFromParent();
    changed = true;
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

PreservedAnalyses UnfreezeWholeStructCopies::run(Function &function,
                                                 FunctionAnalysisManager &) {
  return cfgPreservedUnless(removeTaggedFreezes(function, kWholeCopyMetadata));
}

} // namespace kcheck::analyzer
