#include "simulator/engine/Decoder.h"
#include "simulator/engine/AluOps.h"

#include "core/PtxTags.h"
#include "core/SharedLayout.h"

#include "simulator/engine/AddressWindows.h"
#include "simulator/engine/Reconvergence.h"

#include "core/SourcePath.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

#include <cstring>
#include <functional>

namespace kcheck::sim {

std::optional<core::Dim3> kernelClusterDims(const llvm::Function &kernel) {
  llvm::Attribute a = kernel.getFnAttribute("nvvm.cluster_dim");
  if (!a.isStringAttribute())
    return std::nullopt;
  llvm::SmallVector<llvm::StringRef, 3> parts;
  a.getValueAsString().split(parts, ',');
  core::Dim3 d;
  uint32_t *dims[3] = {&d.x, &d.y, &d.z};
  if (parts.empty() || parts.size() > 3)
    return std::nullopt;
  for (size_t i = 0; i < parts.size(); ++i)
    if (parts[i].trim().getAsInteger(10, *dims[i]) || *dims[i] == 0)
      return std::nullopt;
  return d;
}

using namespace llvm;

std::string sourceNameOf(StringRef irName) {
  std::string demangled = llvm::demangle(irName.str());
  size_t cut = demangled.rfind("::");
  return cut == std::string::npos ? demangled : demangled.substr(cut + 2);
}

static std::string locationText(const Instruction &inst) {
  if (const DILocation *loc = inst.getDebugLoc().get()) {
    std::string s;
    for (; loc; loc = loc->getInlinedAt()) {
      if (!s.empty())
        s += " inlined at ";
      s += (loc->getFilename() + ":" + Twine(loc->getLine())).str();
    }
    return s;
  }
  return "<unknown location>";
}

Decoder::Decoder(const Function &fn, DecodedKernel &out)
    : fn_(fn), k_(out), dl_(fn.getParent()->getDataLayout()) {}

Error Decoder::unsupported(const Instruction &inst, const Twine &what) const {
  return createStringError(inconvertibleErrorCode(),
                           "unsupported construct: " + what + " at " +
                               locationText(inst) + " in kernel " +
                               llvm::demangle(fn_.getName().str()));
}

Error Decoder::checkScalar(Type *type, const Instruction &at) const {
  if (auto *it = dyn_cast<IntegerType>(type)) {
    if (it->getBitWidth() > 64)
      return unsupported(at, "type i" + Twine(it->getBitWidth()));
    return Error::success();
  }
  if (type->isFloatTy() || type->isDoubleTy() || type->isPointerTy() ||
      type->isHalfTy() || type->isBFloatTy())
    return Error::success();
  std::string name;
  raw_string_ostream os(name);
  type->print(os);
  return unsupported(at, "type '" + name + "'");
}

// Float arithmetic of every width the engine has: 16-bit floats (half, or
// bfloat16: sub2 = 1) as well as f32 and f64.
void Decoder::setFloatFormat(Type *type, bc::Inst &in) const {
  in.sub2 = type->getScalarType()->isBFloatTy() ? 1 : 0;
}

Expected<unsigned> Decoder::slotCount(Type *type, const Instruction &at) const {
  if (type->isVoidTy())
    return 0;
  if (auto *vt = dyn_cast<FixedVectorType>(type)) {
    if (Error e = checkScalar(vt->getElementType(), at))
      return e;
    return vt->getNumElements();
  }
  if (auto *st = dyn_cast<StructType>(type)) {
    unsigned total = 0;
    for (Type *member : st->elements()) {
      auto n = slotCount(member, at);
      if (!n)
        return n.takeError();
      total += *n;
    }
    return total;
  }
  if (auto *at2 = dyn_cast<ArrayType>(type)) {
    auto n = slotCount(at2->getElementType(), at);
    if (!n)
      return n.takeError();
    return unsigned(*n * at2->getNumElements());
  }
  if (Error e = checkScalar(type, at))
    return e;
  return 1;
}

uint32_t Decoder::resultSlot(const Instruction &inst) const {
  return slots_.lookup(&inst);
}

uint32_t Decoder::emit(const bc::Inst &inst, const Instruction &at,
                       std::string opcode) {
  InstInfo info;
  info.opcode = std::move(opcode);
  for (const DILocation *loc = at.getDebugLoc().get(); loc;
       loc = loc->getInlinedAt())
    info.inlineChain.push_back({core::debugInfoPath(loc->getDirectory().str(),
                                                    loc->getFilename().str()),
                                loc->getLine(), loc->getColumn()});
  k_.infos_.push_back(std::move(info));
  k_.code_.push_back(inst);
  k_.reconv_.push_back(DecodedKernel::kExitPc);
  return uint32_t(k_.code_.size() - 1);
}

// Static shared variables as ptxas lays them out (core/SharedLayout.h: module
// order, each at its own alignment); extern (dynamic) shared memory after.
Error Decoder::layoutShared() {
  SmallPtrSet<const GlobalVariable *, 16> used;
  SmallVector<const Constant *, 32> work;
  for (const BasicBlock &bb : fn_)
    for (const Instruction &inst : bb)
      for (const Value *op : inst.operands())
        if (auto *c = dyn_cast<Constant>(op))
          work.push_back(c);
  SmallPtrSet<const Constant *, 32> seen;
  while (!work.empty()) {
    const Constant *c = work.pop_back_val();
    if (!seen.insert(c).second)
      continue;
    if (auto *gv = dyn_cast<GlobalVariable>(c)) {
      used.insert(gv);
      continue;
    }
    for (const Value *op : c->operands())
      if (auto *oc = dyn_cast<Constant>(op))
        work.push_back(oc);
  }
  std::vector<const GlobalVariable *> statics, dynamic;
  std::vector<core::SharedVarShape> shapes;
  for (const GlobalVariable &gv : fn_.getParent()->globals()) {
    if (gv.getAddressSpace() != bc::kSharedAS || !used.count(&gv))
      continue;
    uint64_t bytes = dl_.getTypeAllocSize(gv.getValueType());
    if (gv.isDeclaration() || bytes == 0) {
      dynamic.push_back(&gv);
      continue;
    }
    statics.push_back(&gv);
    shapes.push_back({bytes, gv.getAlign().valueOrOne().value()});
  }
  const core::SharedLayout layout = core::layOutStaticShared(shapes);
  for (size_t i = 0; i < statics.size(); ++i) {
    const GlobalVariable &gv = *statics[i];
    sharedOffset_[&gv] = layout.offsets[i];
    k_.sharedVars_.push_back({gv.getName().str(), sourceNameOf(gv.getName()),
                              layout.offsets[i], shapes[i].bytes, false});
  }
  k_.staticShared_ = layout.staticBytes;
  dynamicSharedOffset_ = k_.staticShared_;
  for (const GlobalVariable *gv : dynamic) {
    sharedOffset_[gv] = dynamicSharedOffset_;
    k_.sharedVars_.push_back({gv->getName().str(), sourceNameOf(gv->getName()),
                              dynamicSharedOffset_, 0, true});
  }
  return Error::success();
}

Expected<int32_t> Decoder::symbolFor(const GlobalVariable &gv,
                                     const Instruction &at) {
  if (auto it = symbolIndex_.find(&gv); it != symbolIndex_.end())
    return it->second;
  bc::DeviceSymbol sym;
  sym.name = gv.getName().str();
  sym.bytes = dl_.getTypeAllocSize(gv.getValueType());
  if (gv.hasInitializer()) {
    sym.init.assign(sym.bytes, 0);
    if (Error e = serialize(gv.getInitializer(), sym.init.data(), at))
      return e;
  }
  int32_t index = int32_t(k_.symbols_.size());
  k_.symbols_.push_back(std::move(sym));
  symbolIndex_[&gv] = index;
  return index;
}

// Writes a constant initializer's bytes (little-endian, DataLayout layout).
Error Decoder::serialize(const Constant *c, uint8_t *out,
                         const Instruction &at) {
  Type *type = c->getType();
  if (isa<ConstantAggregateZero>(c) || isa<UndefValue>(c) ||
      isa<ConstantPointerNull>(c))
    return Error::success(); // already zero
  if (auto *cda = dyn_cast<ConstantDataSequential>(c)) {
    StringRef raw = cda->getRawDataValues();
    std::memcpy(out, raw.data(), raw.size());
    return Error::success();
  }
  if (auto *st = dyn_cast<StructType>(type)) {
    const StructLayout *layout = dl_.getStructLayout(st);
    for (unsigned i = 0; i < st->getNumElements(); ++i)
      if (Error e = serialize(c->getAggregateElement(i),
                              out + layout->getElementOffset(i), at))
        return e;
    return Error::success();
  }
  if (type->isArrayTy() || type->isVectorTy()) {
    Type *elem = type->isArrayTy() ? type->getArrayElementType()
                                   : cast<VectorType>(type)->getElementType();
    uint64_t stride = dl_.getTypeAllocSize(elem);
    unsigned count = type->isArrayTy()
                         ? unsigned(type->getArrayNumElements())
                         : cast<FixedVectorType>(type)->getNumElements();
    for (unsigned i = 0; i < count; ++i)
      if (Error e = serialize(c->getAggregateElement(i), out + i * stride, at))
        return e;
    return Error::success();
  }
  auto v = evalConstant(c, at);
  if (!v)
    return v.takeError();
  if (v->symbol >= 0)
    return unsupported(at, "pointer to a global in a global initializer");
  uint64_t size = dl_.getTypeStoreSize(type);
  std::memcpy(out, &v->value, std::min<uint64_t>(size, 8));
  return Error::success();
}

static uint64_t maskTo(uint64_t v, unsigned bits) {
  return bits >= 64 ? v : v & ((1ull << bits) - 1);
}

Expected<Decoder::ConstValue> Decoder::evalConstant(const Constant *c,
                                                    const Instruction &at) {
  if (auto *ci = dyn_cast<ConstantInt>(c)) {
    if (ci->getBitWidth() > 64)
      return unsupported(at, "integer constant wider than 64 bits");
    return ConstValue{ci->getZExtValue(), -1};
  }
  if (auto *cf = dyn_cast<ConstantFP>(c)) {
    if (Error e = checkScalar(cf->getType(), at))
      return e;
    return ConstValue{cf->getValueAPF().bitcastToAPInt().getZExtValue(), -1};
  }
  if (isa<ConstantPointerNull>(c) || isa<UndefValue>(c) ||
      isa<ConstantAggregateZero>(c))
    return ConstValue{0, -1};
  if (auto *gv = dyn_cast<GlobalVariable>(c)) {
    if (gv->getAddressSpace() == bc::kSharedAS)
      return ConstValue{sharedOffset_.lookup(gv), -1};
    auto sym = symbolFor(*gv, at);
    if (!sym)
      return sym.takeError();
    return ConstValue{0, *sym};
  }
  if (isa<Function>(c))
    return unsupported(at, "function pointer");
  auto *ce = dyn_cast<ConstantExpr>(c);
  if (!ce)
    return unsupported(at, "constant '" + c->getNameOrAsOperand() + "'");
  switch (ce->getOpcode()) {
  case Instruction::GetElementPtr: {
    auto base = evalConstant(cast<Constant>(ce->getOperand(0)), at);
    if (!base)
      return base;
    unsigned as = ce->getType()->getPointerAddressSpace();
    APInt offset(dl_.getIndexSizeInBits(as), 0);
    if (!cast<GEPOperator>(ce)->accumulateConstantOffset(dl_, offset))
      return unsupported(at, "constant GEP expression");
    base->value = maskTo(base->value + offset.getSExtValue(),
                         dl_.getPointerSizeInBits(as));
    return base;
  }
  case Instruction::AddrSpaceCast: {
    auto base = evalConstant(ce->getOperand(0), at);
    if (!base)
      return base;
    if (base->symbol < 0)
      base->value = castAddressSpace(
          base->value, ce->getOperand(0)->getType()->getPointerAddressSpace(),
          ce->getType()->getPointerAddressSpace());
    return base;
  }
  case Instruction::BitCast:
  case Instruction::PtrToInt:
  case Instruction::IntToPtr:
  case Instruction::Trunc: {
    auto base = evalConstant(ce->getOperand(0), at);
    if (base && ce->getType()->isIntegerTy())
      base->value = maskTo(base->value, ce->getType()->getIntegerBitWidth());
    return base;
  }
  case Instruction::Add:
  case Instruction::Sub: {
    auto l = evalConstant(ce->getOperand(0), at);
    auto r = evalConstant(ce->getOperand(1), at);
    if (!l || !r)
      return l ? r.takeError() : l.takeError();
    if (r->symbol >= 0)
      return unsupported(at, "constant expression on a global's address");
    l->value = maskTo(ce->getOpcode() == Instruction::Add ? l->value + r->value
                                                          : l->value - r->value,
                      ce->getType()->getIntegerBitWidth());
    return l;
  }
  default:
    return unsupported(at, Twine("constant expression '") +
                               ce->getOpcodeName() + "'");
  }
}

Expected<uint32_t> Decoder::slotOf(const Value *value) {
  if (auto it = slots_.find(value); it != slots_.end())
    return it->second;
  auto *c = dyn_cast<Constant>(value);
  if (!c)
    return createStringError(inconvertibleErrorCode(),
                             "kcheck engine: value without a slot");
  auto count = slotCount(c->getType(), *current_);
  if (!count)
    return count.takeError();
  uint32_t first = k_.numSlots_;
  k_.numSlots_ += *count;
  slots_[value] = first;
  auto fill = [&](const Constant *elem, uint32_t slot) -> Error {
    auto v = evalConstant(elem, *current_);
    if (!v)
      return v.takeError();
    k_.consts_.push_back({slot, v->symbol, v->value});
    return Error::success();
  };
  if (*count == 1 && !c->getType()->isAggregateType() &&
      !c->getType()->isVectorTy()) {
    if (Error e = fill(c, first))
      return e;
    return first;
  }
  // Aggregates and vectors: flatten element by element.
  std::function<Error(const Constant *, uint32_t &)> walk =
      [&](const Constant *agg, uint32_t &slot) -> Error {
    Type *t = agg->getType();
    if (!t->isAggregateType() && !t->isVectorTy())
      return fill(agg, slot++);
    unsigned n = t->isStructTy()  ? t->getStructNumElements()
                 : t->isArrayTy() ? unsigned(t->getArrayNumElements())
                                  : cast<FixedVectorType>(t)->getNumElements();
    for (unsigned i = 0; i < n; ++i)
      if (Error e = walk(agg->getAggregateElement(i), slot))
        return e;
    return Error::success();
  };
  uint32_t slot = first;
  if (Error e = walk(c, slot))
    return e;
  return first;
}

Error Decoder::assignSlots() {
  k_.parameterPlaces_ = parameterPlaces(fn_);
  for (const Argument &arg : fn_.args()) {
    const Instruction &at = fn_.getEntryBlock().front();
    if (arg.hasByValAttr()) {
      // Each thread's copy of the struct is a region of its local frame.
      Type *t = arg.getParamByValType();
      uint64_t align =
          std::max<uint64_t>(arg.getParamAlign().valueOrOne().value(),
                             dl_.getABITypeAlign(t).value());
      k_.localFrame_ = alignTo(k_.localFrame_, align);
      uint64_t bytes = dl_.getTypeAllocSize(t);
      std::string name = arg.getName().str();
      k_.localVars_.push_back(
          {"parameter" + (name.empty() ? "" : " '" + name + "'"),
           k_.localFrame_, bytes});
      slots_[&arg] = k_.numSlots_;
      k_.args_.push_back({k_.numSlots_++, 64, bytes, k_.localFrame_});
      k_.localFrame_ += bytes;
      continue;
    }
    if (Error e = checkScalar(arg.getType(), at))
      return e;
    unsigned bits =
        arg.getType()->isPointerTy()
            ? dl_.getPointerSizeInBits(arg.getType()->getPointerAddressSpace())
            : unsigned(dl_.getTypeSizeInBits(arg.getType()));
    slots_[&arg] = k_.numSlots_;
    k_.args_.push_back({k_.numSlots_++, uint8_t(bits)});
  }
  for (const BasicBlock &bb : fn_)
    for (const Instruction &inst : bb) {
      if (auto *alloca = dyn_cast<AllocaInst>(&inst)) {
        auto *size = dyn_cast<ConstantInt>(alloca->getArraySize());
        if (!size)
          return unsupported(inst, "dynamically sized alloca");
        uint64_t align = alloca->getAlign().value();
        k_.localFrame_ = alignTo(k_.localFrame_, align);
        uint64_t offset = k_.localFrame_;
        uint64_t bytes = dl_.getTypeAllocSize(alloca->getAllocatedType()) *
                         size->getZExtValue();
        k_.localFrame_ += bytes;
        localIndex_[alloca] = int32_t(k_.localVars_.size());
        k_.localVars_.push_back({alloca->getName().str(), offset, bytes});
        uint64_t value = alloca->getAddressSpace() == bc::kLocalAS
                             ? offset
                             : kLocalWindowBase + offset;
        slots_[&inst] = k_.numSlots_;
        k_.consts_.push_back({k_.numSlots_++, -1, value});
        continue;
      }
      auto count = slotCount(inst.getType(), inst);
      if (!count)
        return count.takeError();
      if (*count) {
        slots_[&inst] = k_.numSlots_;
        k_.numSlots_ += *count;
      }
    }
  return Error::success();
}

Error Decoder::run() {
  // Messages name the kernel as the user wrote it: offByOne(float*).
  k_.name_ = llvm::demangle(fn_.getName().str());
  // __cluster_dims__(x, y, z): Clang's "nvvm.cluster_dim"="x,y,z".
  k_.cluster_ = kernelClusterDims(fn_);
  k_.sharedPtrBits_ = dl_.getPointerSizeInBits(bc::kSharedAS);
  k_.localPtrBits_ = dl_.getPointerSizeInBits(bc::kLocalAS);
  k_.genericPtrBits_ = dl_.getPointerSizeInBits(0);
  if (fn_.isDeclaration())
    return createStringError(inconvertibleErrorCode(),
                             "kcheck engine: kernel " + fn_.getName() +
                                 " has no body");
  if (Error e = layoutShared())
    return e;
  if (Error e = assignSlots())
    return e;
  for (const BasicBlock &bb : fn_) {
    blockPc_[&bb] = uint32_t(k_.code_.size());
    if (Error e = decodeBlock(bb))
      return e;
  }
  for (auto &[edge, target] : edgeTargets_)
    k_.edges_[edge].targetPc = blockPc_.lookup(target);
  // Reconvergence points: immediate post-dominators on the paths that
  // return (Reconvergence.h).
  auto reconvergeAt = reconvergenceBlocks(fn_);
  for (auto &[pc, bb] : branchBlocks_) {
    const BasicBlock *at = reconvergeAt.lookup(bb);
    k_.reconv_[pc] = at ? blockPc_.lookup(at) : DecodedKernel::kExitPc;
  }
  return Error::success();
}

Error Decoder::decodeBlock(const BasicBlock &block) {
  for (const Instruction &inst : block) {
    current_ = &inst;
    if (isa<PHINode>(inst) || isa<AllocaInst>(inst) || isa<FenceInst>(inst))
      continue;
    if (Error e = decodeInst(inst))
      return e;
  }
  return Error::success();
}

Expected<uint32_t> Decoder::makeEdge(const BasicBlock &from,
                                     const BasicBlock &to,
                                     const Instruction &at) {
  bc::Edge edge{0, uint32_t(k_.phiCopies_.size()), 0};
  for (const PHINode &phi : to.phis()) {
    auto src = slotOf(phi.getIncomingValueForBlock(&from));
    if (!src)
      return src.takeError();
    auto n = slotCount(phi.getType(), at);
    if (!n)
      return n.takeError();
    for (unsigned e = 0; e < *n; ++e)
      k_.phiCopies_.push_back({slots_.lookup(&phi) + e, *src + e});
  }
  edge.copyEnd = uint32_t(k_.phiCopies_.size());
  k_.maxPhiCopies_ = std::max(k_.maxPhiCopies_, edge.copyEnd - edge.copyBegin);
  k_.edges_.push_back(edge);
  edgeTargets_.push_back({uint32_t(k_.edges_.size() - 1), &to});
  return uint32_t(k_.edges_.size() - 1);
}

llvm::Expected<std::unique_ptr<DecodedKernel>>
decodeKernel(const llvm::Function &kernel) {
  std::unique_ptr<DecodedKernel> out = Decoder::newKernel();
  Decoder decoder(kernel, *out);
  if (Error e = decoder.run())
    return e;
  return out;
}

// The executor compares with alu::IcmpPred and alu::FcmpPred, which number
// the predicates as LLVM does; the decoder stores LLVM's number.
using Pred = llvm::CmpInst::Predicate;
static_assert(unsigned(alu::IcmpPred::Eq) == Pred::ICMP_EQ &&
              unsigned(alu::IcmpPred::Ne) == Pred::ICMP_NE &&
              unsigned(alu::IcmpPred::Ugt) == Pred::ICMP_UGT &&
              unsigned(alu::IcmpPred::Uge) == Pred::ICMP_UGE &&
              unsigned(alu::IcmpPred::Ult) == Pred::ICMP_ULT &&
              unsigned(alu::IcmpPred::Ule) == Pred::ICMP_ULE &&
              unsigned(alu::IcmpPred::Sgt) == Pred::ICMP_SGT &&
              unsigned(alu::IcmpPred::Sge) == Pred::ICMP_SGE &&
              unsigned(alu::IcmpPred::Slt) == Pred::ICMP_SLT &&
              unsigned(alu::IcmpPred::Sle) == Pred::ICMP_SLE);
static_assert(unsigned(alu::FcmpPred::False) == Pred::FCMP_FALSE &&
              unsigned(alu::FcmpPred::Oeq) == Pred::FCMP_OEQ &&
              unsigned(alu::FcmpPred::Ogt) == Pred::FCMP_OGT &&
              unsigned(alu::FcmpPred::Oge) == Pred::FCMP_OGE &&
              unsigned(alu::FcmpPred::Olt) == Pred::FCMP_OLT &&
              unsigned(alu::FcmpPred::Ole) == Pred::FCMP_OLE &&
              unsigned(alu::FcmpPred::One) == Pred::FCMP_ONE &&
              unsigned(alu::FcmpPred::Ord) == Pred::FCMP_ORD &&
              unsigned(alu::FcmpPred::Uno) == Pred::FCMP_UNO &&
              unsigned(alu::FcmpPred::Ueq) == Pred::FCMP_UEQ &&
              unsigned(alu::FcmpPred::Ugt) == Pred::FCMP_UGT &&
              unsigned(alu::FcmpPred::Uge) == Pred::FCMP_UGE &&
              unsigned(alu::FcmpPred::Ult) == Pred::FCMP_ULT &&
              unsigned(alu::FcmpPred::Ule) == Pred::FCMP_ULE &&
              unsigned(alu::FcmpPred::Une) == Pred::FCMP_UNE &&
              unsigned(alu::FcmpPred::True) == Pred::FCMP_TRUE);

static MemSpace spaceOf(unsigned as) {
  switch (as) {
  case bc::kSharedAS:
    return MemSpace::Shared;
  case bc::kLocalAS:
    return MemSpace::Local;
  case bc::kConstAS:
    return MemSpace::Constant;
  case bc::kParamAS:
    return MemSpace::Param;
  default:
    return MemSpace::Global;
  }
}

void Decoder::fillMemoryInfo(InstInfo &info, const Value *ptr) const {
  info.isMemory = true;
  unsigned as = ptr->getType()->getPointerAddressSpace();
  info.space = spaceOf(as);
  info.isGenericAddress = as == bc::kGeneric;
  const Value *object = getUnderlyingObject(ptr, 32);
  if (auto *gv = dyn_cast<GlobalVariable>(object)) {
    info.objectName = sourceNameOf(gv->getName());
    if (info.isGenericAddress)
      info.space = spaceOf(gv->getAddressSpace());
    for (size_t i = 0; i < k_.sharedVars_.size(); ++i)
      if (gv->getAddressSpace() == bc::kSharedAS &&
          k_.sharedVars_[i].irName == gv->getName())
        info.sharedVariable = int32_t(i);
  } else if (isa<AllocaInst>(object)) {
    info.objectName = object->getName().str();
    if (auto it = localIndex_.find(object); it != localIndex_.end())
      info.localVariable = it->second;
    if (info.isGenericAddress)
      info.space = MemSpace::Local;
  } else if (object->hasName() && !isa<CallInst>(object)) {
    // A call's result (malloc's block: "call5") has no source name.
    info.objectName = object->getName().str();
  }
}

// Several variables side by side that one merged access covers
// (core::kSharedSpanMetadata): named together, bounded by the shared window.
void Decoder::nameSharedSpan(InstInfo &info, const Instruction &inst) const {
  const MDNode *tag = inst.getMetadata(core::kSharedSpanMetadata);
  if (!tag || tag->getNumOperands() != 1)
    return;
  auto *names = dyn_cast<MDString>(tag->getOperand(0));
  if (!names)
    return;
  info.sharedVariable = -1;
  SmallVector<StringRef, 4> parts;
  names->getString().split(parts, ',');
  info.objectName.clear();
  for (StringRef part : parts)
    info.objectName +=
        (info.objectName.empty() ? "" : ", ") + sourceNameOf(part);
}

} // namespace kcheck::sim
