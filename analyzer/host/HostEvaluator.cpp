// HostEvaluator, part 1: values, locations and expression dispatch. The
// other parts: storage (HostEvaluatorStorage.cpp), arithmetic and operators
// (HostEvaluatorArith.cpp), statements (HostEvaluatorStmt.cpp) and loops
// (HostEvaluatorLoops.cpp), what a statement changes
// (HostEvaluatorEffects.cpp), calls and the CUDA runtime
// (HostEvaluatorCalls.cpp), library functions (HostEvaluatorLibrary.cpp) and
// the program's arguments (HostEvaluatorArguments.cpp), structs and arrays
// (HostEvaluatorObjects.cpp).
#include "analyzer/host/HostEvaluator.h"

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
      closure != o.closure || optional != o.optional ||
      vectorSize != o.vectorSize || funcAttributes != o.funcAttributes ||
      dim.has_value() != o.dim.has_value())
    return false;
  if (dim)
    for (int k = 0; k < 3; ++k)
      if (!(*dim)[k].sameValue((*o.dim)[k]))
        return false;
  if (bool(leaves) != bool(o.leaves) || bool(text) != bool(o.text) ||
      (text && *text != *o.text))
    return false;
  if (leaves) {
    if (leaves->size() != o.leaves->size())
      return false;
    for (size_t k = 0; k < leaves->size(); ++k)
      if (!(*leaves)[k].same((*o.leaves)[k]))
        return false;
  }
  return scalar.sameValue(o.scalar);
}

std::string AbstractValue::why() const {
  if (dim) {
    for (const HostValue &c : *dim)
      if (!c.known())
        return c.why;
    return "";
  }
  if (slotRef >= 0 || scalar.known() || function || leaves || text)
    return "";
  return scalar.why;
}

HostEvaluator::HostEvaluator(ASTContext &ctx, HostProgram &program,
                             const ExtractorOptions &options,
                             LaunchHandler onLaunch)
    : ctx_(ctx), program_(program), options_(options),
      onLaunch_(std::move(onLaunch)), mangler_(ctx.createMangleContext()) {}

std::string kernelMangledName(MangleContext &mangler, const FunctionDecl *fd) {
  if (!mangler.shouldMangleDeclName(fd))
    return fd->getNameAsString();
  std::string s;
  llvm::raw_string_ostream os(s);
  // The kernel itself, as the device-side IR names it; in a host-side parse
  // GlobalDecl would default to the host stub (__device_stub__...).
  if (fd->hasAttr<CUDAGlobalAttr>())
    mangler.mangleName(GlobalDecl(fd, KernelReferenceKind::Kernel), os);
  else
    mangler.mangleName(GlobalDecl(fd), os);
  return s;
}

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
  return llvm::sys::path::filename(s.file).str() + ":" + std::to_string(s.line);
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
  if (budgetNote_.empty()) // added at the end: no rollback may drop it
    budgetNote_ =
        "host-code evaluation budget of " + std::to_string(options_.maxSteps) +
        " steps spent at " + where(l) +
        ": from there on, loops are not run and calls are not entered";
  return false;
}

// ---------------------------------------------------------------------------
// Expressions.

AbstractValue HostEvaluator::eval(const Expr *e) {
  if (!e)
    return AbstractValue::unknown("missing expression");
  tick();
  if (stackLow())
    return AbstractValue::unknown("host code nested too deeply at " +
                                  where(e->getExprLoc()));
  if (e->isValueDependent() || e->isTypeDependent() || e->containsErrors())
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

// Parentheses, temporaries, default arguments and substitutions: the
// expression they stand for (which may be null: eval says so); nullopt for
// any other expression.
static std::optional<const Expr *> wrappedExpr(const Expr *e) {
  switch (e->getStmtClass()) {
  case Stmt::ParenExprClass:
    return cast<ParenExpr>(e)->getSubExpr();
  case Stmt::ExprWithCleanupsClass:
    return cast<ExprWithCleanups>(e)->getSubExpr();
  case Stmt::MaterializeTemporaryExprClass:
    return cast<MaterializeTemporaryExpr>(e)->getSubExpr();
  case Stmt::CXXBindTemporaryExprClass:
    return cast<CXXBindTemporaryExpr>(e)->getSubExpr();
  case Stmt::CXXDefaultArgExprClass:
    return cast<CXXDefaultArgExpr>(e)->getExpr();
  case Stmt::CXXDefaultInitExprClass:
    return cast<CXXDefaultInitExpr>(e)->getExpr();
  case Stmt::SubstNonTypeTemplateParmExprClass:
    return cast<SubstNonTypeTemplateParmExpr>(e)->getReplacement();
  case Stmt::OpaqueValueExprClass:
    return cast<OpaqueValueExpr>(e)->getSourceExpr();
  default:
    return std::nullopt;
  }
}

// The value of a literal; nullopt for any other expression.
std::optional<AbstractValue> HostEvaluator::literalValue(const Expr *e) const {
  switch (e->getStmtClass()) {
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
  case Stmt::StringLiteralClass: {
    AbstractValue v = AbstractValue::of(HostValue::hostPtr());
    auto *sl = cast<StringLiteral>(e);
    if (sl->getCharByteWidth() == 1)
      v.text = std::make_shared<const std::string>(sl->getString().str());
    return v;
  }
  default:
    return std::nullopt;
  }
}

AbstractValue HostEvaluator::evalUncached(const Expr *e) {
  auto unknownHere = [&](const std::string &what) {
    return AbstractValue::unknown(describe(e, e->getExprLoc()) + ": " + what);
  };
  if (std::optional<const Expr *> inner = wrappedExpr(e))
    return eval(*inner);
  if (std::optional<AbstractValue> v = literalValue(e))
    return *v;
  switch (e->getStmtClass()) {
  case Stmt::ConstantExprClass: {
    auto *ce = cast<ConstantExpr>(e);
    if (ce->hasAPValueResult()) {
      HostValue v = fromAPValue(ce->getAPValueResult());
      if (v.known())
        return AbstractValue::of(v);
    }
    return eval(ce->getSubExpr());
  }
  case Stmt::CXXNewExprClass:
    return evalNew(cast<CXXNewExpr>(e));
  case Stmt::DeclRefExprClass:
    return evalDeclRef(cast<DeclRefExpr>(e));
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
  case Stmt::ConditionalOperatorClass:
    return evalConditional(cast<ConditionalOperator>(e));
  case Stmt::CallExprClass:
  case Stmt::CUDAKernelCallExprClass:
  case Stmt::CXXMemberCallExprClass:
  case Stmt::CXXOperatorCallExprClass:
    return evalCall(cast<CallExpr>(e));
  case Stmt::CXXConstructExprClass:
  case Stmt::CXXTemporaryObjectExprClass:
    return evalConstruct(cast<CXXConstructExpr>(e));
  case Stmt::CXXThrowExprClass: // not caught: kcheck does not model handlers
    eval(cast<CXXThrowExpr>(e)->getSubExpr());
    recordStop(e, "an exception thrown");
    exitRequested_ = true;
    return unknownHere("throws");
  case Stmt::CXXThisExprClass:
    return evalThis(e);
  case Stmt::InitListExprClass:
    return evalInitList(cast<InitListExpr>(e));
  case Stmt::MemberExprClass:
    return evalMember(cast<MemberExpr>(e));
  case Stmt::ArraySubscriptExprClass:
    return evalSubscript(cast<ArraySubscriptExpr>(e));
  case Stmt::LambdaExprClass: {
    AbstractValue v = unknownHere("a lambda");
    v.closure = frames_.back().serial;
    return v;
  }
  default:
    return unknownHere("not modelled");
  }
}

AbstractValue HostEvaluator::evalConditional(const ConditionalOperator *co) {
  auto unknownHere = [&](const std::string &what) {
    return AbstractValue::unknown(describe(co, co->getExprLoc()) + ": " + what);
  };
  HostValue cond = eval(co->getCond()).scalar;
  if (std::optional<bool> c = truth(cond))
    return eval(*c ? co->getTrueExpr() : co->getFalseExpr());
  // Both arms; the program exits only if both do (`ok ? x : abort()`).
  bool exitBefore = exitRequested_;
  ++speculative_;
  AbstractValue a = eval(co->getTrueExpr());
  bool exitA = exitRequested_;
  exitRequested_ = exitBefore;
  AbstractValue b = eval(co->getFalseExpr());
  --speculative_;
  exitRequested_ = exitBefore || (exitA && exitRequested_);
  if (a.same(b))
    return a;
  return unknownHere("its condition could not be evaluated (" + cond.why + ")");
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
    if ((v.kind == HostValue::Kind::Int && v.i == 0) ||
        v.kind == HostValue::Kind::DevicePtr) // back from uintptr_t
      return AbstractValue::of(v);
    return AbstractValue::unknown("integer used as a pointer at " +
                                  where(e->getExprLoc()));
  }
  case CK_PointerToIntegral: {
    // A device address as a 64-bit integer keeps its allocation and offset
    // (deviceAddressArith), to be cast back.
    HostValue v = eval(sub).scalar;
    if (v.kind == HostValue::Kind::DevicePtr &&
        ctx_.getIntWidth(to.getCanonicalType()) == 64)
      return AbstractValue::of(v);
    return AbstractValue::unknown("pointer used as an integer at " +
                                  where(e->getExprLoc()));
  }
  case CK_ArrayToPointerDecay:
    return evalArrayDecay(sub);
  case CK_ToVoid:
    eval(sub);
    return AbstractValue::unknown("void");
  case CK_BaseToDerived: // CRTP: `static_cast<Derived *>(this)`
    return evalBaseToDerived(e);
  case CK_LValueBitCast: // the same bits as another type (lvalueOf says when)
    if (LValue lv = lvalueOf(e); validSlot(lv.slot))
      return load(lv);
    return eval(sub);
  default: // NoOp, LValueToRValue, BitCast, constructor conversions, ...
    return eval(sub);
  }
}

// An array as a pointer to its first element (its slots, when tracked).
AbstractValue HostEvaluator::evalArrayDecay(const Expr *sub) {
  if (isa<StringLiteral>(sub->IgnoreParens()))
    return eval(sub); // a host pointer that knows its characters
  LValue lv = lvalueOf(sub);
  if (validSlot(lv.slot) && lv.count > 0) {
    AbstractValue p;
    p.slotRef = lv.slot;
    p.slotCount = lv.count;
    return p;
  }
  return AbstractValue::of(HostValue::hostPtr());
}

AbstractValue HostEvaluator::evalBaseToDerived(const CastExpr *e) {
  const Expr *sub = e->getSubExpr();
  QualType to = e->getType();
  if (!to->isPointerType()) { // `static_cast<Derived &>(*this)`
    if (LValue lv = lvalueOf(e); validSlot(lv.slot))
      return load(lv);
    return eval(sub);
  }
  AbstractValue p = eval(sub);
  LValue lv = derivedObject(p.slotRef, e);
  if (!validSlot(lv.slot))
    return AbstractValue::unknown("a cast to a derived class at " +
                                  where(e->getExprLoc()));
  p.slotRef = lv.slot;
  p.slotCount = lv.count;
  return p;
}

AbstractValue HostEvaluator::evalConstruct(const CXXConstructExpr *e) {
  const CXXConstructorDecl *ctor = e->getConstructor();
  if (std::optional<AbstractValue> v = constructStdVector(e))
    return *v; // before the copy below: a vector's copy has its own slots
  if (ctor->isCopyOrMoveConstructor() && e->getNumArgs() >= 1)
    return eval(e->getArg(0));
  if (std::optional<AbstractValue> v = constructStdOptional(e))
    return *v;
  if (std::optional<AbstractValue> v = constructStdRandom(e))
    return *v;
  if (objectLeaves(e->getType()))
    return AbstractValue::object(initObject(e->getType(), e, false, text(e)));
  if (isStdRecord(e->getType(), "basic_string") && e->getNumArgs() >= 1) {
    // std::string from a literal: its characters (for ==, compare).
    AbstractValue from = eval(e->getArg(0));
    bool onlyDefaults = true; // (const char *, const Alloc & = Alloc())
    for (unsigned k = 1; k < e->getNumArgs(); ++k) {
      onlyDefaults &= isa<CXXDefaultArgExpr>(e->getArg(k));
      eval(e->getArg(k));
    }
    if (from.text && onlyDefaults) {
      AbstractValue v = AbstractValue::unknown("a std::string");
      v.text = from.text;
      return v;
    }
  }
  if (!isDim3(e->getType())) {
    for (const Expr *a : e->arguments())
      eval(a);
    return AbstractValue::unknown(
        "object of type `" + e->getType().getAsString() + "` is not tracked (" +
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
  if (objectLeaves(e->getType()))
    return AbstractValue::object(initObject(e->getType(), e, false, text(e)));
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
  if (auto *fd = dyn_cast<FieldDecl>(e->getMemberDecl());
      fd && base.leaves && !e->isArrow()) { // a field of an object value
    uint64_t k = fieldLeaf(fd), n = leafCount(fd->getType()).value_or(0);
    if (k + n <= base.leaves->size()) {
      if (aliasingReference(fd->getType())) {
        const AbstractValue &ref = (*base.leaves)[k];
        LValue lv = referentOf(ref, fd->getType());
        return validSlot(lv.slot) ? load(lv)
                                  : AbstractValue::unknown(ref.why());
      }
      if (!objectLeaves(fd->getType().getNonReferenceType()))
        return (*base.leaves)[k];
      return AbstractValue::object(std::vector<AbstractValue>(
          base.leaves->begin() + k, base.leaves->begin() + k + n));
    }
  }
  if (e->isArrow() && validSlot(base.slotRef))
    base = at(base.slotRef); // p->field with p == &object
  std::string field = e->getMemberDecl()->getNameAsString();
  if (base.dim) {
    int k = field == "x" ? 0 : field == "y" ? 1 : field == "z" ? 2 : -1;
    if (k >= 0)
      return AbstractValue::of((*base.dim)[k]);
  }
  if (base.funcAttributes)
    return funcAttribute(base.funcAttributes, field, e->getType());
  if (base.deviceProps) {
    if (std::optional<int64_t> v = deviceQuery(field, e->getExprLoc()))
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
                                          unsigned i, int leaves) const {
  if (array.slotRef < 0 || int(i) >= array.slotCount ||
      !validSlot(array.slotRef + int(i)))
    return AbstractValue::unknown("the argument array is not tracked");
  const AbstractValue &elem = at(array.slotRef + int(i));
  if (!validSlot(elem.slotRef))
    return AbstractValue::unknown("argument pointer " + std::to_string(i) +
                                  " is not tracked");
  if (leaves > 0 && elem.slotCount >= leaves)
    return loadObject(elem.slotRef, leaves);
  return at(elem.slotRef);
}

} // namespace kcheck::analyzer
