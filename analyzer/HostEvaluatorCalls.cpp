// HostEvaluator, part 4: calls. User functions are entered with their
// parameters bound; the CUDA runtime and a few C/C++ library functions are
// modelled by name; everything else is opaque (Unknown result, and whatever it
// could write through a pointer or reference argument becomes Unknown).
#include "analyzer/HostEvaluator.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

#include <cmath>

namespace kcheck::analyzer {

using namespace clang;

static std::string nameOf(const FunctionDecl *fd) {
  return fd->getIdentifier() ? fd->getName().str() : fd->getNameAsString();
}

AbstractValue HostEvaluator::evalCall(const CallExpr *e) {
  if (isa<CUDAKernelCallExpr>(e)) {
    onLaunch_(e);
    return AbstractValue::unknown("void");
  }
  const FunctionDecl *fd = e->getDirectCallee();
  if (!fd) // through a function pointer the evaluator may know
    fd = eval(e->getCallee()).function;
  if (!fd) {
    for (const Expr *a : e->arguments())
      eval(a);
    return AbstractValue::unknown("indirect call " +
                                  describe(e, e->getExprLoc()));
  }
  std::string name = nameOf(fd);
  if (std::optional<AbstractValue> v = evalCudaCall(e, fd, name))
    return *v;
  const FunctionDecl *def = nullptr;
  bool hasBody = fd->hasBody(def);
  bool system =
      hasBody && ctx_.getSourceManager().isInSystemHeader(def->getLocation());
  // Library functions by name; a user's own `max` with a body is entered.
  if (!hasBody || system || fd->isInStdNamespace()) {
    if (std::optional<AbstractValue> v = evalArgumentConversion(e, name))
      return *v;
    if (std::optional<AbstractValue> v = evalKnownFunction(e, name))
      return *v;
  }
  auto *md = dyn_cast<CXXMethodDecl>(fd);
  if (md && !md->isStatic()) {
    auto *op = dyn_cast<CXXOperatorCallExpr>(e);
    if (op && op->getOperator() == OO_Equal && e->getNumArgs() == 2 &&
        (md->isCopyAssignmentOperator() || md->isMoveAssignmentOperator()) &&
        md->isTrivial()) { // dim3 a = ...; a = b;
      AbstractValue v = eval(e->getArg(1));
      storeTo(lvalueOf(e->getArg(0)), v);
      return v;
    }
    if (isa<CXXConversionDecl>(md))
      if (auto *mc = dyn_cast<CXXMemberCallExpr>(e)) {
        AbstractValue v = eval(mc->getImplicitObjectArgument());
        if (v.dim && isDim3(e->getType()))
          return v;
      }
    // Entered with the object untracked: its launches are still found. A
    // lambda's body sees the caller's variables (its captures).
    if (hasBody && !system && (op || isa<CXXMemberCallExpr>(e))) {
      // The object: `obj.f()`, `p->f()`, `obj op x` (tracked when flattened).
      LValue object;
      if (!md->getParent()->isLambda()) {
        if (auto *mc = dyn_cast<CXXMemberCallExpr>(e)) {
          const Expr *o = mc->getImplicitObjectArgument();
          if (o->getType()->isPointerType()) {
            AbstractValue p = eval(o);
            object.slot = p.slotRef;
            object.leaves = p.slotCount;
          } else {
            object = lvalueOf(o);
          }
        } else {
          object = lvalueOf(e->getArg(0));
        }
        std::optional<uint64_t> n =
            objectLeaves(md->getFunctionObjectParameterType());
        if (!n || object.leaves < int(*n))
          object = LValue{};
        else
          object.leaves = int(*n);
      }
      return callFunction(fd, e, op ? 1 : 0, md->getParent()->isLambda(),
                          object);
    }
    return opaqueCall(e, fd, "member function not evaluated");
  }
  if (!hasBody) {
    AbstractValue v = opaqueCall(e, fd, "no definition");
    if (fd->isNoReturn()) // abort(), __assert_fail(), ...
      exitRequested_ = true;
    return v;
  }
  if (system)
    return opaqueCall(e, fd, "library function");
  return callFunction(fd, e, 0, false);
}

AbstractValue HostEvaluator::callFunction(const FunctionDecl *fd,
                                          const CallExpr *e, unsigned firstArg,
                                          bool lambda, LValue object) {
  const FunctionDecl *def = nullptr;
  fd->hasBody(def);
  if (!budgetLeft(e->getExprLoc()))
    return opaqueCall(e, fd, "evaluation budget spent");
  if (frames_.size() > options_.maxCallDepth || stackLow())
    return opaqueCall(e, fd, "call depth limit reached");
  Frame f;
  f.parent = lambda ? int(frames_.size()) - 1 : -1;
  if (validSlot(object.slot)) {
    f.thisSlot = object.slot;
    f.thisLeaves = object.leaves;
  } else if (lambda) {
    f.thisSlot = frames_.back().thisSlot;
    f.thisLeaves = frames_.back().thisLeaves;
  }
  size_t mark = store_.size();
  // Arguments are evaluated in the caller; reference parameters alias.
  for (unsigned i = 0; i < def->getNumParams(); ++i) {
    const ParmVarDecl *p = def->getParamDecl(i);
    const Expr *arg = i + firstArg < e->getNumArgs() ? e->getArg(i + firstArg)
                                                     : p->getDefaultArg();
    AbstractValue v = arg ? AbstractValue{} : AbstractValue::unknown("");
    if (arg && p->getType()->isReferenceType()) {
      LValue lv = lvalueOf(arg);
      if (validSlot(lv.slot) && lv.field < 0) {
        f.vars[p] = lv.slot;
        continue;
      }
    }
    if (arg)
      v = eval(arg);
    f.vars[p] = newObject(p->getType(), v);
  }
  frames_.push_back(std::move(f));
  Flow flow = exec(def->getBody());
  if (flow == Flow::Exit && frames_.back().droppedReturn) {
    // The path kept at an unknown condition exits; the one dropped there
    // returned (`for (...) if (fits) return k; exit(1);`): the program goes
    // on only that way, so the call returns as it did there.
    State returned = *frames_.back().droppedReturn;
    install(std::move(returned));
    frames_.back().retUncertain = true;
    exitRequested_ = false;
    flow = Flow::Return;
  }
  Frame done = std::move(frames_.back());
  frames_.pop_back();
  if (store_.size() > mark) // the callee's locals are gone
    store_.resize(mark);
  AbstractValue ret = std::move(done.ret);
  auto call = [&] { return describe(e, e->getExprLoc()); };
  if (ret.slotRef >= 0 && ret.slotRef < kGlobalBase &&
      size_t(ret.slotRef) >= mark)
    ret = AbstractValue::unknown("pointer to a local of " + call());
  if (fd->getReturnType()->isVoidType())
    return AbstractValue::unknown("void");
  if (flow == Flow::Exit)
    return AbstractValue::unknown("the program exits in " + call());
  if (flow == Flow::Unknown || done.retUncertain)
    return AbstractValue::unknown("the result of " + call() +
                                  " depends on a condition that could not be "
                                  "evaluated");
  if (flow != Flow::Return)
    return AbstractValue::unknown("no value returned by " + call());
  return ret;
}

// The C library's output functions read their variadic arguments only.
static bool printsOnly(const FunctionDecl *fd) {
  static const char *const names[] = {"printf",   "fprintf", "vprintf",
                                      "vfprintf", "puts",    "fputs"};
  return fd->getIdentifier() && llvm::is_contained(names, fd->getName());
}

AbstractValue HostEvaluator::opaqueCall(const CallExpr *e,
                                        const FunctionDecl *fd,
                                        const std::string &reason) {
  std::string call = describe(e, e->getExprLoc());
  std::string input;
  unsigned shift = isa<CXXOperatorCallExpr>(e) && isa<CXXMethodDecl>(fd);
  for (unsigned i = 0; i < e->getNumArgs(); ++i) {
    const Expr *a = e->getArg(i);
    AbstractValue v = eval(a);
    if (input.empty())
      input = v.why();
    // What the callee could write: pointers to tracked slots, non-const refs
    // (not through a pointer to const, nor what printf & co. print).
    std::string set = "set by " + call + ", which is not evaluated";
    const ParmVarDecl *param = i >= shift && i - shift < fd->getNumParams()
                                   ? fd->getParamDecl(i - shift)
                                   : nullptr;
    bool readOnly = (param && param->getType()->isPointerType() &&
                     param->getType()->getPointeeType().isConstQualified()) ||
                    (!param && printsOnly(fd));
    if (v.slotRef >= 0 && !readOnly)
      for (int k = 0; k < v.slotCount && validSlot(v.slotRef + k); ++k)
        at(v.slotRef + k) = AbstractValue::unknown(set);
    bool byRef =
        i >= shift && i - shift < fd->getNumParams() &&
        fd->getParamDecl(i - shift)->getType()->isLValueReferenceType() &&
        !fd->getParamDecl(i - shift)
             ->getType()
             ->getPointeeType()
             .isConstQualified();
    if (byRef || (shift && i == 0 && !cast<CXXMethodDecl>(fd)->isConst()))
      storeTo(lvalueOf(a), AbstractValue::unknown(set));
  }
  std::string why =
      "result of " + call + " (" + nameOf(fd) + ": " + reason + ")";
  if (!input.empty())
    why += ", from " + input;
  return AbstractValue::unknown(why);
}

// ---------------------------------------------------------------------------
// The CUDA runtime, by name. Every call succeeds (cudaSuccess).

std::optional<int64_t> HostEvaluator::deviceQuery(const std::string &key,
                                                  SourceLocation l) {
  if (!options_.deviceQuery)
    return std::nullopt;
  std::optional<int64_t> v = options_.deviceQuery(key);
  if (v && !deviceQueryNoted_) {
    deviceQueryNoted_ = true;
    program_.notes.push_back(
        "device queries (first at " + where(l) +
        ") answered for the GPU of --arch, the one kcheck predicts for");
  }
  return v;
}

std::optional<AbstractValue>
HostEvaluator::evalCudaCall(const CallExpr *e, const FunctionDecl *fd,
                            const std::string &name) {
  if (!llvm::StringRef(name).starts_with("cuda"))
    return std::nullopt;
  std::string here = where(e->getExprLoc());
  auto arg = [&](unsigned i) -> const Expr * {
    return i < e->getNumArgs() ? e->getArg(i) : nullptr;
  };
  auto success = [&]() {
    return AbstractValue::of(normalizeInt(0, e->getType()));
  };
  auto setOut = [&](const AbstractValue &ptr, AbstractValue v) {
    if (ptr.slotRef >= 0 && validSlot(ptr.slotRef))
      at(ptr.slotRef) = std::move(v);
  };
  auto query = [&](const std::string &key, const std::string &what) {
    if (std::optional<int64_t> v = deviceQuery(key, e->getExprLoc()))
      return AbstractValue::of(HostValue::integer(*v));
    return AbstractValue::unknown("device query " + what + " at " + here);
  };
  if (name == "cudaMalloc" || name == "cudaMallocManaged") {
    if (!arg(1))
      return std::nullopt;
    AbstractValue target = eval(arg(0));
    HostValue bytes = eval(arg(1)).scalar;
    for (unsigned i = 2; i < e->getNumArgs(); ++i)
      eval(e->getArg(i));
    HostAllocation a;
    a.id = int(program_.allocations.size());
    const Expr *t = arg(0)->IgnoreParenCasts();
    if (auto *uo = dyn_cast<UnaryOperator>(t);
        uo && uo->getOpcode() == UO_AddrOf)
      t = uo->getSubExpr();
    a.name = text(t);
    a.loc = sourceLoc(e->getExprLoc());
    if (bytes.kind == HostValue::Kind::Int)
      a.bytes = uint64_t(bytes.i);
    else
      program_.notes.push_back("size of allocation `" + a.name + "` at " +
                               here + " is unknown: " + bytes.why);
    if (target.slotRef >= 0)
      setOut(target, AbstractValue::of(HostValue::devicePtr(a.id, 0)));
    else
      program_.notes.push_back("allocation `" + a.name + "` at " + here +
                               " is stored where kcheck does not follow");
    program_.allocations.push_back(std::move(a));
    allocDepth_.push_back(unsigned(frames_.size() - 1));
    return success();
  }
  if (name == "cudaMallocHost" || name == "cudaHostAlloc") {
    setOut(eval(arg(0)), AbstractValue::of(HostValue::hostPtr()));
    return success();
  }
  if (name == "cudaMemcpy" || name == "cudaMemcpyAsync") {
    HostValue dst = eval(arg(0)).scalar, src = eval(arg(1)).scalar;
    for (unsigned i = 2; i < e->getNumArgs(); ++i)
      eval(e->getArg(i));
    if (dst.kind == HostValue::Kind::DevicePtr && dst.allocation >= 0) {
      HostAllocation &d = program_.allocations[dst.allocation];
      if (src.kind != HostValue::Kind::DevicePtr)
        d.hostInitialized = true;
      else if (src.allocation >= 0)
        d.hostInitialized |=
            program_.allocations[src.allocation].hostInitialized;
    }
    return success();
  }
  if (name == "cudaMemset" || name == "cudaMemsetAsync") {
    HostValue dst = eval(arg(0)).scalar, v = eval(arg(1)).scalar;
    for (unsigned i = 2; i < e->getNumArgs(); ++i)
      eval(e->getArg(i));
    if (dst.kind == HostValue::Kind::DevicePtr && dst.allocation >= 0 &&
        v.kind == HostValue::Kind::Int && v.i == 0)
      program_.allocations[dst.allocation].zeroed = true;
    return success();
  }
  if (name == "cudaGetDevice") {
    setOut(eval(arg(0)), AbstractValue::of(HostValue::integer(0)));
    return success();
  }
  if (name == "cudaGetDeviceCount") {
    setOut(eval(arg(0)), query("cudaGetDeviceCount", "cudaGetDeviceCount"));
    return success();
  }
  if (name == "cudaDeviceGetAttribute") {
    AbstractValue out = eval(arg(0));
    std::string attr = arg(1) ? text(arg(1)) : "?";
    if (arg(1))
      if (auto *dr = dyn_cast<DeclRefExpr>(arg(1)->IgnoreParenImpCasts()))
        attr = dr->getDecl()->getNameAsString();
    eval(arg(2));
    setOut(out, query(attr, "cudaDeviceGetAttribute(" + attr + ")"));
    return success();
  }
  if (llvm::StringRef(name).starts_with("cudaGetDeviceProperties")) {
    AbstractValue props =
        AbstractValue::unknown("device query " + name + " at " + here);
    props.deviceProps = true;
    setOut(eval(arg(0)), props);
    eval(arg(1));
    return success();
  }
  if (name == "cudaLaunchKernel" || name == "cudaLaunchCooperativeKernel") {
    onLaunch_(e);
    return success();
  }
  if (name == "cudaGetErrorString" || name == "cudaGetErrorName")
    return AbstractValue::of(HostValue::hostPtr());
  // Any other runtime call (no body: a user's own cudaCheck() is entered)
  // succeeds; what it writes through pointers is unknown
  // (cudaEventElapsedTime(&ms, ...), cudaStreamCreate(&s), ...).
  if (fd->hasBody())
    return std::nullopt;
  opaqueCall(e, fd, "CUDA runtime call");
  QualType rt = e->getType().getCanonicalType();
  if (rt->isIntegralOrEnumerationType())
    return success();
  return AbstractValue::unknown("result of " + name + " at " + here);
}

// ---------------------------------------------------------------------------
// C and C++ library functions host code computes launch sizes with.

std::optional<AbstractValue>
HostEvaluator::evalKnownFunction(const CallExpr *e, const std::string &name) {
  llvm::StringRef n(name);
  unsigned nargs = e->getNumArgs();
  QualType rt = e->getType().getNonReferenceType().getCanonicalType();
  if (n == "exit" || n == "abort" || n == "_Exit" || n == "quick_exit" ||
      n == "terminate") {
    for (const Expr *a : e->arguments())
      eval(a);
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
  // make_int4(x, y, z, w) & co.: a vector type's fields in order.
  if (n.starts_with("make_") && rt->isRecordType()) {
    std::optional<uint64_t> leaves = objectLeaves(rt);
    const RecordDecl *rd = rt->getAsRecordDecl()->getDefinition();
    if (leaves && *leaves == nargs) {
      auto out = std::make_shared<std::vector<AbstractValue>>();
      unsigned k = 0;
      for (const FieldDecl *f : rd->fields()) {
        const Expr *a = e->getArg(k++);
        out->push_back(AbstractValue::of(
            convert(eval(a).scalar, a->getType(), f->getType())));
      }
      AbstractValue v;
      v.leaves = std::move(out);
      return v;
    }
  }
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

// ---------------------------------------------------------------------------
// The program's arguments (--program-args), read by the usual conversions.

std::optional<std::string> HostEvaluator::programArgument(const Expr *e) {
  if (!options_.programArgs)
    return std::nullopt;
  for (;;) {
    e = e->IgnoreParenImpCasts();
    if (auto *t = dyn_cast<CXXBindTemporaryExpr>(e))
      e = t->getSubExpr();
    else if (auto *m = dyn_cast<MaterializeTemporaryExpr>(e))
      e = m->getSubExpr();
    else if (auto *c = dyn_cast<CXXConstructExpr>(e);
             c && c->getNumArgs() >= 1) // std::string(argv[1])
      e = c->getArg(0);
    else if (auto *f = dyn_cast<CXXFunctionalCastExpr>(e))
      e = f->getSubExpr();
    else
      break;
  }
  auto *as = dyn_cast<ArraySubscriptExpr>(e);
  if (!as)
    return std::nullopt;
  // argv itself, or argv passed on to another function.
  HostValue base = eval(as->getBase()).scalar;
  if (base.kind != HostValue::Kind::HostPtr ||
      base.allocation != HostValue::kProgramArguments)
    return std::nullopt;
  HostValue k = eval(as->getIdx()).scalar;
  if (k.kind != HostValue::Kind::Int || k.i < 0 ||
      k.i > int64_t(options_.programArgs->size()))
    return std::nullopt;
  return k.i == 0 ? std::string("program")
                  : (*options_.programArgs)[size_t(k.i - 1)];
}

std::optional<AbstractValue>
HostEvaluator::evalArgumentConversion(const CallExpr *e,
                                      const std::string &name) {
  static const char *const integers[] = {
      "atoi",     "atol", "atoll", "strtol", "strtoll", "strtoul",
      "strtoull", "stoi", "stol",  "stoll",  "stoul",   "stoull"};
  static const char *const floats[] = {"atof", "strtod", "strtof", "strtold",
                                       "stof", "stod",   "stold"};
  bool isInt = llvm::is_contained(integers, name);
  if ((!isInt && !llvm::is_contained(floats, name)) || e->getNumArgs() == 0)
    return std::nullopt;
  std::optional<std::string> text = programArgument(e->getArg(0));
  if (!text)
    return std::nullopt;
  for (unsigned i = 1; i < e->getNumArgs(); ++i)
    eval(e->getArg(i));
  QualType rt = e->getType().getNonReferenceType().getCanonicalType();
  const char *begin = text->c_str();
  char *end = nullptr;
  if (isInt) {
    int base = 10;
    if (llvm::StringRef(name).starts_with("strto") && e->getNumArgs() > 2) {
      HostValue b = eval(e->getArg(2)).scalar;
      if (b.kind == HostValue::Kind::Int)
        base = int(b.i);
    }
    bool isUnsigned = llvm::StringRef(name).contains("ul");
    int64_t v = isUnsigned ? int64_t(std::strtoull(begin, &end, base))
                           : int64_t(std::strtoll(begin, &end, base));
    return AbstractValue::of(normalizeInt(v, rt));
  }
  double v = std::strtod(begin, &end);
  return AbstractValue::of(convert(HostValue::floating(v), ctx_.DoubleTy, rt));
}

} // namespace kcheck::analyzer
