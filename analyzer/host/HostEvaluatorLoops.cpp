// HostEvaluator: loops. Run to their end when their values are known and
// the budget allows; otherwise what they change is havocked and their body
// walked once, so that the launches inside are still listed.
#include "analyzer/host/HostEvaluator.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

namespace kcheck::analyzer {

using namespace clang;

std::optional<uint64_t> HostEvaluator::staticTripCount(const ForStmt *fs) {
  auto *cmp = dyn_cast_or_null<BinaryOperator>(
      fs->getCond() ? fs->getCond()->IgnoreParenImpCasts() : nullptr);
  if (!cmp || !cmp->isComparisonOp())
    return std::nullopt;
  auto varOf = [](const Expr *e) -> const VarDecl * {
    auto *dr = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    return dr ? dyn_cast<VarDecl>(dr->getDecl()) : nullptr;
  };
  BinaryOperatorKind op = cmp->getOpcode();
  const VarDecl *v = varOf(cmp->getLHS());
  const Expr *boundE = cmp->getRHS();
  if (!v) {
    v = varOf(cmp->getRHS());
    boundE = cmp->getLHS();
    op = BinaryOperator::reverseComparisonOp(op);
  }
  if (!v || !fs->getInc())
    return std::nullopt;
  int64_t step = 0;
  const Expr *inc = fs->getInc()->IgnoreParenImpCasts();
  if (auto *u = dyn_cast<UnaryOperator>(inc)) {
    if (u->isIncrementDecrementOp() && varOf(u->getSubExpr()) == v)
      step = u->isIncrementOp() ? 1 : -1;
  } else if (auto *ca = dyn_cast<CompoundAssignOperator>(inc)) {
    HostValue k = eval(ca->getRHS()).scalar;
    if (varOf(ca->getLHS()) == v && k.kind == HostValue::Kind::Int &&
        (ca->getOpcode() == BO_AddAssign || ca->getOpcode() == BO_SubAssign))
      step = ca->getOpcode() == BO_AddAssign ? k.i : -k.i;
  }
  LValue lv;
  lv.slot = lookup(v);
  HostValue start = load(lv).scalar;
  HostValue bound = eval(boundE).scalar;
  if (step == 0 || start.kind != HostValue::Kind::Int ||
      bound.kind != HostValue::Kind::Int)
    return std::nullopt;
  bool uns = cmp->getLHS()->getType()->isUnsignedIntegerOrEnumerationType();
  __int128 s = uns ? __int128(uint64_t(start.i)) : __int128(start.i);
  __int128 b = uns ? __int128(uint64_t(bound.i)) : __int128(bound.i);
  if (op == BO_LE)
    b += 1, op = BO_LT;
  if (op == BO_GE)
    b -= 1, op = BO_GT;
  __int128 n;
  if (op == BO_LT && step > 0)
    n = s >= b ? 0 : (b - s + step - 1) / step;
  else if (op == BO_GT && step < 0)
    n = s <= b ? 0 : (s - b - step - 1) / -step;
  else if (op == BO_NE && (b - s) % step == 0 && (b - s) / step >= 0)
    n = (b - s) / step;
  else
    return std::nullopt;
  return uint64_t(n);
}

Flow HostEvaluator::execLoop(const Stmt *loop, const Expr *cond,
                             const Expr *inc, const Stmt *body, bool doWhile) {
  // do { ... } while (0): the macro idiom, run once without a snapshot.
  bool once = doWhile && cond && cond->isIntegerConstantExpr(ctx_) &&
              cond->EvaluateKnownConstInt(ctx_) == 0;
  BreakTarget target(breakLeavesOnceLoop_, once);
  BreakTarget onceLoop(breakLeavesLaunchLoop_, false);
  if (once) {
    Flow f = exec(body);
    return f == Flow::Break || f == Flow::Continue ? Flow::Normal : f;
  }
  bool launches = containsLaunch(loop);
  BreakTarget launchLoop(breakLeavesLaunchLoop_, launches);
  uint64_t limit =
      launches ? options_.maxLaunchLoopIterations : options_.maxLoopIterations;
  if (std::optional<std::string> why = loopNotFollowed(loop, launches, limit)) {
    loopFailed(loop, body, *why, true);
    return Flow::Normal;
  }
  return runLoop(loop, cond, inc, body, doWhile, launches, limit);
}

// Why a loop is not run but walked once (its trip count, the budget, an
// outer loop not followed); nullopt when it is run.
std::optional<std::string> HostEvaluator::loopNotFollowed(const Stmt *loop,
                                                          bool launches,
                                                          uint64_t limit) {
  if (!budgetLeft(loop->getBeginLoc()))
    return "the evaluation budget is spent";
  if (walkingOnce_ && !launches) // its outer loop's values are unknown anyway
    return "it is inside a loop that was not followed";
  if (auto *fs = dyn_cast<ForStmt>(loop))
    if (std::optional<uint64_t> n = staticTripCount(fs); n && *n > limit)
      return "it runs " + std::to_string(*n) + " times, more than " +
             std::to_string(limit);
  return std::nullopt;
}

// Runs the loop until it ends, or walks it once (loopFailed) when it cannot
// be followed to its end.
Flow HostEvaluator::runLoop(const Stmt *loop, const Expr *cond, const Expr *inc,
                            const Stmt *body, bool doWhile, bool launches,
                            uint64_t limit) {
  Snapshot snap = snapshot();
  std::string failure;
  bool runtime = false;
  // A loop without launches gets a share of the budget, so a CPU reference
  // computation cannot starve the launches after it.
  uint64_t stepLimit = launches ? ~uint64_t(0) : steps_ + options_.maxLoopSteps;
  const size_t launchesBefore = program_.launches.size();
  for (uint64_t iter = 0;; ++iter) {
    // One whose launches are made through a callable it was given (a
    // `benchmark(repeats, kernel, args...)` wrapper) shows them only as it
    // runs: from then on it is a loop of launches.
    if (!launches && program_.launches.size() > launchesBefore) {
      launches = true;
      limit = options_.maxLaunchLoopIterations;
      stepLimit = ~uint64_t(0);
    }
    if (cond && !(doWhile && iter == 0)) {
      HostValue c = eval(cond).scalar;
      if (exitRequested_)
        return Flow::Exit;
      std::optional<bool> b = truth(c);
      if (!b) {
        failure = "its condition `" + text(cond) + "` is unknown: " + c.why;
        runtime = true;
        break;
      }
      if (!*b)
        return Flow::Normal;
    }
    if (iter >= limit) {
      failure = "more than " + std::to_string(limit) + " iterations";
      break;
    }
    if (!budgetLeft(loop->getBeginLoc())) {
      if (launches && iter > 0) {
        keepLaunchesOfCutLoop(loop, iter);
        return Flow::Normal;
      }
      failure = "the evaluation budget was spent after " +
                std::to_string(iter) + " iterations";
      break;
    }
    if (steps_ > stepLimit) {
      failure = "more than " + std::to_string(options_.maxLoopSteps) +
                " evaluation steps";
      break;
    }
    Flow f = exec(body);
    if (f == Flow::Break)
      return Flow::Normal;
    if (f == Flow::Return || f == Flow::Exit)
      return f;
    if (f == Flow::Unknown) {
      failure = "its control flow depends on values that are unknown";
      runtime = true;
      break;
    }
    if (inc)
      eval(inc);
  }
  restore(std::move(snap));
  loopFailed(loop, body, failure, !runtime);
  return Flow::Normal;
}

void HostEvaluator::keepLaunchesOfCutLoop(const Stmt *loop, uint64_t iter) {
  // Keep the launches of the iterations run: walking the body once
  // more cannot enter calls now. What the loop changes is unknown.
  havocAssigned(loop, "changed by the loop at " + where(loop->getBeginLoc()) +
                          ", which the evaluation budget cut short");
  program_.notes.push_back(
      "the loop at " + where(loop->getBeginLoc()) + " was followed for " +
      std::to_string(iter) +
      " iterations, until the host-code evaluation budget was spent: "
      "the launches of later iterations are not listed");
}

void HostEvaluator::loopFailed(const Stmt *loop, const Stmt *body,
                               const std::string &reason, bool notUnrolled) {
  std::string at = where(loop->getBeginLoc());
  std::string why = "changed by the loop at " + at +
                    ", which was not followed (" + reason + ")";
  havocAssigned(loop, why);
  if (!body || !budgetLeft(loop->getBeginLoc()))
    return;
  // Walk the body once, with what the loop changes unknown, so the launches and
  // allocations inside are still listed.
  context_.push_back(
      notUnrolled ? "launch inside a loop at " + at +
                        " that was not unrolled (" + reason + "); listed once"
                  : "launch inside a loop over runtime values at " + at + " (" +
                        reason + "); listed once");
  bool exitBefore = exitRequested_;
  size_t size = store_.size();
  auto vars = frames_.back().vars;
  ++walkingOnce_;
  exec(body);
  --walkingOnce_;
  // Drop the body's locals, keep what it did to outer variables.
  if (store_.size() > size)
    store_.resize(size);
  frames_.back().vars = std::move(vars);
  exitRequested_ = exitBefore;
  context_.pop_back();
  havocAssigned(loop, why);
}

Flow HostEvaluator::execRangeFor(const CXXForRangeStmt *s) {
  BreakTarget target(breakLeavesOnceLoop_, false);
  BreakTarget launchLoop(breakLeavesLaunchLoop_, containsLaunch(s));
  const VarDecl *var = s->getLoopVariable();
  const Expr *range = s->getRangeInit()->IgnoreImplicit();
  if (auto *il = dyn_cast<CXXStdInitializerListExpr>(range))
    range = il->getSubExpr()->IgnoreImplicit();
  std::vector<AbstractValue> elems;
  std::vector<int> slots;
  int per = 1; // slots an element takes
  if (auto *il = dyn_cast<InitListExpr>(range)) {
    for (const Expr *i : il->inits())
      elems.push_back(eval(i));
  } else if (std::optional<std::vector<int>> v = vectorSlots(range, per)) {
    slots = std::move(*v);
    if (slots.empty())
      return Flow::Normal; // an empty vector
  } else if (isStdRecord(range->getType(), "vector")) {
    // Its elements not tracked: not one iteration over the object.
    int slot = newSlot(AbstractValue::unknown(
        "element of " + describe(range, s->getBeginLoc())));
    frames_.back().vars[var] = slot;
    loopFailed(s, s->getBody(),
               "it iterates over `" + text(range) +
                   "`, a std::vector whose elements are not tracked",
               false);
    return Flow::Normal;
  } else {
    LValue lv = lvalueOf(range);
    if (!validSlot(lv.slot) || lv.count <= 0) {
      int slot = newSlot(AbstractValue::unknown(
          "element of " + describe(range, s->getBeginLoc())));
      frames_.back().vars[var] = slot;
      loopFailed(s, s->getBody(),
                 "it iterates over `" + text(range) + "`, which is not tracked",
                 false);
      return Flow::Normal;
    }
    // An array of objects (`int pairs[][2]`, structs): an element is its
    // leaves, consecutive from its first slot.
    if (const ConstantArrayType *at =
            ctx_.getAsConstantArrayType(range->getType().getCanonicalType()))
      per = int(leafCount(at->getElementType()).value_or(1));
    for (int k = 0; per > 0 && k + per <= lv.count; k += per)
      slots.push_back(lv.slot + k);
  }
  size_t n = slots.empty() ? elems.size() : slots.size();
  for (size_t k = 0; k < n; ++k) {
    if (!budgetLeft(s->getBeginLoc()))
      return Flow::Normal;
    int slot = -1;
    if (!slots.empty() && var->getType()->isReferenceType()) {
      slot = slots[k];
    } else if (slots.empty()) {
      slot = newSlot(elems[k]);
    } else {
      slot = newSlot(at(slots[k])); // a copy: its leaves consecutive
      for (int leaf = 1; leaf < per; ++leaf)
        newSlot(at(slots[k] + leaf));
    }
    frames_.back().vars[var] = slot;
    Flow f = exec(s->getBody());
    if (f == Flow::Break)
      break;
    if (f == Flow::Return || f == Flow::Exit || f == Flow::Unknown)
      return f;
  }
  return Flow::Normal;
}

} // namespace kcheck::analyzer
