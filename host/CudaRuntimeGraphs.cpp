// kcheck's CUDA runtime, graphs: making them node by node, their queries,
// clones, node parameters and user objects (CudaGraph.h). What the runtime
// answers where the reference leaves it open (the error for a node of the
// wrong type, which nodes can be disabled) is the H200's with CUDA 13
// (tests/conformance/programs/graphs.cu).
#include "host/CudaGraph.h"

#include "core/RuntimeRules.h"

#include <algorithm>
#include <cstring>

namespace kcheck::host::graph {

std::vector<void *> &KernelLaunch::pointers() const {
  pointers_.clear();
  for (const std::vector<char> &a : args)
    pointers_.push_back(const_cast<char *>(a.data()));
  return pointers_;
}

Work::Work(const Work &other)
    : type(other.type), kernel(other.kernel), copy(other.copy),
      memset(other.memset), host(other.host),
      child(other.child ? cloneGraph(*other.child) : nullptr),
      event(other.event), dptr(other.dptr), bytes(other.bytes),
      conditional(other.conditional), conditionalType(other.conditionalType) {
  for (const auto &b : other.bodies) {
    bodies.push_back(cloneGraph(*b));
    bodyHandles.push_back(handle(bodies.back().get()));
  }
}
std::vector<Graph *> Work::subgraphs() const {
  std::vector<Graph *> all;
  if (child)
    all.push_back(child.get());
  for (const auto &b : bodies)
    all.push_back(b.get());
  return all;
}
Work &Work::operator=(const Work &other) {
  if (this != &other) {
    Work copy(other);
    *this = std::move(copy);
  }
  return *this;
}

State &state() {
  CudaRuntime &r = entry::rt();
  if (!r.graphs)
    r.graphs = std::make_unique<State>();
  return *r.graphs;
}

Graph *graphOf(cudaGraph_t g) {
  auto *p = reinterpret_cast<Graph *>(g);
  return state().liveGraphs.count(p) ? p : nullptr;
}
Node *nodeOf(cudaGraphNode_t n) {
  auto *p = reinterpret_cast<Node *>(n);
  return state().liveNodes.count(p) ? p : nullptr;
}

void remember(Graph &g) {
  state().liveGraphs.insert(&g);
  for (const auto &n : g.nodes) {
    state().liveNodes.insert(n.get());
    for (Graph *s : n->work.subgraphs())
      remember(*s);
  }
}

void forget(Graph &g) {
  for (const auto &n : g.nodes) {
    state().liveNodes.erase(n.get());
    for (Graph *s : n->work.subgraphs())
      forget(*s);
  }
  state().liveGraphs.erase(&g);
}

Node *addNode(Graph &g, Work work, const std::vector<Node *> &deps) {
  auto node = std::make_unique<Node>();
  node->graph = &g;
  node->work = std::move(work);
  node->deps = deps;
  for (Node *d : deps)
    d->dependents.push_back(node.get());
  for (Graph *s : node->work.subgraphs()) {
    s->parent = node.get();
    remember(*s);
  }
  state().liveNodes.insert(node.get());
  g.nodes.push_back(std::move(node));
  return g.nodes.back().get();
}

std::unique_ptr<Graph> cloneGraph(const Graph &g,
                                  std::map<const Node *, Node *> *map) {
  auto copy = std::make_unique<Graph>();
  copy->cloneOf = &g;
  copy->references = g.references;
  for (auto &[object, count] : copy->references)
    object->references += count;
  std::map<const Node *, Node *> local;
  std::map<const Node *, Node *> &of = map ? *map : local;
  for (const auto &n : g.nodes) {
    auto node = std::make_unique<Node>(*n);
    node->graph = copy.get();
    node->origin = n.get();
    node->dependents.clear();
    for (Graph *s : node->work.subgraphs())
      s->parent = node.get();
    of[n.get()] = node.get();
    copy->nodes.push_back(std::move(node));
  }
  for (const auto &n : copy->nodes) {
    for (Node *&d : n->deps)
      d = of[d];
    for (Node *d : n->deps)
      d->dependents.push_back(n.get());
  }
  return copy;
}

void release(UserObject *o, unsigned count) {
  o->references -= std::min(count, o->references);
  if (o->references == 0) {
    if (o->destroy)
      o->destroy(o->ptr);
    state().userObjects.erase(o);
  }
}

std::optional<Work> kernelWork(const void *func, dim3 grid, dim3 block,
                               unsigned shared, void **args, void **extra,
                               cudaError_t &error) {
  CudaRuntime &r = entry::rt();
  auto it = r.kernels.find(func);
  if (it == r.kernels.end()) {
    error = cudaErrorInvalidDeviceFunction;
    return std::nullopt;
  }
  // Dimensions the GPU refuses are refused before the arguments are read
  // (as the launch checks them first): a program whose node has a block of
  // 4096 threads and an argument that is no host pointer gets the error, as
  // on the H200 (it ran on, with no kernel run), not a crash.
  // So is more dynamic shared memory than the kernel may have, at the
  // node's addition (the H200: 300000 bytes, cudaErrorInvalidValue).
  core::LaunchConfig config{entry::toDim3(grid), entry::toDim3(block), shared};
  if (std::optional<core::LaunchRefusal> refused = core::launchRefusal(
          r.arch(), config, r.device().launchBound(it->second),
          r.dynamicSharedOptIn(it->second))) {
    error = cudaError_t(refused->error);
    return std::nullopt;
  }
  Work w;
  w.type = cudaGraphNodeTypeKernel;
  w.kernel.func = const_cast<void *>(func);
  w.kernel.grid = grid;
  w.kernel.block = block;
  w.kernel.shared = shared;
  // The parameter buffer of extra (CU_LAUNCH_PARAM_BUFFER_POINTER = 1,
  // CU_LAUNCH_PARAM_BUFFER_SIZE = 2, CU_LAUNCH_PARAM_END = 0), else one
  // pointer per parameter.
  const char *buffer = nullptr;
  for (size_t i = 0; !args && extra && extra[i]; i += 2)
    if (extra[i] == reinterpret_cast<void *>(1))
      buffer = static_cast<const char *>(extra[i + 1]);
  for (size_t i = 0;; ++i) {
    std::optional<std::pair<uint64_t, uint64_t>> p =
        r.device().parameter(it->second, i);
    if (!p)
      break;
    const char *from = args     ? static_cast<const char *>(args[i])
                       : buffer ? buffer + p->first
                                : nullptr;
    std::vector<char> bytes(p->second);
    if (from)
      std::memcpy(bytes.data(), from, bytes.size());
    w.kernel.args.push_back(std::move(bytes));
  }
  return w;
}

Work copyWork(const cudaMemcpy3DParms &p) {
  Work w;
  w.type = cudaGraphNodeTypeMemcpy;
  w.copy = p;
  return w;
}
Work copyWork1D(void *dst, const void *src, size_t n, cudaMemcpyKind kind) {
  cudaMemcpy3DParms p{};
  p.srcPtr = {const_cast<void *>(src), n, n, 1};
  p.dstPtr = {dst, n, n, 1};
  p.extent = {n, 1, 1};
  p.kind = kind;
  return copyWork(p);
}
Work memsetWork(const cudaMemsetParams &p) {
  Work w;
  w.type = cudaGraphNodeTypeMemset;
  w.memset = p;
  return w;
}
Work hostWork(cudaHostFn_t fn, void *data) {
  Work w;
  w.type = cudaGraphNodeTypeHost;
  w.host = {fn, data};
  return w;
}

std::optional<std::vector<Node *>>
nodesOf(Graph &g, const cudaGraphNode_t *deps, size_t n) {
  if (n && !deps)
    return std::nullopt;
  std::vector<Node *> out;
  for (size_t i = 0; i < n; ++i) {
    Node *d = nodeOf(deps[i]);
    if (!d || d->graph != &g ||
        std::find(out.begin(), out.end(), d) != out.end())
      return std::nullopt;
    out.push_back(d);
  }
  return out;
}

cudaError_t addApiNode(cudaGraphNode_t *out, cudaGraph_t graph,
                       const cudaGraphNode_t *deps, size_t n, Work work) {
  Graph *g = graphOf(graph);
  if (!out || !g)
    return entry::fail(cudaErrorInvalidValue);
  std::optional<std::vector<Node *>> d = nodesOf(*g, deps, n);
  if (!d)
    return entry::fail(cudaErrorInvalidValue);
  *out = handle(addNode(*g, std::move(work), *d));
  return cudaSuccess;
}

} // namespace kcheck::host::graph

namespace kcheck::host::entry {

namespace {

using namespace graph;

cudaError_t apiGraphCreate(cudaGraph_t *graph, unsigned flags) {
  if (!graph || flags)
    return fail(cudaErrorInvalidValue);
  auto g = std::make_unique<Graph>();
  *graph = handle(g.get());
  state().liveGraphs.insert(g.get());
  state().graphs[g.get()] = std::move(g);
  return cudaSuccess;
}
cudaError_t apiGraphDestroy(cudaGraph_t graph) {
  Graph *g = graphOf(graph);
  auto it = state().graphs.find(g);
  if (it == state().graphs.end())
    return fail(cudaErrorInvalidValue);
  forget(*g);
  for (auto &[object, count] : g->references)
    release(object, count);
  std::erase_if(state().conditionals,
                [g](const auto &c) { return c.second.graph == g; });
  for (auto &[p, e] : state().execs) // its execs outlive it
    if (e->source == g)
      e->source = nullptr;
  state().graphs.erase(it);
  return cudaSuccess;
}
cudaError_t apiGraphClone(cudaGraph_t *clone, cudaGraph_t original) {
  Graph *g = graphOf(original);
  if (!clone || !g)
    return fail(cudaErrorInvalidValue);
  if (hasConditionals(*g)) // the reference: such a graph cannot be cloned
    return fail(cudaErrorNotSupported);
  std::unique_ptr<Graph> copy = cloneGraph(*g);
  remember(*copy);
  *clone = handle(copy.get());
  state().graphs[copy.get()] = std::move(copy);
  return cudaSuccess;
}

cudaError_t apiGraphAddKernelNode(cudaGraphNode_t *out, cudaGraph_t graph,
                                  const cudaGraphNode_t *deps, size_t n,
                                  const cudaKernelNodeParams *p) {
  if (!p)
    return fail(cudaErrorInvalidValue);
  cudaError_t error = cudaSuccess;
  std::optional<Work> w =
      kernelWork(p->func, p->gridDim, p->blockDim, p->sharedMemBytes,
                 p->kernelParams, p->extra, error);
  if (!w)
    return fail(error);
  return addApiNode(out, graph, deps, n, std::move(*w));
}
cudaError_t apiGraphAddMemcpyNode(cudaGraphNode_t *out, cudaGraph_t graph,
                                  const cudaGraphNode_t *deps, size_t n,
                                  const cudaMemcpy3DParms *p) {
  if (!p)
    return fail(cudaErrorInvalidValue);
  return addApiNode(out, graph, deps, n, copyWork(*p));
}
cudaError_t apiGraphAddMemcpyNode1D(cudaGraphNode_t *out, cudaGraph_t graph,
                                    const cudaGraphNode_t *deps, size_t n,
                                    void *dst, const void *src, size_t count,
                                    cudaMemcpyKind kind) {
  return addApiNode(out, graph, deps, n, copyWork1D(dst, src, count, kind));
}
// A symbol's copies: a 1D copy from or to the symbol's device address.
std::optional<void *> symbolAt(const void *symbol, size_t count,
                               size_t offset) {
  std::optional<uint64_t> a = rt().variableAddress(symbol, offset, count);
  if (!a)
    return std::nullopt;
  return reinterpret_cast<void *>(*a);
}
cudaError_t apiGraphAddMemcpyNodeToSymbol(cudaGraphNode_t *out,
                                          cudaGraph_t graph,
                                          const cudaGraphNode_t *deps, size_t n,
                                          const void *symbol, const void *src,
                                          size_t count, size_t offset,
                                          cudaMemcpyKind kind) {
  std::optional<void *> at = symbolAt(symbol, count, offset);
  if (!at)
    return fail(cudaErrorInvalidSymbol);
  return addApiNode(out, graph, deps, n, copyWork1D(*at, src, count, kind));
}
cudaError_t
apiGraphAddMemcpyNodeFromSymbol(cudaGraphNode_t *out, cudaGraph_t graph,
                                const cudaGraphNode_t *deps, size_t n,
                                void *dst, const void *symbol, size_t count,
                                size_t offset, cudaMemcpyKind kind) {
  std::optional<void *> at = symbolAt(symbol, count, offset);
  if (!at)
    return fail(cudaErrorInvalidSymbol);
  return addApiNode(out, graph, deps, n, copyWork1D(dst, *at, count, kind));
}
bool validMemset(const cudaMemsetParams *p) {
  return p && p->dst &&
         (p->elementSize == 1 || p->elementSize == 2 || p->elementSize == 4) &&
         (p->height <= 1 || p->pitch >= p->width * p->elementSize);
}
cudaError_t apiGraphAddMemsetNode(cudaGraphNode_t *out, cudaGraph_t graph,
                                  const cudaGraphNode_t *deps, size_t n,
                                  const cudaMemsetParams *p) {
  if (!validMemset(p))
    return fail(cudaErrorInvalidValue);
  return addApiNode(out, graph, deps, n, memsetWork(*p));
}
cudaError_t apiGraphAddHostNode(cudaGraphNode_t *out, cudaGraph_t graph,
                                const cudaGraphNode_t *deps, size_t n,
                                const cudaHostNodeParams *p) {
  if (!p || !p->fn)
    return fail(cudaErrorInvalidValue);
  return addApiNode(out, graph, deps, n, hostWork(p->fn, p->userData));
}
cudaError_t apiGraphAddChildGraphNode(cudaGraphNode_t *out, cudaGraph_t graph,
                                      const cudaGraphNode_t *deps, size_t n,
                                      cudaGraph_t child) {
  Graph *c = graphOf(child);
  if (!c)
    return fail(cudaErrorInvalidValue);
  if (hasConditionals(*c)) // nor be a child graph
    return fail(cudaErrorNotSupported);
  Work w;
  w.type = cudaGraphNodeTypeGraph;
  w.child = cloneGraph(*c);
  return addApiNode(out, graph, deps, n, std::move(w));
}
cudaError_t apiGraphAddEmptyNode(cudaGraphNode_t *out, cudaGraph_t graph,
                                 const cudaGraphNode_t *deps, size_t n) {
  return addApiNode(out, graph, deps, n, Work{});
}
Work eventWork(cudaGraphNodeType type, cudaEvent_t event) {
  Work w;
  w.type = type;
  w.event = event;
  return w;
}
cudaError_t apiGraphAddEventRecordNode(cudaGraphNode_t *out, cudaGraph_t graph,
                                       const cudaGraphNode_t *deps, size_t n,
                                       cudaEvent_t event) {
  if (!event)
    return fail(cudaErrorInvalidValue);
  return addApiNode(out, graph, deps, n,
                    eventWork(cudaGraphNodeTypeEventRecord, event));
}
cudaError_t apiGraphAddEventWaitNode(cudaGraphNode_t *out, cudaGraph_t graph,
                                     const cudaGraphNode_t *deps, size_t n,
                                     cudaEvent_t event) {
  if (!event)
    return fail(cudaErrorInvalidValue);
  return addApiNode(out, graph, deps, n,
                    eventWork(cudaGraphNodeTypeWaitEvent, event));
}

// Queries.
cudaError_t list(const std::vector<Node *> &nodes, cudaGraphNode_t *out,
                 cudaGraphEdgeData *edges, size_t *count) {
  if (!count)
    return fail(cudaErrorInvalidValue);
  if (out || edges) {
    for (size_t i = 0; i < std::min(*count, nodes.size()); ++i) {
      if (out)
        out[i] = handle(nodes[i]);
      if (edges)
        edges[i] = cudaGraphEdgeData{};
    }
    // Past the nodes there are, the runtime writes nulls.
    for (size_t i = nodes.size(); out && i < *count; ++i)
      out[i] = nullptr;
  }
  if (!out && !edges)
    *count = nodes.size();
  else
    *count = std::min(*count, nodes.size());
  return cudaSuccess;
}
std::vector<Node *> allNodes(const Graph &g) {
  std::vector<Node *> out;
  for (const auto &n : g.nodes)
    out.push_back(n.get());
  return out;
}
cudaError_t apiGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes,
                             size_t *count) {
  Graph *g = graphOf(graph);
  if (!g)
    return fail(cudaErrorInvalidValue);
  return list(allNodes(*g), nodes, nullptr, count);
}
cudaError_t apiGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t *nodes,
                                 size_t *count) {
  Graph *g = graphOf(graph);
  if (!g)
    return fail(cudaErrorInvalidValue);
  std::vector<Node *> roots;
  for (Node *n : allNodes(*g))
    if (n->deps.empty())
      roots.push_back(n);
  return list(roots, nodes, nullptr, count);
}
cudaError_t apiGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from,
                             cudaGraphNode_t *to, cudaGraphEdgeData *edges,
                             size_t *count) {
  Graph *g = graphOf(graph);
  if (!g || !count || (!from != !to))
    return fail(cudaErrorInvalidValue);
  size_t total = 0, i = 0;
  for (Node *n : allNodes(*g))
    for (Node *d : n->dependents) {
      if (from && i < *count) {
        from[i] = handle(n);
        to[i] = handle(d);
        if (edges)
          edges[i] = cudaGraphEdgeData{};
        ++i;
      }
      ++total;
    }
  *count = from ? std::min(*count, total) : total;
  return cudaSuccess;
}
cudaError_t apiGraphNodeGetDependencies(cudaGraphNode_t node,
                                        cudaGraphNode_t *deps,
                                        cudaGraphEdgeData *edges,
                                        size_t *count) {
  Node *n = nodeOf(node);
  if (!n)
    return fail(cudaErrorInvalidValue);
  return list(n->deps, deps, edges, count);
}
cudaError_t apiGraphNodeGetDependentNodes(cudaGraphNode_t node,
                                          cudaGraphNode_t *dependents,
                                          cudaGraphEdgeData *edges,
                                          size_t *count) {
  Node *n = nodeOf(node);
  if (!n)
    return fail(cudaErrorInvalidValue);
  return list(n->dependents, dependents, edges, count);
}
cudaError_t apiGraphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType *type) {
  Node *n = nodeOf(node);
  if (!n || !type)
    return fail(cudaErrorInvalidValue);
  *type = n->work.type;
  return cudaSuccess;
}
cudaError_t apiGraphNodeFindInClone(cudaGraphNode_t *out,
                                    cudaGraphNode_t original,
                                    cudaGraph_t clone) {
  Node *o = nodeOf(original);
  Graph *c = graphOf(clone);
  if (!out || !o || !c || c->cloneOf != o->graph)
    return fail(cudaErrorInvalidValue);
  for (const auto &n : c->nodes)
    if (n->origin == o) {
      *out = handle(n.get());
      return cudaSuccess;
    }
  return fail(cudaErrorInvalidValue);
}

// Edges.
bool edge(Graph &g, cudaGraphNode_t f, cudaGraphNode_t t, Node *&from,
          Node *&to) {
  from = nodeOf(f);
  to = nodeOf(t);
  return from && to && from != to && from->graph == &g && to->graph == &g;
}
cudaError_t apiGraphAddDependencies(cudaGraph_t graph,
                                    const cudaGraphNode_t *from,
                                    const cudaGraphNode_t *to,
                                    const cudaGraphEdgeData *, size_t n) {
  Graph *g = graphOf(graph);
  if (!g || (n && (!from || !to)))
    return fail(cudaErrorInvalidValue);
  for (size_t i = 0; i < n; ++i) {
    Node *f, *t;
    if (!edge(*g, from[i], to[i], f, t) ||
        std::count(t->deps.begin(), t->deps.end(), f))
      return fail(cudaErrorInvalidValue);
    t->deps.push_back(f);
    f->dependents.push_back(t);
  }
  return cudaSuccess;
}
cudaError_t apiGraphRemoveDependencies(cudaGraph_t graph,
                                       const cudaGraphNode_t *from,
                                       const cudaGraphNode_t *to,
                                       const cudaGraphEdgeData *, size_t n) {
  Graph *g = graphOf(graph);
  if (!g || (n && (!from || !to)))
    return fail(cudaErrorInvalidValue);
  for (size_t i = 0; i < n; ++i) {
    Node *f, *t;
    if (!edge(*g, from[i], to[i], f, t) ||
        !std::count(t->deps.begin(), t->deps.end(), f))
      return fail(cudaErrorInvalidValue);
    t->deps.erase(std::find(t->deps.begin(), t->deps.end(), f));
    f->dependents.erase(
        std::find(f->dependents.begin(), f->dependents.end(), t));
  }
  return cudaSuccess;
}
cudaError_t apiGraphDestroyNode(cudaGraphNode_t node) {
  Node *n = nodeOf(node);
  if (!n)
    return fail(cudaErrorInvalidValue);
  if (n->work.kernel.deviceUpdatable) // the reference; the H200's error
    return fail(cudaErrorNotSupported);
  for (Node *d : n->deps)
    d->dependents.erase(
        std::find(d->dependents.begin(), d->dependents.end(), n));
  for (Node *d : n->dependents)
    d->deps.erase(std::find(d->deps.begin(), d->deps.end(), n));
  for (Graph *s : n->work.subgraphs())
    forget(*s);
  state().liveNodes.erase(n);
  auto &nodes = n->graph->nodes;
  nodes.erase(std::find_if(nodes.begin(), nodes.end(),
                           [n](const auto &p) { return p.get() == n; }));
  return cudaSuccess;
}

} // namespace

EntryPoints graphEntryPoints() {
  return {
      {"cudaGraphCreate", serialized<apiGraphCreate>()},
      {"cudaGraphDestroy", serialized<apiGraphDestroy>()},
      {"cudaGraphClone", serialized<apiGraphClone>()},
      {"cudaGraphAddKernelNode", serialized<apiGraphAddKernelNode>()},
      {"cudaGraphAddMemcpyNode", serialized<apiGraphAddMemcpyNode>()},
      {"cudaGraphAddMemcpyNode1D", serialized<apiGraphAddMemcpyNode1D>()},
      {"cudaGraphAddMemcpyNodeToSymbol",
       serialized<apiGraphAddMemcpyNodeToSymbol>()},
      {"cudaGraphAddMemcpyNodeFromSymbol",
       serialized<apiGraphAddMemcpyNodeFromSymbol>()},
      {"cudaGraphAddMemsetNode", serialized<apiGraphAddMemsetNode>()},
      {"cudaGraphAddHostNode", serialized<apiGraphAddHostNode>()},
      {"cudaGraphAddChildGraphNode", serialized<apiGraphAddChildGraphNode>()},
      {"cudaGraphAddEmptyNode", serialized<apiGraphAddEmptyNode>()},
      {"cudaGraphAddEventRecordNode", serialized<apiGraphAddEventRecordNode>()},
      {"cudaGraphAddEventWaitNode", serialized<apiGraphAddEventWaitNode>()},
      {"cudaGraphGetNodes", serialized<apiGraphGetNodes>()},
      {"cudaGraphGetRootNodes", serialized<apiGraphGetRootNodes>()},
      {"cudaGraphGetEdges", serialized<apiGraphGetEdges>()},
      {"cudaGraphNodeGetDependencies",
       serialized<apiGraphNodeGetDependencies>()},
      {"cudaGraphNodeGetDependentNodes",
       serialized<apiGraphNodeGetDependentNodes>()},
      {"cudaGraphNodeGetType", serialized<apiGraphNodeGetType>()},
      {"cudaGraphNodeFindInClone", serialized<apiGraphNodeFindInClone>()},
      {"cudaGraphAddDependencies", serialized<apiGraphAddDependencies>()},
      {"cudaGraphRemoveDependencies", serialized<apiGraphRemoveDependencies>()},
      {"cudaGraphDestroyNode", serialized<apiGraphDestroyNode>()},
  };
}

} // namespace kcheck::host::entry
