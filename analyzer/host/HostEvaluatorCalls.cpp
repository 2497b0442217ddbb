// HostEvaluator, part 4: calls. User functions are entered with their
// parameters bound; the CUDA runtime and a few C/C++ library functions are
// modelled by name (the library in HostEvaluatorLibrary.cpp); everything
// else is opaque (Unknown result, and whatever it
// could write through a pointer or reference argument becomes Unknown).
#include "analyzer/host/HostEvaluator.h"

#include "core/RuntimeRules.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

#include <cmath>

namespace kcheck::analyzer {

using namespace clang;

static std::string nameOf(const FunctionDecl *fd) {
  return fd->getIdentifier() ? fd->getName().str() : fd->getNameAsString();
}

bool isStdReferenceCast(const FunctionDecl *fd) {
  // Each returns its argument as another kind of reference: the same object.
  if (!fd || !fd->isInStdNamespace() || !fd->getIdentifier())
    return false;
  llvm::StringRef n = fd->getName();
  return n == "forward" || n == "move" || n == "as_const" ||
         n == "forward_like";
}

AbstractValue HostEvaluator::evalCall(const CallExpr *e) {
  // Just evaluated by lvalueOf, which could not use it: not a second time.
  if (auto unused = std::exchange(unusedCall_, {}); unused.first == e)
    return std::move(unused.second);
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
  if (isStdReferenceCast(fd) && e->getNumArgs() == 1) // std::forward(x)
    return eval(e->getArg(0));
  std::string name = nameOf(fd);
  if (std::optional<AbstractValue> v = evalCudaCall(e, fd, name))
    return *v;
  const FunctionDecl *def = nullptr;
  bool hasBody = fd->hasBody(def);
  bool system = hasBody && inUnfollowedSystemHeader(def->getLocation()) &&
                !followedToolkitFunction(fd);
  if (system && program_.libraryCall.empty() && inCccl(def->getLocation())) {
    std::string q = fd->getQualifiedNameAsString();
    if (llvm::StringRef(q).starts_with("cub::") ||
        llvm::StringRef(q).starts_with("thrust::"))
      program_.libraryCall = "`" + q + "` at " + where(e->getExprLoc());
  }
  if (options_.followLibraries)
    if (std::optional<AbstractValue> v = evalCubDeviceQuery(e, fd))
      return *v;
  // Library functions by name; a user's own `max` with a body is entered.
  if (!hasBody || system || fd->isInStdNamespace()) {
    if (std::optional<AbstractValue> v = evalArgumentConversion(e, name))
      return *v;
    if (std::optional<AbstractValue> v = evalArgumentScan(e, name))
      return *v;
    if (std::optional<AbstractValue> v = evalKnownFunction(e, name))
      return *v;
  }
  auto *md = dyn_cast<CXXMethodDecl>(fd);
  if (md && !md->isStatic())
    return evalMethodCall(e, md, hasBody, system);
  if (!hasBody)
    return callUndefined(e, fd);
  if (system)
    return opaqueCall(e, fd, "library function");
  return callFunction(fd, e, 0, -1);
}

// A non-static member function: a trivial assignment or a dim3
// conversion computed, a method with a body entered, others opaque.
AbstractValue HostEvaluator::evalMethodCall(const CallExpr *e,
                                            const CXXMethodDecl *md,
                                            bool hasBody, bool system) {
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
      object = methodObject(e, md);
      if (std::optional<AbstractValue> r = callOnTemporary(e, md, op, object))
        return *r;
    }
    int lambdaFrame =
        md->getParent()->isLambda() ? closureFrame(e, bool(op)) : -1;
    return callFunction(md, e, op ? 1 : 0, lambdaFrame, object);
  }
  return opaqueCall(e, md, "member function not evaluated");
}

// The object a method is called on, as slots of its type's leaves (none
// when it is not tracked).
LValue HostEvaluator::methodObject(const CallExpr *e, const CXXMethodDecl *md) {
  LValue object;
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
  return object;
}

// The call, when its object is a temporary not otherwise tracked: the
// method's result; nullopt for other objects.
std::optional<AbstractValue>
HostEvaluator::callOnTemporary(const CallExpr *e, const CXXMethodDecl *md,
                               const CXXOperatorCallExpr *op, LValue object) {
  std::optional<uint64_t> n =
      objectLeaves(md->getFunctionObjectParameterType());
  // A temporary's method (`Adaptor{f, v} | x`, `make().get()`): the
  // object lives in slots of its own for the call.
  const Expr *o = op ? e->getArg(0)
                     : cast<CXXMemberCallExpr>(e)->getImplicitObjectArgument();
  while (auto *ic = dyn_cast<ImplicitCastExpr>(o->IgnoreParens()))
    o = ic->getSubExpr();
  if (!object.valid() && n && !o->getType()->isPointerType() &&
      isa<MaterializeTemporaryExpr>(o->IgnoreParens())) {
    size_t mark = store_.size();
    object.slot = newObject(md->getFunctionObjectParameterType(), eval(o));
    object.count = object.leaves = int(*n);
    AbstractValue r = callFunction(md, e, op ? 1 : 0, -1, object);
    // The temporary is gone unless the result points into it.
    if (r.slotRef < int(mark) || r.slotRef >= kGlobalBase) {
      store_.resize(mark);
      if (returnedRefCall_ == e && returnedRef_.slot >= int(mark) &&
          returnedRef_.slot < kGlobalBase)
        returnedRefCall_ = nullptr;
    }
    return r;
  }
  return std::nullopt;
}

// A function with no definition: opaque, and the end of the program when
// it does not return.
AbstractValue HostEvaluator::callUndefined(const CallExpr *e,
                                           const FunctionDecl *fd) {
  AbstractValue v = opaqueCall(e, fd, "no definition");
  if (fd->isNoReturn()) { // abort(), __assert_fail(), ...
    std::string what = "`" + fd->getNameAsString() + "()` called";
    if (fd->getIdentifier() && fd->getName() == "__assert_fail" &&
        e->getNumArgs() > 0)
      if (auto *sl =
              dyn_cast<StringLiteral>(e->getArg(0)->IgnoreParenImpCasts()))
        what = "`assert(" + sl->getString().str() + ")` fails";
    recordStop(e, what);
    exitRequested_ = true;
  }
  return v;
}

// Whether evaluating `e` enters a body whose `return` can say what the
// reference it returns refers to (a library function's cannot: not entered).
bool HostEvaluator::returnsTrackedReference(const CallExpr *e) const {
  if (isa<CUDAKernelCallExpr>(e) ||
      !e->getCallReturnType(ctx_)->isReferenceType())
    return false;
  const FunctionDecl *fd = e->getDirectCallee(), *def = nullptr;
  return fd && fd->hasBody(def) && !fd->isInStdNamespace() &&
         !inUnfollowedSystemHeader(def->getLocation());
}

// Evaluates `e` (once); what the reference it returns refers to, if known.
LValue HostEvaluator::callReturningReference(const CallExpr *e,
                                             AbstractValue &value) {
  returnedRefCall_ = nullptr;
  value = evalCall(e);
  if (returnedRefCall_ != e || !validSlot(returnedRef_.slot))
    return {};
  returnedRefCall_ = nullptr;
  return returnedRef_;
}

// The frame a lambda's body sees variables of: the one the lambda was made
// in (CuTe passes `[&]` lambdas down through fold and transform), else the
// caller's (a lambda whose making was not seen, or whose frame is gone).
int HostEvaluator::closureFrame(const CallExpr *e, bool op) {
  const Expr *o = op ? e->getArg(0)
                     : cast<CXXMemberCallExpr>(e)->getImplicitObjectArgument();
  if (uint64_t serial = eval(o).closure)
    for (int f = int(frames_.size()) - 1; f >= 0; --f)
      if (frames_[f].serial == serial)
        return f;
  return int(frames_.size()) - 1;
}

AbstractValue HostEvaluator::callFunction(const FunctionDecl *fd,
                                          const CallExpr *e, unsigned firstArg,
                                          int lambdaFrame, LValue object) {
  const FunctionDecl *def = nullptr;
  fd->hasBody(def);
  if (!budgetLeft(e->getExprLoc()))
    return opaqueCall(e, fd, "evaluation budget spent");
  if (frames_.size() > options_.maxCallDepth || stackLow())
    return opaqueCall(e, fd, "call depth limit reached");
  Frame f;
  f.serial = nextFrameSerial_++;
  f.returnsRef = fd->getReturnType()->isReferenceType();
  f.parent = lambdaFrame;
  if (validSlot(object.slot)) {
    f.thisSlot = object.slot;
    f.thisLeaves = object.leaves;
  } else if (lambdaFrame >= 0) { // a captured `this`
    f.thisSlot = frames_[lambdaFrame].thisSlot;
    f.thisLeaves = frames_[lambdaFrame].thisLeaves;
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
  // A reference into the callee's locals dangles.
  bool dangling =
      done.retRef.slot >= int(mark) && done.retRef.slot < kGlobalBase;
  returnedRef_ = flow == Flow::Return && !done.retUncertain && !dangling
                     ? done.retRef
                     : LValue{};
  returnedRefCall_ = e;
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
  if (v && deviceQueryNote_.empty()) // added at the end: no rollback drops it
    deviceQueryNote_ =
        "device queries (first at " + where(l) +
        ") answered for the GPU of --arch, the one kcheck predicts for";
  return v;
}

// cudaSuccess, as the call's result type.
AbstractValue HostEvaluator::cudaSuccess(const CallExpr *e) const {
  return cudaResult(e, core::CudaError::cudaSuccess);
}

AbstractValue HostEvaluator::cudaResult(const CallExpr *e,
                                        core::CudaError error) const {
  return AbstractValue::of(normalizeInt(int64_t(error), e->getType()));
}

// Stores `v` where `ptr` points, if that is a tracked slot.
void HostEvaluator::setThrough(const AbstractValue &ptr, AbstractValue v) {
  if (ptr.slotRef >= 0 && validSlot(ptr.slotRef))
    at(ptr.slotRef) = std::move(v);
}

std::optional<AbstractValue>
HostEvaluator::evalCudaCall(const CallExpr *e, const FunctionDecl *fd,
                            const std::string &name) {
  if (!llvm::StringRef(name).starts_with("cuda"))
    return std::nullopt;
  if (std::optional<AbstractValue> v = evalKernelQuery(e, name))
    return v;
  std::string here = where(e->getExprLoc());
  if (name == "cudaMalloc" || name == "cudaMallocManaged")
    return evalCudaMalloc(e);
  if (name == "cudaMallocHost" || name == "cudaHostAlloc") {
    setThrough(eval(argAt(e, 0)), AbstractValue::of(HostValue::hostPtr()));
    return cudaSuccess(e);
  }
  if (std::optional<AbstractValue> v = evalCudaMemoryCall(e, name))
    return v;
  if (std::optional<AbstractValue> v = evalCudaDeviceQuery(e, name))
    return v;
  if (name == "cudaLaunchKernel" || name == "cudaLaunchCooperativeKernel") {
    onLaunch_(e);
    return cudaSuccess(e);
  }
  if (std::optional<AbstractValue> v = evalLaunchKernelEx(e, name))
    return v;
  if (name == "cudaGetErrorString" || name == "cudaGetErrorName")
    return AbstractValue::of(HostValue::hostPtr());
  if (std::optional<AbstractValue> v = evalCudaGraphCall(e, name))
    return v;
  if (std::optional<AbstractValue> v = evalTextureCall(e, name))
    return v;
  // A graph call on a graph the evaluation does not know (made where it
  // does not follow): it says so, once.
  llvm::StringRef graphCall(name);
  if ((graphCall.starts_with("cudaGraphAdd") ||
       graphCall.starts_with("cudaGraphInstantiate") ||
       graphCall == "cudaGraphLaunch") &&
      !graphNoted_) {
    graphNoted_ = true;
    program_.notes.push_back(
        "`" + name + "` at " + here +
        ": a CUDA graph the static analysis does not know (its handle is not "
        "tracked): its kernels are not run at its launches; --run-host runs "
        "them as the program does");
  }
  // Any other runtime call (no body: a user's own cudaCheck() is entered)
  // succeeds; what it writes through pointers is unknown
  // (cudaEventElapsedTime(&ms, ...), cudaStreamCreate(&s), ...).
  if (fd->hasBody())
    return std::nullopt;
  opaqueCall(e, fd, "CUDA runtime call");
  QualType rt = e->getType().getCanonicalType();
  if (rt->isIntegralOrEnumerationType())
    return cudaSuccess(e);
  return AbstractValue::unknown("result of " + name + " at " + here);
}

// cudaMalloc, cudaMallocManaged: a new allocation, its pointer stored
// where the first argument points.
std::optional<AbstractValue> HostEvaluator::evalCudaMalloc(const CallExpr *e) {
  std::string here = where(e->getExprLoc());
  if (!argAt(e, 1))
    return std::nullopt;
  AbstractValue target = eval(argAt(e, 0));
  HostValue bytes = eval(argAt(e, 1)).scalar;
  for (unsigned i = 2; i < e->getNumArgs(); ++i)
    eval(e->getArg(i));
  // The runtime's own rule (core/RuntimeRules.h); the static analysis
  // follows no cudaFree, so only this allocation's size counts.
  if (bytes.kind == HostValue::Kind::Int && options_.arch &&
      core::deviceAllocationError(*options_.arch, uint64_t(bytes.i), 0) !=
          core::CudaError::cudaSuccess) {
    program_.notes.push_back(
        "the allocation of " + std::to_string(uint64_t(bytes.i)) +
        " bytes at " + here +
        " fails (cudaErrorMemoryAllocation): it is past the device's memory");
    return cudaResult(e, core::CudaError::cudaErrorMemoryAllocation);
  }
  HostAllocation a;
  if (bytes.kind == HostValue::Kind::Int)
    a.bytes = uint64_t(bytes.i);
  else
    program_.notes.push_back("size of allocation `" +
                             text(argAt(e, 0)->IgnoreParenCasts()) + "` at " +
                             here + " is unknown: " + bytes.why);
  addAllocation(e, &target, std::move(a));
  return cudaSuccess(e);
}

// A new allocation `a` made by call `e`, its pointer stored where `target`
// points (null: the caller keeps it), named after the call's first argument
// (`&x`: x) unless `a` has a name; its id.
int HostEvaluator::addAllocation(const CallExpr *e, const AbstractValue *target,
                                 HostAllocation a) {
  a.id = int(program_.allocations.size());
  const Expr *t = argAt(e, 0)->IgnoreParenCasts();
  if (auto *uo = dyn_cast<UnaryOperator>(t); uo && uo->getOpcode() == UO_AddrOf)
    t = uo->getSubExpr();
  if (a.name.empty())
    a.name = text(t);
  a.loc = sourceLoc(e->getExprLoc());
  if (target && target->slotRef >= 0)
    setThrough(*target, AbstractValue::of(HostValue::devicePtr(a.id, 0)));
  else if (target)
    program_.notes.push_back("allocation `" + a.name + "` at " +
                             where(e->getExprLoc()) +
                             " is stored where kcheck does not follow");
  program_.allocations.push_back(std::move(a));
  allocDepth_.push_back(unsigned(frames_.size() - 1));
  return program_.allocations.back().id;
}

// A copy from `src` to `dst`: device memory that holds the host's data, or
// what the source allocation held.
void HostEvaluator::noteCopy(const HostValue &dst, const HostValue &src) {
  if (dst.kind != HostValue::Kind::DevicePtr || dst.allocation < 0)
    return;
  HostAllocation &d = program_.allocations[dst.allocation];
  if (src.kind != HostValue::Kind::DevicePtr)
    d.hostInitialized = true;
  else if (src.allocation >= 0)
    d.hostInitialized |= program_.allocations[src.allocation].hostInitialized;
}

// cudaMemcpy and cudaMemset, and their Async forms: what they tell of the
// destination allocation's contents.
std::optional<AbstractValue>
HostEvaluator::evalCudaMemoryCall(const CallExpr *e, const std::string &name) {
  if (name == "cudaMemcpy" || name == "cudaMemcpyAsync") {
    HostValue dst = eval(argAt(e, 0)).scalar, src = eval(argAt(e, 1)).scalar;
    for (unsigned i = 2; i < e->getNumArgs(); ++i)
      eval(e->getArg(i));
    noteCopy(dst, src);
    return cudaSuccess(e);
  }
  if (name == "cudaMemset" || name == "cudaMemsetAsync") {
    HostValue dst = eval(argAt(e, 0)).scalar, v = eval(argAt(e, 1)).scalar;
    for (unsigned i = 2; i < e->getNumArgs(); ++i)
      eval(e->getArg(i));
    if (dst.kind == HostValue::Kind::DevicePtr && dst.allocation >= 0 &&
        v.kind == HostValue::Kind::Int && v.i == 0)
      program_.allocations[dst.allocation].zeroed = true;
    return cudaSuccess(e);
  }
  return std::nullopt;
}

// The device count, attributes and properties: answered for --arch.
std::optional<AbstractValue>
HostEvaluator::evalCudaDeviceQuery(const CallExpr *e, const std::string &name) {
  std::string here = where(e->getExprLoc());
  auto query = [&](const std::string &key, const std::string &what) {
    if (std::optional<int64_t> v = deviceQuery(key, e->getExprLoc()))
      return AbstractValue::of(HostValue::integer(*v));
    return AbstractValue::unknown("device query " + what + " at " + here);
  };
  if (name == "cudaGetDevice") {
    setThrough(eval(argAt(e, 0)), AbstractValue::of(HostValue::integer(0)));
    return cudaSuccess(e);
  }
  if (name == "cudaGetDeviceCount") {
    setThrough(eval(argAt(e, 0)),
               query("cudaGetDeviceCount", "cudaGetDeviceCount"));
    return cudaSuccess(e);
  }
  if (name == "cudaDeviceGetAttribute") {
    AbstractValue out = eval(argAt(e, 0));
    std::string attr = argAt(e, 1) ? text(argAt(e, 1)) : "?";
    if (argAt(e, 1))
      if (auto *dr = dyn_cast<DeclRefExpr>(argAt(e, 1)->IgnoreParenImpCasts()))
        attr = dr->getDecl()->getNameAsString();
    eval(argAt(e, 2));
    setThrough(out, query(attr, "cudaDeviceGetAttribute(" + attr + ")"));
    return cudaSuccess(e);
  }
  if (llvm::StringRef(name).starts_with("cudaGetDeviceProperties")) {
    AbstractValue props =
        AbstractValue::unknown("device query " + name + " at " + here);
    props.deviceProps = true;
    setThrough(eval(argAt(e, 0)), props);
    eval(argAt(e, 1));
    return cudaSuccess(e);
  }
  return std::nullopt;
}

} // namespace kcheck::analyzer
