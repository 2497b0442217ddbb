// Decoding of the non-call instructions (see Decoder.h).
#include "simulator/engine/Decoder.h"

#include "core/PtxTags.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Operator.h"

#include <optional>

namespace kcheck::sim {

using namespace llvm;
using bc::Inst;
using bc::Op;

#define TRY_SLOT(var, value)                                                   \
  auto var##OrErr = slotOf(value);                                             \
  if (!var##OrErr)                                                             \
    return var##OrErr.takeError();                                             \
  uint32_t var = *var##OrErr;

static unsigned elementCount(Type *t) {
  if (auto *vt = dyn_cast<FixedVectorType>(t))
    return vt->getNumElements();
  return 1;
}

// Integer width, float width (32/64) or pointer width of a scalar element.
static unsigned scalarBits(Type *t, const DataLayout &dl) {
  t = t->getScalarType();
  if (t->isPointerTy())
    return dl.getPointerSizeInBits(t->getPointerAddressSpace());
  return unsigned(t->getPrimitiveSizeInBits().getFixedValue());
}

static std::optional<bc::RmwOp> rmwOpOf(AtomicRMWInst::BinOp op) {
  using B = AtomicRMWInst::BinOp;
  switch (op) {
  case B::Xchg:
    return bc::RmwOp::Xchg;
  case B::Add:
    return bc::RmwOp::Add;
  case B::Sub:
    return bc::RmwOp::Sub;
  case B::And:
    return bc::RmwOp::And;
  case B::Or:
    return bc::RmwOp::Or;
  case B::Xor:
    return bc::RmwOp::Xor;
  case B::Max:
    return bc::RmwOp::Max;
  case B::Min:
    return bc::RmwOp::Min;
  case B::UMax:
    return bc::RmwOp::UMax;
  case B::UMin:
    return bc::RmwOp::UMin;
  case B::FAdd:
    return bc::RmwOp::FAdd;
  case B::FSub:
    return bc::RmwOp::FSub;
  case B::FMax:
    return bc::RmwOp::FMax;
  case B::FMin:
    return bc::RmwOp::FMin;
  case B::UIncWrap:
    return bc::RmwOp::UIncWrap;
  case B::UDecWrap:
    return bc::RmwOp::UDecWrap;
  default:
    return std::nullopt;
  }
}

Error Decoder::decodeMemory(const Instruction &inst) {
  Inst in;
  const Value *ptr = getLoadStorePointerOperand(&inst);
  Type *valueType = nullptr;
  AccessKind kind = AccessKind::Load;
  bool isVolatile = false, isAtomic = false;
  if (auto *load = dyn_cast<LoadInst>(&inst)) {
    in.op = Op::Load;
    valueType = load->getType();
    in.dst = resultSlot(inst);
    // An atomic load reads other threads' stores as a volatile one does.
    isVolatile = load->isVolatile() || load->isAtomic();
    isAtomic = load->isAtomic();
  } else if (auto *store = dyn_cast<StoreInst>(&inst)) {
    in.op = Op::Store;
    isVolatile = store->isVolatile();
    isAtomic = store->isAtomic();
    valueType = store->getValueOperand()->getType();
    TRY_SLOT(value, store->getValueOperand());
    in.b = value;
    kind = AccessKind::Store;
  } else if (auto *rmw = dyn_cast<AtomicRMWInst>(&inst)) {
    ptr = rmw->getPointerOperand();
    in.op = Op::AtomicRmw;
    valueType = rmw->getValOperand()->getType();
    TRY_SLOT(value, rmw->getValOperand());
    in.b = value;
    in.dst = resultSlot(inst);
    kind = AccessKind::Atomic;
    std::optional<bc::RmwOp> op = rmwOpOf(rmw->getOperation());
    if (!op)
      return unsupported(
          inst, Twine("atomicrmw ") +
                    AtomicRMWInst::getOperationName(rmw->getOperation()));
    in.sub2 = uint8_t(*op);
  } else {
    auto *cx = cast<AtomicCmpXchgInst>(&inst);
    ptr = cx->getPointerOperand();
    in.op = Op::CmpXchg;
    valueType = cx->getNewValOperand()->getType();
    TRY_SLOT(expected, cx->getCompareOperand());
    TRY_SLOT(desired, cx->getNewValOperand());
    in.b = expected, in.c = desired;
    in.dst = resultSlot(inst);
    kind = AccessKind::Atomic;
  }
  return emitMemoryAccess(inst, in, ptr, valueType, kind, isVolatile, isAtomic);
}

// The access's checks, width fields and InstInfo, common to the four kinds.
Error Decoder::emitMemoryAccess(const Instruction &inst, Inst &in,
                                const Value *ptr, Type *valueType,
                                AccessKind kind, bool isVolatile,
                                bool isAtomic) {
  if (valueType->isStructTy() || valueType->isArrayTy())
    return unsupported(inst, Twine(inst.getOpcodeName()) + " of an aggregate");
  if (auto n = slotCount(valueType, inst); !n)
    return n.takeError();
  if (valueType->getScalarType()->isIntegerTy(1) && valueType->isVectorTy())
    return unsupported(inst, "memory access of an i1 vector");
  unsigned as = ptr->getType()->getPointerAddressSpace();
  if (as == bc::kParamAS)
    return unsupported(inst, "access to the kernel parameter space");
  TRY_SLOT(pointer, ptr);
  in.a = pointer;
  in.sub = uint8_t(as);
  in.n = uint16_t(elementCount(valueType));
  in.bits = uint8_t(dl_.getTypeStoreSize(valueType->getScalarType()));
  in.bits2 = uint8_t(scalarBits(valueType, dl_)); // for atomics
  // Bit 0: a float value; bit 1: a bfloat16 one (16-bit float atomics).
  in.flags = (valueType->getScalarType()->isFloatingPointTy() ? 1 : 0) |
             (valueType->getScalarType()->isBFloatTy() ? 2 : 0);
  in.imm = dl_.getTypeStoreSize(valueType);
  uint32_t pc = emit(in, inst, inst.getOpcodeName());
  InstInfo &info = k_.infos_[pc];
  fillMemoryInfo(info, ptr);
  info.kind = kind;
  info.bytesPerLane = uint32_t(in.imm);
  info.isVolatile = isVolatile;
  info.isAtomic = isAtomic || kind == AccessKind::Atomic;
  if (const MDNode *tag = inst.getMetadata(core::kPtxInstructionMetadata))
    if (tag->getNumOperands() == 1)
      if (auto *text = dyn_cast<MDString>(tag->getOperand(0)))
        info.ptxInstruction = text->getString().str();
  if (const MDNode *tag = inst.getMetadata(core::kReadBytesMetadata))
    if (tag->getNumOperands() == 1)
      if (auto *mask = mdconst::dyn_extract<ConstantInt>(tag->getOperand(0)))
        info.readBytesMask = uint32_t(mask->getZExtValue());
  nameSharedSpan(info, inst);
  return Error::success();
}

Error Decoder::decodeCast(const Instruction &inst) {
  auto *cast = dyn_cast<CastInst>(&inst);
  Type *from = cast->getSrcTy(), *to = cast->getDestTy();
  TRY_SLOT(src, cast->getOperand(0));
  Inst in;
  in.dst = resultSlot(inst);
  in.a = src;
  in.n = uint16_t(elementCount(to));
  in.bits = uint8_t(scalarBits(from, dl_));
  in.bits2 = uint8_t(scalarBits(to, dl_));
  // 16-bit floats: which format (half or bfloat) the 16 bits hold.
  in.sub2 =
      from->getScalarType()->isBFloatTy() || to->getScalarType()->isBFloatTy()
          ? 1
          : 0;
  using K = bc::CastKind;
  K kind;
  switch (cast->getOpcode()) {
  case Instruction::Trunc:
    kind = K::Trunc;
    break;
  case Instruction::ZExt:
    kind = K::ZExt;
    break;
  case Instruction::SExt:
    kind = K::SExt;
    break;
  case Instruction::FPTrunc:
    kind = K::FPTrunc;
    break;
  case Instruction::FPExt:
    kind = K::FPExt;
    break;
  case Instruction::FPToUI:
    kind = K::FPToUI;
    break;
  case Instruction::FPToSI:
    kind = K::FPToSI;
    break;
  case Instruction::UIToFP:
    kind = K::UIToFP;
    break;
  case Instruction::SIToFP:
    kind = K::SIToFP;
    break;
  case Instruction::PtrToInt:
    kind = K::PtrToInt;
    break;
  case Instruction::IntToPtr:
    kind = K::IntToPtr;
    break;
  case Instruction::AddrSpaceCast:
    kind = K::AddrSpaceCast;
    in.bits = uint8_t(from->getScalarType()->getPointerAddressSpace());
    in.bits2 = uint8_t(to->getScalarType()->getPointerAddressSpace());
    in.imm = scalarBits(to, dl_);
    break;
  case Instruction::BitCast: {
    unsigned fromN = elementCount(from), toN = elementCount(to);
    unsigned fromBits = scalarBits(from, dl_), toBits = scalarBits(to, dl_);
    if (fromN == toN && fromBits == toBits) {
      in.op = Op::Copy;
    } else {
      in.op = Op::Repack;
      in.aux = uint32_t(k_.repacks_.size());
      k_.repacks_.push_back(
          {uint8_t(fromBits), uint8_t(toBits), uint16_t(fromN), uint16_t(toN)});
    }
    emit(in, inst, "bitcast");
    return Error::success();
  }
  default:
    return unsupported(inst, Twine("cast '") + inst.getOpcodeName() + "'");
  }
  in.op = Op::Cast;
  in.sub = uint8_t(kind);
  emit(in, inst, inst.getOpcodeName());
  return Error::success();
}

Error Decoder::decodeGep(const Instruction &inst) {
  auto &gep = cast<GetElementPtrInst>(inst);
  if (gep.getType()->isVectorTy())
    return unsupported(inst, "vector getelementptr");
  TRY_SLOT(base, gep.getPointerOperand());
  Inst in;
  in.op = Op::Gep;
  in.dst = resultSlot(inst);
  in.a = base;
  in.aux = uint32_t(k_.gepTerms_.size());
  in.bits = uint8_t(dl_.getPointerSizeInBits(gep.getAddressSpace()));
  int64_t offset = 0;
  for (auto it = gep_type_begin(gep), end = gep_type_end(gep); it != end;
       ++it) {
    const Value *index = it.getOperand();
    if (StructType *st = it.getStructTypeOrNull()) {
      unsigned field = unsigned(cast<ConstantInt>(index)->getZExtValue());
      offset += dl_.getStructLayout(st)->getElementOffset(field);
      continue;
    }
    int64_t stride = int64_t(it.getSequentialElementStride(dl_));
    if (auto *ci = dyn_cast<ConstantInt>(index)) {
      offset += ci->getSExtValue() * stride;
      continue;
    }
    if (index->getType()->isVectorTy())
      return unsupported(inst, "vector getelementptr index");
    TRY_SLOT(slot, index);
    k_.gepTerms_.push_back(
        {slot, uint8_t(index->getType()->getIntegerBitWidth()), stride});
  }
  in.c = uint32_t(k_.gepTerms_.size()) - in.aux;
  in.imm = uint64_t(offset);
  emit(in, inst, "getelementptr");
  return Error::success();
}

Error Decoder::decodeTerminator(const Instruction &inst) {
  const BasicBlock &from = *inst.getParent();
  Inst in;
  if (auto *br = dyn_cast<BranchInst>(&inst)) {
    if (br->isUnconditional()) {
      auto edge = makeEdge(from, *br->getSuccessor(0), inst);
      if (!edge)
        return edge.takeError();
      in.op = Op::Br;
      in.aux = *edge;
      emit(in, inst, "br");
      return Error::success();
    }
    TRY_SLOT(cond, br->getCondition());
    auto e0 = makeEdge(from, *br->getSuccessor(0), inst);
    if (!e0)
      return e0.takeError();
    auto e1 = makeEdge(from, *br->getSuccessor(1), inst);
    if (!e1)
      return e1.takeError();
    in.op = Op::CondBr;
    in.a = cond;
    in.aux = *e0;
    uint32_t pc = emit(in, inst, "br");
    k_.infos_[pc].isConditionalBranch = true;
    branchBlocks_.push_back({pc, &from});
    return Error::success();
  }
  if (auto *sw = dyn_cast<SwitchInst>(&inst)) {
    TRY_SLOT(cond, sw->getCondition());
    in.op = Op::Switch;
    in.a = cond;
    in.bits = uint8_t(sw->getCondition()->getType()->getIntegerBitWidth());
    // One edge per distinct target: phis are per (pred, succ) block pair.
    SmallDenseMap<const BasicBlock *, uint32_t> edgeOf;
    auto edgeTo = [&](const BasicBlock *to) -> Expected<uint32_t> {
      if (auto it = edgeOf.find(to); it != edgeOf.end())
        return it->second;
      auto edge = makeEdge(from, *to, inst);
      if (edge)
        edgeOf[to] = *edge;
      return edge;
    };
    auto def = edgeTo(sw->getDefaultDest());
    if (!def)
      return def.takeError();
    in.b = *def;
    std::vector<bc::SwitchCase> cases;
    for (auto &c : sw->cases()) {
      auto edge = edgeTo(c.getCaseSuccessor());
      if (!edge)
        return edge.takeError();
      cases.push_back({c.getCaseValue()->getZExtValue(), *edge});
    }
    in.aux = uint32_t(k_.cases_.size());
    in.c = uint32_t(cases.size());
    k_.cases_.insert(k_.cases_.end(), cases.begin(), cases.end());
    uint32_t pc = emit(in, inst, "switch");
    k_.infos_[pc].isConditionalBranch = true;
    branchBlocks_.push_back({pc, &from});
    return Error::success();
  }
  if (isa<ReturnInst>(inst)) {
    in.op = Op::Ret;
    emit(in, inst, "ret");
    return Error::success();
  }
  if (isa<UnreachableInst>(inst)) {
    in.op = Op::Unreachable;
    emit(in, inst, "unreachable");
    return Error::success();
  }
  return unsupported(inst, Twine("terminator '") + inst.getOpcodeName() + "'");
}

Error Decoder::decodeInst(const Instruction &inst) {
  Inst in;
  in.dst = resultSlot(inst);
  in.n = uint16_t(elementCount(inst.getType()));
  if (inst.isTerminator())
    return decodeTerminator(inst);
  if (isa<LoadInst>(inst) || isa<StoreInst>(inst) || isa<AtomicRMWInst>(inst) ||
      isa<AtomicCmpXchgInst>(inst))
    return decodeMemory(inst);
  if (isa<CastInst>(inst))
    return decodeCast(inst);
  if (isa<GetElementPtrInst>(inst))
    return decodeGep(inst);
  if (auto *call = dyn_cast<CallInst>(&inst))
    return decodeCall(*call);
  if (isa<BinaryOperator>(inst))
    return decodeBinary(inst, in);
  if (isa<UnaryOperator>(inst))
    return decodeFNeg(inst, in);
  if (isa<CmpInst>(inst))
    return decodeCompare(inst, in);
  if (isa<SelectInst>(inst))
    return decodeSelect(inst, in);
  if (isa<FreezeInst>(inst))
    return decodeFreeze(inst, in);
  if (isa<ExtractElementInst>(inst))
    return decodeExtractElement(inst, in);
  if (isa<InsertElementInst>(inst))
    return decodeInsertElement(inst, in);
  if (isa<ShuffleVectorInst>(inst))
    return decodeShuffleVector(inst, in);
  if (isa<ExtractValueInst>(inst) || isa<InsertValueInst>(inst))
    return decodeAggregateValue(inst, in);
  return unsupported(inst, Twine("instruction '") + inst.getOpcodeName() + "'");
}

Error Decoder::decodeBinary(const Instruction &inst, Inst &in) {
  auto *bin = cast<BinaryOperator>(&inst);
  TRY_SLOT(a, bin->getOperand(0));
  TRY_SLOT(b, bin->getOperand(1));
  in.a = a, in.b = b;
  in.bits = uint8_t(scalarBits(inst.getType(), dl_));
  using O = Instruction::BinaryOps;
  switch (bin->getOpcode()) {
  case O::Add:
    in.sub = uint8_t(bc::IntBinOp::Add);
    break;
  case O::Sub:
    in.sub = uint8_t(bc::IntBinOp::Sub);
    break;
  case O::Mul:
    in.sub = uint8_t(bc::IntBinOp::Mul);
    break;
  case O::UDiv:
    in.sub = uint8_t(bc::IntBinOp::UDiv);
    break;
  case O::SDiv:
    in.sub = uint8_t(bc::IntBinOp::SDiv);
    break;
  case O::URem:
    in.sub = uint8_t(bc::IntBinOp::URem);
    break;
  case O::SRem:
    in.sub = uint8_t(bc::IntBinOp::SRem);
    break;
  case O::Shl:
    in.sub = uint8_t(bc::IntBinOp::Shl);
    break;
  case O::LShr:
    in.sub = uint8_t(bc::IntBinOp::LShr);
    break;
  case O::AShr:
    in.sub = uint8_t(bc::IntBinOp::AShr);
    break;
  case O::And:
    in.sub = uint8_t(bc::IntBinOp::And);
    break;
  case O::Or:
    in.sub = uint8_t(bc::IntBinOp::Or);
    break;
  case O::Xor:
    in.sub = uint8_t(bc::IntBinOp::Xor);
    break;
  case O::FAdd:
    in.sub = uint8_t(bc::FloatBinOp::Add);
    break;
  case O::FSub:
    in.sub = uint8_t(bc::FloatBinOp::Sub);
    break;
  case O::FMul:
    in.sub = uint8_t(bc::FloatBinOp::Mul);
    break;
  case O::FDiv:
    in.sub = uint8_t(bc::FloatBinOp::Div);
    break;
  case O::FRem:
    in.sub = uint8_t(bc::FloatBinOp::Rem);
    break;
  default:
    return unsupported(inst, Twine("operator '") + inst.getOpcodeName() + "'");
  }
  in.op = inst.getType()->isFPOrFPVectorTy() ? Op::FloatBin : Op::IntBin;
  if (in.op == Op::FloatBin)
    setFloatFormat(inst.getType(), in);
  emit(in, inst, inst.getOpcodeName());
  return Error::success();
}

Error Decoder::decodeFNeg(const Instruction &inst, Inst &in) {
  auto *neg = cast<UnaryOperator>(&inst);
  TRY_SLOT(a, neg->getOperand(0));
  in.op = Op::FNeg, in.a = a;
  in.bits = uint8_t(scalarBits(inst.getType(), dl_));
  emit(in, inst, "fneg");
  return Error::success();
}

Error Decoder::decodeCompare(const Instruction &inst, Inst &in) {
  auto *cmp = cast<CmpInst>(&inst);
  TRY_SLOT(a, cmp->getOperand(0));
  TRY_SLOT(b, cmp->getOperand(1));
  in.op = isa<ICmpInst>(cmp) ? Op::ICmp : Op::FCmp;
  in.a = a, in.b = b;
  in.sub = uint8_t(cmp->getPredicate());
  in.bits = uint8_t(scalarBits(cmp->getOperand(0)->getType(), dl_));
  if (in.op == Op::FCmp)
    setFloatFormat(cmp->getOperand(0)->getType(), in);
  emit(in, inst, inst.getOpcodeName());
  return Error::success();
}

Error Decoder::decodeSelect(const Instruction &inst, Inst &in) {
  auto *sel = cast<SelectInst>(&inst);
  TRY_SLOT(c, sel->getCondition());
  TRY_SLOT(t, sel->getTrueValue());
  TRY_SLOT(f, sel->getFalseValue());
  auto n = slotCount(inst.getType(), inst);
  if (!n)
    return n.takeError();
  in.op = Op::Select, in.a = c, in.b = t, in.c = f, in.n = uint16_t(*n);
  in.flags = sel->getCondition()->getType()->isVectorTy();
  emit(in, inst, "select");
  return Error::success();
}

Error Decoder::decodeFreeze(const Instruction &inst, Inst &in) {
  TRY_SLOT(a, inst.getOperand(0));
  auto n = slotCount(inst.getType(), inst);
  if (!n)
    return n.takeError();
  in.op = Op::Copy, in.a = a, in.n = uint16_t(*n);
  emit(in, inst, "freeze");
  return Error::success();
}

Error Decoder::decodeExtractElement(const Instruction &inst, Inst &in) {
  auto *ee = cast<ExtractElementInst>(&inst);
  TRY_SLOT(v, ee->getVectorOperand());
  TRY_SLOT(i, ee->getIndexOperand());
  in.op = Op::ExtractElt, in.a = v, in.b = i;
  in.n = uint16_t(elementCount(ee->getVectorOperandType()));
  in.bits = uint8_t(ee->getIndexOperand()->getType()->getIntegerBitWidth());
  emit(in, inst, "extractelement");
  return Error::success();
}

Error Decoder::decodeInsertElement(const Instruction &inst, Inst &in) {
  auto *ie = cast<InsertElementInst>(&inst);
  TRY_SLOT(v, ie->getOperand(0));
  TRY_SLOT(e, ie->getOperand(1));
  TRY_SLOT(i, ie->getOperand(2));
  in.op = Op::InsertElt, in.a = v, in.b = e, in.c = i;
  in.bits = uint8_t(ie->getOperand(2)->getType()->getIntegerBitWidth());
  emit(in, inst, "insertelement");
  return Error::success();
}

Error Decoder::decodeShuffleVector(const Instruction &inst, Inst &in) {
  auto *sv = cast<ShuffleVectorInst>(&inst);
  TRY_SLOT(a, sv->getOperand(0));
  TRY_SLOT(b, sv->getOperand(1));
  in.op = Op::Shuffle, in.a = a, in.b = b;
  in.aux = uint32_t(k_.shuffleMasks_.size());
  in.c = elementCount(sv->getOperand(0)->getType());
  for (int m : sv->getShuffleMask())
    k_.shuffleMasks_.push_back(m < 0 ? 0 : m);
  emit(in, inst, "shufflevector");
  return Error::success();
}

// extractvalue and insertvalue.
Error Decoder::decodeAggregateValue(const Instruction &inst, Inst &in) {
  // Aggregates are flattened: find the element offset of the index path.
  Type *agg = inst.getOperand(0)->getType();
  ArrayRef<unsigned> path = isa<ExtractValueInst>(inst)
                                ? cast<ExtractValueInst>(inst).getIndices()
                                : cast<InsertValueInst>(inst).getIndices();
  unsigned offset = 0;
  for (unsigned idx : path) {
    for (unsigned i = 0; i < idx; ++i) {
      Type *member = agg->isStructTy() ? agg->getStructElementType(i)
                                       : agg->getArrayElementType();
      auto n = slotCount(member, inst);
      if (!n)
        return n.takeError();
      offset += *n;
    }
    agg = agg->isStructTy() ? agg->getStructElementType(idx)
                            : agg->getArrayElementType();
  }
  auto n = slotCount(agg, inst);
  if (!n)
    return n.takeError();
  TRY_SLOT(a, inst.getOperand(0));
  if (isa<ExtractValueInst>(inst)) {
    in.op = Op::Copy, in.a = a + offset, in.n = uint16_t(*n);
    emit(in, inst, "extractvalue");
    return Error::success();
  }
  TRY_SLOT(b, inst.getOperand(1));
  auto total = slotCount(inst.getType(), inst);
  if (!total)
    return total.takeError();
  in.op = Op::InsertValue, in.a = a, in.b = b, in.aux = offset;
  in.c = *n, in.n = uint16_t(*total);
  emit(in, inst, "insertvalue");
  return Error::success();
}

} // namespace kcheck::sim
