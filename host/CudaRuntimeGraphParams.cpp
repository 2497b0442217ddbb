// kcheck's CUDA runtime, graph node parameters: each type's get and set, in
// a graph and in an instantiated graph (whose nodes are found from the
// graph's: CudaGraph.h's Exec::nodeOf), the generic cudaGraphNodeParams
// forms, kernel node attributes, and enabling nodes of an exec.
#include "host/CudaGraph.h"

#include <cstring>

namespace kcheck::host::graph {

namespace {

// The node of exec `e` instantiated from graph node `n`.
Node *execNode(cudaGraphExec_t e, cudaGraphNode_t n) {
  auto it = state().execs.find(reinterpret_cast<Exec *>(e));
  Node *node = nodeOf(n);
  if (it == state().execs.end() || !node)
    return nullptr;
  auto found = it->second->nodeOf.find(node);
  return found == it->second->nodeOf.end() ? nullptr : found->second;
}

} // namespace

/// Node `n` of type `type`, in a graph (exec null) or in exec `e`; null if
/// there is none of that type.
Node *typedNode(cudaGraphExec_t e, cudaGraphNode_t n, cudaGraphNodeType type,
                bool inExec) {
  Node *node = inExec ? execNode(e, n) : nodeOf(n);
  return node && node->work.type == type ? node : nullptr;
}

/// The work of a generic cudaGraphNodeParams, or nullopt with `error` set.
std::optional<Work> genericWork(const cudaGraphNodeParams &p,
                                cudaError_t &error) {
  error = cudaErrorInvalidValue;
  switch (p.type) {
  case cudaGraphNodeTypeKernel: {
    return kernelWork(p.kernel.func, p.kernel.gridDim, p.kernel.blockDim,
                      p.kernel.sharedMemBytes, p.kernel.kernelParams,
                      p.kernel.extra, error);
  }
  case cudaGraphNodeTypeMemcpy:
    return copyWork(p.memcpy.copyParams);
  case cudaGraphNodeTypeMemset:
    return memsetWork(p.memset);
  case cudaGraphNodeTypeHost:
    if (!p.host.fn)
      return std::nullopt;
    return hostWork(p.host.fn, p.host.userData);
  case cudaGraphNodeTypeGraph: {
    Graph *c = graphOf(p.graph.graph);
    if (!c)
      return std::nullopt;
    if (hasConditionals(*c)) { // not as a child graph (the reference)
      error = cudaErrorNotSupported;
      return std::nullopt;
    }
    Work w;
    w.type = cudaGraphNodeTypeGraph;
    w.child = cloneGraph(*c);
    return w;
  }
  case cudaGraphNodeTypeEmpty:
    return Work{};
  case cudaGraphNodeTypeWaitEvent:
  case cudaGraphNodeTypeEventRecord: {
    Work w;
    w.type = p.type;
    w.event = p.type == cudaGraphNodeTypeWaitEvent ? p.eventWait.event
                                                   : p.eventRecord.event;
    return w;
  }
  case cudaGraphNodeTypeMemFree: {
    Work w;
    w.type = cudaGraphNodeTypeMemFree;
    w.dptr = p.free.dptr;
    return w;
  }
  case cudaGraphNodeTypeMemAlloc:
  case cudaGraphNodeTypeExtSemaphoreSignal:
  case cudaGraphNodeTypeExtSemaphoreWait:
  case cudaGraphNodeTypeConditional:
  case cudaGraphNodeTypeCount:
    break;
  }
  return std::nullopt;
}

} // namespace kcheck::host::graph

namespace kcheck::host::entry {

namespace {

using namespace graph;

// cudaLaunchAttributeDeviceUpdatableKernelNode.
constexpr int kDeviceUpdatable = 13;

// Sets the parameters of a node of `type`, in a graph or an exec.
template <class F>
cudaError_t setParams(cudaGraphExec_t e, cudaGraphNode_t n,
                      cudaGraphNodeType type, bool inExec, F set) {
  Node *node = typedNode(e, n, type, inExec);
  if (!node)
    return fail(cudaErrorInvalidValue);
  return set(node->work);
}

cudaError_t kernelParams(Work &w, const cudaKernelNodeParams *p) {
  if (!p)
    return fail(cudaErrorInvalidValue);
  cudaError_t error = cudaSuccess;
  std::optional<Work> k =
      kernelWork(p->func, p->gridDim, p->blockDim, p->sharedMemBytes,
                 p->kernelParams, p->extra, error);
  if (!k)
    return fail(error);
  k->kernel.attributes = w.kernel.attributes;
  k->kernel.cooperative = w.kernel.cooperative;
  k->kernel.cluster = w.kernel.cluster;
  w.kernel = k->kernel;
  return cudaSuccess;
}
cudaError_t apiGraphKernelNodeGetParams(cudaGraphNode_t n,
                                        cudaKernelNodeParams *p) {
  Node *node = typedNode(nullptr, n, cudaGraphNodeTypeKernel, false);
  if (!node || !p)
    return fail(cudaErrorInvalidValue);
  const KernelLaunch &k = node->work.kernel;
  *p = {k.func, k.grid, k.block, k.shared, k.pointers().data(), nullptr};
  return cudaSuccess;
}
cudaError_t apiGraphKernelNodeSetParams(cudaGraphNode_t n,
                                        const cudaKernelNodeParams *p) {
  return setParams(nullptr, n, cudaGraphNodeTypeKernel, false,
                   [&](Work &w) { return kernelParams(w, p); });
}
cudaError_t apiGraphExecKernelNodeSetParams(cudaGraphExec_t e,
                                            cudaGraphNode_t n,
                                            const cudaKernelNodeParams *p) {
  return setParams(e, n, cudaGraphNodeTypeKernel, true,
                   [&](Work &w) { return kernelParams(w, p); });
}

cudaError_t copyParams(Work &w, const cudaMemcpy3DParms *p) {
  if (!p)
    return fail(cudaErrorInvalidValue);
  w.copy = *p;
  return cudaSuccess;
}
cudaError_t apiGraphMemcpyNodeGetParams(cudaGraphNode_t n,
                                        cudaMemcpy3DParms *p) {
  Node *node = typedNode(nullptr, n, cudaGraphNodeTypeMemcpy, false);
  if (!node || !p)
    return fail(cudaErrorInvalidValue);
  *p = node->work.copy;
  return cudaSuccess;
}
cudaError_t apiGraphMemcpyNodeSetParams(cudaGraphNode_t n,
                                        const cudaMemcpy3DParms *p) {
  return setParams(nullptr, n, cudaGraphNodeTypeMemcpy, false,
                   [&](Work &w) { return copyParams(w, p); });
}
cudaError_t apiGraphExecMemcpyNodeSetParams(cudaGraphExec_t e,
                                            cudaGraphNode_t n,
                                            const cudaMemcpy3DParms *p) {
  return setParams(e, n, cudaGraphNodeTypeMemcpy, true,
                   [&](Work &w) { return copyParams(w, p); });
}
cudaError_t copy1D(cudaGraphExec_t e, cudaGraphNode_t n, bool inExec, void *dst,
                   const void *src, size_t count, cudaMemcpyKind kind) {
  return setParams(e, n, cudaGraphNodeTypeMemcpy, inExec, [&](Work &w) {
    w.copy = copyWork1D(dst, src, count, kind).copy;
    return cudaSuccess;
  });
}
cudaError_t apiGraphMemcpyNodeSetParams1D(cudaGraphNode_t n, void *dst,
                                          const void *src, size_t count,
                                          cudaMemcpyKind kind) {
  return copy1D(nullptr, n, false, dst, src, count, kind);
}
cudaError_t apiGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t e,
                                              cudaGraphNode_t n, void *dst,
                                              const void *src, size_t count,
                                              cudaMemcpyKind kind) {
  return copy1D(e, n, true, dst, src, count, kind);
}
// A symbol's copies: 1D copies from or to its device address.
cudaError_t symbolCopy(cudaGraphExec_t e, cudaGraphNode_t n, bool inExec,
                       void *dst, const void *src, const void *symbol,
                       size_t count, size_t offset, cudaMemcpyKind kind) {
  std::optional<uint64_t> a = rt().variableAddress(symbol, offset, count);
  if (!a)
    return fail(cudaErrorInvalidSymbol);
  void *at = reinterpret_cast<void *>(*a);
  return copy1D(e, n, inExec, dst ? dst : at, src ? src : at, count, kind);
}
cudaError_t apiGraphMemcpyNodeSetParamsToSymbol(cudaGraphNode_t n,
                                                const void *symbol,
                                                const void *src, size_t count,
                                                size_t offset,
                                                cudaMemcpyKind kind) {
  return symbolCopy(nullptr, n, false, nullptr, src, symbol, count, offset,
                    kind);
}
cudaError_t apiGraphMemcpyNodeSetParamsFromSymbol(cudaGraphNode_t n, void *dst,
                                                  const void *symbol,
                                                  size_t count, size_t offset,
                                                  cudaMemcpyKind kind) {
  return symbolCopy(nullptr, n, false, dst, nullptr, symbol, count, offset,
                    kind);
}
cudaError_t apiGraphExecMemcpyNodeSetParamsToSymbol(
    cudaGraphExec_t e, cudaGraphNode_t n, const void *symbol, const void *src,
    size_t count, size_t offset, cudaMemcpyKind kind) {
  return symbolCopy(e, n, true, nullptr, src, symbol, count, offset, kind);
}
cudaError_t apiGraphExecMemcpyNodeSetParamsFromSymbol(
    cudaGraphExec_t e, cudaGraphNode_t n, void *dst, const void *symbol,
    size_t count, size_t offset, cudaMemcpyKind kind) {
  return symbolCopy(e, n, true, dst, nullptr, symbol, count, offset, kind);
}

cudaError_t apiGraphMemsetNodeGetParams(cudaGraphNode_t n,
                                        cudaMemsetParams *p) {
  Node *node = typedNode(nullptr, n, cudaGraphNodeTypeMemset, false);
  if (!node || !p)
    return fail(cudaErrorInvalidValue);
  *p = node->work.memset;
  return cudaSuccess;
}
cudaError_t memsetParams(Work &w, const cudaMemsetParams *p) {
  if (!p)
    return fail(cudaErrorInvalidValue);
  w.memset = *p;
  return cudaSuccess;
}
cudaError_t apiGraphMemsetNodeSetParams(cudaGraphNode_t n,
                                        const cudaMemsetParams *p) {
  return setParams(nullptr, n, cudaGraphNodeTypeMemset, false,
                   [&](Work &w) { return memsetParams(w, p); });
}
cudaError_t apiGraphExecMemsetNodeSetParams(cudaGraphExec_t e,
                                            cudaGraphNode_t n,
                                            const cudaMemsetParams *p) {
  return setParams(e, n, cudaGraphNodeTypeMemset, true,
                   [&](Work &w) { return memsetParams(w, p); });
}

cudaError_t apiGraphHostNodeGetParams(cudaGraphNode_t n,
                                      cudaHostNodeParams *p) {
  Node *node = typedNode(nullptr, n, cudaGraphNodeTypeHost, false);
  if (!node || !p)
    return fail(cudaErrorInvalidValue);
  *p = node->work.host;
  return cudaSuccess;
}
cudaError_t hostParams(Work &w, const cudaHostNodeParams *p) {
  if (!p || !p->fn)
    return fail(cudaErrorInvalidValue);
  w.host = *p;
  return cudaSuccess;
}
cudaError_t apiGraphHostNodeSetParams(cudaGraphNode_t n,
                                      const cudaHostNodeParams *p) {
  return setParams(nullptr, n, cudaGraphNodeTypeHost, false,
                   [&](Work &w) { return hostParams(w, p); });
}
cudaError_t apiGraphExecHostNodeSetParams(cudaGraphExec_t e, cudaGraphNode_t n,
                                          const cudaHostNodeParams *p) {
  return setParams(e, n, cudaGraphNodeTypeHost, true,
                   [&](Work &w) { return hostParams(w, p); });
}

cudaError_t apiGraphChildGraphNodeGetGraph(cudaGraphNode_t n,
                                           cudaGraph_t *out) {
  Node *node = typedNode(nullptr, n, cudaGraphNodeTypeGraph, false);
  if (!node || !out)
    return fail(cudaErrorInvalidValue);
  *out = handle(node->work.child.get());
  return cudaSuccess;
}
// An exec's child graph takes the parameters of a graph of the same
// topology (node for node, in creation order).
cudaError_t apiGraphExecChildGraphNodeSetParams(cudaGraphExec_t e,
                                                cudaGraphNode_t n,
                                                cudaGraph_t child) {
  Node *node = typedNode(e, n, cudaGraphNodeTypeGraph, true);
  Graph *c = graphOf(child);
  if (!node || !c || c->nodes.size() != node->work.child->nodes.size())
    return fail(cudaErrorInvalidValue);
  for (size_t i = 0; i < c->nodes.size(); ++i)
    if (c->nodes[i]->work.type != node->work.child->nodes[i]->work.type)
      return fail(cudaErrorInvalidValue);
  for (size_t i = 0; i < c->nodes.size(); ++i)
    node->work.child->nodes[i]->work = c->nodes[i]->work;
  return cudaSuccess;
}

cudaError_t getEvent(cudaGraphNode_t n, cudaGraphNodeType type,
                     cudaEvent_t *out) {
  Node *node = typedNode(nullptr, n, type, false);
  if (!node || !out)
    return fail(cudaErrorInvalidValue);
  *out = node->work.event;
  return cudaSuccess;
}
cudaError_t setEvent(cudaGraphExec_t e, cudaGraphNode_t n,
                     cudaGraphNodeType type, bool inExec, cudaEvent_t event) {
  return setParams(e, n, type, inExec, [&](Work &w) {
    if (!event)
      return fail(cudaErrorInvalidValue);
    w.event = event;
    return cudaSuccess;
  });
}
cudaError_t apiGraphEventRecordNodeGetEvent(cudaGraphNode_t n,
                                            cudaEvent_t *out) {
  return getEvent(n, cudaGraphNodeTypeEventRecord, out);
}
cudaError_t apiGraphEventWaitNodeGetEvent(cudaGraphNode_t n, cudaEvent_t *out) {
  return getEvent(n, cudaGraphNodeTypeWaitEvent, out);
}
cudaError_t apiGraphEventRecordNodeSetEvent(cudaGraphNode_t n,
                                            cudaEvent_t event) {
  return setEvent(nullptr, n, cudaGraphNodeTypeEventRecord, false, event);
}
cudaError_t apiGraphEventWaitNodeSetEvent(cudaGraphNode_t n,
                                          cudaEvent_t event) {
  return setEvent(nullptr, n, cudaGraphNodeTypeWaitEvent, false, event);
}
cudaError_t apiGraphExecEventRecordNodeSetEvent(cudaGraphExec_t e,
                                                cudaGraphNode_t n,
                                                cudaEvent_t event) {
  return setEvent(e, n, cudaGraphNodeTypeEventRecord, true, event);
}
cudaError_t apiGraphExecEventWaitNodeSetEvent(cudaGraphExec_t e,
                                              cudaGraphNode_t n,
                                              cudaEvent_t event) {
  return setEvent(e, n, cudaGraphNodeTypeWaitEvent, true, event);
}

cudaError_t apiGraphMemAllocNodeGetParams(cudaGraphNode_t n,
                                          cudaMemAllocNodeParams *p) {
  Node *node = typedNode(nullptr, n, cudaGraphNodeTypeMemAlloc, false);
  if (!node || !p)
    return fail(cudaErrorInvalidValue);
  *p = cudaMemAllocNodeParams{};
  p->poolProps.allocType = 1;     // cudaMemAllocationTypePinned
  p->poolProps.location = {1, 0}; // cudaMemLocationTypeDevice, device 0
  p->bytesize = node->work.bytes;
  p->dptr = node->work.dptr;
  return cudaSuccess;
}
cudaError_t apiGraphMemFreeNodeGetParams(cudaGraphNode_t n, void *out) {
  Node *node = typedNode(nullptr, n, cudaGraphNodeTypeMemFree, false);
  if (!node || !out)
    return fail(cudaErrorInvalidValue);
  std::memcpy(out, &node->work.dptr, sizeof(void *));
  return cudaSuccess;
}

// The generic forms: a node's whole parameters of its type.
cudaError_t nodeSetParams(Node *node, cudaGraphNodeParams *p) {
  if (!node || !p || p->type != node->work.type)
    return fail(cudaErrorInvalidValue);
  cudaError_t error;
  std::optional<Work> w = genericWork(*p, error);
  if (!w)
    return fail(error);
  if (w->type == cudaGraphNodeTypeKernel)
    w->kernel.attributes = node->work.kernel.attributes;
  // A graph's child graph is a handle the program may hold: the old one
  // goes, the new one comes (an exec's are no handles).
  bool live = state().liveNodes.count(node) != 0;
  if (live && node->work.child)
    forget(*node->work.child);
  node->work = std::move(*w);
  if (live && node->work.child)
    remember(*node->work.child);
  return cudaSuccess;
}
cudaError_t apiGraphNodeSetParams(cudaGraphNode_t n, cudaGraphNodeParams *p) {
  return nodeSetParams(nodeOf(n), p);
}
cudaError_t apiGraphExecNodeSetParams(cudaGraphExec_t e, cudaGraphNode_t n,
                                      cudaGraphNodeParams *p) {
  return nodeSetParams(execNode(e, n), p);
}

// Kernel node attributes: cudaLaunchAttributeValue's 64 bytes each.
cudaError_t apiGraphKernelNodeGetAttribute(cudaGraphNode_t n, int id,
                                           void *value) {
  Node *node = typedNode(nullptr, n, cudaGraphNodeTypeKernel, false);
  if (!node || !value || id <= 0 || id > 16)
    return fail(cudaErrorInvalidValue);
  std::memset(value, 0, CudaRuntime::kAttributeBytes);
  auto it = node->work.kernel.attributes.find(id);
  if (it != node->work.kernel.attributes.end())
    std::memcpy(value, it->second.data(), it->second.size());
  return cudaSuccess;
}
cudaError_t apiGraphKernelNodeSetAttribute(cudaGraphNode_t n, int id,
                                           const void *value) {
  Node *node = typedNode(nullptr, n, cudaGraphNodeTypeKernel, false);
  if (!node || !value || id <= 0 || id > 16)
    return fail(cudaErrorInvalidValue);
  if (id == 4) { // cudaLaunchAttributeClusterDimension
    unsigned dim[3];
    std::memcpy(dim, value, sizeof dim);
    node->work.kernel.cluster = core::Dim3{dim[0], dim[1], dim[2]};
  }
  if (id == kDeviceUpdatable) {
    // {int deviceUpdatable; cudaGraphDeviceNode_t devNode}: 0 or 1, no
    // opting out (cudaErrorNotSupported, as the H200); the handle is
    // written back into the caller's value, as the H200 does.
    int on;
    std::memcpy(&on, value, sizeof on);
    if (on != 0 && on != 1)
      return fail(cudaErrorInvalidValue);
    if (!on && node->work.kernel.deviceUpdatable)
      return fail(cudaErrorNotSupported);
    node->work.kernel.deviceUpdatable = on;
    if (on) {
      cudaGraphNode_t h = handle(node);
      std::memcpy(static_cast<char *>(const_cast<void *>(value)) + 8, &h,
                  sizeof h);
    }
  }
  auto &bytes = node->work.kernel.attributes[id];
  std::memcpy(bytes.data(), value, bytes.size());
  if (id == 2) { // cudaLaunchAttributeCooperative
    int cooperative;
    std::memcpy(&cooperative, value, sizeof cooperative);
    node->work.kernel.cooperative = cooperative != 0;
  }
  return cudaSuccess;
}
cudaError_t apiGraphKernelNodeCopyAttributes(cudaGraphNode_t dst,
                                             cudaGraphNode_t src) {
  Node *d = typedNode(nullptr, dst, cudaGraphNodeTypeKernel, false);
  Node *s = typedNode(nullptr, src, cudaGraphNodeTypeKernel, false);
  if (!d || !s)
    return fail(cudaErrorInvalidValue);
  // Not to or from a device-updatable node (the reference; the H200:
  // cudaErrorNotSupported).
  if (d->work.kernel.deviceUpdatable || s->work.kernel.deviceUpdatable)
    return fail(cudaErrorNotSupported);
  d->work.kernel.attributes = s->work.kernel.attributes;
  d->work.kernel.cooperative = s->work.kernel.cooperative;
  d->work.kernel.cluster = s->work.kernel.cluster;
  return cudaSuccess;
}

// Kernel, memset and memcpy nodes of an exec can be disabled (the H200
// refuses the others with an invalid value).
bool canDisable(const Node *n) {
  return n->work.type == cudaGraphNodeTypeKernel ||
         n->work.type == cudaGraphNodeTypeMemset ||
         n->work.type == cudaGraphNodeTypeMemcpy;
}
cudaError_t apiGraphNodeSetEnabled(cudaGraphExec_t e, cudaGraphNode_t n,
                                   unsigned enabled) {
  Node *node = execNode(e, n);
  if (!node || !canDisable(node))
    return fail(cudaErrorInvalidValue);
  node->enabled = enabled != 0;
  return cudaSuccess;
}
cudaError_t apiGraphNodeGetEnabled(cudaGraphExec_t e, cudaGraphNode_t n,
                                   unsigned *enabled) {
  Node *node = execNode(e, n);
  if (!node || !enabled || !canDisable(node))
    return fail(cudaErrorInvalidValue);
  *enabled = node->enabled;
  return cudaSuccess;
}

} // namespace

EntryPoints graphParamEntryPoints() {
  return {
      {"cudaGraphKernelNodeGetParams",
       serialized<apiGraphKernelNodeGetParams>()},
      {"cudaGraphKernelNodeSetParams",
       serialized<apiGraphKernelNodeSetParams>()},
      {"cudaGraphExecKernelNodeSetParams",
       serialized<apiGraphExecKernelNodeSetParams>()},
      {"cudaGraphMemcpyNodeGetParams",
       serialized<apiGraphMemcpyNodeGetParams>()},
      {"cudaGraphMemcpyNodeSetParams",
       serialized<apiGraphMemcpyNodeSetParams>()},
      {"cudaGraphExecMemcpyNodeSetParams",
       serialized<apiGraphExecMemcpyNodeSetParams>()},
      {"cudaGraphMemcpyNodeSetParams1D",
       serialized<apiGraphMemcpyNodeSetParams1D>()},
      {"cudaGraphExecMemcpyNodeSetParams1D",
       serialized<apiGraphExecMemcpyNodeSetParams1D>()},
      {"cudaGraphMemcpyNodeSetParamsToSymbol",
       serialized<apiGraphMemcpyNodeSetParamsToSymbol>()},
      {"cudaGraphMemcpyNodeSetParamsFromSymbol",
       serialized<apiGraphMemcpyNodeSetParamsFromSymbol>()},
      {"cudaGraphExecMemcpyNodeSetParamsToSymbol",
       serialized<apiGraphExecMemcpyNodeSetParamsToSymbol>()},
      {"cudaGraphExecMemcpyNodeSetParamsFromSymbol",
       serialized<apiGraphExecMemcpyNodeSetParamsFromSymbol>()},
      {"cudaGraphMemsetNodeGetParams",
       serialized<apiGraphMemsetNodeGetParams>()},
      {"cudaGraphMemsetNodeSetParams",
       serialized<apiGraphMemsetNodeSetParams>()},
      {"cudaGraphExecMemsetNodeSetParams",
       serialized<apiGraphExecMemsetNodeSetParams>()},
      {"cudaGraphHostNodeGetParams", serialized<apiGraphHostNodeGetParams>()},
      {"cudaGraphHostNodeSetParams", serialized<apiGraphHostNodeSetParams>()},
      {"cudaGraphExecHostNodeSetParams",
       serialized<apiGraphExecHostNodeSetParams>()},
      {"cudaGraphChildGraphNodeGetGraph",
       serialized<apiGraphChildGraphNodeGetGraph>()},
      {"cudaGraphExecChildGraphNodeSetParams",
       serialized<apiGraphExecChildGraphNodeSetParams>()},
      {"cudaGraphEventRecordNodeGetEvent",
       serialized<apiGraphEventRecordNodeGetEvent>()},
      {"cudaGraphEventWaitNodeGetEvent",
       serialized<apiGraphEventWaitNodeGetEvent>()},
      {"cudaGraphEventRecordNodeSetEvent",
       serialized<apiGraphEventRecordNodeSetEvent>()},
      {"cudaGraphEventWaitNodeSetEvent",
       serialized<apiGraphEventWaitNodeSetEvent>()},
      {"cudaGraphExecEventRecordNodeSetEvent",
       serialized<apiGraphExecEventRecordNodeSetEvent>()},
      {"cudaGraphExecEventWaitNodeSetEvent",
       serialized<apiGraphExecEventWaitNodeSetEvent>()},
      {"cudaGraphMemAllocNodeGetParams",
       serialized<apiGraphMemAllocNodeGetParams>()},
      {"cudaGraphMemFreeNodeGetParams",
       serialized<apiGraphMemFreeNodeGetParams>()},
      {"cudaGraphNodeSetParams", serialized<apiGraphNodeSetParams>()},
      {"cudaGraphExecNodeSetParams", serialized<apiGraphExecNodeSetParams>()},
      {"cudaGraphKernelNodeGetAttribute",
       serialized<apiGraphKernelNodeGetAttribute>()},
      {"cudaGraphKernelNodeSetAttribute",
       serialized<apiGraphKernelNodeSetAttribute>()},
      {"cudaGraphKernelNodeCopyAttributes",
       serialized<apiGraphKernelNodeCopyAttributes>()},
      {"cudaGraphNodeSetEnabled", serialized<apiGraphNodeSetEnabled>()},
      {"cudaGraphNodeGetEnabled", serialized<apiGraphNodeGetEnabled>()},
  };
}

} // namespace kcheck::host::entry
