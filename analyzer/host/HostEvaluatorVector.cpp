// HostEvaluator: std::vector, which host code sizes its buffers, copies and
// launches with (`cudaMalloc(&d, h.size() * sizeof(float))`). A vector is
// one slot holding an AbstractValue with `vectorSize` (its element count)
// and, when its elements fit kMaxArray leaves, the globalStore_ slots they
// are in (from slotRef; slotCount of them, its capacity). A vector too
// large to track, or made after the program's vectors used
// kMaxVectorSlots slots, keeps its size, its elements unknown. Elements are
// scalars or tracked records (objectLeaves); a vector of anything else is
// not modelled (an opaque object, as before).
#include "analyzer/host/HostEvaluator.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

namespace kcheck::analyzer {

using namespace clang;

namespace {

// T of std::vector<T, A> (or of a reference to one); null if `t` is not one.
QualType vectorElement(QualType t) {
  if (!isStdRecord(t, "vector"))
    return {};
  const auto *spec = dyn_cast<ClassTemplateSpecializationDecl>(
      t.getNonReferenceType()->getAsCXXRecordDecl());
  if (!spec || spec->getTemplateArgs().size() < 1 ||
      spec->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return {};
  return spec->getTemplateArgs()[0].getAsType();
}

} // namespace

// Leaves per element of a vector of `t`, or nullopt when not modelled.
std::optional<unsigned> HostEvaluator::vectorLeaves(QualType vector) const {
  QualType t = vectorElement(vector);
  if (t.isNull())
    return std::nullopt;
  t = t.getCanonicalType();
  if (t->isScalarType())
    return 1;
  std::optional<uint64_t> n = objectLeaves(t);
  if (!n || *n == 0 || *n > kMaxArray)
    return std::nullopt;
  return unsigned(*n);
}

AbstractValue HostEvaluator::makeVector(int64_t size,
                                        std::vector<AbstractValue> leaves) {
  AbstractValue v = AbstractValue::unknown("a std::vector");
  v.vectorSize = size;
  if (leaves.empty() && size > 0)
    return v; // elements not tracked
  // Room to grow, so that push_back in a loop copies O(n) slots in all.
  size_t capacity = std::max<size_t>(leaves.size() * 2, 16);
  if (capacity > kMaxArray)
    capacity = std::max<size_t>(leaves.size(), kMaxArray);
  // Every unknown `if` copies the globals (State): vectors made in a loop
  // (a function called per test case) would make each copy larger.
  if (leaves.size() > kMaxArray || vectorSlots_ + capacity > kMaxVectorSlots)
    return v;
  vectorSlots_ += capacity;
  v.slotRef = kGlobalBase + int(globalStore_.size());
  v.slotCount = int(capacity);
  globalStore_.insert(globalStore_.end(), leaves.begin(), leaves.end());
  globalStore_.resize(globalStore_.size() + capacity - leaves.size(),
                      AbstractValue::unknown("past a std::vector's end"));
  return v;
}

// The leaves of `count` copies of `element` (one element's leaves), or none
// when they are too many to track.
static std::vector<AbstractValue>
repeated(const std::vector<AbstractValue> &element, int64_t count,
         uint64_t maxLeaves) {
  std::vector<AbstractValue> out;
  if (count < 0 || uint64_t(count) * element.size() > maxLeaves)
    return out;
  for (int64_t k = 0; k < count; ++k)
    out.insert(out.end(), element.begin(), element.end());
  return out;
}

// The leaves of one element made from `init` (value-initialised if null).
std::vector<AbstractValue> HostEvaluator::vectorElementFrom(QualType vector,
                                                            const Expr *init) {
  QualType t = vectorElement(vector).getCanonicalType();
  if (t->isScalarType()) {
    if (!init)
      return {AbstractValue::of(HostValue::integer(0))};
    return {AbstractValue::of(convert(eval(init).scalar, init->getType(), t))};
  }
  return initObject(t, init, true, "an element of a std::vector");
}

// Whether a vector value's element slots are all there (a fork of the
// evaluation may have dropped the slots made on one of its branches).
bool HostEvaluator::vectorTracked(const AbstractValue &v, unsigned per) const {
  return v.vectorSize >= 0 && v.slotRef >= 0 && v.slotCount >= 1 &&
         v.vectorSize * per <= v.slotCount && validSlot(v.slotRef) &&
         validSlot(v.slotRef + v.slotCount - 1);
}

// The elements' leaves of a vector value (empty when not tracked).
std::vector<AbstractValue> HostEvaluator::vectorContents(const AbstractValue &v,
                                                         unsigned per) const {
  std::vector<AbstractValue> out;
  if (!vectorTracked(v, per))
    return out;
  for (int64_t k = 0; k < v.vectorSize * per; ++k)
    out.push_back(at(v.slotRef + int(k)));
  return out;
}

std::optional<AbstractValue>
HostEvaluator::constructStdVector(const CXXConstructExpr *e) {
  std::optional<unsigned> per = vectorLeaves(e->getType());
  if (!per)
    return std::nullopt;
  const CXXConstructorDecl *ctor = e->getConstructor();
  unsigned nargs = e->getNumArgs();
  // The allocator, always defaulted in what host code writes.
  while (nargs > 0 &&
         (isa<CXXDefaultArgExpr>(e->getArg(nargs - 1)) ||
          isStdRecord(e->getArg(nargs - 1)->getType(), "allocator")))
    --nargs;
  if (nargs == 0)
    return makeVector(0, {});
  const Expr *first = e->getArg(0);
  if (ctor->isCopyOrMoveConstructor() ||
      isStdRecord(first->getType(), "vector")) {
    AbstractValue from = eval(first); // a copy of its own elements
    if (from.vectorSize < 0)
      return std::nullopt;
    return makeVector(from.vectorSize, vectorContents(from, *per));
  }
  if (auto *il = dyn_cast<CXXStdInitializerListExpr>(first->IgnoreImplicit())) {
    const auto *list =
        dyn_cast<InitListExpr>(il->getSubExpr()->IgnoreImplicit());
    if (!list)
      return std::nullopt;
    std::vector<AbstractValue> leaves;
    for (const Expr *i : list->inits()) {
      std::vector<AbstractValue> one = vectorElementFrom(e->getType(), i);
      leaves.insert(leaves.end(), one.begin(), one.end());
    }
    return makeVector(int64_t(list->getNumInits()), std::move(leaves));
  }
  if (first->getType()->isIntegerType() && nargs <= 2) { // (n[, value])
    HostValue n = eval(first).scalar;
    std::vector<AbstractValue> element =
        vectorElementFrom(e->getType(), nargs == 2 ? e->getArg(1) : nullptr);
    if (n.kind != HostValue::Kind::Int || n.i < 0)
      return std::nullopt;
    return makeVector(n.i, repeated(element, n.i, kMaxArray));
  }
  if (nargs == 2) { // (first, last) over a tracked array
    AbstractValue a = eval(e->getArg(0)), b = eval(e->getArg(1));
    if (a.slotRef < 0 || b.slotRef < a.slotRef ||
        b.slotRef - a.slotRef > a.slotCount || *per != 1)
      return std::nullopt;
    std::vector<AbstractValue> leaves;
    for (int k = a.slotRef; k < b.slotRef; ++k)
      leaves.push_back(at(k));
    return makeVector(int64_t(leaves.size()), std::move(leaves));
  }
  return std::nullopt;
}

// A call of a method of a modelled std::vector: its object, the leaves of
// one element, and what it is (a name, or an operator).
struct HostEvaluator::VectorCall {
  const Expr *object = nullptr;
  unsigned per = 1;
  bool op = false;
  OverloadedOperatorKind oo = OO_None;
  llvm::StringRef name;
};

std::optional<HostEvaluator::VectorCall>
HostEvaluator::vectorCall(const CallExpr *e) const {
  auto *md = dyn_cast_or_null<CXXMethodDecl>(e->getDirectCallee());
  if (!md || !isStdRecord(md->getFunctionObjectParameterType(), "vector"))
    return std::nullopt;
  VectorCall c;
  c.op = isa<CXXOperatorCallExpr>(e);
  c.object = c.op ? e->getArg(0)
                  : cast<CXXMemberCallExpr>(e)->getImplicitObjectArgument();
  std::optional<unsigned> per = vectorLeaves(c.object->getType());
  if (!per)
    return std::nullopt;
  c.per = *per;
  c.oo = md->getOverloadedOperator();
  c.name = md->getIdentifier() ? md->getName() : "";
  return c;
}

std::optional<AbstractValue> HostEvaluator::evalStdVector(const CallExpr *e) {
  std::optional<VectorCall> call = vectorCall(e);
  if (!call)
    return std::nullopt;
  const Expr *object = call->object;
  const unsigned per = call->per;
  const bool op = call->op;
  unsigned first = op ? 1 : 0; // the arguments after the object
  unsigned nargs = e->getNumArgs() - first;
  auto arg = [&](unsigned k) { return e->getArg(first + k); };
  const OverloadedOperatorKind oo = call->oo;
  const llvm::StringRef n = call->name;
  LValue lv = lvalueOf(object);
  AbstractValue v = validSlot(lv.slot) ? at(lv.slot) : eval(object);
  QualType rt = e->getType().getNonReferenceType().getCanonicalType();
  auto unknown = [&](const std::string &what) {
    for (unsigned k = 0; k < nargs; ++k)
      eval(arg(k));
    return AbstractValue::unknown("result of " + describe(e, e->getExprLoc()) +
                                  " (" + what + ")");
  };
  if (v.vectorSize < 0) {
    std::string why = v.why();
    return unknown(why.empty() ? "a std::vector not known"
                               : "a std::vector not known: " + why);
  }
  const int64_t size = v.vectorSize;
  auto replace = [&](AbstractValue nv) {
    if (validSlot(lv.slot))
      at(lv.slot) = std::move(nv);
  };
  if (n == "size" || n == "capacity" || n == "empty") {
    int64_t r = n == "empty" ? size == 0
                : n == "capacity" && vectorTracked(v, per)
                    ? std::max<int64_t>(size, v.slotCount / per)
                    : size;
    return AbstractValue::of(normalizeInt(r, rt));
  }
  if (n == "data" || n == "begin" || n == "end" || n == "cbegin" ||
      n == "cend") {
    if (!vectorTracked(v, per))
      return AbstractValue::of(HostValue::hostPtr());
    AbstractValue p;
    bool end = n == "end" || n == "cend";
    p.slotRef = v.slotRef + int(end ? size * per : 0);
    p.slotCount = int(end ? 0 : size * per);
    return p;
  }
  if (oo == OO_Subscript || n == "at" || n == "front" || n == "back") {
    if (std::optional<LValue> el = lvalueOfVectorElement(e);
        el && validSlot(el->slot))
      return el->leaves ? loadObject(el->slot, el->leaves) : at(el->slot);
    return unknown("an element not tracked");
  }
  if (oo == OO_Equal && nargs == 1) { // a copy of the other's elements
    AbstractValue from = eval(arg(0));
    if (from.vectorSize < 0 || !isStdRecord(arg(0)->getType(), "vector")) {
      replace(AbstractValue::unknown(
          "assigned by " + describe(e, e->getExprLoc()) + ", not evaluated"));
      return AbstractValue::unknown("void");
    }
    replace(makeVector(from.vectorSize, vectorContents(from, per)));
    return AbstractValue::unknown("a std::vector");
  }
  // What changes the size keeps the first `keep` elements and appends
  // copies of `element`; the elements move to new slots when they no longer
  // fit (the old ones stay as they were).
  const bool tracked = vectorTracked(v, per) || size == 0;
  auto resized = [&](int64_t newSize, int64_t keep,
                     const std::vector<AbstractValue> &element) {
    std::vector<AbstractValue> contents = vectorContents(v, per);
    if (!tracked || uint64_t(newSize) * per > kMaxArray) {
      replace(makeVector(newSize, {}));
      return;
    }
    contents.resize(size_t(std::min(keep, newSize)) * per);
    while (contents.size() < size_t(newSize) * per)
      contents.insert(contents.end(), element.begin(), element.end());
    if (vectorTracked(v, per) && contents.size() <= size_t(v.slotCount)) {
      for (size_t k = 0; k < contents.size(); ++k)
        at(v.slotRef + int(k)) = contents[k];
      AbstractValue nv = v;
      nv.vectorSize = newSize;
      replace(nv);
      return;
    }
    replace(makeVector(newSize, std::move(contents)));
  };
  if ((n == "push_back" || n == "emplace_back") && nargs <= 1) {
    resized(size + 1, size,
            vectorElementFrom(object->getType(), nargs ? arg(0) : nullptr));
    return AbstractValue::unknown("void");
  }
  if (n == "pop_back" && size > 0) {
    resized(size - 1, size - 1, {});
    return AbstractValue::unknown("void");
  }
  if (n == "clear") {
    resized(0, 0, {});
    return AbstractValue::unknown("void");
  }
  if ((n == "resize" || n == "assign") && nargs >= 1 && nargs <= 2 &&
      arg(0)->getType()->isIntegerType()) {
    HostValue count = eval(arg(0)).scalar;
    std::vector<AbstractValue> element =
        vectorElementFrom(object->getType(), nargs == 2 ? arg(1) : nullptr);
    if (count.kind != HostValue::Kind::Int || count.i < 0) {
      replace(AbstractValue::unknown("resized by " +
                                     describe(e, e->getExprLoc()) +
                                     " to a size not known"));
      return AbstractValue::unknown("void");
    }
    resized(count.i, n == "assign" ? 0 : size, element);
    return AbstractValue::unknown("void");
  }
  if ((n == "reserve" || n == "shrink_to_fit") && nargs <= 1) {
    if (nargs)
      eval(arg(0));
    return AbstractValue::unknown("void");
  }
  // Anything else (insert, erase, swap, ...) forgets the vector.
  replace(AbstractValue::unknown("changed by " + describe(e, e->getExprLoc()) +
                                 ", which is not evaluated"));
  return unknown("not evaluated");
}

std::optional<LValue> HostEvaluator::lvalueOfVectorElement(const CallExpr *e) {
  std::optional<VectorCall> call = vectorCall(e);
  const llvm::StringRef n = call ? call->name : "";
  if (!call ||
      !(call->oo == OO_Subscript || n == "at" || n == "front" || n == "back"))
    return std::nullopt;
  const Expr *object = call->object;
  const unsigned per = call->per;
  const bool op = call->op;
  AbstractValue v = eval(object);
  int64_t index = n == "front" ? 0 : n == "back" ? v.vectorSize - 1 : -1;
  if (index < 0 && e->getNumArgs() == (op ? 2u : 1u)) {
    HostValue i = eval(e->getArg(op ? 1 : 0)).scalar;
    if (i.kind == HostValue::Kind::Int)
      index = i.i;
  }
  if (!vectorTracked(v, per) || index < 0 || index >= v.vectorSize)
    return LValue{}; // not tracked (or out of range: not a value to know)
  LValue lv;
  lv.slot = v.slotRef + int(index * per);
  if (per > 1 || objectLeaves(vectorElement(object->getType())))
    lv.count = lv.leaves = int(per);
  return lv;
}

std::optional<std::vector<int>> HostEvaluator::vectorSlots(const Expr *range,
                                                           int &per) {
  std::optional<unsigned> leaves = vectorLeaves(range->getType());
  if (!leaves || *leaves == 0)
    return std::nullopt;
  per = int(*leaves); // an element of objects (pairs, structs): its leaves
  AbstractValue v = eval(range);
  if (v.vectorSize < 0 || (!vectorTracked(v, *leaves) && v.vectorSize > 0))
    return std::nullopt;
  std::vector<int> slots;
  for (int64_t k = 0; k < v.vectorSize; ++k)
    slots.push_back(v.slotRef + int(k) * per);
  return slots;
}

} // namespace kcheck::analyzer
