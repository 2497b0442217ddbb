// kcheck's CUDA runtime, stream capture: while a stream captures, the work
// given to it becomes nodes of the capture's graph instead of running
// (CudaGraph.h). Each capturing stream keeps the nodes its next node depends
// on; an event recorded in a capture carries the recording stream's, and a
// stream that waits on it joins the capture (fork) or adds them (join). As
// the reference and the H200 answer: capture on the legacy stream is not
// supported, a second begin is an illegal state, synchronizing a capturing
// stream invalidates its capture, and ending a capture whose forks did not
// all join back fails with cudaErrorStreamCaptureUnjoined and ends them too.
#include "host/CudaGraph.h"

#include <algorithm>

namespace kcheck::host::entry {

using namespace graph;

namespace {

CapturingStream *capturingStream(cudaStream_t s) {
  auto it = state().streams.find(s);
  return it == state().streams.end() ? nullptr : &it->second;
}

void setDeps(CapturingStream &c, std::vector<Node *> deps) {
  c.deps = std::move(deps);
  c.edges.assign(c.deps.size(), cudaGraphEdgeData{});
}
void addDeps(CapturingStream &c, const std::vector<Node *> &more) {
  std::vector<Node *> deps = c.deps;
  for (Node *n : more)
    if (std::find(deps.begin(), deps.end(), n) == deps.end())
      deps.push_back(n);
  setDeps(c, std::move(deps));
}

// Ends capture `id` on every stream in it and forgets its events.
void endCapture(unsigned long long id) {
  State &st = state();
  for (auto it = st.streams.begin(); it != st.streams.end();)
    it = it->second.capture->id == id ? st.streams.erase(it) : std::next(it);
  for (auto it = st.events.begin(); it != st.events.end();)
    it = it->second.first == id ? st.events.erase(it) : std::next(it);
}

// `from` and every node it depends on, directly or not.
std::set<const Node *> ancestors(const std::vector<Node *> &from) {
  std::set<const Node *> seen;
  std::vector<const Node *> todo(from.begin(), from.end());
  while (!todo.empty()) {
    const Node *n = todo.back();
    todo.pop_back();
    if (seen.insert(n).second)
      todo.insert(todo.end(), n->deps.begin(), n->deps.end());
  }
  return seen;
}

bool isLegacy(cudaStream_t s) {
  return s == nullptr || s == reinterpret_cast<cudaStream_t>(1);
}

cudaError_t beginCapture(cudaStream_t stream, Graph *into,
                         std::vector<Node *> deps, int mode) {
  if (isLegacy(stream))
    return fail(cudaErrorStreamCaptureUnsupported);
  if (mode < 0 || mode > 2)
    return fail(cudaErrorInvalidValue);
  if (capturingStream(stream))
    return fail(cudaErrorIllegalState);
  State &st = state();
  Capture c;
  c.id = st.nextCaptureId++;
  c.origin = stream;
  c.mode = mode;
  if (into) {
    c.graph = into;
  } else {
    auto g = std::make_unique<Graph>();
    c.graph = g.get();
    c.ownsGraph = true;
    st.liveGraphs.insert(g.get());
    st.graphs[g.get()] = std::move(g);
  }
  Capture &stored = st.captures[c.id] = c;
  CapturingStream &s = st.streams[stream];
  s.capture = &stored;
  setDeps(s, std::move(deps));
  return cudaSuccess;
}

cudaError_t apiStreamBeginCapture(cudaStream_t stream, int mode) {
  return beginCapture(stream, nullptr, {}, mode);
}
cudaError_t apiStreamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph,
                                         const cudaGraphNode_t *deps,
                                         const cudaGraphEdgeData *, size_t n,
                                         int mode) {
  Graph *g = graphOf(graph);
  std::optional<std::vector<Node *>> after =
      g ? nodesOf(*g, deps, n) : std::nullopt;
  if (!after)
    return fail(cudaErrorInvalidValue);
  return beginCapture(stream, g, std::move(*after), mode);
}

cudaError_t apiStreamEndCapture(cudaStream_t stream, cudaGraph_t *out) {
  if (!out)
    return fail(cudaErrorInvalidValue);
  CapturingStream *s = capturingStream(stream);
  if (!s)
    return fail(cudaErrorIllegalState);
  Capture &c = *s->capture;
  if (c.origin != stream)
    return fail(cudaErrorStreamCaptureUnmatched);
  unsigned long long id = c.id;
  Graph *g = c.graph;
  bool ownsGraph = c.ownsGraph;
  cudaError_t result = cudaSuccess;
  if (c.invalidated) {
    result = cudaErrorStreamCaptureInvalidated;
  } else {
    // Every stream that joined must have been joined back: its last nodes
    // are among what the origin stream depends on.
    std::set<const Node *> joined = ancestors(s->deps);
    for (const auto &[other, cs] : state().streams)
      if (cs.capture->id == id && other != stream)
        for (const Node *n : cs.deps)
          if (!joined.count(n))
            result = cudaErrorStreamCaptureUnjoined;
  }
  endCapture(id);
  state().captures.erase(id);
  if (result != cudaSuccess) {
    if (ownsGraph) { // the capture's own graph goes with it
      forget(*g);
      state().graphs.erase(g);
    }
    *out = nullptr;
    return fail(result);
  }
  *out = handle(g);
  return cudaSuccess;
}

cudaError_t apiStreamIsCapturing(cudaStream_t stream, int *status) {
  if (!status)
    return fail(cudaErrorInvalidValue);
  CapturingStream *s = capturingStream(stream);
  *status = !s ? 0 : s->capture->invalidated ? 2 : 1;
  return cudaSuccess;
}
cudaError_t apiStreamGetCaptureInfo(cudaStream_t stream, int *status,
                                    unsigned long long *id, cudaGraph_t *graph,
                                    const cudaGraphNode_t **deps,
                                    const cudaGraphEdgeData **edges,
                                    size_t *numDeps) {
  if (cudaError_t e = apiStreamIsCapturing(stream, status))
    return e;
  CapturingStream *s = capturingStream(stream);
  if (!s || s->capture->invalidated)
    return cudaSuccess; // the other outputs are set only while active
  if (id)
    *id = s->capture->id;
  if (graph)
    *graph = handle(s->capture->graph);
  if (deps)
    *deps = reinterpret_cast<const cudaGraphNode_t *>(s->deps.data());
  if (edges)
    *edges = s->edges.data();
  if (numDeps)
    *numDeps = s->deps.size();
  return cudaSuccess;
}
cudaError_t apiStreamUpdateCaptureDependencies(cudaStream_t stream,
                                               cudaGraphNode_t *deps,
                                               const cudaGraphEdgeData *,
                                               size_t n, unsigned flags) {
  CapturingStream *s = capturingStream(stream);
  if (!s || s->capture->invalidated)
    return fail(cudaErrorIllegalState);
  std::optional<std::vector<Node *>> nodes =
      nodesOf(*s->capture->graph, deps, n);
  if (flags > 1 || !nodes)
    return fail(cudaErrorInvalidValue);
  if (flags == 1) // cudaStreamSetCaptureDependencies
    setDeps(*s, std::move(*nodes));
  else
    addDeps(*s, *nodes);
  return cudaSuccess;
}
cudaError_t apiThreadExchangeStreamCaptureMode(int *mode) {
  if (!mode || *mode < 0 || *mode > 2) // Global, ThreadLocal, Relaxed
    return fail(cudaErrorInvalidValue);
  std::swap(rt().captureMode, *mode);
  return cudaSuccess;
}

} // namespace

bool capturing(cudaStream_t stream) {
  CudaRuntime &r = rt();
  return r.graphs && r.graphs->streams.count(stream);
}

cudaError_t capture(cudaStream_t stream, Work work) {
  CapturingStream *s = capturingStream(stream);
  if (s->capture->invalidated)
    return fail(cudaErrorStreamCaptureInvalidated);
  Node *n = addNode(*s->capture->graph, std::move(work), s->deps);
  setDeps(*s, {n});
  return cudaSuccess;
}

graph::Node *lastCaptured(cudaStream_t stream) {
  CapturingStream *s = capturingStream(stream);
  return s && s->deps.size() == 1 ? s->deps[0] : nullptr;
}

cudaError_t captureEventRecord(cudaEvent_t event, cudaStream_t stream) {
  CapturingStream *s = capturingStream(stream);
  if (s->capture->invalidated)
    return fail(cudaErrorStreamCaptureInvalidated);
  state().events[event] = {s->capture->id, s->deps};
  return cudaSuccess;
}

std::optional<cudaError_t> captureStreamWait(cudaStream_t stream,
                                             cudaEvent_t event) {
  State &st = state();
  auto e = st.events.find(event);
  CapturingStream *s = capturingStream(stream);
  if (e == st.events.end())
    return s ? std::optional<cudaError_t>(fail(
                   s->capture->invalidated ? cudaErrorStreamCaptureInvalidated
                                           : cudaErrorStreamCaptureIsolation))
             : std::nullopt;
  Capture &c = st.captures.at(e->second.first);
  if (!s) { // the stream joins the capture: a fork
    if (isLegacy(stream))
      return fail(cudaErrorStreamCaptureImplicit);
    CapturingStream &joined = st.streams[stream];
    joined.capture = &c;
    setDeps(joined, e->second.second);
    return cudaSuccess;
  }
  if (s->capture != &c)
    return fail(cudaErrorStreamCaptureMerge);
  if (c.invalidated)
    return fail(cudaErrorStreamCaptureInvalidated);
  addDeps(*s, e->second.second);
  return cudaSuccess;
}

cudaError_t captureSynchronize(cudaStream_t stream) {
  capturingStream(stream)->capture->invalidated = true;
  return fail(cudaErrorStreamCaptureUnsupported);
}

cudaError_t captureMalloc(void **ptr, size_t size, cudaStream_t stream) {
  if (!ptr)
    return fail(cudaErrorInvalidValue);
  if (capturingStream(stream)->capture->invalidated)
    return fail(cudaErrorStreamCaptureInvalidated);
  Work w;
  if (cudaError_t e = allocationWork(size, w))
    return e;
  *ptr = w.dptr;
  return capture(stream, std::move(w));
}
cudaError_t captureFree(void *ptr, cudaStream_t stream) {
  Work w;
  w.type = cudaGraphNodeTypeMemFree;
  w.dptr = ptr;
  return capture(stream, std::move(w));
}

EntryPoints captureEntryPoints() {
  return {
      {"cudaStreamBeginCapture", serialized<apiStreamBeginCapture>()},
      {"cudaStreamBeginCaptureToGraph",
       serialized<apiStreamBeginCaptureToGraph>()},
      {"cudaStreamEndCapture", serialized<apiStreamEndCapture>()},
      {"cudaStreamIsCapturing", serialized<apiStreamIsCapturing>()},
      {"cudaStreamGetCaptureInfo", serialized<apiStreamGetCaptureInfo>()},
      {"cudaStreamUpdateCaptureDependencies",
       serialized<apiStreamUpdateCaptureDependencies>()},
      {"cudaThreadExchangeStreamCaptureMode",
       serialized<apiThreadExchangeStreamCaptureMode>()},
  };
}

} // namespace kcheck::host::entry
