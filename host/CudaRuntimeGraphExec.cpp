// kcheck's CUDA runtime, executable graphs: instantiation (a copy of the
// graph, CudaGraph.h's Exec), launch (each node's work done in an order that
// respects the edges), cudaGraphExecUpdate (a graph of the same topology
// gives its parameters), the generic and allocation node forms, graph
// memory's attributes, the DOT file cudaGraphDebugDotPrint writes, and user
// objects (kept alive by the graphs and execs that hold references).
#include "host/CudaGraph.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <set>

namespace kcheck::host::graph {

namespace {

// A memset node's rows of `elementSize`-byte elements of `value`.
cudaError_t fill(const cudaMemsetParams &p) {
  if (cudaError_t e = entry::sticky())
    return e;
  if (p.elementSize != 1 && p.elementSize != 2 && p.elementSize != 4)
    return entry::fail(cudaErrorInvalidValue);
  std::vector<uint8_t> row(p.width * p.elementSize);
  for (size_t i = 0; i < row.size(); ++i)
    row[i] = uint8_t(p.value >> (8 * (i % p.elementSize)));
  uint64_t base = reinterpret_cast<uint64_t>(p.dst);
  for (size_t y = 0; y < std::max<size_t>(p.height, 1); ++y)
    if (!entry::rt().device().memory().write(base + y * p.pitch, row.data(),
                                             row.size()))
      return entry::fail(cudaErrorInvalidValue);
  return cudaSuccess;
}

cudaError_t runNode(const Node &n) {
  const Work &w = n.work;
  State &st = state();
  switch (w.type) {
  case cudaGraphNodeTypeKernel:
    if (cudaError_t e = entry::launchKernel(
            w.kernel.func, w.kernel.grid, w.kernel.block,
            w.kernel.pointers().data(), w.kernel.shared, w.kernel.cooperative,
            w.kernel.cluster, runningOrigin()))
      return e;
    return runFireAndForget();
  case cudaGraphNodeTypeMemcpy:
    return entry::copy3D(w.copy);
  case cudaGraphNodeTypeMemset:
    return fill(w.memset);
  case cudaGraphNodeTypeHost:
    w.host.fn(w.host.userData);
    return cudaSuccess;
  case cudaGraphNodeTypeGraph:
    return run(*w.child);
  case cudaGraphNodeTypeEventRecord:
    return entry::recordEvent(w.event, nullptr);
  case cudaGraphNodeTypeMemAlloc: {
    st.inUse[w.dptr] = w.bytes;
    uint64_t used = 0;
    for (const auto &[ptr, bytes] : st.inUse)
      used += bytes;
    st.memHigh = std::max(st.memHigh, used);
    return cudaSuccess;
  }
  case cudaGraphNodeTypeMemFree:
    st.inUse.erase(w.dptr);
    return cudaSuccess;
  case cudaGraphNodeTypeEmpty:
  case cudaGraphNodeTypeWaitEvent: // the work before it has completed
    return cudaSuccess;
  case cudaGraphNodeTypeConditional:
    return runConditional(w);
  case cudaGraphNodeTypeExtSemaphoreSignal:
  case cudaGraphNodeTypeExtSemaphoreWait:
  case cudaGraphNodeTypeCount:
    break;
  }
  entry::rt().unsupported("a graph node of a type kcheck does not make");
}

} // namespace

std::vector<const Node *> runOrder(const Graph &g) {
  std::map<const Node *, size_t> index, waiting;
  std::set<size_t> ready; // by creation order
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    index[g.nodes[i].get()] = i;
    waiting[g.nodes[i].get()] = g.nodes[i]->deps.size();
    if (g.nodes[i]->deps.empty())
      ready.insert(i);
  }
  std::vector<const Node *> order;
  while (!ready.empty()) {
    const Node *n = g.nodes[*ready.begin()].get();
    ready.erase(ready.begin());
    order.push_back(n);
    for (const Node *d : n->dependents)
      if (--waiting[d] == 0)
        ready.insert(index[d]);
  }
  return order;
}

cudaError_t run(const Graph &g) {
  for (const Node *n : runOrder(g))
    if (n->enabled)
      if (cudaError_t e = runNode(*n))
        return e;
  return cudaSuccess;
}

// Allocation nodes: the address is reserved when the node is made.
cudaError_t allocationWork(size_t bytes, Work &w) {
  uint64_t base =
      entry::rt().device().memory().allocate(bytes, "cudaMallocAsync");
  if (!base)
    return entry::fail(cudaErrorMemoryAllocation);
  w.type = cudaGraphNodeTypeMemAlloc;
  w.dptr = reinterpret_cast<void *>(base);
  w.bytes = bytes;
  state().allocationBytes[w.dptr] = bytes;
  return cudaSuccess;
}

Exec *execOf(cudaGraphExec_t e) {
  auto it = state().execs.find(reinterpret_cast<Exec *>(e));
  return it == state().execs.end() ? nullptr : it->second.get();
}

} // namespace kcheck::host::graph

namespace kcheck::host::entry {

namespace {

using namespace graph;

// `withParams`: cudaGraphInstantiateWithParams, the only form that takes
// cudaGraphInstantiateFlagUpload (the reference; the H200 refuses it
// elsewhere, graph_device_launch.cu).
cudaError_t instantiate(cudaGraphExec_t *out, cudaGraph_t graph,
                        unsigned long long flags,
                        cudaGraphInstantiateResult *result, bool withParams) {
  Graph *g = graphOf(graph);
  if (result)
    *result = cudaGraphInstantiateError;
  if (!out || !g || (flags & ~0xfull))
    return fail(cudaErrorInvalidValue);
  bool device = flags & cudaGraphInstantiateFlagDeviceLaunch;
  if (((flags & cudaGraphInstantiateFlagUpload) && !withParams) ||
      (device && (flags & cudaGraphInstantiateFlagAutoFreeOnLaunch)))
    return fail(cudaErrorInvalidValue);
  if (device && !deviceLaunchable(*g)) {
    if (result)
      *result = cudaGraphInstantiateNodeOperationNotSupported;
    return fail(cudaErrorInvalidValue);
  }
  if (runOrder(*g).size() != g->nodes.size()) { // a cycle
    if (result)
      *result = cudaGraphInstantiateInvalidStructure;
    return fail(cudaErrorInvalidValue);
  }
  cudaGraphInstantiateResult refused = cudaGraphInstantiateError;
  if (cudaError_t err = conditionalRefusal(*g, refused)) {
    if (result)
      *result = refused;
    return fail(err);
  }
  // A graph with conditional or device-updatable nodes has one
  // instantiation at a time (the reference; the H200's error).
  if (hasConditionals(*g) || hasDeviceUpdatable(*g))
    for (const auto &[p, other] : state().execs)
      if (other->source == g)
        return fail(cudaErrorNotSupported);
  auto e = std::make_unique<Exec>();
  e->source = g;
  e->deviceLaunch = device;
  e->uploaded = withParams && (flags & cudaGraphInstantiateFlagUpload);
  std::map<const Node *, Node *> map;
  e->graph = cloneGraph(*g, &map);
  for (const auto &[from, to] : map)
    e->nodeOf[from] = to;
  // The upload is done now (there is nothing to upload to), and the H200
  // does not keep its flag.
  e->flags = flags & ~uint64_t(cudaGraphInstantiateFlagUpload);
  *out = reinterpret_cast<cudaGraphExec_t>(e.get());
  state().execs[e.get()] = std::move(e);
  if (result)
    *result = cudaGraphInstantiateSuccess;
  return cudaSuccess;
}
cudaError_t apiGraphInstantiate(cudaGraphExec_t *out, cudaGraph_t graph,
                                unsigned long long flags) {
  return instantiate(out, graph, flags, nullptr, false);
}
cudaError_t apiGraphInstantiateWithParams(cudaGraphExec_t *out,
                                          cudaGraph_t graph,
                                          cudaGraphInstantiateParams *p) {
  if (!p)
    return fail(cudaErrorInvalidValue);
  p->errNode_out = nullptr;
  return instantiate(out, graph, p->flags, &p->result_out, true);
}
cudaError_t apiGraphExecDestroy(cudaGraphExec_t exec) {
  Exec *e = execOf(exec);
  if (!e)
    return fail(cudaErrorInvalidValue);
  for (auto &[object, count] : e->graph->references)
    release(object, count);
  state().execs.erase(e);
  return cudaSuccess;
}
cudaError_t apiGraphExecGetFlags(cudaGraphExec_t exec,
                                 unsigned long long *flags) {
  Exec *e = execOf(exec);
  if (!e || !flags)
    return fail(cudaErrorInvalidValue);
  *flags = e->flags;
  return cudaSuccess;
}
cudaError_t apiGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream) {
  Exec *e = execOf(exec);
  if (!e)
    return fail(cudaErrorInvalidValue);
  if (capturing(stream)) { // the exec's graph, as a child graph node
    Work w;
    w.type = cudaGraphNodeTypeGraph;
    w.child = cloneGraph(*e->graph);
    return capture(stream, std::move(w));
  }
  if (cudaError_t err = sticky())
    return err;
  e->uploaded = true;
  return runExec(*e);
}
cudaError_t apiGraphUpload(cudaGraphExec_t exec, cudaStream_t) {
  Exec *e = execOf(exec);
  if (!e)
    return fail(cudaErrorInvalidValue);
  e->uploaded = true;
  return cudaSuccess;
}

// cudaGraphExecUpdate: `to` must be `from`'s topology, node for node in
// creation order (each of the same type, with the same dependencies).
bool sameTopology(const Graph &to, const Graph &from,
                  cudaGraphExecUpdateResultInfo &info) {
  if (to.nodes.size() != from.nodes.size()) {
    info.result = cudaGraphExecUpdateErrorTopologyChanged;
    return false;
  }
  std::map<const Node *, size_t> at, fromAt;
  for (size_t i = 0; i < to.nodes.size(); ++i) {
    at[to.nodes[i].get()] = i;
    fromAt[from.nodes[i].get()] = i;
  }
  for (size_t i = 0; i < to.nodes.size(); ++i) {
    const Node &a = *to.nodes[i], &b = *from.nodes[i];
    info.errorNode = handle(const_cast<Node *>(&b));
    if (a.work.type != b.work.type) {
      info.result = cudaGraphExecUpdateErrorNodeTypeChanged;
      return false;
    }
    std::vector<size_t> da, db;
    for (const Node *d : a.deps)
      da.push_back(at[d]);
    for (const Node *d : b.deps)
      db.push_back(fromAt[d]);
    std::sort(da.begin(), da.end());
    std::sort(db.begin(), db.end());
    std::vector<Graph *> sa = a.work.subgraphs(), sb = b.work.subgraphs();
    bool same = da == db && sa.size() == sb.size();
    for (size_t k = 0; same && k < sa.size(); ++k)
      same = sameTopology(*sa[k], *sb[k], info);
    if (!same) {
      info.result = cudaGraphExecUpdateErrorTopologyChanged;
      return false;
    }
  }
  info.errorNode = nullptr;
  return true;
}
cudaError_t apiGraphExecUpdate(cudaGraphExec_t exec, cudaGraph_t graph,
                               cudaGraphExecUpdateResultInfo *info) {
  Exec *e = execOf(exec);
  Graph *g = graphOf(graph);
  if (!e || !g || !info)
    return fail(cudaErrorInvalidValue);
  *info = {cudaGraphExecUpdateSuccess, nullptr, nullptr};
  // Neither side may hold a device-updatable node (the reference; the
  // H200's error).
  if (hasDeviceUpdatable(*g) || hasDeviceUpdatable(*e->graph))
    return fail(cudaErrorNotSupported);
  if (!sameTopology(*e->graph, *g, *info))
    return fail(cudaErrorGraphExecUpdateFailure);
  for (size_t i = 0; i < g->nodes.size(); ++i) {
    e->graph->nodes[i]->work = g->nodes[i]->work;
    e->nodeOf[g->nodes[i].get()] = e->graph->nodes[i].get();
  }
  return cudaSuccess;
}

cudaError_t apiGraphAddMemAllocNode(cudaGraphNode_t *out, cudaGraph_t graph,
                                    const cudaGraphNode_t *deps, size_t n,
                                    cudaMemAllocNodeParams *p) {
  Work w;
  if (!p)
    return fail(cudaErrorInvalidValue);
  if (!p->bytesize)
    return fail(cudaErrorInvalidValue);
  if (cudaError_t e = allocationWork(p->bytesize, w))
    return e;
  p->dptr = w.dptr;
  return addApiNode(out, graph, deps, n, std::move(w));
}
cudaError_t apiGraphAddMemFreeNode(cudaGraphNode_t *out, cudaGraph_t graph,
                                   const cudaGraphNode_t *deps, size_t n,
                                   void *dptr) {
  if (!state().allocationBytes.count(dptr))
    return fail(cudaErrorInvalidValue);
  Work w;
  w.type = cudaGraphNodeTypeMemFree;
  w.dptr = dptr;
  return addApiNode(out, graph, deps, n, std::move(w));
}
cudaError_t apiGraphAddNode(cudaGraphNode_t *out, cudaGraph_t graph,
                            const cudaGraphNode_t *deps,
                            const cudaGraphEdgeData *, size_t n,
                            cudaGraphNodeParams *p) {
  if (!p)
    return fail(cudaErrorInvalidValue);
  if (p->type == cudaGraphNodeTypeConditional) {
    Graph *g = graphOf(graph);
    if (!g)
      return fail(cudaErrorInvalidValue);
    cudaError_t error;
    std::optional<Work> made = conditionalWork(*g, p->conditional, error);
    if (!made)
      return fail(error);
    if (cudaError_t e = addApiNode(out, graph, deps, n, std::move(*made)))
      return e;
    p->conditional.phGraph_out = nodeOf(*out)->work.bodyHandles.data();
    return cudaSuccess;
  }
  Work w;
  if (p->type == cudaGraphNodeTypeMemAlloc) {
    if (!p->alloc.bytesize)
      return fail(cudaErrorInvalidValue);
    if (cudaError_t e = allocationWork(p->alloc.bytesize, w))
      return e;
    p->alloc.dptr = w.dptr;
    return addApiNode(out, graph, deps, n, std::move(w));
  }
  cudaError_t error;
  std::optional<Work> made = genericWork(*p, error);
  if (!made)
    return fail(error);
  return addApiNode(out, graph, deps, n, std::move(*made));
}

// Graph memory: what allocation nodes that ran and were not freed hold.
cudaError_t apiDeviceGetGraphMemAttribute(int device, int attr, void *value) {
  if (device != 0)
    return fail(cudaErrorInvalidDevice);
  if (!value || attr < 0 || attr > 3)
    return fail(cudaErrorInvalidValue);
  State &st = state();
  uint64_t used = 0, reserved = 0;
  for (const auto &[ptr, bytes] : st.inUse)
    used += bytes;
  for (const auto &[ptr, bytes] : st.allocationBytes)
    reserved += bytes;
  uint64_t v = attr == 0 ? used : attr == 1 ? st.memHigh : reserved;
  std::memcpy(value, &v, sizeof v);
  return cudaSuccess;
}
cudaError_t apiDeviceSetGraphMemAttribute(int device, int attr, void *value) {
  if (device != 0)
    return fail(cudaErrorInvalidDevice);
  uint64_t v = 0;
  if (value)
    std::memcpy(&v, value, sizeof v);
  // Only the high-water marks can be set, and only to 0 (a reset).
  if (!value || (attr != 1 && attr != 3) || v != 0)
    return fail(cudaErrorInvalidValue);
  if (attr == 1)
    state().memHigh = 0;
  return cudaSuccess;
}
cudaError_t apiDeviceGraphMemTrim(int device) {
  return device == 0 ? cudaSuccess : fail(cudaErrorInvalidDevice);
}

// cudaGraphDebugDotPrint: the graph in DOT, nodes and edges as the
// driver's file shows them (a cluster per graph, one shape per type).
void dot(const Graph &g, std::ostream &out, int &clusters) {
  int id = clusters++;
  out << "subgraph cluster_" << id << " {\nlabel=\"graph_" << id
      << "\" graph[style=\"dashed\"];\n";
  std::map<const Node *, size_t> at;
  for (size_t i = 0; i < g.nodes.size(); ++i)
    at[g.nodes[i].get()] = i;
  static const char *const names[] = {"KERNEL",
                                      "MEMCPY",
                                      "MEMSET",
                                      "HOST",
                                      "GRAPH",
                                      "EMPTY",
                                      "WAIT_EVENT",
                                      "EVENT_RECORD",
                                      "EXT_SEM_SIGNAL",
                                      "EXT_SEM_WAIT",
                                      "MEM_ALLOC",
                                      "MEM_FREE",
                                      "",
                                      "CONDITIONAL"};
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const Work &w = g.nodes[i]->work;
    std::string label = names[w.type];
    if (w.type == cudaGraphNodeTypeKernel) {
      auto k = rt().kernels.find(w.kernel.func);
      if (k != rt().kernels.end())
        label = k->second;
    }
    out << "\"graph_" << id << "_node_" << i << "\"[label=\"" << i << "\\n"
        << label << "\"];\n";
    for (const Graph *s : w.subgraphs())
      dot(*s, out, clusters);
  }
  for (size_t i = 0; i < g.nodes.size(); ++i)
    for (const Node *d : g.nodes[i]->dependents)
      out << "\"graph_" << id << "_node_" << i << "\" -> \"graph_" << id
          << "_node_" << at[d] << "\";\n";
  out << "}\n";
}
cudaError_t apiGraphDebugDotPrint(cudaGraph_t graph, const char *path,
                                  unsigned) {
  Graph *g = graphOf(graph);
  if (!g || !path)
    return fail(cudaErrorInvalidValue);
  std::ofstream out(path);
  if (!out)
    return fail(cudaErrorInvalidValue);
  int clusters = 0;
  out << "digraph dot {\n";
  dot(*g, out, clusters);
  out << "}\n";
  return cudaSuccess;
}

// User objects.
cudaError_t apiUserObjectCreate(cudaUserObject_t *out, void *ptr,
                                cudaHostFn_t destroy, unsigned initial,
                                unsigned flags) {
  if (!out || !destroy || !initial || flags != cudaUserObjectNoDestructorSync)
    return fail(cudaErrorInvalidValue);
  auto o = std::make_unique<UserObject>();
  o->ptr = ptr;
  o->destroy = destroy;
  o->references = initial;
  *out = reinterpret_cast<cudaUserObject_t>(o.get());
  state().userObjects[o.get()] = std::move(o);
  return cudaSuccess;
}
UserObject *userObjectOf(cudaUserObject_t o) {
  auto it = state().userObjects.find(reinterpret_cast<UserObject *>(o));
  return it == state().userObjects.end() ? nullptr : it->second.get();
}
cudaError_t apiUserObjectRetain(cudaUserObject_t object, unsigned count) {
  UserObject *o = userObjectOf(object);
  if (!o || !count)
    return fail(cudaErrorInvalidValue);
  o->references += count;
  return cudaSuccess;
}
cudaError_t apiUserObjectRelease(cudaUserObject_t object, unsigned count) {
  UserObject *o = userObjectOf(object);
  if (!o || !count)
    return fail(cudaErrorInvalidValue);
  release(o, count);
  return cudaSuccess;
}
cudaError_t apiGraphRetainUserObject(cudaGraph_t graph, cudaUserObject_t object,
                                     unsigned count, unsigned flags) {
  Graph *g = graphOf(graph);
  UserObject *o = userObjectOf(object);
  if (!g || !o || !count || (flags & ~unsigned(cudaGraphUserObjectMove)))
    return fail(cudaErrorInvalidValue);
  // Moved references are the caller's, handed over; else new ones.
  if (!(flags & cudaGraphUserObjectMove))
    o->references += count;
  g->references[o] += count;
  return cudaSuccess;
}
cudaError_t apiGraphReleaseUserObject(cudaGraph_t graph,
                                      cudaUserObject_t object, unsigned count) {
  Graph *g = graphOf(graph);
  UserObject *o = userObjectOf(object);
  if (!g || !o || !count || g->references[o] < count)
    return fail(cudaErrorInvalidValue);
  if ((g->references[o] -= count) == 0)
    g->references.erase(o);
  release(o, count);
  return cudaSuccess;
}

} // namespace

EntryPoints graphExecEntryPoints() {
  return {
      {"cudaUserObjectCreate", serialized<apiUserObjectCreate>()},
      {"cudaUserObjectRetain", serialized<apiUserObjectRetain>()},
      {"cudaUserObjectRelease", serialized<apiUserObjectRelease>()},
      {"cudaGraphRetainUserObject", serialized<apiGraphRetainUserObject>()},
      {"cudaGraphReleaseUserObject", serialized<apiGraphReleaseUserObject>()},
      {"cudaGraphInstantiate", serialized<apiGraphInstantiate>()},
      {"cudaGraphInstantiateWithFlags", serialized<apiGraphInstantiate>()},
      {"cudaGraphInstantiateWithParams",
       serialized<apiGraphInstantiateWithParams>()},
      {"cudaGraphExecDestroy", serialized<apiGraphExecDestroy>()},
      {"cudaGraphExecGetFlags", serialized<apiGraphExecGetFlags>()},
      {"cudaGraphLaunch", serialized<apiGraphLaunch>()},
      {"cudaGraphUpload", serialized<apiGraphUpload>()},
      {"cudaGraphExecUpdate", serialized<apiGraphExecUpdate>()},
      {"cudaGraphAddMemAllocNode", serialized<apiGraphAddMemAllocNode>()},
      {"cudaGraphAddMemFreeNode", serialized<apiGraphAddMemFreeNode>()},
      {"cudaGraphAddNode", serialized<apiGraphAddNode>()},
      {"cudaDeviceGetGraphMemAttribute",
       serialized<apiDeviceGetGraphMemAttribute>()},
      {"cudaDeviceSetGraphMemAttribute",
       serialized<apiDeviceSetGraphMemAttribute>()},
      {"cudaDeviceGraphMemTrim", serialized<apiDeviceGraphMemTrim>()},
      {"cudaGraphDebugDotPrint", serialized<apiGraphDebugDotPrint>()},
  };
}

} // namespace kcheck::host::entry
