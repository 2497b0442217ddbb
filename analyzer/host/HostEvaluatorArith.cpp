// HostEvaluator, part 2: C++ arithmetic on abstract values (widths,
// signedness, wraparound, conversions, pointer arithmetic) and the unary and
// binary operators.
#include "analyzer/host/HostEvaluator.h"

#include "clang/AST/ExprCXX.h"

#include <cmath>
#include <limits>

namespace kcheck::analyzer {

using namespace clang;

// ---------------------------------------------------------------------------
// Arithmetic.

HostValue HostEvaluator::normalizeInt(int64_t v, QualType t) const {
  t = t.getCanonicalType();
  if (t->isBooleanType())
    return HostValue::integer(v != 0);
  if (!t->isIntegralOrEnumerationType())
    return HostValue::integer(v);
  unsigned width = ctx_.getIntWidth(t);
  if (width >= 64)
    return HostValue::integer(v);
  uint64_t mask = (uint64_t(1) << width) - 1;
  uint64_t u = uint64_t(v) & mask;
  if (t->isSignedIntegerOrEnumerationType() && (u >> (width - 1)) & 1)
    u |= ~mask; // sign-extend
  return HostValue::integer(int64_t(u));
}

std::optional<bool> HostEvaluator::truth(const HostValue &v) const {
  switch (v.kind) {
  case HostValue::Kind::Int:
    return v.i != 0;
  case HostValue::Kind::Float:
    return v.f != 0;
  case HostValue::Kind::DevicePtr:
  case HostValue::Kind::HostPtr:
    return true; // allocations succeed
  default:
    return std::nullopt;
  }
}

static bool isUnsignedType(QualType t) {
  return t.getCanonicalType()->isUnsignedIntegerOrEnumerationType();
}

HostValue HostEvaluator::convert(const HostValue &v, QualType from,
                                 QualType to) const {
  if (!v.known())
    return v;
  to = to.getCanonicalType();
  if (to->isBooleanType()) {
    std::optional<bool> b = truth(v);
    return b ? HostValue::integer(*b) : HostValue::unknown("not a boolean");
  }
  if (to->isIntegralOrEnumerationType()) {
    if (v.kind == HostValue::Kind::Int)
      return normalizeInt(v.i, to);
    if (v.kind == HostValue::Kind::Float) {
      double t = std::trunc(v.f);
      if (!(std::fabs(t) < 9.2e18))
        return HostValue::unknown("floating value out of integer range");
      return normalizeInt(int64_t(t), to);
    }
    return HostValue::unknown("pointer value used as an integer");
  }
  if (to->isRealFloatingType()) {
    double d = v.f;
    if (v.kind == HostValue::Kind::Int)
      d = isUnsignedType(from) ? double(uint64_t(v.i)) : double(v.i);
    else if (v.kind != HostValue::Kind::Float)
      return HostValue::unknown("pointer value used as a number");
    if (ctx_.getTypeSize(to) == 32)
      d = double(float(d));
    return HostValue::floating(d);
  }
  return v;
}

uint64_t HostEvaluator::pointeeSize(QualType ptr) const {
  QualType p = ptr->getPointeeType();
  if (p.isNull() || p->isVoidType() || p->isIncompleteType() ||
      p->isFunctionType())
    return 1;
  return ctx_.getTypeSizeInChars(p).getQuantity();
}

AbstractValue HostEvaluator::addToPointer(const AbstractValue &p, int64_t k,
                                          QualType ptrType) const {
  if (p.slotRef >= 0) {
    // Elements that are objects span their leaves' slots.
    std::optional<uint64_t> object =
        ptrType->isPointerType() ? objectLeaves(ptrType->getPointeeType())
                                 : std::nullopt;
    int64_t step = k * (object ? int64_t(*object) : 1);
    if (step < 0 || step > p.slotCount)
      return AbstractValue::unknown("pointer moved out of its array");
    AbstractValue r = p;
    r.slotRef += int(step);
    r.slotCount -= int(step);
    return r;
  }
  HostValue v = p.scalar;
  if (v.kind == HostValue::Kind::DevicePtr)
    v.offset += k * int64_t(pointeeSize(ptrType));
  else if (v.kind == HostValue::Kind::Int)
    v = HostValue::unknown("arithmetic on a null pointer");
  return AbstractValue::of(v);
}

// A device pointer held as an integer (`reinterpret_cast<uintptr_t>(p)`):
// adding or subtracting an integer moves it, and masking off low bits below
// cudaMalloc's 256-byte alignment rounds its offset, because the base is a
// multiple of 256 (CUB's temporary storage: `(p + 255) & ~255`).
std::optional<HostValue>
HostEvaluator::deviceAddressArith(BinaryOperatorKind op, const HostValue &l,
                                  const HostValue &r) const {
  constexpr uint64_t kAllocationAlignment = 256;
  bool lp = l.kind == HostValue::Kind::DevicePtr,
       rp = r.kind == HostValue::Kind::DevicePtr;
  if (lp == rp)
    return std::nullopt;
  const HostValue &p = lp ? l : r, &n = lp ? r : l;
  if (n.kind != HostValue::Kind::Int)
    return std::nullopt;
  HostValue out = p;
  uint64_t k = uint64_t(n.i);
  switch (op) {
  case BO_Add:
    out.offset += int64_t(k);
    return out;
  case BO_Sub:
    if (!lp)
      return std::nullopt;
    out.offset -= int64_t(k);
    return out;
  case BO_And:
    if ((k | (kAllocationAlignment - 1)) != ~0ull)
      return std::nullopt;
    out.offset = int64_t(uint64_t(out.offset) & k);
    return out;
  default:
    return std::nullopt;
  }
}

// A comparison of integers (`uns`: as unsigned ones).
static bool intCompare(BinaryOperatorKind op, bool uns, uint64_t ua,
                       uint64_t ub, int64_t a, int64_t b) {
  bool res = false;
  switch (op) {
  case BO_LT:
    res = uns ? ua < ub : a < b;
    break;
  case BO_GT:
    res = uns ? ua > ub : a > b;
    break;
  case BO_LE:
    res = uns ? ua <= ub : a <= b;
    break;
  case BO_GE:
    res = uns ? ua >= ub : a >= b;
    break;
  case BO_EQ:
    res = a == b;
    break;
  case BO_NE:
    res = a != b;
    break;
  default:
    break;
  }
  return res;
}

HostValue HostEvaluator::arith(BinaryOperatorKind op, const HostValue &l,
                               const HostValue &r, QualType operandType,
                               QualType resultType, SourceLocation loc) {
  if (!l.known())
    return l;
  if (!r.known())
    return r;
  bool isCmp = BinaryOperator::isComparisonOp(op);
  if (l.kind == HostValue::Kind::Float || r.kind == HostValue::Kind::Float)
    return floatArith(op, l, r, resultType, loc);
  if (std::optional<HostValue> v = deviceAddressArith(op, l, r))
    return *v;
  if (l.kind != HostValue::Kind::Int || r.kind != HostValue::Kind::Int)
    return HostValue::unknown("pointer arithmetic not modelled at " +
                              where(loc));
  bool uns = isUnsignedType(operandType);
  uint64_t ua = uint64_t(l.i), ub = uint64_t(r.i);
  int64_t a = l.i, b = r.i;
  if (isCmp)
    return HostValue::integer(intCompare(op, uns, ua, ub, a, b));
  return intArith(op, uns, ua, ub, a, b, resultType, loc);
}

// A binary operation with a floating operand, in double.
HostValue HostEvaluator::floatArith(BinaryOperatorKind op, const HostValue &l,
                                    const HostValue &r, QualType resultType,
                                    SourceLocation loc) {
  double a = l.kind == HostValue::Kind::Float ? l.f : double(l.i);
  double b = r.kind == HostValue::Kind::Float ? r.f : double(r.i);
  double res;
  switch (op) {
  case BO_Mul:
    res = a * b;
    break;
  case BO_Div:
    res = a / b;
    break;
  case BO_Add:
    res = a + b;
    break;
  case BO_Sub:
    res = a - b;
    break;
  case BO_LT:
    return HostValue::integer(a < b);
  case BO_GT:
    return HostValue::integer(a > b);
  case BO_LE:
    return HostValue::integer(a <= b);
  case BO_GE:
    return HostValue::integer(a >= b);
  case BO_EQ:
    return HostValue::integer(a == b);
  case BO_NE:
    return HostValue::integer(a != b);
  default:
    return HostValue::unknown("unsupported floating operation at " +
                              where(loc));
  }
  return convert(HostValue::floating(res), resultType, resultType);
}

// An arithmetic or bitwise operation on integers, as the result type wraps.
HostValue HostEvaluator::intArith(BinaryOperatorKind op, bool uns, uint64_t ua,
                                  uint64_t ub, int64_t a, int64_t b,
                                  QualType resultType, SourceLocation loc) {
  uint64_t res = 0;
  switch (op) {
  case BO_Mul:
    res = ua * ub;
    break;
  case BO_Add:
    res = ua + ub;
    break;
  case BO_Sub:
    res = ua - ub;
    break;
  case BO_And:
    res = ua & ub;
    break;
  case BO_Or:
    res = ua | ub;
    break;
  case BO_Xor:
    res = ua ^ ub;
    break;
  case BO_Div:
  case BO_Rem:
    if (b == 0)
      return HostValue::unknown("division by zero at " + where(loc));
    if (uns)
      res = op == BO_Div ? ua / ub : ua % ub;
    else if (a == std::numeric_limits<int64_t>::min() && b == -1)
      return HostValue::unknown("division overflow at " + where(loc));
    else
      res = uint64_t(op == BO_Div ? a / b : a % b);
    break;
  case BO_Shl:
  case BO_Shr: {
    unsigned width = ctx_.getIntWidth(resultType.getCanonicalType());
    if (b < 0 || uint64_t(b) >= width)
      return HostValue::unknown("shift by " + std::to_string(b) +
                                " out of range at " + where(loc));
    if (op == BO_Shl)
      res = ua << b;
    else
      res = uns ? ua >> b : uint64_t(a >> b);
    break;
  }
  default:
    return HostValue::unknown("unsupported operation at " + where(loc));
  }
  return normalizeInt(int64_t(res), resultType);
}

AbstractValue HostEvaluator::evalUnary(const UnaryOperator *e) {
  const Expr *sub = e->getSubExpr();
  QualType t = e->getType();
  switch (e->getOpcode()) {
  case UO_AddrOf:
    return evalAddressOf(e);
  case UO_Deref: {
    // `(*f)(...)`: a function pointer dereferenced is the function itself.
    if (e->getType()->isFunctionType())
      return eval(sub);
    LValue lv = lvalueOf(e);
    if (validSlot(lv.slot))
      return load(lv);
    AbstractValue p = eval(sub);
    std::string why = p.why();
    return AbstractValue::unknown(
        !why.empty() ? why
                     : describe(e, e->getExprLoc()) +
                           ": memory contents are not evaluated");
  }
  case UO_Plus:
  case UO_Extension:
  case UO_Real:
    return eval(sub);
  case UO_Minus: {
    HostValue v = eval(sub).scalar;
    if (v.kind == HostValue::Kind::Float)
      return AbstractValue::of(convert(HostValue::floating(-v.f), t, t));
    if (v.kind == HostValue::Kind::Int)
      return AbstractValue::of(normalizeInt(int64_t(0 - uint64_t(v.i)), t));
    return AbstractValue::of(v);
  }
  case UO_Not: {
    HostValue v = eval(sub).scalar;
    if (v.kind == HostValue::Kind::Int)
      return AbstractValue::of(normalizeInt(~v.i, t));
    return AbstractValue::of(v);
  }
  case UO_LNot: {
    HostValue v = eval(sub).scalar;
    std::optional<bool> b = truth(v);
    return AbstractValue::of(b ? HostValue::integer(!*b) : v);
  }
  case UO_PreInc:
  case UO_PreDec:
  case UO_PostInc:
  case UO_PostDec:
    return evalIncDec(e);
  default:
    return AbstractValue::unknown(describe(e, e->getExprLoc()) +
                                  " is not modelled");
  }
}

// &x: a pointer to x's slots, when it has any.
AbstractValue HostEvaluator::evalAddressOf(const UnaryOperator *e) {
  const Expr *sub = e->getSubExpr();
  const Expr *s = sub->IgnoreParens();
  if (auto *as = dyn_cast<ArraySubscriptExpr>(s)) { // &p[k] == p + k
    AbstractValue base = eval(as->getBase());
    HostValue k = eval(as->getIdx()).scalar;
    if (k.kind != HostValue::Kind::Int)
      return AbstractValue::of(k);
    return addToPointer(base, k.i, as->getBase()->getType());
  }
  if (auto *dr = dyn_cast<DeclRefExpr>(s);
      dr && isa<FunctionDecl>(dr->getDecl()))
    return eval(s); // &function
  LValue lv = lvalueOf(s);
  if (!validSlot(lv.slot) || lv.field >= 0)
    return AbstractValue::unknown("address of " +
                                  describe(sub, e->getExprLoc()));
  AbstractValue p;
  p.slotRef = lv.slot;
  p.slotCount = lv.count > 0 ? lv.count : 1;
  return p;
}

// ++x, --x, x++, x--.
AbstractValue HostEvaluator::evalIncDec(const UnaryOperator *e) {
  const Expr *sub = e->getSubExpr();
  LValue lv = lvalueOf(sub);
  AbstractValue cur = validSlot(lv.slot) ? load(lv) : eval(sub);
  int64_t d = e->isIncrementOp() ? 1 : -1;
  QualType st = sub->getType();
  AbstractValue next;
  if (st->isPointerType())
    next = addToPointer(cur, d, st);
  else if (cur.scalar.kind == HostValue::Kind::Float)
    next = AbstractValue::of(
        convert(HostValue::floating(cur.scalar.f + double(d)), st, st));
  else if (cur.scalar.kind == HostValue::Kind::Int)
    next = AbstractValue::of(normalizeInt(cur.scalar.i + d, st));
  else
    next = cur;
  storeTo(lv, next);
  return e->isPrefix() ? next : cur;
}

AbstractValue HostEvaluator::evalBinary(const BinaryOperator *e) {
  BinaryOperatorKind op = e->getOpcode();
  const Expr *lhs = e->getLHS(), *rhs = e->getRHS();
  if (op == BO_Comma) {
    eval(lhs);
    return eval(rhs);
  }
  if (op == BO_LAnd || op == BO_LOr)
    return evalLogical(e);
  if (op == BO_Assign) {
    AbstractValue v = eval(rhs);
    LValue lv = lvalueOf(lhs);
    storeTo(lv, v);
    if (auto *dr = dyn_cast<DeclRefExpr>(lhs->IgnoreParens()))
      if (auto *vd = dyn_cast<VarDecl>(dr->getDecl()))
        nameAllocation(v, vd, e->getExprLoc());
    return v;
  }
  if (auto *ca = dyn_cast<CompoundAssignOperator>(e))
    return evalCompoundAssign(ca);
  QualType lt = lhs->getType(), rt = rhs->getType();
  if (lt->isPointerType() || rt->isPointerType())
    return evalPointerBinary(e);
  HostValue l = eval(lhs).scalar;
  HostValue r = eval(rhs).scalar;
  return AbstractValue::of(
      arith(op, l, r, lhs->getType(), e->getType(), e->getExprLoc()));
}

// && and ||, short-circuited when the left side decides.
AbstractValue HostEvaluator::evalLogical(const BinaryOperator *e) {
  BinaryOperatorKind op = e->getOpcode();
  const Expr *lhs = e->getLHS(), *rhs = e->getRHS();
  bool shortValue = op == BO_LOr; // the value that decides alone
  HostValue l = eval(lhs).scalar;
  std::optional<bool> lb = truth(l);
  if (lb && *lb == shortValue)
    return AbstractValue::of(HostValue::integer(shortValue));
  speculative_ += !lb;
  HostValue r = eval(rhs).scalar;
  speculative_ -= !lb;
  std::optional<bool> rb = truth(r);
  if (rb && (lb || *rb == shortValue))
    return AbstractValue::of(HostValue::integer(*rb));
  return AbstractValue::of(lb ? r : l);
}

AbstractValue
HostEvaluator::evalCompoundAssign(const CompoundAssignOperator *ca) {
  const BinaryOperator *e = ca;
  BinaryOperatorKind op = e->getOpcode();
  const Expr *lhs = e->getLHS(), *rhs = e->getRHS();
  AbstractValue r = eval(rhs);
  LValue lv = lvalueOf(lhs);
  AbstractValue cur = validSlot(lv.slot) ? load(lv) : eval(lhs);
  QualType lt = lhs->getType();
  BinaryOperatorKind bop = BinaryOperator::getOpForCompoundAssignment(op);
  AbstractValue res;
  if (lt->isPointerType()) {
    if (r.scalar.kind != HostValue::Kind::Int)
      res = AbstractValue::of(r.scalar);
    else
      res = addToPointer(cur, bop == BO_Add ? r.scalar.i : -r.scalar.i, lt);
  } else {
    QualType ct = ca->getComputationLHSType();
    QualType rt = ca->getComputationResultType();
    HostValue v = arith(bop, convert(cur.scalar, lt, ct), r.scalar, ct, rt,
                        e->getExprLoc());
    res = AbstractValue::of(convert(v, rt, lt));
  }
  storeTo(lv, res);
  return res;
}

// A binary operator with a pointer operand: pointer arithmetic, differences
// and comparisons.
AbstractValue HostEvaluator::evalPointerBinary(const BinaryOperator *e) {
  BinaryOperatorKind op = e->getOpcode();
  const Expr *lhs = e->getLHS(), *rhs = e->getRHS();
  QualType lt = lhs->getType(), rt = rhs->getType();
  AbstractValue l = eval(lhs), r = eval(rhs);
  if ((op == BO_Add || op == BO_Sub) && lt->isPointerType() &&
      !rt->isPointerType()) {
    if (r.scalar.kind != HostValue::Kind::Int)
      return AbstractValue::of(r.scalar);
    return addToPointer(l, op == BO_Add ? r.scalar.i : -r.scalar.i, lt);
  }
  if (op == BO_Add && rt->isPointerType()) {
    if (l.scalar.kind != HostValue::Kind::Int)
      return AbstractValue::of(l.scalar);
    return addToPointer(r, l.scalar.i, rt);
  }
  const HostValue &a = l.scalar, &b = r.scalar;
  bool bothDev = a.kind == HostValue::Kind::DevicePtr &&
                 b.kind == HostValue::Kind::DevicePtr &&
                 a.allocation == b.allocation;
  if (op == BO_Sub && bothDev)
    return AbstractValue::of(
        HostValue::integer((a.offset - b.offset) / int64_t(pointeeSize(lt))));
  if (op == BO_EQ || op == BO_NE) {
    bool aNull = a.kind == HostValue::Kind::Int && a.i == 0 && l.slotRef < 0;
    bool bNull = b.kind == HostValue::Kind::Int && b.i == 0 && r.slotRef < 0;
    std::optional<bool> eq;
    if (bothDev)
      eq = a.offset == b.offset;
    else if (aNull && bNull)
      eq = true;
    else if ((aNull && (truth(b) || r.slotRef >= 0)) ||
             (bNull && (truth(a) || l.slotRef >= 0)))
      eq = false; // a successful allocation is never null
    else if (l.slotRef >= 0 && r.slotRef >= 0)
      eq = l.slotRef == r.slotRef;
    if (eq)
      return AbstractValue::of(HostValue::integer(*eq == (op == BO_EQ)));
  }
  if (bothDev && BinaryOperator::isRelationalOp(op))
    return AbstractValue::of(
        arith(op, HostValue::integer(a.offset), HostValue::integer(b.offset),
              ctx_.LongLongTy, e->getType(), e->getExprLoc()));
  return AbstractValue::unknown("pointer comparison `" + text(e) + "` at " +
                                where(e->getExprLoc()));
}

} // namespace kcheck::analyzer
