// HostEvaluator, part 3: statements and control flow (unknown conditions
// fork and join); loops in HostEvaluatorLoops.cpp.
#include "analyzer/host/HostEvaluator.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <cmath>

namespace kcheck::analyzer {

using namespace clang;

void HostEvaluator::runMain(const FunctionDecl *main) {
  const FunctionDecl *def = nullptr;
  if (!main->hasBody(def))
    return;
  stackBase_ = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  frames_.emplace_back();
  frames_.back().serial = nextFrameSerial_++;
  std::optional<int> argc = options_.argc;
  if (options_.programArgs)
    argc = int(options_.programArgs->size()) + 1;
  const ParmVarDecl *argv =
      def->getNumParams() > 1 ? def->getParamDecl(1) : nullptr;
  for (const ParmVarDecl *p : def->parameters()) {
    AbstractValue v = AbstractValue::unknown("command-line argument " +
                                             p->getNameAsString() + " of main");
    if (argc && p == def->getParamDecl(0)) // as if run that way
      v = AbstractValue::of(HostValue::integer(*argc));
    if (options_.programArgs && p == argv)
      v = AbstractValue::of(HostValue::programArguments());
    int slot = newSlot(std::move(v));
    frames_.back().vars[p] = slot;
  }
  if (exec(def->getBody()) == Flow::Unknown)
    program_.notes.push_back("control flow in main (a goto) could not be "
                             "followed: later launches may be missing");
  frames_.pop_back();
  for (const std::string *note : {&deviceQueryNote_, &budgetNote_})
    if (!note->empty())
      program_.notes.push_back(*note);
  for (const auto &[where, note] : kernelQueryNotes_)
    program_.notes.push_back(note);
}

// A call that ends the program, reached for certain.
void HostEvaluator::recordStop(const Expr *e, const std::string &what) {
  if (context_.empty() && !walkingOnce_ && !speculative_ && !pathDropped_ &&
      program_.stoppedBy.empty())
    program_.stoppedBy = what + " at " + where(e->getExprLoc());
}

// ---------------------------------------------------------------------------
// Snapshots and merging.

HostEvaluator::State HostEvaluator::state() const {
  return {store_, frames_.back(), globalStore_, globals_};
}

HostEvaluator::Snapshot HostEvaluator::snapshot() const {
  return {state(),
          program_.launches.size(),
          program_.notes.size(),
          program_.stoppedBy,
          program_.allocations,
          allocDepth_};
}

void HostEvaluator::install(State &&s) {
  store_ = std::move(s.store);
  frames_.back() = std::move(s.top);
  globalStore_ = std::move(s.globalStore);
  globals_ = std::move(s.globals);
}

void HostEvaluator::restore(Snapshot &&s) {
  install(std::move(s.state));
  program_.launches.resize(s.launches);
  program_.notes.resize(s.notes);
  program_.stoppedBy = std::move(s.stoppedBy);
  program_.allocations = std::move(s.allocations);
  allocDepth_ = std::move(s.allocDepth);
}

// Joins the two sides of an `if` whose condition is unknown.
Flow HostEvaluator::mergeBranches(const State &base, State &&a, Flow fa,
                                  State &&b, Flow fb, const std::string &why) {
  // A `break` leaves like an error exit out of `do { } while (0)`, and out
  // of a loop of launches (a failing self-check's `if (!ok) break;`: the
  // launches listed are those of the loop going on, and a note says so);
  // elsewhere such a break still ends what is known.
  auto ends = [this](Flow f) {
    return f == Flow::Return || f == Flow::Exit ||
           (f == Flow::Break &&
            (breakLeavesOnceLoop_ || breakLeavesLaunchLoop_));
  };
  auto take = [&](State &&s, Flow f, State &&other, Flow dropped) {
    pathDropped_ = true;
    if (dropped == Flow::Break && !breakLeavesOnceLoop_ && !walkingOnce_) {
      std::string note = "a `break` that " + why +
                         " was assumed not taken (a failing check's exit): "
                         "the launches listed are those of the loop going on";
      if (!llvm::is_contained(program_.notes, note))
        program_.notes.push_back(std::move(note));
    }
    std::shared_ptr<const State> earlier = base.top.droppedReturn;
    install(std::move(s));
    store_.resize(base.store.size()); // locals of the branch are out of scope
    frames_.back().vars = base.top.vars;
    if (dropped == Flow::Return) {
      frames_.back().retUncertain = true;
      if (!frames_.back().droppedReturn)
        frames_.back().droppedReturn =
            earlier ? earlier : std::make_shared<const State>(std::move(other));
    }
    return f;
  };
  // A side that leaves (error exit, early return) is dropped: the launches
  // worth predicting are on the side that goes on.
  if (ends(fa) && !ends(fb))
    return take(std::move(b), fb, std::move(a), fa);
  if (ends(fb) && !ends(fa))
    return take(std::move(a), fa, std::move(b), fb);
  if (fa == Flow::Return && fb == Flow::Exit)
    return take(std::move(a), fa, std::move(b), fb);
  if (fb == Flow::Return && fa == Flow::Exit)
    return take(std::move(b), fb, std::move(a), fa);
  auto join = [&](const AbstractValue &x, const AbstractValue &y) {
    return x.same(y) ? x : AbstractValue::unknown(why);
  };
  for (size_t i = 0; i < base.store.size(); ++i)
    a.store[i] = join(a.store[i], b.store[i]);
  for (size_t i = 0; i < a.globalStore.size() && i < b.globalStore.size(); ++i)
    a.globalStore[i] = join(a.globalStore[i], b.globalStore[i]);
  if (fa == Flow::Return && fb == Flow::Return) {
    a.top.ret = join(a.top.ret, b.top.ret);
    LValue ra = a.top.retRef, rb = b.top.retRef;
    if (ra.slot != rb.slot || ra.field != rb.field || ra.count != rb.count ||
        ra.leaves != rb.leaves)
      a.top.retRef = LValue{};
  }
  a.top.retUncertain |= b.top.retUncertain;
  if (!a.top.droppedReturn)
    a.top.droppedReturn = b.top.droppedReturn;
  Flow f = fa == fb ? fa : Flow::Unknown;
  return take(std::move(a), f, std::move(b), Flow::Normal);
}

// ---------------------------------------------------------------------------
// Statements.

Flow HostEvaluator::exec(const Stmt *s) {
  if (!s)
    return Flow::Normal;
  tick();
  if (stackLow())
    return Flow::Unknown;
  if (auto *e = dyn_cast<Expr>(s)) {
    eval(e);
    return exitRequested_ ? Flow::Exit : Flow::Normal;
  }
  if (auto *omp = dyn_cast<OMPExecutableDirective>(s))
    return execOmp(omp);
  switch (s->getStmtClass()) {
  case Stmt::CompoundStmtClass:
    for (const Stmt *c : cast<CompoundStmt>(s)->body()) {
      Flow f = exec(c);
      if (f != Flow::Normal)
        return f;
    }
    return Flow::Normal;
  case Stmt::DeclStmtClass:
    for (const Decl *d : cast<DeclStmt>(s)->decls())
      if (auto *vd = dyn_cast<VarDecl>(d))
        declare(vd);
    return exitRequested_ ? Flow::Exit : Flow::Normal;
  case Stmt::IfStmtClass:
    return execIf(cast<IfStmt>(s));
  case Stmt::ForStmtClass: {
    auto *fs = cast<ForStmt>(s);
    exec(fs->getInit());
    return execLoop(fs, fs->getCond(), fs->getInc(), fs->getBody(), false);
  }
  case Stmt::WhileStmtClass: {
    auto *ws = cast<WhileStmt>(s);
    return execLoop(ws, ws->getCond(), nullptr, ws->getBody(), false);
  }
  case Stmt::DoStmtClass: {
    auto *ds = cast<DoStmt>(s);
    return execLoop(ds, ds->getCond(), nullptr, ds->getBody(), true);
  }
  case Stmt::CXXForRangeStmtClass:
    return execRangeFor(cast<CXXForRangeStmt>(s));
  case Stmt::SwitchStmtClass:
    return execSwitch(cast<SwitchStmt>(s));
  case Stmt::CaseStmtClass:
  case Stmt::DefaultStmtClass:
    return exec(cast<SwitchCase>(s)->getSubStmt());
  case Stmt::LabelStmtClass:
    return exec(cast<LabelStmt>(s)->getSubStmt());
  case Stmt::AttributedStmtClass:
    return exec(cast<AttributedStmt>(s)->getSubStmt());
  case Stmt::CXXTryStmtClass:
    return exec(cast<CXXTryStmt>(s)->getTryBlock());
  case Stmt::ReturnStmtClass:
    return execReturn(cast<ReturnStmt>(s));
  case Stmt::BreakStmtClass:
    return Flow::Break;
  case Stmt::ContinueStmtClass:
    return Flow::Continue;
  case Stmt::GotoStmtClass:
  case Stmt::IndirectGotoStmtClass:
    return Flow::Unknown;
  default:
    return Flow::Normal;
  }
}

Flow HostEvaluator::execReturn(const ReturnStmt *rs) {
  const Expr *rv = rs->getRetValue();
  frames_.back().retRef = LValue{};
  // `return rep_;` from `T &f()`: the caller may use the object itself
  // (`engine().begin()`). An expression is evaluated once: a call that
  // returns a reference says what it refers to; other expressions with
  // effects are values only.
  if (rv && frames_.back().returnsRef) {
    auto *ce = dyn_cast<CallExpr>(rv->IgnoreParens());
    LValue lv;
    std::optional<AbstractValue> v;
    if (ce && returnsTrackedReference(ce)) {
      AbstractValue value;
      lv = callReturningReference(ce, value);
      v = std::move(value);
    } else if (!rv->HasSideEffects(ctx_)) {
      lv = lvalueOf(rv);
    } else {
      v = eval(rv);
    }
    if (validSlot(lv.slot)) {
      frames_.back().retRef = lv;
      v = load(lv);
    } else if (!v) {
      v = eval(rv);
    }
    frames_.back().ret = std::move(*v);
    return exitRequested_ ? Flow::Exit : Flow::Return;
  }
  frames_.back().ret =
      rv ? eval(rv) : AbstractValue::unknown("no return value");
  return exitRequested_ ? Flow::Exit : Flow::Return;
}

void HostEvaluator::declare(const VarDecl *vd) {
  if (vd->isStaticLocal() || vd->hasGlobalStorage()) {
    lookup(vd); // initialised once, on first use
    return;
  }
  // No Frame& is held across eval(): a call inside may grow frames_.
  QualType t = vd->getType();
  const Expr *init = vd->getInit();
  if (t->isReferenceType()) {
    LValue lv = init ? lvalueOf(init) : LValue{};
    int slot = lv.slot;
    if (!validSlot(slot) || lv.field >= 0) // a temporary: own slot
      slot = newSlot(init ? eval(init) : AbstractValue::unknown(""));
    frames_.back().vars[vd] = slot; // else an alias
    return;
  }
  std::optional<uint64_t> object = objectLeaves(t);
  if (auto *at = ctx_.getAsConstantArrayType(t); at || object) {
    std::vector<AbstractValue> elems =
        object ? initObject(t, init, false, vd->getNameAsString())
               : arrayElements(vd, at, init);
    if (elems.empty()) // an empty object still has an address
      elems.push_back(AbstractValue::unknown("empty object"));
    auto &vars = frames_.back().vars;
    auto it = vars.find(vd);
    int base = it != vars.end() ? it->second : int(store_.size());
    if (base == int(store_.size()))
      store_.resize(store_.size() + elems.size());
    for (size_t k = 0; k < elems.size(); ++k)
      store_[base + k] = std::move(elems[k]);
    vars[vd] = base;
    return;
  }
  AbstractValue v =
      init ? eval(init)
           : AbstractValue::unknown(std::string("`") + vd->getNameAsString() +
                                    "` is uninitialised (" +
                                    where(vd->getLocation()) + ")");
  nameAllocation(v, vd, vd->getLocation());
  auto &vars = frames_.back().vars;
  auto it = vars.find(vd);
  if (it != vars.end() && it->second < int(store_.size()))
    store_[it->second] = std::move(v); // loop bodies reuse their slots
  else
    vars[vd] = newSlot(std::move(v));
}

Flow HostEvaluator::execIf(const IfStmt *s) {
  exec(s->getInit());
  if (const VarDecl *cv = s->getConditionVariable())
    declare(cv);
  HostValue c = eval(s->getCond()).scalar;
  if (exitRequested_)
    return Flow::Exit;
  if (std::optional<bool> b = truth(c))
    return exec(*b ? s->getThen() : s->getElse());
  std::string cond = describe(s->getCond(), s->getIfLoc());
  std::string why = "depends on the condition " + cond +
                    ", which could not be evaluated (" + c.why + ")";
  State base = state();
  context_.push_back("under the condition " + cond +
                     ", which could not be evaluated (" + c.why + ")");
  ++unevaluatedConditions_;
  Flow fa = exec(s->getThen());
  if (exitRequested_)
    fa = Flow::Exit;
  exitRequested_ = false;
  State a = state();
  install(State(base));
  Flow fb = exec(s->getElse());
  if (exitRequested_)
    fb = Flow::Exit;
  exitRequested_ = false;
  State b = state();
  context_.pop_back();
  --unevaluatedConditions_;
  Flow f = mergeBranches(base, std::move(a), fa, std::move(b), fb, why);
  exitRequested_ = f == Flow::Exit;
  return f;
}

Flow HostEvaluator::execSwitch(const SwitchStmt *s) {
  BreakTarget target(breakLeavesOnceLoop_, false);
  BreakTarget launchLoop(breakLeavesLaunchLoop_, false);
  exec(s->getInit());
  if (const VarDecl *cv = s->getConditionVariable())
    declare(cv);
  HostValue v = eval(s->getCond()).scalar;
  auto *body = dyn_cast_or_null<CompoundStmt>(s->getBody());
  if (v.kind != HostValue::Kind::Int || !body) {
    loopFailed(s, s->getBody(),
               "switch on `" + text(s->getCond()) + "` at " +
                   where(s->getSwitchLoc()) + ", which could not be evaluated",
               false);
    return Flow::Normal;
  }
  auto matches = [&](const Stmt *c) {
    for (;;) {
      if (isa<DefaultStmt>(c))
        return 2;
      auto *cs = dyn_cast<CaseStmt>(c);
      if (!cs)
        return 0;
      llvm::APSInt lo = cs->getLHS()->EvaluateKnownConstInt(ctx_);
      llvm::APSInt hi =
          cs->getRHS() ? cs->getRHS()->EvaluateKnownConstInt(ctx_) : lo;
      if (lo.getExtValue() <= v.i && v.i <= hi.getExtValue())
        return 1;
      c = cs->getSubStmt();
    }
  };
  int start = -1, dflt = -1, idx = 0;
  for (const Stmt *c : body->body()) {
    int m = matches(c);
    if (m == 1 && start < 0)
      start = idx;
    if (m == 2 && dflt < 0)
      dflt = idx;
    ++idx;
  }
  if (start < 0)
    start = dflt;
  if (start < 0)
    return Flow::Normal;
  for (auto it = body->body_begin() + start; it != body->body_end(); ++it) {
    Flow f = exec(*it);
    if (f == Flow::Break)
      return Flow::Normal;
    if (f != Flow::Normal)
      return f;
  }
  return Flow::Normal;
}

} // namespace kcheck::analyzer
