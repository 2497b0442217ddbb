// HostEvaluator: stream capture and the graphs it makes, the way real
// programs build CUDA graphs (HeCBench's graphExecution: capture a
// reduction's two launches once, cudaGraphLaunch them a thousand times).
// Between cudaStreamBeginCapture and cudaStreamEndCapture the launches host
// code makes are recorded, not made (every launch: a capture that forks to
// other streams joins them back, and a launch elsewhere during a global
// capture is an error); the graph handle cudaStreamEndCapture writes, and the
// executable graph cudaGraphInstantiate makes of it, name the recording;
// each cudaGraphLaunch of it makes its launches again, as they were
// captured. Copies and sets during a capture take effect at once here (on
// the GPU at each graph launch). Graphs built node by node are followed in
// HostEvaluatorGraphNodes.cpp.
#include "analyzer/host/HostEvaluator.h"

#include "core/CudaErrors.h"

namespace kcheck::analyzer {

using namespace clang;

std::optional<size_t> HostEvaluator::graphOf(const AbstractValue &v) const {
  if (v.scalar.kind != HostValue::Kind::Int || v.scalar.i < kGraphHandleBase ||
      v.scalar.i >= kNodeHandleBase)
    return std::nullopt;
  size_t id = size_t(v.scalar.i - kGraphHandleBase);
  return id < graphs_.size() ? std::optional(id) : std::nullopt;
}

AbstractValue HostEvaluator::graphHandle(size_t id) const {
  return AbstractValue::of(HostValue::integer(kGraphHandleBase + int64_t(id)));
}

bool HostEvaluator::capturing() const {
  return capture_.has_value() || nodeTarget_;
}

void HostEvaluator::captureLaunch(HostLaunch l) {
  (nodeTarget_ ? *nodeTarget_ : *capture_).push_back(std::move(l));
}

std::optional<AbstractValue>
HostEvaluator::evalCudaGraphCall(const CallExpr *e, const std::string &name) {
  llvm::StringRef n(name);
  std::string here = where(e->getExprLoc());
  auto arg = [&](unsigned i) -> AbstractValue {
    return i < e->getNumArgs() ? eval(e->getArg(i)) : AbstractValue{};
  };
  auto handle = [&](size_t id) { return graphHandle(id); };
  if (std::optional<AbstractValue> v = evalGraphNodeCall(e, name))
    return v;
  if (n == "cudaStreamBeginCapture" || n == "cudaStreamBeginCaptureToGraph") {
    for (unsigned i = 0; i < e->getNumArgs(); ++i)
      arg(i);
    if (capturing()) // a second capture fails, as host/ answers it
      return cudaResult(e, core::CudaError::cudaErrorIllegalState);
    capture_.emplace();
    return cudaSuccess(e);
  }
  if (n == "cudaStreamEndCapture" && e->getNumArgs() == 2) {
    arg(0);
    AbstractValue out = arg(1);
    if (!capturing())
      return cudaResult(e, core::CudaError::cudaErrorIllegalState);
    graphs_.push_back(std::move(*capture_));
    capture_.reset();
    setThrough(out, handle(graphs_.size() - 1));
    return cudaSuccess(e);
  }
  if ((n == "cudaGraphInstantiate" || n == "cudaGraphInstantiateWithFlags" ||
       n == "cudaGraphInstantiateWithParams") &&
      e->getNumArgs() >= 2) {
    AbstractValue out = arg(0), graph = arg(1);
    for (unsigned i = 2; i < e->getNumArgs(); ++i)
      arg(i);
    std::optional<size_t> id = graphOf(graph);
    if (!id)
      return std::nullopt; // a graph built otherwise: the generic note
    graphs_.push_back(graphs_[*id]); // the executable graph: its own copy
    setThrough(out, handle(graphs_.size() - 1));
    return cudaSuccess(e);
  }
  if (n == "cudaGraphLaunch" && e->getNumArgs() == 2) {
    std::optional<size_t> id = graphOf(arg(0));
    arg(1);
    if (!id && !graphs_.empty()) { // a captured graph's handle, not tracked
      if (!graphNoted_) {
        graphNoted_ = true;
        program_.notes.push_back(
            "`cudaGraphLaunch` at " + here +
            ": the static analysis does not "
            "know which graph `" +
            text(e->getArg(0)) +
            "` is (its handle is not tracked), so its launches are not "
            "made; --run-host runs them as the program does");
      }
      return cudaSuccess(e);
    }
    if (!id)
      return std::nullopt;
    // Named on the graph's first launch only: a graph launched a thousand
    // times would repeat it on every launch.
    bool first = graphsLaunched_.insert(*id).second;
    for (const HostLaunch &captured : graphs_[*id]) {
      HostLaunch l = captured;
      if (first)
        l.notes.push_back("made by the CUDA graph launched at " + here +
                          " (recorded at line " + std::to_string(l.loc.line) +
                          "), as each launch of the graph makes it");
      l.unevaluated |= underUnevaluatedCondition();
      for (const std::string &c : context())
        l.notes.push_back(c);
      if (capturing()) // a graph launched into a capture: a child graph
        captureLaunch(std::move(l));
      else
        program_.launches.push_back(std::move(l));
    }
    return cudaSuccess(e);
  }
  if ((n == "cudaGraphDestroy" || n == "cudaGraphExecDestroy") &&
      e->getNumArgs() == 1 && graphOf(arg(0)))
    return cudaSuccess(e);
  return std::nullopt;
}

} // namespace kcheck::analyzer
