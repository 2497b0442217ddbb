// HostEvaluator, part 1: values, storage and expressions. Statements, loops and
// the library/CUDA-runtime models are in HostEvaluatorStmt.cpp.
#include "analyzer/HostEvaluator.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/Path.h"

#include <cmath>
#include <limits>

namespace kcheck::analyzer {

using namespace clang;

bool AbstractValue::same(const AbstractValue &o) const {
  if (slotRef != o.slotRef || slotCount != o.slotCount ||
      deviceProps != o.deviceProps || function != o.function ||
      dim.has_value() != o.dim.has_value())
    return false;
  if (dim)
    for (int k = 0; k < 3; ++k)
      if (!(*dim)[k].sameValue((*o.dim)[k]))
        return false;
  return scalar.sameValue(o.scalar);
}

std::string AbstractValue::why() const {
  if (dim) {
    for (const HostValue &c : *dim)
      if (!c.known())
        return c.why;
    return "";
  }
  if (slotRef >= 0 || scalar.known() || function)
    return "";
  return scalar.why;
}

HostEvaluator::HostEvaluator(ASTContext &ctx, HostProgram &program,
                             const ExtractorOptions &options,
                             LaunchHandler onLaunch)
    : ctx_(ctx), program_(program), options_(options),
      onLaunch_(std::move(onLaunch)) {}

// ---------------------------------------------------------------------------
// Locations and text.

core::SourceLoc HostEvaluator::sourceLoc(SourceLocation l) const {
  const SourceManager &sm = ctx_.getSourceManager();
  if (l.isInvalid())
    return {};
  PresumedLoc p = sm.getPresumedLoc(sm.getExpansionLoc(l));
  if (p.isInvalid())
    return {};
  return {p.getFilename(), p.getLine(), p.getColumn()};
}

std::string HostEvaluator::where(SourceLocation l) const {
  core::SourceLoc s = sourceLoc(l);
  if (!s.valid())
    return "<unknown location>";
  return llvm::sys::path::filename(s.file).str() + ":" +
         std::to_string(s.line);
}

std::string HostEvaluator::text(const Stmt *s) const {
  if (!s)
    return "";
  const SourceManager &sm = ctx_.getSourceManager();
  const LangOptions &lo = ctx_.getLangOpts();
  CharSourceRange r = CharSourceRange::getTokenRange(s->getSourceRange());
  CharSourceRange file = Lexer::makeFileCharRange(r, sm, lo);
  if (file.isInvalid()) // spans macro boundaries: show the expansion
    file = Lexer::makeFileCharRange(
        CharSourceRange::getTokenRange(
            sm.getExpansionRange(s->getSourceRange()).getAsRange()),
        sm, lo);
  std::string out;
  bool space = false;
  for (char c : Lexer::getSourceText(file, sm, lo)) {
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
      space = !out.empty();
      continue;
    }
    if (space)
      out += ' ';
    space = false;
    out += c;
  }
  if (out.size() > 80)
    out = out.substr(0, 77) + "...";
  return out.empty() ? "<expression>" : out;
}

std::string HostEvaluator::describe(const Stmt *s, SourceLocation l) const {
  std::string out = "`"; // appended, not `"`" + ...`: GCC 12 -Wrestrict
  out += text(s);
  out += "` at ";
  out += where(l);
  return out;
}

bool HostEvaluator::budgetLeft(SourceLocation l) {
  if (!exhausted())
    return true;
  if (!budgetNoted_) {
    budgetNoted_ = true;
    program_.notes.push_back(
        "host-code evaluation budget of " + std::to_string(options_.maxSteps) +
        " steps spent at " + where(l) +
        ": from there on, loops are not run and calls are not entered");
  }
  return false;
}

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
  AbstractValue &dst = at(lv.slot);
  if (lv.field < 0) {
    dst = std::move(v);
  } else if (dst.dim) {
    (*dst.dim)[lv.field] = v.scalar;
  }
}

int HostEvaluator::lookup(const VarDecl *vd) {
  for (int f = int(frames_.size()) - 1; f >= 0;) {
    auto it = frames_[f].vars.find(vd);
    if (it != frames_[f].vars.end())
      return it->second;
    f = frames_[f].parent;
  }
  auto it = globals_.find(vd);
  if (it != globals_.end())
    return it->second;
  if (!vd->hasGlobalStorage())
    return -1;
  // A global (or a static local not reached yet): its initial value.
  AbstractValue v = AbstractValue::unknown("global `" + vd->getNameAsString() +
                                           "` is not evaluated");
  if (const APValue *ap = vd->evaluateValue()) {
    if (ap->isInt())
      v = AbstractValue::of(normalizeInt(ap->getInt().getExtValue(),
                                         vd->getType()));
    else if (ap->isFloat())
      v = AbstractValue::of(
          HostValue::floating(ap->getFloat().convertToDouble()));
  } else if (vd->getInit() && !vd->getType()->isArrayType()) {
    v = eval(vd->getInit());
  }
  globalStore_.push_back(std::move(v));
  int slot = kGlobalBase + int(globalStore_.size() - 1);
  globals_[vd] = slot;
  return slot;
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

LValue HostEvaluator::lvalueOf(const Expr *e) {
  e = e->IgnoreParens();
  if (auto *ic = dyn_cast<ImplicitCastExpr>(e))
    if (ic->getCastKind() == CK_NoOp || ic->getCastKind() == CK_LValueToRValue)
      return lvalueOf(ic->getSubExpr());
  if (auto *dr = dyn_cast<DeclRefExpr>(e)) {
    auto *vd = dyn_cast<VarDecl>(dr->getDecl());
    if (!vd)
      return {};
    LValue lv;
    lv.slot = lookup(vd);
    if (auto *at = ctx_.getAsConstantArrayType(vd->getType()))
      lv.count = validSlot(lv.slot) && at->getZExtSize() <= kMaxArray &&
                         trackedElement(at->getElementType())
                     ? int(at->getZExtSize())
                     : 0;
    return lv;
  }
  if (auto *me = dyn_cast<MemberExpr>(e)) {
    LValue base;
    if (me->isArrow()) {
      AbstractValue p = eval(me->getBase());
      if (p.slotRef < 0)
        return {};
      base.slot = p.slotRef;
    } else {
      base = lvalueOf(me->getBase());
    }
    if (!validSlot(base.slot) || base.field >= 0 || !at(base.slot).dim)
      return {};
    llvm::StringRef n = me->getMemberDecl()->getName();
    base.field = n == "x" ? 0 : n == "y" ? 1 : n == "z" ? 2 : -1;
    return base.field >= 0 ? base : LValue{};
  }
  if (auto *as = dyn_cast<ArraySubscriptExpr>(e)) {
    AbstractValue base = eval(as->getBase());
    HostValue idx = eval(as->getIdx()).scalar;
    if (base.slotRef < 0 || idx.kind != HostValue::Kind::Int || idx.i < 0 ||
        idx.i >= base.slotCount)
      return {};
    LValue lv;
    lv.slot = base.slotRef + int(idx.i);
    return lv;
  }
  if (auto *uo = dyn_cast<UnaryOperator>(e)) {
    if (uo->getOpcode() != UO_Deref)
      return {};
    AbstractValue p = eval(uo->getSubExpr());
    if (p.slotRef < 0 || p.slotCount < 1)
      return {};
    LValue lv;
    lv.slot = p.slotRef;
    return lv;
  }
  return {};
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
    if (k < 0 || k > p.slotCount)
      return AbstractValue::unknown("pointer moved out of its array");
    AbstractValue r = p;
    r.slotRef += int(k);
    r.slotCount -= int(k);
    return r;
  }
  HostValue v = p.scalar;
  if (v.kind == HostValue::Kind::DevicePtr)
    v.offset += k * int64_t(pointeeSize(ptrType));
  else if (v.kind == HostValue::Kind::Int)
    v = HostValue::unknown("arithmetic on a null pointer");
  return AbstractValue::of(v);
}

HostValue HostEvaluator::arith(BinaryOperatorKind op, const HostValue &l,
                               const HostValue &r, QualType operandType,
                               QualType resultType, SourceLocation loc) {
  if (!l.known())
    return l;
  if (!r.known())
    return r;
  bool isCmp = BinaryOperator::isComparisonOp(op);
  if (l.kind == HostValue::Kind::Float || r.kind == HostValue::Kind::Float) {
    double a = l.kind == HostValue::Kind::Float ? l.f : double(l.i);
    double b = r.kind == HostValue::Kind::Float ? r.f : double(r.i);
    double res;
    switch (op) {
    case BO_Mul: res = a * b; break;
    case BO_Div: res = a / b; break;
    case BO_Add: res = a + b; break;
    case BO_Sub: res = a - b; break;
    case BO_LT: return HostValue::integer(a < b);
    case BO_GT: return HostValue::integer(a > b);
    case BO_LE: return HostValue::integer(a <= b);
    case BO_GE: return HostValue::integer(a >= b);
    case BO_EQ: return HostValue::integer(a == b);
    case BO_NE: return HostValue::integer(a != b);
    default:
      return HostValue::unknown("unsupported floating operation at " +
                                where(loc));
    }
    return convert(HostValue::floating(res), resultType, resultType);
  }
  if (l.kind != HostValue::Kind::Int || r.kind != HostValue::Kind::Int)
    return HostValue::unknown("pointer arithmetic not modelled at " +
                              where(loc));
  bool uns = isUnsignedType(operandType);
  uint64_t ua = uint64_t(l.i), ub = uint64_t(r.i);
  int64_t a = l.i, b = r.i;
  if (isCmp) {
    bool res = false;
    switch (op) {
    case BO_LT: res = uns ? ua < ub : a < b; break;
    case BO_GT: res = uns ? ua > ub : a > b; break;
    case BO_LE: res = uns ? ua <= ub : a <= b; break;
    case BO_GE: res = uns ? ua >= ub : a >= b; break;
    case BO_EQ: res = a == b; break;
    case BO_NE: res = a != b; break;
    default: break;
    }
    return HostValue::integer(res);
  }
  uint64_t res = 0;
  switch (op) {
  case BO_Mul: res = ua * ub; break;
  case BO_Add: res = ua + ub; break;
  case BO_Sub: res = ua - ub; break;
  case BO_And: res = ua & ub; break;
  case BO_Or: res = ua | ub; break;
  case BO_Xor: res = ua ^ ub; break;
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

// ---------------------------------------------------------------------------
// Expressions.

static HostValue fromAPValue(const APValue &v) {
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

AbstractValue HostEvaluator::eval(const Expr *e) {
  if (!e)
    return AbstractValue::unknown("missing expression");
  tick();
  if (e->isValueDependent() || e->isTypeDependent() ||
      e->containsErrors())
    return AbstractValue::unknown(describe(e, e->getExprLoc()) +
                                  " is not instantiated or has errors");
  // Clang's constant evaluator first: it knows constexpr, sizeof, templates.
  QualType t = e->getType();
  if (t->isIntegralOrEnumerationType() || t->isRealFloatingType()) {
    auto it = constCache_.find(e);
    if (it == constCache_.end()) {
      std::optional<HostValue> c;
      Expr::EvalResult r;
      if (e->EvaluateAsRValue(r, ctx_) && !r.HasSideEffects &&
          (r.Val.isInt() || r.Val.isFloat()))
        c = fromAPValue(r.Val);
      it = constCache_.try_emplace(e, c).first;
    }
    if (it->second)
      return AbstractValue::of(*it->second);
  }
  return evalUncached(e);
}

AbstractValue HostEvaluator::evalUncached(const Expr *e) {
  auto unknownHere = [&](const std::string &what) {
    return AbstractValue::unknown(describe(e, e->getExprLoc()) + ": " + what);
  };
  switch (e->getStmtClass()) {
  case Stmt::ParenExprClass:
    return eval(cast<ParenExpr>(e)->getSubExpr());
  case Stmt::ConstantExprClass: {
    auto *ce = cast<ConstantExpr>(e);
    if (ce->hasAPValueResult()) {
      HostValue v = fromAPValue(ce->getAPValueResult());
      if (v.known())
        return AbstractValue::of(v);
    }
    return eval(ce->getSubExpr());
  }
  case Stmt::ExprWithCleanupsClass:
    return eval(cast<ExprWithCleanups>(e)->getSubExpr());
  case Stmt::MaterializeTemporaryExprClass:
    return eval(cast<MaterializeTemporaryExpr>(e)->getSubExpr());
  case Stmt::CXXBindTemporaryExprClass:
    return eval(cast<CXXBindTemporaryExpr>(e)->getSubExpr());
  case Stmt::CXXDefaultArgExprClass:
    return eval(cast<CXXDefaultArgExpr>(e)->getExpr());
  case Stmt::CXXDefaultInitExprClass:
    return eval(cast<CXXDefaultInitExpr>(e)->getExpr());
  case Stmt::SubstNonTypeTemplateParmExprClass:
    return eval(cast<SubstNonTypeTemplateParmExpr>(e)->getReplacement());
  case Stmt::OpaqueValueExprClass:
    return eval(cast<OpaqueValueExpr>(e)->getSourceExpr());
  case Stmt::IntegerLiteralClass:
    return AbstractValue::of(normalizeInt(
        int64_t(cast<IntegerLiteral>(e)->getValue().getZExtValue()),
        e->getType()));
  case Stmt::CharacterLiteralClass:
    return AbstractValue::of(
        HostValue::integer(cast<CharacterLiteral>(e)->getValue()));
  case Stmt::CXXBoolLiteralExprClass:
    return AbstractValue::of(
        HostValue::integer(cast<CXXBoolLiteralExpr>(e)->getValue()));
  case Stmt::FloatingLiteralClass:
    return AbstractValue::of(HostValue::floating(
        cast<FloatingLiteral>(e)->getValueAsApproximateDouble()));
  case Stmt::CXXNullPtrLiteralExprClass:
  case Stmt::GNUNullExprClass:
    return AbstractValue::of(HostValue::integer(0));
  case Stmt::StringLiteralClass:
  case Stmt::CXXNewExprClass:
    return AbstractValue::of(HostValue::hostPtr());
  case Stmt::DeclRefExprClass: {
    const ValueDecl *d = cast<DeclRefExpr>(e)->getDecl();
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
  case Stmt::ImplicitCastExprClass:
  case Stmt::CStyleCastExprClass:
  case Stmt::CXXStaticCastExprClass:
  case Stmt::CXXFunctionalCastExprClass:
  case Stmt::CXXReinterpretCastExprClass:
  case Stmt::CXXConstCastExprClass:
    return evalCast(cast<CastExpr>(e));
  case Stmt::UnaryOperatorClass:
    return evalUnary(cast<UnaryOperator>(e));
  case Stmt::BinaryOperatorClass:
  case Stmt::CompoundAssignOperatorClass:
    return evalBinary(cast<BinaryOperator>(e));
  case Stmt::ConditionalOperatorClass: {
    auto *co = cast<ConditionalOperator>(e);
    std::optional<bool> c = truth(eval(co->getCond()).scalar);
    if (c)
      return eval(*c ? co->getTrueExpr() : co->getFalseExpr());
    AbstractValue a = eval(co->getTrueExpr()), b = eval(co->getFalseExpr());
    if (a.same(b))
      return a;
    return unknownHere("its condition could not be evaluated (" +
                       eval(co->getCond()).why() + ")");
  }
  case Stmt::CallExprClass:
  case Stmt::CUDAKernelCallExprClass:
  case Stmt::CXXMemberCallExprClass:
  case Stmt::CXXOperatorCallExprClass:
    return evalCall(cast<CallExpr>(e));
  case Stmt::CXXConstructExprClass:
  case Stmt::CXXTemporaryObjectExprClass:
    return evalConstruct(cast<CXXConstructExpr>(e));
  case Stmt::CXXThisExprClass:
    return unknownHere("members of objects are not tracked");
  case Stmt::InitListExprClass:
    return evalInitList(cast<InitListExpr>(e));
  case Stmt::MemberExprClass:
    return evalMember(cast<MemberExpr>(e));
  case Stmt::ArraySubscriptExprClass: {
    auto *as = cast<ArraySubscriptExpr>(e);
    LValue lv = lvalueOf(e);
    if (validSlot(lv.slot))
      return load(lv);
    AbstractValue base = eval(as->getBase());
    std::string why = base.why();
    if (!why.empty())
      return AbstractValue::unknown(why);
    return unknownHere(base.scalar.kind == HostValue::Kind::DevicePtr
                           ? "contents of device memory are not evaluated"
                           : "contents of host memory are not evaluated");
  }
  default:
    return unknownHere("not modelled");
  }
}

AbstractValue HostEvaluator::evalCast(const CastExpr *e) {
  const Expr *sub = e->getSubExpr();
  QualType to = e->getType();
  switch (e->getCastKind()) {
  case CK_IntegralCast:
  case CK_IntegralToBoolean:
  case CK_IntegralToFloating:
  case CK_FloatingToIntegral:
  case CK_FloatingCast:
  case CK_FloatingToBoolean:
  case CK_BooleanToSignedIntegral: {
    HostValue v = convert(eval(sub).scalar, sub->getType(), to);
    if (e->getCastKind() == CK_BooleanToSignedIntegral && v.known())
      v = normalizeInt(-v.i, to);
    return AbstractValue::of(v);
  }
  case CK_PointerToBoolean:
  case CK_MemberPointerToBoolean: {
    AbstractValue p = eval(sub);
    if (p.slotRef >= 0)
      return AbstractValue::of(HostValue::integer(1));
    return AbstractValue::of(convert(p.scalar, sub->getType(), to));
  }
  case CK_NullToPointer:
  case CK_NullToMemberPointer:
    return AbstractValue::of(HostValue::integer(0));
  case CK_IntegralToPointer: {
    HostValue v = eval(sub).scalar;
    if (v.kind == HostValue::Kind::Int && v.i == 0)
      return AbstractValue::of(v);
    return AbstractValue::unknown("integer used as a pointer at " +
                                  where(e->getExprLoc()));
  }
  case CK_PointerToIntegral:
    eval(sub);
    return AbstractValue::unknown("pointer used as an integer at " +
                                  where(e->getExprLoc()));
  case CK_ArrayToPointerDecay: {
    LValue lv = lvalueOf(sub);
    if (validSlot(lv.slot) && lv.count > 0) {
      AbstractValue p;
      p.slotRef = lv.slot;
      p.slotCount = lv.count;
      return p;
    }
    return AbstractValue::of(HostValue::hostPtr());
  }
  case CK_ToVoid:
    eval(sub);
    return AbstractValue::unknown("void");
  default: // NoOp, LValueToRValue, BitCast, constructor conversions, ...
    return eval(sub);
  }
}

AbstractValue HostEvaluator::evalUnary(const UnaryOperator *e) {
  const Expr *sub = e->getSubExpr();
  QualType t = e->getType();
  switch (e->getOpcode()) {
  case UO_AddrOf: {
    const Expr *s = sub->IgnoreParens();
    if (auto *as = dyn_cast<ArraySubscriptExpr>(s)) { // &p[k] == p + k
      AbstractValue base = eval(as->getBase());
      HostValue k = eval(as->getIdx()).scalar;
      if (k.kind != HostValue::Kind::Int)
        return AbstractValue::of(k);
      return addToPointer(base, k.i, as->getBase()->getType());
    }
    if (auto *dr = dyn_cast<DeclRefExpr>(s); dr && isa<FunctionDecl>(dr->getDecl()))
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
  case UO_Deref: {
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
  case UO_PostDec: {
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
  default:
    return AbstractValue::unknown(describe(e, e->getExprLoc()) + " is not modelled");
  }
}

AbstractValue HostEvaluator::evalBinary(const BinaryOperator *e) {
  BinaryOperatorKind op = e->getOpcode();
  const Expr *lhs = e->getLHS(), *rhs = e->getRHS();
  if (op == BO_Comma) {
    eval(lhs);
    return eval(rhs);
  }
  if (op == BO_LAnd || op == BO_LOr) {
    bool shortValue = op == BO_LOr; // the value that decides alone
    HostValue l = eval(lhs).scalar;
    std::optional<bool> lb = truth(l);
    if (lb && *lb == shortValue)
      return AbstractValue::of(HostValue::integer(shortValue));
    HostValue r = eval(rhs).scalar;
    std::optional<bool> rb = truth(r);
    if (rb && (lb || *rb == shortValue))
      return AbstractValue::of(HostValue::integer(*rb));
    return AbstractValue::of(lb ? r : l);
  }
  if (op == BO_Assign) {
    AbstractValue v = eval(rhs);
    LValue lv = lvalueOf(lhs);
    storeTo(lv, v);
    if (auto *dr = dyn_cast<DeclRefExpr>(lhs->IgnoreParens()))
      if (auto *vd = dyn_cast<VarDecl>(dr->getDecl()))
        nameAllocation(v, vd, e->getExprLoc());
    return v;
  }
  if (auto *ca = dyn_cast<CompoundAssignOperator>(e)) {
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
  QualType lt = lhs->getType(), rt = rhs->getType();
  if (lt->isPointerType() || rt->isPointerType()) {
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
      return AbstractValue::of(HostValue::integer(
          (a.offset - b.offset) / int64_t(pointeeSize(lt))));
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
      return AbstractValue::of(arith(op, HostValue::integer(a.offset),
                                     HostValue::integer(b.offset),
                                     ctx_.LongLongTy, e->getType(),
                                     e->getExprLoc()));
    return AbstractValue::unknown("pointer comparison `" + text(e) +
                                  "` at " + where(e->getExprLoc()));
  }
  HostValue l = eval(lhs).scalar;
  HostValue r = eval(rhs).scalar;
  return AbstractValue::of(
      arith(op, l, r, lhs->getType(), e->getType(), e->getExprLoc()));
}

AbstractValue HostEvaluator::evalConstruct(const CXXConstructExpr *e) {
  const CXXConstructorDecl *ctor = e->getConstructor();
  if (ctor->isCopyOrMoveConstructor() && e->getNumArgs() >= 1)
    return eval(e->getArg(0));
  if (!isDim3(e->getType())) {
    for (const Expr *a : e->arguments())
      eval(a);
    return AbstractValue::unknown("object of type `" +
                                  e->getType().getAsString() +
                                  "` is not tracked (" +
                                  where(e->getExprLoc()) + ")");
  }
  std::array<HostValue, 3> d = {HostValue::integer(1), HostValue::integer(1),
                                HostValue::integer(1)};
  if (e->getNumArgs() == 1 && isDim3(e->getArg(0)->getType())) {
    AbstractValue v = eval(e->getArg(0)); // dim3(uint3)
    if (v.dim)
      return v;
    return AbstractValue::unknown(v.why());
  }
  for (unsigned k = 0; k < e->getNumArgs() && k < 3; ++k)
    d[k] = eval(e->getArg(k)).scalar;
  AbstractValue v;
  v.dim = d;
  return v;
}

AbstractValue HostEvaluator::evalInitList(const InitListExpr *e) {
  if (isDim3(e->getType())) {
    std::array<HostValue, 3> d = {HostValue::integer(1), HostValue::integer(1),
                                  HostValue::integer(1)};
    for (unsigned k = 0; k < e->getNumInits() && k < 3; ++k)
      d[k] = eval(e->getInit(k)).scalar;
    AbstractValue v;
    v.dim = d;
    return v;
  }
  if (e->getNumInits() == 1 && e->getType()->isScalarType())
    return eval(e->getInit(0));
  for (const Expr *i : e->inits())
    eval(i);
  return AbstractValue::unknown("initializer list `" + text(e) + "` at " +
                                where(e->getExprLoc()) + " is not tracked");
}

AbstractValue HostEvaluator::evalMember(const MemberExpr *e) {
  LValue lv = lvalueOf(e);
  if (validSlot(lv.slot))
    return load(lv);
  AbstractValue base = eval(e->getBase());
  std::string field = e->getMemberDecl()->getNameAsString();
  if (base.dim) {
    int k = field == "x" ? 0 : field == "y" ? 1 : field == "z" ? 2 : -1;
    if (k >= 0)
      return AbstractValue::of((*base.dim)[k]);
  }
  if (base.deviceProps) {
    if (options_.deviceQuery)
      if (std::optional<int64_t> v = options_.deviceQuery(field))
        return AbstractValue::of(normalizeInt(*v, e->getType()));
    return AbstractValue::unknown(base.scalar.why + " (field " + field + ")");
  }
  std::string why = base.why();
  if (!why.empty())
    return AbstractValue::unknown(why);
  return AbstractValue::unknown("field `" + text(e) + "` at " +
                                where(e->getExprLoc()) + " is not tracked");
}

std::optional<core::Dim3> HostEvaluator::toDim3(const AbstractValue &v) const {
  auto part = [](const HostValue &h) -> std::optional<uint32_t> {
    if (h.kind != HostValue::Kind::Int || h.i < 0 ||
        uint64_t(h.i) > std::numeric_limits<uint32_t>::max())
      return std::nullopt;
    return uint32_t(h.i);
  };
  if (v.dim) {
    auto x = part((*v.dim)[0]), y = part((*v.dim)[1]), z = part((*v.dim)[2]);
    if (!x || !y || !z)
      return std::nullopt;
    return core::Dim3{*x, *y, *z};
  }
  if (auto x = part(v.scalar))
    return core::Dim3{*x, 1, 1};
  return std::nullopt;
}

AbstractValue HostEvaluator::argumentSlot(const AbstractValue &array,
                                          unsigned i) const {
  if (array.slotRef < 0 || int(i) >= array.slotCount ||
      !validSlot(array.slotRef + int(i)))
    return AbstractValue::unknown("the argument array is not tracked");
  const AbstractValue &elem = at(array.slotRef + int(i));
  if (!validSlot(elem.slotRef))
    return AbstractValue::unknown("argument pointer " + std::to_string(i) +
                                  " is not tracked");
  return at(elem.slotRef);
}

} // namespace kcheck::analyzer
