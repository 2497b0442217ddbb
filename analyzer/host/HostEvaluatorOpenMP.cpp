// HostEvaluator: OpenMP host code (compiled with -fopenmp, as nvcc's
// `-Xcompiler -fopenmp` builds it), which launches kernels from a parallel
// region's threads (HeCBench's openmp: one launch per CPU thread, each on
// its share of the data). A parallel region's threads run one after
// another, thread 0 first, each from the variables as the region found them
// where a clause makes them private (private, firstprivate) and with
// omp_get_thread_num()/omp_get_num_threads() its own; work the team shares
// (a worksharing loop's iterations, in order; sections; single) runs once,
// in thread 0, as do master, masked and a combined directive's statement
// (parallel for, ...); barriers, flushes and task waits have nothing to wait
// for. The launches are those of the real run,
// in the order of thread 0's, then thread 1's, ... (on the GPU they
// interleave as the threads' schedule has it). A directive of another kind
// runs its statement once, with a note.
#include "analyzer/host/HostEvaluator.h"

#include "clang/AST/OpenMPClause.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/OpenMPKinds.h"

#include <cstdlib>
#include <thread>

namespace kcheck::analyzer {

using namespace clang;
using namespace llvm::omp;

// omp_get_max_threads() before any omp_set_num_threads: OMP_NUM_THREADS's
// first value, else the CPUs of this machine (the OpenMP runtime's default),
// as the program running here would have.
int64_t HostEvaluator::ompDefaultThreads() const {
  if (const char *env = std::getenv("OMP_NUM_THREADS"))
    if (long v = std::strtol(env, nullptr, 10); v > 0)
      return v;
  return std::max<int64_t>(1, std::thread::hardware_concurrency());
}

Flow HostEvaluator::execOmp(const OMPExecutableDirective *d) {
  OpenMPDirectiveKind kind = d->getDirectiveKind();
  if (d->isStandaloneDirective() || !d->hasAssociatedStmt())
    return Flow::Normal; // barrier, flush, taskwait, taskyield, ...
  const Stmt *body = d->getRawStmt();
  const OmpTeam team = ompTeams_.empty() ? OmpTeam{} : ompTeams_.back();
  // `parallel` runs its statement in every thread; a combined directive
  // (parallel for, parallel sections, parallel masked, ...) shares one
  // statement's work among them: it runs once.
  if (isOpenMPParallelDirective(kind))
    return execOmpParallel(d, body, /*once=*/kind != OMPD_parallel);
  // Work shared by the team (for, sections, single) and master/masked: once,
  // in thread 0.
  if (isOpenMPWorksharingDirective(kind) || kind == OMPD_master ||
      kind == OMPD_masked)
    return team.thread == 0 ? exec(body) : Flow::Normal;
  if (isOpenMPLoopDirective(kind) || kind == OMPD_critical ||
      kind == OMPD_atomic || kind == OMPD_ordered || kind == OMPD_task ||
      kind == OMPD_taskgroup || kind == OMPD_sections || kind == OMPD_section ||
      kind == OMPD_simd || kind == OMPD_scope)
    return exec(body); // in this thread, in order
  if (notedOmp_.insert(int(kind)).second)
    program_.notes.push_back(
        "OpenMP `#pragma omp " + std::string(getOpenMPDirectiveName(kind, 51)) +
        "` at " + where(d->getBeginLoc()) +
        " is not modelled: its statement was evaluated once, on the host");
  return exec(body);
}

// The threads of a parallel region, one after another (`once`: thread 0
// alone runs a combined directive's shared work).
Flow HostEvaluator::execOmpParallel(const OMPExecutableDirective *d,
                                    const Stmt *body, bool once) {
  int64_t threads = ompNumThreads_.value_or(ompDefaultThreads());
  std::string count = "omp_set_num_threads";
  if (const auto *c = d->getSingleClause<OMPNumThreadsClause>()) {
    HostValue n = eval(c->getNumThreads()).scalar;
    threads = n.kind == HostValue::Kind::Int && n.i > 0 ? n.i : -1;
    count = text(c->getNumThreads());
  }
  if (threads < 1) { // not known
    context_.push_back("the thread count of the OpenMP region at " +
                       where(d->getBeginLoc()) + " (`" + count +
                       "`) is not known");
    ++unevaluatedConditions_;
    Flow f = exec(body); // one thread's work, under an unknown condition
    --unevaluatedConditions_;
    context_.pop_back();
    return f == Flow::Exit ? f : Flow::Normal;
  }
  if (const auto *c = d->getSingleClause<OMPIfClause>()) {
    HostValue on = eval(c->getCondition()).scalar;
    if (on.kind == HostValue::Kind::Int && on.i == 0)
      threads = 1;
  }
  // Variables each thread has a copy of: restored before each thread and
  // after the region (a reduction's result is not computed: unknown).
  std::vector<std::pair<LValue, std::vector<AbstractValue>>> saved;
  auto save = [&](const Expr *ref) {
    LValue lv = lvalueOf(ref);
    if (!validSlot(lv.slot))
      return;
    std::vector<AbstractValue> values;
    for (int k = 0; k < std::max(1, lv.leaves); ++k)
      values.push_back(at(lv.slot + k));
    saved.emplace_back(lv, std::move(values));
  };
  for (const auto *c : d->getClausesOfKind<OMPPrivateClause>())
    for (const Expr *v : c->varlist())
      save(v);
  for (const auto *c : d->getClausesOfKind<OMPFirstprivateClause>())
    for (const Expr *v : c->varlist())
      save(v);
  auto restore = [&] {
    for (const auto &[lv, values] : saved)
      for (size_t k = 0; k < values.size(); ++k)
        at(lv.slot + int(k)) = values[k];
  };
  Flow result = Flow::Normal;
  for (int64_t t = 0; t < (once ? 1 : threads); ++t) {
    if (!budgetLeft(d->getBeginLoc()))
      break;
    restore();
    ompTeams_.push_back({threads, t});
    Flow f = exec(body);
    ompTeams_.pop_back();
    if (f == Flow::Exit || f == Flow::Unknown) {
      result = f;
      break;
    }
  }
  restore();
  for (const auto *c : d->getClausesOfKind<OMPReductionClause>())
    for (const Expr *v : c->varlist()) {
      LValue lv = lvalueOf(v);
      if (validSlot(lv.slot))
        at(lv.slot) = AbstractValue::unknown(
            "the reduction of the OpenMP region at " + where(d->getBeginLoc()) +
            " is not computed");
    }
  return result;
}

// The OpenMP runtime's queries and settings host code sizes work with.
std::optional<AbstractValue>
HostEvaluator::evalOmpFunction(const CallExpr *e, const std::string &name) {
  llvm::StringRef n(name);
  if (!n.starts_with("omp_"))
    return std::nullopt;
  QualType rt = e->getType().getNonReferenceType().getCanonicalType();
  const OmpTeam team = ompTeams_.empty() ? OmpTeam{} : ompTeams_.back();
  auto integer = [&](int64_t v) {
    return AbstractValue::of(normalizeInt(v, rt));
  };
  if (n == "omp_get_thread_num")
    return integer(team.thread);
  if (n == "omp_get_num_threads" || n == "omp_get_team_size")
    return integer(team.threads);
  if (n == "omp_in_parallel")
    return integer(!ompTeams_.empty() && team.threads > 1);
  if (n == "omp_get_level" || n == "omp_get_active_level")
    return integer(int64_t(ompTeams_.size()));
  if (n == "omp_get_max_threads") {
    int64_t max = ompNumThreads_.value_or(ompDefaultThreads());
    return max > 0 ? integer(max)
                   : AbstractValue::unknown("omp_get_max_threads(): the "
                                            "value set is not known");
  }
  if (n == "omp_get_num_procs")
    return integer(std::max<int64_t>(1, std::thread::hardware_concurrency()));
  if (n == "omp_set_num_threads" && e->getNumArgs() == 1) {
    HostValue v = eval(e->getArg(0)).scalar;
    ompNumThreads_ = v.kind == HostValue::Kind::Int && v.i > 0 ? v.i : -1;
    return AbstractValue::unknown("void");
  }
  if (n == "omp_get_wtime" || n == "omp_get_wtick")
    return AbstractValue::unknown("the time, which the static analysis does "
                                  "not know");
  return std::nullopt;
}

} // namespace kcheck::analyzer
