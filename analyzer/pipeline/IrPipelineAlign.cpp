#include "analyzer/pipeline/IrPipelineAlign.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/NVPTXAddrSpace.h"

#include <optional>

namespace kcheck::analyzer {

using namespace llvm;

namespace {

// The access's bytes, and the piece width the backend splits it into; 0
// when it needs no split (or is one kcheck leaves alone: atomics, volatile
// accesses keep their width, and types wider than 64 bits per piece).
struct Split {
  unsigned bytes = 0, piece = 0;
};

Split splitOf(Type *t, Align align, const DataLayout &dl) {
  if (!t->isIntOrIntVectorTy() && !t->isFPOrFPVectorTy())
    return {};
  uint64_t bytes = dl.getTypeStoreSize(t);
  if (bytes <= 1 || bytes > 16 || (bytes & (bytes - 1)) ||
      align.value() >= bytes)
    return {};
  return {unsigned(bytes), unsigned(align.value())};
}

// `v` as one integer of its width (vectors and floats bitcast).
Value *asInteger(IRBuilder<> &b, Value *v, unsigned bytes) {
  Type *it = b.getIntNTy(8 * bytes);
  return v->getType() == it ? v : b.CreateBitCast(v, it);
}

} // namespace

PreservedAnalyses
SplitUnderalignedAccessesLikeNvptx::run(Function &function,
                                        FunctionAnalysisManager &) {
  const DataLayout &dl = function.getParent()->getDataLayout();
  std::vector<Instruction *> work;
  for (Instruction &i : instructions(function)) {
    if (auto *l = dyn_cast<LoadInst>(&i);
        l && l->isSimple() && splitOf(l->getType(), l->getAlign(), dl).piece)
      work.push_back(l);
    if (auto *s = dyn_cast<StoreInst>(&i);
        s && s->isSimple() &&
        splitOf(s->getValueOperand()->getType(), s->getAlign(), dl).piece)
      work.push_back(s);
  }
  for (Instruction *i : work) {
    IRBuilder<> b(i);
    auto *load = dyn_cast<LoadInst>(i);
    auto *store = dyn_cast<StoreInst>(i);
    Type *t = load ? load->getType() : store->getValueOperand()->getType();
    Value *ptr = load ? load->getPointerOperand() : store->getPointerOperand();
    Split s = splitOf(t, load ? load->getAlign() : store->getAlign(), dl);
    // Pieces are at most 8 bytes (the alignment is below a size of at most
    // 16), the engine's widest integer.
    Type *pieceType = b.getIntNTy(8 * s.piece);
    unsigned n = s.bytes / s.piece;
    if (load) {
      // Little-endian: piece k holds bytes [k*piece, (k+1)*piece).
      std::vector<Value *> pieces;
      for (unsigned k = 0; k < n; ++k) {
        Value *p =
            b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), ptr, k * s.piece);
        LoadInst *part = b.CreateAlignedLoad(pieceType, p, Align(s.piece));
        part->copyMetadata(*load);
        pieces.push_back(part);
      }
      Value *result;
      if (s.bytes <= 8) {
        Type *whole = b.getIntNTy(8 * s.bytes);
        result = ConstantInt::get(whole, 0);
        for (unsigned k = 0; k < n; ++k)
          result =
              b.CreateOr(result, b.CreateShl(b.CreateZExt(pieces[k], whole),
                                             8 * s.piece * k));
        result = b.CreateBitCast(result, t);
      } else {
        // 16 bytes in pieces of at most 8: a vector of the pieces.
        Value *v = PoisonValue::get(FixedVectorType::get(pieceType, n));
        for (unsigned k = 0; k < n; ++k)
          v = b.CreateInsertElement(v, pieces[k], k);
        result = b.CreateBitCast(v, t);
      }
      load->replaceAllUsesWith(result);
    } else {
      Value *v = store->getValueOperand();
      std::vector<Value *> pieces;
      if (s.bytes <= 8) {
        Value *whole = asInteger(b, v, s.bytes);
        for (unsigned k = 0; k < n; ++k)
          pieces.push_back(
              b.CreateTrunc(b.CreateLShr(whole, 8 * s.piece * k), pieceType));
      } else {
        Value *vec = b.CreateBitCast(v, FixedVectorType::get(pieceType, n));
        for (unsigned k = 0; k < n; ++k)
          pieces.push_back(b.CreateExtractElement(vec, k));
      }
      for (unsigned k = 0; k < n; ++k) {
        Value *p =
            b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), ptr, k * s.piece);
        StoreInst *part = b.CreateAlignedStore(pieces[k], p, Align(s.piece));
        part->copyMetadata(*store);
      }
    }
    i->eraseFromParent();
  }
  return work.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
}

namespace {

// A 16-bit value the program computes with as an integer: every use widens,
// narrows, compares, does arithmetic on it or stores it (not a bitcast to
// half, not an operand of assembly or of an intrinsic).
bool usedAsInteger(const LoadInst &load) {
  return llvm::all_of(load.users(), [](const User *user) {
    return isa<CastInst>(user)
               ? !isa<BitCastInst>(user)
               : isa<BinaryOperator, ICmpInst, StoreInst, SelectInst, PHINode>(
                     user);
  });
}

// The widest alignment the vectorizer may see on `i` (it merges no chain
// wider than its alignment), or none when `i` is left as it is: a byte
// access or a 16-bit integer load stays one access; other 16-bit loads merge
// into at most 64 bits.
std::optional<Align> alignmentCap(const Instruction &i) {
  if (const auto *load = dyn_cast<LoadInst>(&i)) {
    if (!load->isSimple() ||
        load->getPointerAddressSpace() != NVPTXAS::ADDRESS_SPACE_SHARED)
      return std::nullopt;
    Type *type = load->getType();
    if (type->isIntegerTy(8) || (type->isIntegerTy(16) && usedAsInteger(*load)))
      return Align(type->getPrimitiveSizeInBits() / 8);
    if (type->getPrimitiveSizeInBits() == 16 && !type->isVectorTy())
      return Align(8);
    return std::nullopt;
  }
  if (const auto *store = dyn_cast<StoreInst>(&i))
    if (store->isSimple() &&
        store->getPointerAddressSpace() == NVPTXAS::ADDRESS_SPACE_SHARED &&
        store->getValueOperand()->getType()->isIntegerTy(8))
      return Align(1);
  return std::nullopt;
}

} // namespace

PreservedAnalyses
KeepSubwordSharedAccessesApartLikePtxas::run(Function &function,
                                             FunctionAnalysisManager &) {
  bool changed = false;
  for (Instruction &i : instructions(function)) {
    std::optional<Align> cap = alignmentCap(i);
    if (!cap || getLoadStoreAlignment(&i) <= *cap)
      continue;
    if (auto *load = dyn_cast<LoadInst>(&i))
      load->setAlignment(*cap);
    else
      cast<StoreInst>(&i)->setAlignment(*cap);
    changed = true;
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

PreservedAnalyses
ParameterBufferAlignmentLikeNvcc::run(Function &function,
                                      FunctionAnalysisManager &) {
  const DataLayout &layout = function.getDataLayout();
  bool changed = false;
  auto inParameterBuffer = [](const Value *pointer) {
    const auto *call = dyn_cast<CallBase>(getUnderlyingObject(pointer));
    const Function *callee = call ? call->getCalledFunction() : nullptr;
    // The device runtime's function, or the header's cudaGetParameterBuffer
    // around it before inlining.
    return callee && callee->getName().contains("GetParameterBuffer");
  };
  for (Instruction &i : instructions(function)) {
    if (auto *store = dyn_cast<StoreInst>(&i);
        store && inParameterBuffer(store->getPointerOperand())) {
      Align natural =
          layout.getABITypeAlign(store->getValueOperand()->getType());
      if (store->getAlign() > natural)
        store->setAlignment(natural);
      // And never merged: LLVM 22's InferAlignment would raise a field's
      // alignment from its neighbours' and the vectorizers merge them.
      store->setVolatile(true);
      changed = true;
    }
    // A struct argument copied in whole: at the struct's alignment (the
    // copy's source, a variable of its type).
    if (auto *copy = dyn_cast<MemTransferInst>(&i);
        copy && inParameterBuffer(copy->getRawDest())) {
      MaybeAlign source = copy->getSourceAlign();
      if (source && copy->getDestAlign().valueOrOne() > *source)
        copy->setDestAlignment(*source);
      copy->setVolatile(ConstantInt::getTrue(copy->getContext()));
      changed = true;
    }
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace kcheck::analyzer
