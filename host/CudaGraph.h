// CUDA graphs in kcheck's runtime (internal to host/): graphs of nodes with
// the parameters the API gives them, the executable graphs instantiated from
// them, user objects, and the stream captures that record work as nodes.
//
// Work is synchronous (CudaRuntime.h), so a graph launch runs its nodes one
// after another in an order that respects every edge (creation order among
// the ready ones), as a single stream would; what a graph adds is that work
// recorded once runs again at each launch, with the parameters (and
// argument values) it was recorded with.
#pragma once

#include "core/Launch.h"

#include "host/CudaRuntimeEntry.h"

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <vector>

namespace kcheck::host::graph {

struct Graph;

/// A kernel node's launch, its arguments copied when the node was made (as
/// the runtime copies them: later changes to the caller's variables do not
/// reach the node).
struct KernelLaunch {
  void *func = nullptr;
  dim3 grid, block;
  unsigned shared = 0;
  std::vector<std::vector<char>> args;
  // cudaKernelNodeAttrValue's 64 bytes per attribute set (priority, ...).
  std::map<int, std::array<char, CudaRuntime::kAttributeBytes>> attributes;
  bool cooperative = false;
  // cudaLaunchAttributeClusterDimension, from the launch captured or the
  // node's attribute (attributes[4]): nullopt, none.
  std::optional<core::Dim3> cluster;
  // cudaLaunchAttributeDeviceUpdatableKernelNode: kernels may update it
  // (CudaRuntimeDeviceGraphs.cpp); its handle is the graph's node.
  bool deviceUpdatable = false;
  /// Pointers to args, as kernelParams (rebuilt on each call).
  std::vector<void *> &pointers() const;

private:
  mutable std::vector<void *> pointers_;
};

/// What a node does: its type and the parameters of that type.
struct Work {
  cudaGraphNodeType type = cudaGraphNodeTypeEmpty;
  KernelLaunch kernel;
  cudaMemcpy3DParms copy{};
  cudaMemsetParams memset{};
  cudaHostNodeParams host{};
  std::unique_ptr<Graph> child; // cudaGraphNodeTypeGraph: its own copy
  cudaEvent_t event = nullptr;  // record and wait nodes
  void *dptr = nullptr;         // allocation and free nodes
  size_t bytes = 0;             // allocation nodes
  // Conditional nodes: the handle, the kind, and the bodies (each the
  // node's own graph; bodyHandles is the cudaGraph_t array phGraph_out
  // points to).
  cudaGraphConditionalHandle conditional = 0;
  cudaGraphConditionalNodeType conditionalType = cudaGraphCondTypeIf;
  std::vector<std::unique_ptr<Graph>> bodies;
  std::vector<cudaGraph_t> bodyHandles;

  /// The graphs the node holds: its child graph or its bodies.
  std::vector<Graph *> subgraphs() const;

  Work() = default;
  Work(const Work &other);
  Work &operator=(const Work &other);
  Work(Work &&) = default;
  Work &operator=(Work &&) = default;
};

struct Node {
  Graph *graph = nullptr;
  Work work;
  std::vector<Node *> deps, dependents; // in the order the edges were made
  bool enabled = true;                  // cudaGraphNodeSetEnabled (execs)
  const Node *origin = nullptr;         // in a clone: the node cloned
};

struct UserObject {
  void *ptr = nullptr;
  cudaHostFn_t destroy = nullptr;
  unsigned references = 0;
};

struct Graph {
  std::vector<std::unique_ptr<Node>> nodes; // creation order
  const Graph *cloneOf = nullptr;
  // A child graph's or a body's node (null: a graph of the program's).
  const Node *parent = nullptr;
  std::map<UserObject *, unsigned> references; // user objects it holds
};

struct Exec {
  std::unique_ptr<Graph> graph;
  const Graph *source = nullptr; // the graph instantiated (null: destroyed)
  // cudaGraphInstantiateFlagDeviceLaunch, and whether it was uploaded (by
  // cudaGraphUpload, the instantiation's upload or a host launch): what a
  // kernel's cudaGraphLaunch of it needs.
  bool deviceLaunch = false, uploaded = false;
  unsigned long long flags = 0;
  std::map<const Node *, Node *>
      nodeOf; // the instantiated graph's node -> ours
};

/// One capture sequence: the streams that joined it share its graph.
struct Capture {
  unsigned long long id = 0;
  Graph *graph = nullptr;
  cudaStream_t origin = nullptr;
  int mode = 0;
  bool invalidated = false;
  bool ownsGraph = false; // made by cudaStreamBeginCapture (not ...ToGraph)
};
struct CapturingStream {
  Capture *capture = nullptr;
  std::vector<Node *> deps; // what the stream's next node depends on
  std::vector<cudaGraphEdgeData> edges; // as many zeroed edges, for queries
};

/// All of it, for one runtime (CudaRuntime::graphs).
struct State {
  std::map<const Graph *, std::unique_ptr<Graph>> graphs; // the program's
  std::set<const Graph *> liveGraphs; // those and every child graph
  std::set<const Node *> liveNodes;
  std::map<const Exec *, std::unique_ptr<Exec>> execs;
  std::map<const UserObject *, std::unique_ptr<UserObject>> userObjects;
  std::map<unsigned long long, Capture> captures;
  std::map<cudaStream_t, CapturingStream> streams;
  // Events recorded while capturing: the capture and the nodes a wait on
  // them depends on.
  std::map<cudaEvent_t, std::pair<unsigned long long, std::vector<Node *>>>
      events;
  unsigned long long nextCaptureId = 1;
  // Graph allocations: made at capture (or node creation) time, in use from
  // the allocation node's run to the free node's.
  std::map<const void *, size_t> allocationBytes, inUse;
  uint64_t memHigh = 0;
  // Conditional handles (cudaGraphConditionalHandleCreate), numbered from
  // 1 as the H200 numbers them.
  struct Conditional {
    const Graph *graph = nullptr; // the graph it was made for
    unsigned defaultValue = 0;
    bool assignDefault = false; // cudaGraphCondAssignDefault
    // Between launches: what the last launch left (the first launch without
    // cudaGraphCondAssignDefault reads 0, as on a fresh H200 context), and
    // whether any launch or default gave it a value.
    uint32_t value = 0;
    bool set = false;
  };
  std::map<cudaGraphConditionalHandle, Conditional> conditionals;
  cudaGraphConditionalHandle nextConditional = 1;
  // The graph launches being run, innermost last (CudaRuntimeDeviceGraphs):
  // the exec, the kernel that launched it from the device (null: the host),
  // and the device graph launches its kernels made.
  struct Launched { // a device graph launch a kernel made
    Exec *exec = nullptr;
    std::optional<core::DeviceLaunchOrigin> origin; // that kernel
  };
  struct Frame {
    Exec *exec = nullptr;
    std::optional<core::DeviceLaunchOrigin> origin; // null: the host's
    std::vector<Launched> fireAndForget, tail;
  };
  std::vector<Frame> frames;
};

State &state();

// Graphs and nodes (CudaRuntimeGraphs.cpp).
Graph *graphOf(cudaGraph_t g);
Node *nodeOf(cudaGraphNode_t n);
inline cudaGraph_t handle(Graph *g) { return reinterpret_cast<cudaGraph_t>(g); }
inline cudaGraphNode_t handle(Node *n) {
  return reinterpret_cast<cudaGraphNode_t>(n);
}
/// The nodes of handles `deps` (n of them), each of `g` and none twice;
/// nullopt if one is not.
std::optional<std::vector<Node *>>
nodesOf(Graph &g, const cudaGraphNode_t *deps, size_t n);
/// cudaGraphAdd*Node's common part: a node of `work` in `graph` after
/// `deps`, its handle in `out` (an invalid value for a bad argument).
cudaError_t addApiNode(cudaGraphNode_t *out, cudaGraph_t graph,
                       const cudaGraphNode_t *deps, size_t n, Work work);
/// An allocation node's work: `bytes` reserved now, at the address the
/// node will give (CudaRuntimeGraphExec.cpp).
cudaError_t allocationWork(size_t bytes, Work &w);
/// A node of `work` in `g` after `deps` (each a node of g).
Node *addNode(Graph &g, Work work, const std::vector<Node *> &deps);
/// A deep copy of `g` whose nodes remember theirs (Node::origin); `map`
/// gets each node of g -> its copy.
std::unique_ptr<Graph>
cloneGraph(const Graph &g, std::map<const Node *, Node *> *map = nullptr);
/// Remembers every node of `g` (and of its child graphs) as a live handle,
/// and forgets them.
void remember(Graph &g);
void forget(Graph &g);
/// Releases `count` references of `g` to `o`, destroying o at the last.
void release(UserObject *o, unsigned count);

/// The work of a kernel launch (arguments copied from `args` or from the
/// `extra` buffer); nullopt, with `error`, if `func` is not a kernel of the
/// program (cudaErrorInvalidDeviceFunction) or the GPU refuses the
/// dimensions (cudaErrorInvalidValue, before any argument is read).
std::optional<Work> kernelWork(const void *func, dim3 grid, dim3 block,
                               unsigned shared, void **args, void **extra,
                               cudaError_t &error);
Work copyWork(const cudaMemcpy3DParms &p);
/// A 1D copy as the runtime records it: a 3D copy of one row.
Work copyWork1D(void *dst, const void *src, size_t n, cudaMemcpyKind kind);
Work memsetWork(const cudaMemsetParams &p);
Work hostWork(cudaHostFn_t fn, void *data);

/// Node `n` of `type`, of a graph or (inExec) of exec `e`: null if none.
Node *typedNode(cudaGraphExec_t e, cudaGraphNode_t n, cudaGraphNodeType type,
                bool inExec);
/// The work of a generic cudaGraphNodeParams (all but allocation nodes,
/// which the caller makes), or nullopt with `error` set
/// (CudaRuntimeGraphParams.cpp).
std::optional<Work> genericWork(const cudaGraphNodeParams &p,
                                cudaError_t &error);

// Conditional nodes (CudaRuntimeGraphConditionals.cpp).
/// The work of a conditional node's parameters, its bodies made (with
/// `p.phGraph_out` to be pointed at them once the node holds them), or
/// nullopt with `error` set, for a node in `g`.
std::optional<Work> conditionalWork(const Graph &g,
                                    const cudaConditionalNodeParams &p,
                                    cudaError_t &error);
/// Whether `g` holds a conditional node, in itself or any graph it holds.
bool hasConditionals(const Graph &g);
/// Whether a node of `g`, or of any graph it holds, satisfies `pred`.
template <class Pred> bool anyNode(const Graph &g, Pred pred) {
  for (const auto &n : g.nodes) {
    if (pred(*n))
      return true;
    for (const Graph *s : n->work.subgraphs())
      if (anyNode(*s, pred))
        return true;
  }
  return false;
}
/// What instantiating `g` refuses for its conditional nodes: a body that
/// holds a node a body may not, a handle of g no node uses (`result`);
/// cudaSuccess if none.
cudaError_t conditionalRefusal(const Graph &g,
                               cudaGraphInstantiateResult &result);
/// Runs a conditional node: its body as its handle's value says.
cudaError_t runConditional(const Work &w);
/// A launch of exec graph `g`: its handles get their values (the default,
/// or what the last launch left) for the kernels to set and the nodes to
/// read, then run(g), then the values are kept for the next launch.
cudaError_t runWithConditionals(const Graph &g);

// Device graph launch (CudaRuntimeDeviceGraphs.cpp).
/// The exec of handle `e`, or null (CudaRuntimeGraphExec.cpp).
Exec *execOf(cudaGraphExec_t e);
/// A launch of exec `e` (from the host, or queued by a kernel): its graph
/// run, then the graphs its kernels tail-launched, in launch order.
cudaError_t runExec(Exec &e,
                    const std::optional<core::DeviceLaunchOrigin> &origin = {});
/// The origin of the kernels of the graph being run (null: a host launch).
std::optional<core::DeviceLaunchOrigin> runningOrigin();
/// After a kernel node: the graphs its kernel launched fire-and-forget.
cudaError_t runFireAndForget();
/// What instantiating `g` for device launch refuses: a node other than a
/// kernel, memset, memcpy (of device or pinned memory) or child graph.
bool deviceLaunchable(const Graph &g);
/// Whether `g` holds a device-updatable kernel node (in itself or a graph
/// it holds): such a graph has one instantiation, and no exec update.
bool hasDeviceUpdatable(const Graph &g);

// Running and capturing (CudaRuntimeCapture.cpp, CudaRuntimeGraphExec.cpp).
/// Runs every enabled node of `g`, dependencies first.
cudaError_t run(const Graph &g);
/// `g`'s nodes in the order run() takes them; fewer than g has if the
/// edges make a cycle.
std::vector<const Node *> runOrder(const Graph &g);

} // namespace kcheck::host::graph

namespace kcheck::host::entry {

/// True while `stream` belongs to a capture (active or invalidated): work
/// given to it goes to capture(), not to the device.
bool capturing(cudaStream_t stream);
/// Records `work` as the next node of `stream`'s capture.
cudaError_t capture(cudaStream_t stream, graph::Work work);
/// The node `stream`'s capture recorded last (null: none, or several).
graph::Node *lastCaptured(cudaStream_t stream);
/// cudaEventRecord and cudaStreamWaitEvent while capturing: the event
/// takes the stream's dependencies, a wait joins the event's capture.
cudaError_t captureEventRecord(cudaEvent_t event, cudaStream_t stream);
/// nullopt: neither the stream nor the event belongs to a capture.
std::optional<cudaError_t> captureStreamWait(cudaStream_t stream,
                                             cudaEvent_t event);
/// cudaStreamSynchronize and cudaStreamQuery on a capturing stream: not
/// permitted, and the capture is invalidated.
cudaError_t captureSynchronize(cudaStream_t stream);
/// cudaMallocAsync and cudaFreeAsync on a capturing stream: allocation and
/// free nodes (the address is reserved now, as the runtime reserves it).
cudaError_t captureMalloc(void **ptr, size_t size, cudaStream_t stream);
cudaError_t captureFree(void *ptr, cudaStream_t stream);

} // namespace kcheck::host::entry
