// HostEvaluator: storage. Slots, variables (locals, globals,
// static locals), lvalues (fields, elements, dereferences) and what is
// loaded from and stored to them.
#include "analyzer/host/HostEvaluator.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

namespace kcheck::analyzer {

using namespace clang;

// ---------------------------------------------------------------------------
// Storage. Slots below kGlobalBase live in store_, the others in globalStore_,
// so unwinding locals (truncating store_) never loses a global.

AbstractValue &HostEvaluator::at(int slot) {
  return slot >= kGlobalBase ? globalStore_[slot - kGlobalBase] : store_[slot];
}
const AbstractValue &HostEvaluator::at(int slot) const {
  return slot >= kGlobalBase ? globalStore_[slot - kGlobalBase] : store_[slot];
}
bool HostEvaluator::validSlot(int slot) const {
  if (slot < 0)
    return false;
  if (slot >= kGlobalBase)
    return size_t(slot - kGlobalBase) < globalStore_.size();
  return size_t(slot) < store_.size();
}

int HostEvaluator::newSlot(AbstractValue v) {
  store_.push_back(std::move(v));
  return int(store_.size() - 1);
}

AbstractValue HostEvaluator::load(const LValue &lv) const {
  if (!validSlot(lv.slot))
    return AbstractValue::unknown("value not tracked");
  if (lv.leaves > 0)
    return loadObject(lv.slot, lv.leaves);
  const AbstractValue &v = at(lv.slot);
  if (lv.field < 0)
    return v;
  if (v.dim)
    return AbstractValue::of((*v.dim)[lv.field]);
  return AbstractValue::of(HostValue::unknown(v.why()));
}

void HostEvaluator::storeTo(const LValue &lv, AbstractValue v) {
  if (!validSlot(lv.slot))
    return;
  if (lv.leaves > 0) { // a whole object: leaf by leaf
    std::string why = v.why();
    for (int k = 0; k < lv.leaves && validSlot(lv.slot + k); ++k)
      at(lv.slot + k) = v.leaves && int(v.leaves->size()) == lv.leaves
                            ? (*v.leaves)[k]
                            : AbstractValue::unknown(
                                  why.empty() ? "object not tracked" : why);
    return;
  }
  AbstractValue &dst = at(lv.slot);
  if (lv.field < 0) {
    dst = std::move(v);
  } else if (dst.dim) {
    (*dst.dim)[lv.field] = v.scalar;
  }
}

HostValue fromAPValue(const APValue &v) {
  if (v.isInt()) {
    const llvm::APSInt &i = v.getInt();
    return HostValue::integer(i.isUnsigned() ? int64_t(i.getZExtValue())
                                             : i.getSExtValue());
  }
  if (v.isFloat()) {
    llvm::APFloat f = v.getFloat();
    bool lost = false;
    f.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
              &lost);
    return HostValue::floating(f.convertToDouble());
  }
  return HostValue::unknown("constant of unsupported kind");
}

int HostEvaluator::boundSlot(const VarDecl *vd) const {
  for (int f = int(frames_.size()) - 1; f >= 0;) {
    auto it = frames_[f].vars.find(vd);
    if (it != frames_[f].vars.end())
      return it->second;
    f = frames_[f].parent;
  }
  // `extern int n;` and `int n = 4;` are one
  auto it = globals_.find(vd->getCanonicalDecl());
  return it != globals_.end() ? it->second : -1;
}

int HostEvaluator::lookup(const VarDecl *vd) {
  if (int slot = boundSlot(vd); slot >= 0 || !vd->hasGlobalStorage())
    return slot;
  vd = vd->getCanonicalDecl();
  // A global (or a static local reached the first time): its initial value.
  const VarDecl *withInit = nullptr;
  const Expr *init = vd->getAnyInitializer(withInit);
  std::vector<AbstractValue> values;
  if (std::optional<uint64_t> n = objectLeaves(vd->getType())) {
    values = initObject(vd->getType(), init, true, vd->getNameAsString());
    if (values.empty())
      values.push_back(AbstractValue::unknown("empty object"));
  } else if (auto *at = ctx_.getAsConstantArrayType(vd->getType())) {
    values = arrayElements(vd, at, init);
  } else if (!init && vd->getDefinition() && vd->getType()->isScalarType()) {
    values.push_back(AbstractValue::of(HostValue::integer(0))); // zeroed
  } else if (const APValue *ap = init ? withInit->evaluateValue() : nullptr;
             ap && (ap->isInt() || ap->isFloat())) {
    values.push_back(AbstractValue::of(
        ap->isInt() ? normalizeInt(fromAPValue(*ap).i, vd->getType())
                    : fromAPValue(*ap)));
  } else {
    values.push_back(init ? eval(init) // dynamic initialisation, before main
                          : AbstractValue::unknown(std::string("global `") +
                                                   vd->getNameAsString() +
                                                   "` is not evaluated"));
  }
  int slot = kGlobalBase + int(globalStore_.size());
  for (AbstractValue &v : values)
    globalStore_.push_back(std::move(v));
  globals_[vd] = slot;
  return slot;
}

std::vector<AbstractValue>
HostEvaluator::arrayElements(const VarDecl *vd, const ConstantArrayType *at,
                             const Expr *init) {
  uint64_t n = at->getZExtSize();
  if (n > kMaxArray || !trackedElement(at->getElementType()))
    return {AbstractValue::unknown(std::string("array `") +
                                   vd->getNameAsString() + "` is not tracked")};
  std::vector<AbstractValue> elems(
      n, AbstractValue::unknown(std::string("uninitialised element of `") +
                                vd->getNameAsString() + "`"));
  auto *il =
      dyn_cast_or_null<InitListExpr>(init ? init->IgnoreImplicit() : nullptr);
  bool zeroFill = il || vd->hasGlobalStorage();
  for (uint64_t k = 0; k < n; ++k) {
    if (il && k < il->getNumInits())
      elems[k] = eval(il->getInit(k));
    else if (zeroFill && !isDim3(at->getElementType()))
      elems[k] = AbstractValue::of(HostValue::integer(0));
  }
  return elems;
}

void HostEvaluator::nameAllocation(const AbstractValue &v, const VarDecl *vd,
                                   SourceLocation loc) {
  if (v.scalar.kind != HostValue::Kind::DevicePtr || v.scalar.offset != 0)
    return;
  int id = v.scalar.allocation;
  unsigned depth = unsigned(frames_.size() - 1);
  if (id < 0 || size_t(id) >= allocDepth_.size() || allocDepth_[id] <= depth)
    return;
  // Returned out of the helper that allocated it: the caller's name is better.
  allocDepth_[id] = depth;
  program_.allocations[id].name = vd->getNameAsString();
  program_.allocations[id].loc = sourceLoc(loc);
}

// Leaves before the base subobject that `cast`'s path reaches from
// `derived` (a derived-to-base or base-to-derived cast).
std::optional<uint64_t> HostEvaluator::baseLeafOffset(QualType derived,
                                                      const CastExpr *cast) {
  uint64_t offset = 0;
  for (const CXXBaseSpecifier *b : cast->path()) {
    const CXXRecordDecl *rd = derived->getAsCXXRecordDecl();
    if (!rd || !rd->hasDefinition())
      return std::nullopt;
    for (const CXXBaseSpecifier &other : rd->bases()) {
      if (&other == b ||
          other.getType().getCanonicalType() == b->getType().getCanonicalType())
        break;
      std::optional<uint64_t> k = leafCount(other.getType());
      if (!k)
        return std::nullopt;
      offset += *k;
    }
    derived = b->getType();
  }
  return offset;
}

// The object a base-to-derived cast reaches from the base subobject at
// `baseSlot` (invalid when its layout or the slots are not known).
LValue HostEvaluator::derivedObject(int baseSlot, const CastExpr *cast) {
  QualType derived = cast->getType();
  if (derived->isPointerType())
    derived = derived->getPointeeType();
  std::optional<uint64_t> k = baseLeafOffset(derived, cast);
  std::optional<uint64_t> n = objectLeaves(derived);
  if (!validSlot(baseSlot) || !k || !n || baseSlot < int(*k))
    return {};
  LValue lv;
  lv.slot = baseSlot - int(*k);
  lv.count = lv.leaves = int(*n);
  return lv;
}

LValue HostEvaluator::lvalueOf(const Expr *e) {
  e = e->IgnoreParens();
  // Implicit, or written: `static_cast<S &&>(s)`, `static_cast<Base &>(d)`.
  if (auto *ic = dyn_cast<CastExpr>(e);
      ic && (isa<ImplicitCastExpr>(ic) || ic->getSubExpr()->isGLValue()))
    if (std::optional<LValue> lv = lvalueOfCast(ic))
      return *lv;
  // `reinterpret_cast<uint16_t const &>(h)` of a __half, or back: one leaf
  // read as another of the same integer width is the same bits.
  if (auto *ce = dyn_cast<ExplicitCastExpr>(e);
      ce && ce->getCastKind() == CK_LValueBitCast)
    return lvalueOfBitCast(ce);
  if (auto *dr = dyn_cast<DeclRefExpr>(e))
    return lvalueOfVariable(dr);
  if (auto *me = dyn_cast<MemberExpr>(e))
    return lvalueOfMember(me);
  if (auto *as = dyn_cast<ArraySubscriptExpr>(e))
    return lvalueOfElement(as);
  if (auto *ce = dyn_cast<CallExpr>(e))
    return lvalueOfCall(ce);
  if (auto *uo = dyn_cast<UnaryOperator>(e))
    return lvalueOfDeref(uo);
  return {};
}

// A no-op cast, or a cast between a base and its derived object; nullopt
// for another cast kind.
std::optional<LValue> HostEvaluator::lvalueOfCast(const CastExpr *ic) {
  if (ic->getCastKind() == CK_NoOp || ic->getCastKind() == CK_LValueToRValue)
    return lvalueOf(ic->getSubExpr());
  if (ic->getCastKind() == CK_UncheckedDerivedToBase ||
      ic->getCastKind() == CK_DerivedToBase) { // a base's part of the object
    LValue lv = lvalueOf(ic->getSubExpr());
    QualType derived = ic->getSubExpr()->getType();
    std::optional<uint64_t> k = baseLeafOffset(derived, ic);
    std::optional<uint64_t> n = objectLeaves(ic->getType());
    if (lv.leaves <= 0 || !objectLeaves(derived) || !k || !n)
      return LValue{}; // not tracked (nullopt would try other kinds)
    lv.slot += int(*k);
    lv.count = lv.leaves = int(*n);
    return lv;
  }
  if (ic->getCastKind() == CK_BaseToDerived) { // CRTP: `static_cast<D &>`
    LValue lv = lvalueOf(ic->getSubExpr());
    // `*this` of an empty base (no leaves of its own): where it points.
    if (auto *uo = dyn_cast<UnaryOperator>(ic->getSubExpr()->IgnoreParens());
        !validSlot(lv.slot) && uo && uo->getOpcode() == UO_Deref)
      lv.slot = eval(uo->getSubExpr()).slotRef;
    if (lv.field >= 0)
      return LValue{}; // not tracked (nullopt would try other kinds)
    return derivedObject(lv.slot, ic);
  }
  return std::nullopt;
}

LValue HostEvaluator::lvalueOfBitCast(const ExplicitCastExpr *ce) {
  std::optional<QualType> from = singleLeafType(ce->getSubExpr()->getType());
  std::optional<QualType> to = singleLeafType(ce->getType());
  if (!from || !to || !(*from)->isIntegerType() || !(*to)->isIntegerType() ||
      ctx_.getTypeSize(*from) != ctx_.getTypeSize(*to))
    return {};
  LValue lv = lvalueOf(ce->getSubExpr());
  if (!validSlot(lv.slot) || lv.count < 1)
    return {};
  bool record = objectLeaves(ce->getType()).has_value();
  lv.count = 1;
  lv.leaves = record ? 1 : 0;
  return lv;
}

LValue HostEvaluator::lvalueOfVariable(const DeclRefExpr *dr) {
  auto *vd = dyn_cast<VarDecl>(dr->getDecl());
  if (!vd)
    return {};
  LValue lv;
  lv.slot = lookup(vd);
  if (std::optional<uint64_t> n =
          objectLeaves(vd->getType().getNonReferenceType())) {
    lv.count = lv.leaves = validSlot(lv.slot) ? int(*n) : 0;
    return lv;
  }
  if (auto *at = ctx_.getAsConstantArrayType(vd->getType()))
    lv.count = validSlot(lv.slot) && at->getZExtSize() <= kMaxArray &&
                       trackedElement(at->getElementType())
                   ? int(at->getZExtSize())
                   : 0;
  return lv;
}

LValue HostEvaluator::lvalueOfMember(const MemberExpr *me) {
  LValue base;
  QualType baseType = me->getBase()->getType();
  if (me->isArrow()) {
    AbstractValue p = eval(me->getBase());
    if (p.slotRef < 0)
      return {};
    base.slot = p.slotRef;
    base.leaves = p.slotCount;
    baseType = baseType->getPointeeType();
  } else {
    base = lvalueOf(me->getBase());
  }
  auto *fd = dyn_cast<FieldDecl>(me->getMemberDecl());
  if (fd && objectLeaves(baseType) && validSlot(base.slot) &&
      base.leaves > 0) { // a field of a flattened object
    std::optional<uint64_t> n = leafCount(fd->getType());
    uint64_t k = fieldLeaf(fd);
    if (!n || k + *n > uint64_t(base.leaves))
      return {};
    LValue lv;
    lv.slot = base.slot + int(k);
    if (aliasingReference(fd->getType()))
      return referentOf(at(lv.slot), fd->getType());
    if (objectLeaves(fd->getType().getNonReferenceType()))
      lv.count = lv.leaves = int(*n);
    return lv;
  }
  if (!validSlot(base.slot) || base.field >= 0 || !at(base.slot).dim)
    return {};
  const NamedDecl *member = me->getMemberDecl();
  llvm::StringRef n = member->getIdentifier() ? member->getName() : "";
  base.field = n == "x" ? 0 : n == "y" ? 1 : n == "z" ? 2 : -1;
  return base.field >= 0 ? base : LValue{};
}

LValue HostEvaluator::lvalueOfElement(const ArraySubscriptExpr *as) {
  AbstractValue base = eval(as->getBase());
  if (base.slotRef < 0) // not into tracked slots: the index is the
    return {};          // caller's to evaluate (once: `argv[++i]`)
  HostValue idx = eval(as->getIdx()).scalar;
  std::optional<uint64_t> object = objectLeaves(as->getType());
  int64_t stride = object ? int64_t(*object) : 1;
  if (base.slotRef < 0 || idx.kind != HostValue::Kind::Int || idx.i < 0 ||
      stride == 0 || idx.i >= base.slotCount / stride)
    return {};
  LValue lv;
  lv.slot = base.slotRef + int(idx.i * stride);
  if (object)
    lv.count = lv.leaves = int(stride);
  return lv;
}

LValue HostEvaluator::lvalueOfCall(const CallExpr *ce) {
  if (ce->getNumArgs() == 1 && isStdReferenceCast(ce->getDirectCallee()))
    return lvalueOf(ce->getArg(0)); // std::forward<T>(x) is x
  if (std::optional<LValue> lv = lvalueOfVectorElement(ce))
    return *lv; // `v[i] = x`
  // `get<1>(rep_)`, `engine()`: a function returning a reference, entered.
  // (`std::cout << x` is not: a library call says nothing of its result.)
  if (!returnsTrackedReference(ce))
    return {};
  AbstractValue v;
  LValue lv = callReturningReference(ce, v);
  if (validSlot(lv.slot))
    return lv;
  unusedCall_ = {ce, std::move(v)};
  return {};
}

LValue HostEvaluator::lvalueOfDeref(const UnaryOperator *uo) {
  if (uo->getOpcode() != UO_Deref)
    return {};
  AbstractValue p = eval(uo->getSubExpr());
  if (p.slotRef < 0 || p.slotCount < 1)
    return {};
  LValue lv;
  lv.slot = p.slotRef;
  if (std::optional<uint64_t> n = objectLeaves(uo->getType());
      n && int64_t(*n) <= p.slotCount)
    lv.count = lv.leaves = int(*n);
  return lv;
}

bool HostEvaluator::trackedElement(QualType t) const {
  t = t.getCanonicalType();
  return t->isScalarType() || isDim3(t);
}

bool HostEvaluator::isDim3(QualType t) const {
  const auto *rd = t.getCanonicalType()->getAsCXXRecordDecl();
  return rd && rd->getIdentifier() &&
         (rd->getName() == "dim3" || rd->getName() == "uint3");
}

// Loads of variables, of elements and of `this`, for eval().

AbstractValue HostEvaluator::evalDeclRef(const DeclRefExpr *e) {
  auto unknownHere = [&](const std::string &what) {
    return AbstractValue::unknown(describe(e, e->getExprLoc()) + ": " + what);
  };
  const ValueDecl *d = e->getDecl();
  if (auto *ec = dyn_cast<EnumConstantDecl>(d))
    return AbstractValue::of(
        HostValue::integer(ec->getInitVal().getExtValue()));
  if (auto *fd = dyn_cast<FunctionDecl>(d)) {
    AbstractValue f;
    f.function = fd;
    return f;
  }
  auto *vd = dyn_cast<VarDecl>(d);
  if (!vd)
    return unknownHere("not a variable");
  LValue lv = lvalueOf(e);
  if (!validSlot(lv.slot))
    return unknownHere("variable `" + vd->getNameAsString() +
                       "` was not evaluated on this path");
  return load(lv);
}

AbstractValue HostEvaluator::evalThis(const Expr *e) {
  auto unknownHere = [&](const std::string &what) {
    return AbstractValue::unknown(describe(e, e->getExprLoc()) + ": " + what);
  };
  const Frame &f = frames_.back();
  if (f.thisSlot < 0 || !validSlot(f.thisSlot))
    return unknownHere("its object is not tracked");
  AbstractValue p;
  p.slotRef = f.thisSlot;
  p.slotCount = f.thisLeaves;
  return p;
}

AbstractValue HostEvaluator::evalSubscript(const ArraySubscriptExpr *as) {
  const Expr *e = as;
  auto unknownHere = [&](const std::string &what) {
    return AbstractValue::unknown(describe(e, e->getExprLoc()) + ": " + what);
  };
  LValue lv = lvalueOf(e);
  if (validSlot(lv.slot))
    return load(lv);
  // prop.maxGridSize[0]: an array field of a device query's answer.
  if (auto *me = dyn_cast<MemberExpr>(as->getBase()->IgnoreParenImpCasts()))
    if (AbstractValue p = eval(me->getBase()); p.deviceProps) {
      HostValue idx = eval(as->getIdx()).scalar;
      std::string key = me->getMemberDecl()->getNameAsString() + "[" +
                        std::to_string(idx.i) + "]";
      if (idx.kind == HostValue::Kind::Int)
        if (std::optional<int64_t> v = deviceQuery(key, e->getExprLoc()))
          return AbstractValue::of(normalizeInt(*v, e->getType()));
      return AbstractValue::unknown(p.scalar.why + " (field " + key + ")");
    }
  AbstractValue base = eval(as->getBase());
  if (base.scalar.kind == HostValue::Kind::HostPtr &&
      base.scalar.allocation == HostValue::kProgramArguments) {
    // argv[k]: the program's argument, a string known to its characters.
    HostValue k = eval(as->getIdx()).scalar;
    const std::vector<std::string> &args = *options_.programArgs;
    if (k.kind == HostValue::Kind::Int && k.i >= 0 &&
        k.i <= int64_t(args.size())) {
      AbstractValue v = AbstractValue::of(HostValue::hostPtr());
      v.text = std::make_shared<const std::string>(
          k.i == 0 ? std::string("program") : args[size_t(k.i - 1)]);
      return v;
    }
    return unknownHere("argv beyond argc");
  }
  eval(as->getIdx());
  std::string why = base.why();
  if (!why.empty())
    return AbstractValue::unknown(why);
  return unknownHere(base.scalar.kind == HostValue::Kind::DevicePtr
                         ? "contents of device memory are not evaluated"
                         : "contents of host memory are not evaluated");
}

} // namespace kcheck::analyzer
