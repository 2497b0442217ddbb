// Conformance program for conditional graph nodes
// (cudaGraphNodeTypeConditional: if/else, while and switch), written from the
// Runtime API reference (cudaGraphConditionalHandleCreate,
// cudaConditionalNodeParams, cudaGraphSetConditional) and the Programming
// Guide's "Conditional Graph Nodes": what the specification fixes is checked
// (which body runs for a value, that a while body repeats until a kernel sets
// the value to 0, that the default is applied at each launch with
// cudaGraphCondAssignDefault, bodies built node by node, by capture, nested);
// what it leaves open (which error a refused node or instantiation gets, the
// value without cudaGraphCondAssignDefault) is printed as a `probe` line.
#include "conformance_checks.h"

#include <cstring>

#define EQ(value, expected)                                                    \
  do {                                                                         \
    long long v_ = (long long)(value), e_ = (long long)(expected);             \
    ++checks;                                                                  \
    if (v_ != e_) {                                                            \
      ++failures;                                                              \
      std::printf("FAILED %s is %lld, not %lld (line %d)\n", #value, v_, e_,   \
                  __LINE__);                                                   \
    }                                                                          \
  } while (0)

// The condition from device memory: value[0] when it is not negative.
__global__ void setFrom(cudaGraphConditionalHandle h, const int *value) {
  if (threadIdx.x == 0 && value[0] >= 0)
    cudaGraphSetConditional(h, unsigned(value[0]));
}
// One more run of body `which`, by every thread's lane 0 of block 0.
__global__ void mark(int *runs, int which) {
  if (blockIdx.x == 0 && threadIdx.x == 0)
    runs[which] += 1;
}
// A loop's body: counts down n[0] and keeps looping while it is positive;
// also sets the second handle to whether the count left is even.
__global__ void countdown(cudaGraphConditionalHandle loop,
                          cudaGraphConditionalHandle even, int *n) {
  if (threadIdx.x == 0) {
    n[0] -= 1;
    n[1] += 1;
    cudaGraphSetConditional(loop, n[0] > 0);
    if (even)
      cudaGraphSetConditional(even, n[0] % 2 == 0);
  }
}
// Every thread of a 64-thread block stores its index: a kernel in a body
// with more than one warp.
__global__ void fill(int *out, int add) {
  out[threadIdx.x] = threadIdx.x + add;
}

static int *runs = nullptr, *value = nullptr, *counts = nullptr;
// The probes' own: a run count per body, and a 0 for setFrom.
static int *probeRuns = nullptr, *zeroes = nullptr;

static void kernelNode(cudaGraphNode_t *out, cudaGraph_t g,
                       const cudaGraphNode_t *deps, size_t n, void *func,
                       void **args, unsigned threads) {
  cudaKernelNodeParams k = {};
  k.func = func;
  k.gridDim = dim3(1);
  k.blockDim = dim3(threads);
  k.kernelParams = args;
  OK(cudaGraphAddKernelNode(out, g, deps, n, &k));
}
static void markNode(cudaGraph_t body, int which) {
  static int whichArg[16];
  whichArg[which] = which;
  void *args[] = {&runs, &whichArg[which]};
  cudaGraphNode_t n;
  kernelNode(&n, body, nullptr, 0, (void *)mark, args, 32);
}
static cudaGraphNode_t conditionalNode(cudaGraph_t g,
                                       const cudaGraphNode_t *deps, size_t n,
                                       cudaGraphConditionalHandle h,
                                       cudaGraphConditionalNodeType type,
                                       unsigned size, cudaGraph_t *bodies) {
  cudaGraphNodeParams p = {};
  p.type = cudaGraphNodeTypeConditional;
  p.conditional.handle = h;
  p.conditional.type = type;
  p.conditional.size = size;
  cudaGraphNode_t node = nullptr;
  OK(cudaGraphAddNode(&node, g, deps, nullptr, n, &p));
  for (unsigned i = 0; i < size && p.conditional.phGraph_out; ++i)
    bodies[i] = p.conditional.phGraph_out[i];
  return node;
}
static void clearRuns() { OK(cudaMemset(runs, 0, 16 * sizeof(int))); }
static void readRuns(int *h) {
  OK(cudaMemcpy(h, runs, 16 * sizeof(int), cudaMemcpyDeviceToHost));
}
static void setValue(int v) {
  OK(cudaMemcpy(value, &v, sizeof v, cudaMemcpyHostToDevice));
}

// if and if/else: a kernel sets the condition from memory, then the node.
static void ifElse() {
  cudaGraph_t g;
  OK(cudaGraphCreate(&g, 0));
  cudaGraphConditionalHandle h = 0;
  OK(cudaGraphConditionalHandleCreate(&h, g, 0, cudaGraphCondAssignDefault));
  void *args[] = {&h, &value};
  cudaGraphNode_t setter;
  kernelNode(&setter, g, nullptr, 0, (void *)setFrom, args, 32);
  cudaGraph_t bodies[2] = {};
  cudaGraphNode_t node =
      conditionalNode(g, &setter, 1, h, cudaGraphCondTypeIf, 2, bodies);
  CHECK(bodies[0] && bodies[1] && bodies[0] != bodies[1],
        "an if/else node gives two body graphs");
  size_t count = 99;
  OK(cudaGraphGetNodes(bodies[0], nullptr, &count));
  EQ(count, 0);
  cudaGraphNodeType type;
  OK(cudaGraphNodeGetType(node, &type));
  EQ(type, cudaGraphNodeTypeConditional);
  markNode(bodies[0], 0);
  markNode(bodies[1], 1);
  cudaGraphExec_t exec;
  OK(cudaGraphInstantiate(&exec, g, 0));
  int h_runs[16];
  for (int v : {1, 0, 7, -1}) {
    clearRuns();
    setValue(v);
    OK(cudaGraphLaunch(exec, 0));
    OK(cudaStreamSynchronize(0));
    readRuns(h_runs);
    bool taken = v > 0; // -1: not set, the default 0 applies
    EQ(h_runs[0], taken ? 1 : 0);
    EQ(h_runs[1], taken ? 0 : 1);
  }
  OK(cudaGraphExecDestroy(exec));
  OK(cudaGraphDestroy(g));

  // An if without else, whose default is 1.
  OK(cudaGraphCreate(&g, 0));
  OK(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault));
  kernelNode(&setter, g, nullptr, 0, (void *)setFrom, args, 32);
  conditionalNode(g, &setter, 1, h, cudaGraphCondTypeIf, 1, bodies);
  markNode(bodies[0], 2);
  OK(cudaGraphInstantiate(&exec, g, 0));
  for (int v : {-1, 0, 3}) {
    clearRuns();
    setValue(v);
    OK(cudaGraphLaunch(exec, 0));
    OK(cudaStreamSynchronize(0));
    readRuns(h_runs);
    EQ(h_runs[2], v != 0 ? 1 : 0);
  }
  OK(cudaGraphExecDestroy(exec));
  OK(cudaGraphDestroy(g));
}

// while: the body counts n down; with the default 1 applied at each launch
// it runs n times, a nested if in it on every even count left.
static void whileLoops() {
  cudaGraph_t g;
  OK(cudaGraphCreate(&g, 0));
  cudaGraphConditionalHandle loop = 0, even = 0;
  OK(cudaGraphConditionalHandleCreate(&loop, g, 1, cudaGraphCondAssignDefault));
  OK(cudaGraphConditionalHandleCreate(&even, g, 0, cudaGraphCondAssignDefault));
  CHECK(loop != even, "two handles differ");
  cudaGraph_t body[1] = {};
  conditionalNode(g, nullptr, 0, loop, cudaGraphCondTypeWhile, 1, body);
  void *args[] = {&loop, &even, &counts};
  cudaGraphNode_t step;
  kernelNode(&step, body[0], nullptr, 0, (void *)countdown, args, 32);
  cudaGraph_t inner[1] = {};
  conditionalNode(body[0], &step, 1, even, cudaGraphCondTypeIf, 1, inner);
  markNode(inner[0], 3);
  cudaGraphExec_t exec;
  OK(cudaGraphInstantiate(&exec, g, 0));
  int h_runs[16], h_counts[2];
  for (int launch = 0; launch < 2; ++launch) {
    int start[2] = {5, 0};
    OK(cudaMemcpy(counts, start, sizeof start, cudaMemcpyHostToDevice));
    clearRuns();
    OK(cudaGraphLaunch(exec, 0));
    OK(cudaStreamSynchronize(0));
    OK(cudaMemcpy(h_counts, counts, sizeof h_counts, cudaMemcpyDeviceToHost));
    readRuns(h_runs);
    EQ(h_counts[0], 0);
    EQ(h_counts[1], 5); // five iterations, at each launch
    EQ(h_runs[3], 3);   // counts left 4, 2, 0
  }
  OK(cudaGraphExecDestroy(exec));
  OK(cudaGraphDestroy(g));

  // A while whose default is 0 never runs its body.
  OK(cudaGraphCreate(&g, 0));
  OK(cudaGraphConditionalHandleCreate(&loop, g, 0, cudaGraphCondAssignDefault));
  conditionalNode(g, nullptr, 0, loop, cudaGraphCondTypeWhile, 1, body);
  markNode(body[0], 4);
  OK(cudaGraphInstantiate(&exec, g, 0));
  clearRuns();
  OK(cudaGraphLaunch(exec, 0));
  OK(cudaStreamSynchronize(0));
  readRuns(h_runs);
  EQ(h_runs[4], 0);
  OK(cudaGraphExecDestroy(exec));
  OK(cudaGraphDestroy(g));
}

// switch: body n runs for the value n, none past the last; a body may hold
// a memset, a copy and a kernel of two warps.
static void switches() {
  cudaGraph_t g;
  OK(cudaGraphCreate(&g, 0));
  cudaGraphConditionalHandle h = 0;
  OK(cudaGraphConditionalHandleCreate(&h, g, 0, cudaGraphCondAssignDefault));
  void *args[] = {&h, &value};
  cudaGraphNode_t setter;
  kernelNode(&setter, g, nullptr, 0, (void *)setFrom, args, 32);
  cudaGraph_t bodies[4] = {};
  conditionalNode(g, &setter, 1, h, cudaGraphCondTypeSwitch, 4, bodies);
  CHECK(bodies[0] && bodies[1] && bodies[2] && bodies[3],
        "a switch of 4 gives 4 bodies");
  for (int i = 0; i < 4; ++i)
    markNode(bodies[i], 5 + i);
  int *out = nullptr;
  OK(cudaMalloc(&out, 128 * sizeof(int)));
  cudaMemsetParams ms = {};
  ms.dst = out;
  ms.value = 0;
  ms.elementSize = 4;
  ms.width = 128;
  ms.height = 1;
  cudaGraphNode_t memset, kernel, copy;
  OK(cudaGraphAddMemsetNode(&memset, bodies[2], nullptr, 0, &ms));
  int add = 100;
  void *fillArgs[] = {&out, &add};
  kernelNode(&kernel, bodies[2], &memset, 1, (void *)fill, fillArgs, 64);
  OK(cudaGraphAddMemcpyNode1D(&copy, bodies[2], &kernel, 1, out + 64, out,
                              64 * sizeof(int), cudaMemcpyDeviceToDevice));
  cudaGraphExec_t exec;
  OK(cudaGraphInstantiate(&exec, g, 0));
  int h_runs[16];
  for (int v : {2, 0, 3, 9, 1}) {
    clearRuns();
    setValue(v);
    OK(cudaGraphLaunch(exec, 0));
    OK(cudaStreamSynchronize(0));
    readRuns(h_runs);
    for (int i = 0; i < 4; ++i)
      EQ(h_runs[5 + i], i == v ? 1 : 0);
  }
  int h_out[128];
  OK(cudaMemcpy(h_out, out, sizeof h_out, cudaMemcpyDeviceToHost));
  CHECK(h_out[0] == 100 && h_out[63] == 163 && h_out[64] == 100 &&
            h_out[127] == 163,
        "the memset, kernel and copy of body 2 ran");
  OK(cudaGraphExecDestroy(exec));
  OK(cudaGraphDestroy(g));
  OK(cudaFree(out));
}

// Bodies by stream capture: cudaStreamBeginCaptureToGraph fills a body, and
// a conditional node joins a capture through cudaStreamGetCaptureInfo and
// cudaStreamUpdateCaptureDependencies.
static void captured() {
  cudaStream_t s;
  OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  cudaStreamCaptureStatus status;
  cudaGraph_t g = nullptr;
  const cudaGraphNode_t *deps = nullptr;
  size_t n = 0;
  unsigned long long id = 0;
  OK(cudaStreamGetCaptureInfo(s, &status, &id, &g, &deps, nullptr, &n));
  CHECK(status == cudaStreamCaptureStatusActive && g, "capturing");
  cudaGraphConditionalHandle h = 0;
  OK(cudaGraphConditionalHandleCreate(&h, g, 0, cudaGraphCondAssignDefault));
  setFrom<<<1, 32, 0, s>>>(h, value);
  OK(cudaStreamGetCaptureInfo(s, &status, &id, &g, &deps, nullptr, &n));
  EQ(n, 1);
  cudaGraph_t bodies[2] = {};
  cudaGraphNode_t node =
      conditionalNode(g, deps, n, h, cudaGraphCondTypeIf, 2, bodies);
  OK(cudaStreamUpdateCaptureDependencies(s, &node, nullptr, 1,
                                         cudaStreamSetCaptureDependencies));
  mark<<<1, 32, 0, s>>>(runs, 11); // after the node
  cudaGraph_t captured = nullptr;
  OK(cudaStreamEndCapture(s, &captured));
  CHECK(captured == g, "the capture's graph");
  // Each body by capture into it.
  for (int i = 0; i < 2; ++i) {
    OK(cudaStreamBeginCaptureToGraph(s, bodies[i], nullptr, nullptr, 0,
                                     cudaStreamCaptureModeGlobal));
    mark<<<1, 32, 0, s>>>(runs, 9 + i);
    mark<<<1, 32, 0, s>>>(runs, 9 + i);
    cudaGraph_t back = nullptr;
    OK(cudaStreamEndCapture(s, &back));
    CHECK(back == bodies[i], "a capture to a body ends with the body");
  }
  size_t count = 0;
  OK(cudaGraphGetNodes(bodies[1], nullptr, &count));
  EQ(count, 2);
  cudaGraphExec_t exec;
  OK(cudaGraphInstantiate(&exec, g, 0));
  int h_runs[16];
  for (int v : {1, 0}) {
    clearRuns();
    setValue(v);
    OK(cudaGraphLaunch(exec, s));
    OK(cudaStreamSynchronize(s));
    readRuns(h_runs);
    EQ(h_runs[9], v ? 2 : 0);
    EQ(h_runs[10], v ? 0 : 2);
    EQ(h_runs[11], 1);
  }
  OK(cudaGraphExecDestroy(exec));
  OK(cudaGraphDestroy(g));
  OK(cudaStreamDestroy(s));
}

// What the reference leaves to the implementation, as probes.
static void probes() {
  cudaGraph_t g;
  OK(cudaGraphCreate(&g, 0));
  cudaGraphConditionalHandle h = 0;
  PROBE_ERROR("handle_bad_flags",
              cudaGraphConditionalHandleCreate(&h, g, 0, 2));
  PROBE_ERROR("handle_null_graph",
              cudaGraphConditionalHandleCreate(&h, nullptr, 0, 0));
  PROBE_ERROR("handle_null_out",
              cudaGraphConditionalHandleCreate(nullptr, g, 0, 0));
  OK(cudaGraphConditionalHandleCreate(&h, g, 0, cudaGraphCondAssignDefault));
  struct Bad {
    const char *name;
    cudaGraphConditionalNodeType type;
    unsigned size;
  } bad[] = {{"while_size_2", cudaGraphCondTypeWhile, 2},
             {"while_size_0", cudaGraphCondTypeWhile, 0},
             {"if_size_3", cudaGraphCondTypeIf, 3},
             {"if_size_0", cudaGraphCondTypeIf, 0},
             {"switch_size_0", cudaGraphCondTypeSwitch, 0},
             {"type_3", cudaGraphConditionalNodeType(3), 1}};
  for (const Bad &b : bad) {
    cudaGraphNodeParams p = {};
    p.type = cudaGraphNodeTypeConditional;
    p.conditional.handle = h;
    p.conditional.type = b.type;
    p.conditional.size = b.size;
    cudaGraphNode_t node;
    cudaError_t e = cudaGraphAddNode(&node, g, nullptr, nullptr, 0, &p);
    CHECK(e != cudaSuccess, b.name);
    PROBE_ERROR(b.name, e);
  }
  // A handle of another graph.
  cudaGraph_t other;
  OK(cudaGraphCreate(&other, 0));
  {
    cudaGraphNodeParams p = {};
    p.type = cudaGraphNodeTypeConditional;
    p.conditional.handle = h;
    p.conditional.type = cudaGraphCondTypeIf;
    p.conditional.size = 1;
    cudaGraphNode_t node;
    PROBE_ERROR("handle_of_other_graph",
                cudaGraphAddNode(&node, other, nullptr, nullptr, 0, &p));
  }
  // A handle no node uses, at instantiation.
  {
    cudaGraphConditionalHandle unused = 0;
    OK(cudaGraphConditionalHandleCreate(&unused, other, 0, 0));
    cudaGraphNode_t empty;
    OK(cudaGraphAddEmptyNode(&empty, other, nullptr, 0));
    cudaGraphExec_t exec = nullptr;
    cudaGraphInstantiateParams ip = {};
    cudaError_t e = cudaGraphInstantiateWithParams(&exec, other, &ip);
    PROBE_ERROR("unused_handle_instantiate", e);
    std::printf("probe unused_handle_result %d\n", int(ip.result_out));
    if (e == cudaSuccess)
      OK(cudaGraphExecDestroy(exec));
  }
  OK(cudaGraphDestroy(other));
  cudaGraph_t body[1] = {};
  conditionalNode(g, nullptr, 0, h, cudaGraphCondTypeIf, 1, body);
  markNode(body[0], 12);
  // Nodes a body may not hold: a host node, an event record.
  {
    cudaHostNodeParams hp = {[](void *) {}, nullptr};
    cudaGraphNode_t host;
    cudaError_t e = cudaGraphAddHostNode(&host, body[0], nullptr, 0, &hp);
    PROBE_ERROR("body_host_node", e);
    cudaEvent_t ev;
    OK(cudaEventCreate(&ev));
    cudaGraphNode_t rec;
    PROBE_ERROR("body_event_record_node",
                cudaGraphAddEventRecordNode(&rec, body[0], nullptr, 0, ev));
    if (e == cudaSuccess) { // refused later, at instantiation?
      cudaGraphExec_t exec = nullptr;
      cudaError_t ie = cudaGraphInstantiate(&exec, g, 0);
      PROBE_ERROR("body_host_node_instantiate", ie);
      if (ie == cudaSuccess)
        OK(cudaGraphExecDestroy(exec));
    }
    OK(cudaEventDestroy(ev));
  }
  OK(cudaGraphDestroy(g));

  // A graph with a conditional node: cloned, as a child, instantiated twice.
  OK(cudaGraphCreate(&g, 0));
  OK(cudaGraphConditionalHandleCreate(&h, g, 0, cudaGraphCondAssignDefault));
  conditionalNode(g, nullptr, 0, h, cudaGraphCondTypeIf, 1, body);
  markNode(body[0], 12);
  cudaGraph_t clone = nullptr;
  cudaError_t e = cudaGraphClone(&clone, g);
  PROBE_ERROR("clone", e);
  if (e == cudaSuccess)
    OK(cudaGraphDestroy(clone));
  cudaGraph_t parent;
  OK(cudaGraphCreate(&parent, 0));
  cudaGraphNode_t child;
  PROBE_ERROR("as_child_graph",
              cudaGraphAddChildGraphNode(&child, parent, nullptr, 0, g));
  OK(cudaGraphDestroy(parent));
  cudaGraphExec_t first = nullptr, second = nullptr;
  OK(cudaGraphInstantiate(&first, g, 0));
  e = cudaGraphInstantiate(&second, g, 0);
  PROBE_ERROR("second_instantiation", e);
  if (e == cudaSuccess)
    OK(cudaGraphExecDestroy(second));
  OK(cudaGraphExecDestroy(first));
  OK(cudaGraphDestroy(g));

  // Without cudaGraphCondAssignDefault: the value at the first launch, and
  // whether one set by a kernel carries over to the next launch.
  OK(cudaGraphCreate(&g, 0));
  OK(cudaGraphConditionalHandleCreate(&h, g, 2, 0));
  void *args[] = {&h, &value};
  cudaGraphNode_t setter;
  kernelNode(&setter, g, nullptr, 0, (void *)setFrom, args, 32);
  cudaGraph_t bodies[4] = {};
  conditionalNode(g, &setter, 1, h, cudaGraphCondTypeSwitch, 4, bodies);
  for (int i = 0; i < 4; ++i)
    markNode(bodies[i], 5 + i);
  cudaGraphExec_t exec;
  OK(cudaGraphInstantiate(&exec, g, 0));
  int h_runs[16];
  const char *names[] = {"no_default_first", "no_default_set_3",
                         "no_default_after_set"};
  int values[] = {-1, 3, -1};
  for (int i = 0; i < 3; ++i) {
    clearRuns();
    setValue(values[i]);
    OK(cudaGraphLaunch(exec, 0));
    OK(cudaStreamSynchronize(0));
    readRuns(h_runs);
    int ran = -1;
    for (int b = 0; b < 4; ++b)
      if (h_runs[5 + b])
        ran = b;
    std::printf("probe %s %d\n", names[i], ran);
  }
  OK(cudaGraphExecDestroy(exec));
  OK(cudaGraphDestroy(g));

  // The first value without cudaGraphCondAssignDefault (default 2), as an
  // if, a while whose body sets 0, and a switch of 64 bodies see it.
  const char *kinds[] = {"no_default_if", "no_default_while",
                         "no_default_switch64"};
  cudaGraphConditionalNodeType types[] = {
      cudaGraphCondTypeIf, cudaGraphCondTypeWhile, cudaGraphCondTypeSwitch};
  for (int k = 0; k < 3; ++k) {
    OK(cudaGraphCreate(&g, 0));
    OK(cudaGraphConditionalHandleCreate(&h, g, 2, 0));
    unsigned size = k == 2 ? 64 : 1;
    cudaGraph_t many[64] = {};
    conditionalNode(g, nullptr, 0, h, types[k], size, many);
    void *setArgs[] = {&h, &zeroes};
    for (unsigned b = 0; b < size; ++b) {
      static int index[64];
      index[b] = b;
      void *markArgs[] = {&probeRuns, &index[b]};
      cudaGraphNode_t m, end;
      kernelNode(&m, many[b], nullptr, 0, (void *)mark, markArgs, 32);
      if (k == 1) // the while's body ends the loop
        kernelNode(&end, many[b], &m, 1, (void *)setFrom, setArgs, 32);
    }
    OK(cudaGraphInstantiate(&exec, g, 0));
    OK(cudaMemset(probeRuns, 0, 64 * sizeof(int)));
    OK(cudaGraphLaunch(exec, 0));
    OK(cudaStreamSynchronize(0));
    int back[64];
    OK(cudaMemcpy(back, probeRuns, sizeof back, cudaMemcpyDeviceToHost));
    int ran = -1;
    for (unsigned b = 0; b < size; ++b)
      if (back[b])
        ran = b * 1000 + back[b];
    std::printf("probe %s %d\n", kinds[k], ran);
    OK(cudaGraphExecDestroy(exec));
    OK(cudaGraphDestroy(g));
  }
}

int main() {
  OK(cudaMalloc(&runs, 16 * sizeof(int)));
  OK(cudaMalloc(&value, sizeof(int)));
  OK(cudaMalloc(&counts, 2 * sizeof(int)));
  OK(cudaMalloc(&probeRuns, 64 * sizeof(int)));
  OK(cudaMalloc(&zeroes, sizeof(int)));
  OK(cudaMemset(zeroes, 0, sizeof(int)));
  ifElse();
  whileLoops();
  switches();
  captured();
  probes();
  OK(cudaFree(runs));
  OK(cudaFree(value));
  OK(cudaFree(counts));
  OK(cudaFree(probeRuns));
  OK(cudaFree(zeroes));
  std::printf("graph_conditionals: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
