// HostEvaluator: the C and C++ library functions host code computes
// launch sizes with, modelled by name (the program's arguments, read by the
// usual conversions, in HostEvaluatorArguments.cpp).
#include "analyzer/host/HostEvaluator.h"

#include "core/Float16.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

#include <cmath>
#include <cstdio>

namespace kcheck::analyzer {

using namespace clang;

bool isStdRecord(QualType t, llvm::StringRef name) {
  const CXXRecordDecl *rd = t.getNonReferenceType()->getAsCXXRecordDecl();
  return rd && rd->isInStdNamespace() && rd->getIdentifier() &&
         rd->getName() == name;
}

// The toolkit's half and bfloat16 conversions (cuda_fp16.h, cuda_bf16.h),
// which host code uses for a kernel's scalar arguments (CUTLASS's
// `half_t(1.0f)`): round to nearest even, as the device's cvt.rn does
// (core/Float16.h). A __half or __nv_bfloat16 is an object of one 16-bit leaf.
std::optional<AbstractValue>
HostEvaluator::evalHalfConversion(const CallExpr *e, llvm::StringRef n) {
  if (e->getNumArgs() != 1)
    return std::nullopt;
  QualType rt = e->getType().getNonReferenceType().getCanonicalType();
  const Expr *arg = e->getArg(0);
  bool toHalf =
      n == "__float2half" || n == "__float2half_rn" || n == "__double2half";
  bool toBf16 = n == "__float2bfloat16" || n == "__float2bfloat16_rn" ||
                n == "__double2bfloat16";
  if (toHalf || toBf16) {
    std::optional<uint64_t> leaves = objectLeaves(rt);
    if (!leaves || *leaves != 1)
      return std::nullopt;
    HostValue x = convert(eval(arg).scalar, arg->getType(), ctx_.DoubleTy);
    if (!x.known())
      return AbstractValue::object({AbstractValue::of(x)});
    // The float overloads round the float the argument was converted to.
    double v = n.starts_with("__double") ? x.f : double(float(x.f));
    uint16_t bits = toHalf ? halfFromDouble(v) : bfloat16FromDouble(v);
    return AbstractValue::object({AbstractValue::of(HostValue::integer(bits))});
  }
  bool fromHalf = n == "__half2float", fromBf16 = n == "__bfloat162float";
  if ((fromHalf || fromBf16) && rt->isRealFloatingType()) {
    AbstractValue h = eval(arg);
    if (!h.leaves || h.leaves->size() != 1)
      return std::nullopt;
    const HostValue &bits = h.leaves->front().scalar;
    if (bits.kind != HostValue::Kind::Int)
      return AbstractValue::of(bits);
    uint16_t b = uint16_t(bits.i);
    float f = fromHalf ? floatFromHalf(b) : floatFromBfloat16(b);
    return AbstractValue::of(HostValue::floating(double(f)));
  }
  return std::nullopt;
}

// std::optional<T> of a scalar T (a parameter defaulting to std::nullopt,
// `opt.value_or(1.f / std::sqrt(d))`): one slot holding the value and whether
// it is engaged. Other methods stay opaque calls (which forget the object).
static QualType optionalValueType(QualType t) {
  const auto *spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      t.getNonReferenceType()->getAsCXXRecordDecl());
  if (!spec || spec->getTemplateArgs().size() != 1 ||
      spec->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return {};
  return spec->getTemplateArgs()[0].getAsType();
}

// The optional<value> that `from` makes (constructs or is assigned).
AbstractValue HostEvaluator::optionalFrom(const Expr *from, QualType value) {
  if (isStdRecord(from->getType(), "optional"))
    return eval(from);
  AbstractValue v;
  if (isStdRecord(from->getType(), "nullopt_t")) {
    v = AbstractValue::unknown("an empty std::optional");
    v.optional = AbstractValue::Optional::Empty;
  } else {
    v = AbstractValue::of(convert(eval(from).scalar, from->getType(), value));
    v.optional = AbstractValue::Optional::Engaged;
  }
  return v;
}

std::optional<AbstractValue>
HostEvaluator::constructStdOptional(const CXXConstructExpr *e) {
  QualType value = optionalValueType(e->getType());
  if (!isStdRecord(e->getType(), "optional") || value.isNull() ||
      !value->isScalarType() || e->getNumArgs() > 1) // in_place: not modelled
    return std::nullopt;
  if (e->getNumArgs() == 1)
    return optionalFrom(e->getArg(0), value);
  AbstractValue v = AbstractValue::unknown("an empty std::optional");
  v.optional = AbstractValue::Optional::Empty;
  return v;
}

std::optional<AbstractValue> HostEvaluator::evalStdOptional(const CallExpr *e) {
  auto *md = dyn_cast_or_null<CXXMethodDecl>(e->getDirectCallee());
  if (!md || !isStdRecord(md->getFunctionObjectParameterType(), "optional"))
    return std::nullopt;
  bool op = isa<CXXOperatorCallExpr>(e);
  const Expr *object =
      op ? e->getArg(0)
         : cast<CXXMemberCallExpr>(e)->getImplicitObjectArgument();
  QualType value = optionalValueType(object->getType());
  if (value.isNull() || !value->isScalarType())
    return std::nullopt;
  // Operators and conversions have no identifier (getName() asserts).
  llvm::StringRef n = md->getIdentifier() ? md->getName() : "";
  auto *conversion = dyn_cast<CXXConversionDecl>(md);
  if (op && md->getOverloadedOperator() == OO_Equal && e->getNumArgs() == 2) {
    LValue lv = lvalueOf(object);
    if (!validSlot(lv.slot))
      return std::nullopt;
    return at(lv.slot) = optionalFrom(e->getArg(1), value);
  }
  bool valueOr = n == "value_or" && e->getNumArgs() == 1;
  bool has = n == "has_value" ||
             (conversion && conversion->getConversionType()->isBooleanType());
  bool get = n == "value" || (op && md->getOverloadedOperator() == OO_Star);
  if (!valueOr && !has && !get)
    return std::nullopt;
  AbstractValue o = eval(object);
  if (o.optional == AbstractValue::Optional::Unknown) {
    for (unsigned k = op ? 1 : 0; k < e->getNumArgs(); ++k)
      eval(e->getArg(k));
    return AbstractValue::unknown("result of " + describe(e, e->getExprLoc()) +
                                  " (a std::optional not known)" +
                                  (o.why().empty() ? "" : ": " + o.why()));
  }
  bool engaged = o.optional == AbstractValue::Optional::Engaged;
  if (has)
    return AbstractValue::of(HostValue::integer(engaged));
  if (get) // the value of an empty one throws: not a launch size to know
    return engaged ? AbstractValue::of(o.scalar)
                   : AbstractValue::unknown("the value of an empty "
                                            "std::optional");
  const Expr *fallback = e->getArg(0);
  AbstractValue f = eval(fallback);
  return engaged
             ? AbstractValue::of(o.scalar)
             : AbstractValue::of(convert(f.scalar, fallback->getType(), value));
}

// ---------------------------------------------------------------------------
// C and C++ library functions host code computes launch sizes with.

std::optional<AbstractValue>
HostEvaluator::evalKnownFunction(const CallExpr *e, const std::string &name) {
  llvm::StringRef n(name);
  if (std::optional<AbstractValue> v = evalExitOrAllocation(e, name))
    return v;
  if (std::optional<AbstractValue> v = evalMemset(e, name))
    return v;
  if (std::optional<AbstractValue> v = evalMathFunction(e, name))
    return v;
  if (std::optional<AbstractValue> v = evalHalfConversion(e, n))
    return v;
  if (std::optional<AbstractValue> v = evalStdOptional(e))
    return v;
  if (std::optional<AbstractValue> v = evalStdVector(e))
    return v;
  if (std::optional<AbstractValue> v = evalOmpFunction(e, name))
    return v;
  if (std::optional<AbstractValue> v = evalStdRandom(e))
    return v;
  if (std::optional<AbstractValue> v = evalMakeVector(e, name))
    return v;
  if (std::optional<AbstractValue> v = evalStringFunction(e, name))
    return v;
  if (std::optional<AbstractValue> v = evalIteratorFunction(e, name))
    return v;
  return evalPow(e, name);
}

// memset(p, 0, n) over whole objects of the type `p` points to (an array's
// elements): their leaves are zero. Any other memset leaves what it writes
// unknown, as a call not evaluated does.
std::optional<AbstractValue>
HostEvaluator::evalMemset(const CallExpr *e, const std::string &name) {
  if (name != "memset" || e->getNumArgs() != 3)
    return std::nullopt;
  AbstractValue p = eval(e->getArg(0));
  HostValue c = eval(e->getArg(1)).scalar, n = eval(e->getArg(2)).scalar;
  QualType t = e->getArg(0)->IgnoreParenImpCasts()->getType();
  QualType object = t->isPointerType() ? t->getPointeeType()
                    : t->isArrayType() ? ctx_.getBaseElementType(t)
                                       : QualType();
  if (p.slotRef < 0)
    return p;
  std::optional<uint64_t> leaves;
  uint64_t size = 0;
  if (!object.isNull() && !object->isIncompleteType() &&
      !object->isVoidType() && !object->isDependentType()) {
    leaves = leafCount(object);
    size = uint64_t(ctx_.getTypeSizeInChars(object).getQuantity());
  }
  bool whole = c.kind == HostValue::Kind::Int && c.i == 0 &&
               n.kind == HostValue::Kind::Int && leaves && size &&
               uint64_t(n.i) % size == 0 &&
               uint64_t(n.i) / size * *leaves <= uint64_t(p.slotCount);
  uint64_t count = whole ? uint64_t(n.i) / size * *leaves
                         : uint64_t(std::max(p.slotCount, 0));
  AbstractValue v =
      whole ? AbstractValue::of(HostValue::integer(0))
            : AbstractValue::unknown("set by " + describe(e, e->getExprLoc()) +
                                     ", which is not evaluated");
  for (uint64_t k = 0; k < count && validSlot(p.slotRef + int(k)); ++k)
    at(p.slotRef + int(k)) = v;
  return p;
}

// exit() and its kin end the program; malloc, free & co. return a host
// pointer, or nothing.
std::optional<AbstractValue>
HostEvaluator::evalExitOrAllocation(const CallExpr *e,
                                    const std::string &name) {
  llvm::StringRef n(name);
  if (n == "exit" || n == "abort" || n == "_Exit" || n == "quick_exit" ||
      n == "terminate") {
    std::string what = "`" + name + "(";
    for (const Expr *a : e->arguments()) {
      HostValue v = eval(a).scalar;
      what += v.kind == HostValue::Kind::Int ? std::to_string(v.i) : text(a);
    }
    recordStop(e, what + ")` called");
    exitRequested_ = true;
    return AbstractValue::unknown("the program exits");
  }
  if (n == "malloc" || n == "calloc" || n == "realloc" ||
      n == "aligned_alloc" || n == "operator new" || n == "operator new[]") {
    for (const Expr *a : e->arguments())
      eval(a);
    return AbstractValue::of(HostValue::hostPtr());
  }
  if (n == "free" || n == "operator delete" || n == "operator delete[]") {
    for (const Expr *a : e->arguments())
      eval(a);
    return AbstractValue::unknown("void");
  }
  return std::nullopt;
}

// min/max and the one-argument math functions.
std::optional<AbstractValue>
HostEvaluator::evalMathFunction(const CallExpr *e, const std::string &name) {
  llvm::StringRef n(name);
  unsigned nargs = e->getNumArgs();
  QualType rt = e->getType().getNonReferenceType().getCanonicalType();
  bool minmax = n == "min" || n == "max" || n == "fmin" || n == "fmax" ||
                n == "fminf" || n == "fmaxf" || n == "umin" || n == "umax" ||
                n == "llmin" || n == "llmax";
  if (minmax && nargs == 2 && rt->isArithmeticType()) {
    HostValue a =
        convert(eval(e->getArg(0)).scalar, e->getArg(0)->getType(), rt);
    HostValue b =
        convert(eval(e->getArg(1)).scalar, e->getArg(1)->getType(), rt);
    if (!a.known())
      return AbstractValue::of(a);
    if (!b.known())
      return AbstractValue::of(b);
    HostValue lt = arith(BO_LT, a, b, rt, ctx_.IntTy, e->getExprLoc());
    bool isMin = n.ends_with("min") || n.ends_with("minf");
    return AbstractValue::of((lt.i != 0) == isMin ? a : b);
  }
  static const char *const math1[] = {
      "abs",    "labs",   "llabs",  "fabs",  "fabsf", "ceil",  "ceilf",
      "floor",  "floorf", "sqrt",   "sqrtf", "log2",  "log2f", "round",
      "roundf", "trunc",  "truncf", "exp2",  "exp2f", "sin",   "sinf",
      "cos",    "cosf",   "tan",    "tanf",  "exp",   "expf",  "log",
      "logf",   "log10",  "log10f", "rsqrt", "rsqrtf"};
  if (nargs == 1 && rt->isArithmeticType() && llvm::is_contained(math1, n)) {
    HostValue a = eval(e->getArg(0)).scalar;
    if (!a.known())
      return AbstractValue::of(a);
    bool isInt = a.kind == HostValue::Kind::Int;
    double x = isInt ? double(a.i) : a.f;
    if (n.contains("abs") && isInt && rt->isIntegerType())
      return AbstractValue::of(normalizeInt(a.i < 0 ? -a.i : a.i, rt));
    // The float flavours (sqrtf) computed in float, as the program does.
    bool f32 = n.ends_with("f") && !n.ends_with("abs");
    auto in = [&](double v) { return f32 ? double(float(v)) : v; };
    double r = n.starts_with("abs") || n.contains("fabs") ? std::fabs(x)
               : n.starts_with("ceil")                    ? std::ceil(x)
               : n.starts_with("floor")                   ? std::floor(x)
               : n.starts_with("sqrt")                    ? in(std::sqrt(x))
               : n.starts_with("rsqrt") ? in(1.0 / std::sqrt(x))
               : n.starts_with("log2")  ? in(std::log2(x))
               : n.starts_with("log10") ? in(std::log10(x))
               : n.starts_with("log")   ? in(std::log(x))
               : n.starts_with("round") ? std::round(x)
               : n.starts_with("trunc") ? std::trunc(x)
               : n.starts_with("sin")   ? in(std::sin(x))
               : n.starts_with("cos")   ? in(std::cos(x))
               : n.starts_with("tan")   ? in(std::tan(x))
               : n.starts_with("exp2")  ? in(std::exp2(x))
                                        : in(std::exp(x));
    return AbstractValue::of(
        convert(HostValue::floating(r), ctx_.DoubleTy, rt));
  }
  return std::nullopt;
}

std::optional<AbstractValue>
HostEvaluator::evalMakeVector(const CallExpr *e, const std::string &name) {
  llvm::StringRef n(name);
  unsigned nargs = e->getNumArgs();
  QualType rt = e->getType().getNonReferenceType().getCanonicalType();
  // make_int4(x, y, z, w) & co.: a vector type's fields in order.
  if (n.starts_with("make_") && rt->isRecordType()) {
    std::optional<uint64_t> leaves = objectLeaves(rt);
    const RecordDecl *rd = rt->getAsRecordDecl()->getDefinition();
    if (leaves && *leaves == nargs) {
      std::vector<AbstractValue> parts;
      unsigned k = 0;
      for (const FieldDecl *f : rd->fields()) {
        const Expr *a = e->getArg(k++);
        parts.push_back(AbstractValue::of(
            convert(eval(a).scalar, a->getType(), f->getType())));
      }
      return AbstractValue::object(std::move(parts));
    }
  }
  return std::nullopt;
}

std::optional<AbstractValue>
HostEvaluator::evalStringFunction(const CallExpr *e, const std::string &name) {
  llvm::StringRef n(name);
  unsigned nargs = e->getNumArgs();
  QualType rt = e->getType().getNonReferenceType().getCanonicalType();
  // Strings known to their characters (literals, argv, char arrays of known
  // chars): ==, !=, strcmp, strncmp; strcpy/strncpy into a tracked array.
  // The arguments are evaluated once: an unknown answer is returned here.
  auto textOf = [&](const AbstractValue &v) -> std::optional<std::string> {
    if (v.text)
      return *v.text;
    std::string out;
    for (int k = 0; v.slotRef >= 0 && k < v.slotCount; ++k) {
      const HostValue &c = at(v.slotRef + k).scalar;
      if (c.kind != HostValue::Kind::Int)
        return std::nullopt;
      if (c.i == 0)
        return out;
      out += char(c.i);
    }
    return std::nullopt; // not tracked, or no terminator inside the array
  };
  std::string unknownWhy =
      "result of " + describe(e, e->getExprLoc()) + " (a string not known)";
  if ((n == "strcpy" || n == "strncpy") && nargs >= 2) {
    AbstractValue dst = eval(e->getArg(0)), src = eval(e->getArg(1));
    HostValue limit = nargs > 2 ? eval(e->getArg(2)).scalar : HostValue();
    std::optional<std::string> t = textOf(src);
    int64_t max = n == "strncpy" && limit.kind == HostValue::Kind::Int
                      ? limit.i
                      : int64_t(dst.slotCount);
    for (int k = 0; dst.slotRef >= 0 && k < dst.slotCount && k < max; ++k)
      at(dst.slotRef + k) =
          t ? AbstractValue::of(HostValue::integer(
                  k < int(t->size()) ? (unsigned char)(*t)[size_t(k)] : 0))
            : AbstractValue::unknown("set by " + describe(e, e->getExprLoc()) +
                                     ", which is not evaluated");
    return dst;
  }
  bool compare = n == "operator==" || n == "operator!=" || n == "strcmp";
  if ((compare && nargs == 2) || (n == "strncmp" && nargs == 3)) {
    AbstractValue a = eval(e->getArg(0)), b = eval(e->getArg(1));
    std::optional<std::string> ta = textOf(a), tb = textOf(b);
    if (n == "strncmp") {
      HostValue len = eval(e->getArg(2)).scalar;
      if (len.kind != HostValue::Kind::Int || len.i < 0)
        return AbstractValue::unknown(unknownWhy);
      if (ta)
        ta = ta->substr(0, size_t(len.i));
      if (tb)
        tb = tb->substr(0, size_t(len.i));
    }
    if (!ta || !tb)
      return AbstractValue::unknown(unknownWhy);
    int c = ta->compare(*tb);
    int64_t r = n == "operator=="   ? c == 0
                : n == "operator!=" ? c != 0
                                    : (c > 0) - (c < 0);
    return AbstractValue::of(normalizeInt(r, rt));
  }
  return std::nullopt;
}

std::optional<AbstractValue>
HostEvaluator::evalIteratorFunction(const CallExpr *e,
                                    const std::string &name) {
  llvm::StringRef n(name);
  unsigned nargs = e->getNumArgs();
  // Iterators over tracked arrays are slot pointers: std::begin/end, and
  // the algorithms that copy or fill through them.
  if ((n == "begin" || n == "end") && nargs == 1 &&
      ctx_.getAsConstantArrayType(
          e->getArg(0)->getType().getNonReferenceType())) {
    LValue lv = lvalueOf(e->getArg(0));
    if (!validSlot(lv.slot) || lv.count <= 0)
      return AbstractValue::of(HostValue::hostPtr());
    AbstractValue p;
    p.slotRef = n == "begin" ? lv.slot : lv.slot + lv.count;
    p.slotCount = n == "begin" ? lv.count : 0;
    return p;
  }
  // copy(first, last, dest), copy_n(first, n, dest), fill(first, last, v),
  // fill_n(first, n, v) over tracked scalars.
  bool copy = n == "copy" || n == "copy_n", fill = n == "fill" || n == "fill_n";
  if ((copy || fill) && nargs == 3) {
    const Expr *target = copy ? e->getArg(2) : e->getArg(0);
    QualType tt = target->getType();
    if (!tt->isPointerType() || !tt->getPointeeType()->isScalarType())
      return std::nullopt; // not over scalars: an opaque call
    AbstractValue first = eval(e->getArg(0)), second = eval(e->getArg(1));
    AbstractValue third = eval(e->getArg(2));
    AbstractValue dst = copy ? third : first;
    if (dst.slotRef < 0)
      return std::nullopt;
    int64_t count = -1;
    if (n == "copy" || n == "fill") { // a range [first, second)
      if (first.slotRef >= 0 && second.slotRef >= first.slotRef)
        count = second.slotRef - first.slotRef;
    } else if (second.scalar.kind == HostValue::Kind::Int) {
      count = second.scalar.i;
    }
    bool ok = count >= 0 && count <= dst.slotCount &&
              (!copy || (first.slotRef >= 0 && count <= first.slotCount));
    std::vector<AbstractValue> values;
    for (int64_t k = 0; ok && k < count; ++k)
      values.push_back(copy ? at(first.slotRef + int(k)) : third);
    AbstractValue unknown = AbstractValue::unknown(
        "set by " + describe(e, e->getExprLoc()) + ", which is not evaluated");
    int64_t written = ok ? count : dst.slotCount;
    for (int64_t k = 0; k < written && validSlot(dst.slotRef + int(k)); ++k)
      at(dst.slotRef + int(k)) = ok ? values[k] : unknown;
    if (fill && n == "fill")
      return AbstractValue::unknown("void");
    AbstractValue out = dst; // the end of what was written
    out.slotRef += int(std::max<int64_t>(count, 0));
    out.slotCount -= int(std::max<int64_t>(count, 0));
    return out;
  }
  return std::nullopt;
}

std::optional<AbstractValue> HostEvaluator::evalPow(const CallExpr *e,
                                                    const std::string &name) {
  llvm::StringRef n(name);
  unsigned nargs = e->getNumArgs();
  QualType rt = e->getType().getNonReferenceType().getCanonicalType();
  if ((n == "pow" || n == "powf") && nargs == 2) {
    HostValue a = eval(e->getArg(0)).scalar, b = eval(e->getArg(1)).scalar;
    if (!a.known())
      return AbstractValue::of(a);
    if (!b.known())
      return AbstractValue::of(b);
    double x = a.kind == HostValue::Kind::Int ? double(a.i) : a.f;
    double y = b.kind == HostValue::Kind::Int ? double(b.i) : b.f;
    return AbstractValue::of(
        convert(HostValue::floating(std::pow(x, y)), ctx_.DoubleTy, rt));
  }
  return std::nullopt;
}

} // namespace kcheck::analyzer
