// Conformance program for stream capture and CUDA graphs (docs/conformance.md),
// written from the Runtime API reference's "Stream Management" and "Graph
// Management" sections: each check states what the specification says, and
// the program checks it on whatever runs it: the GPU (nvcc) or kcheck's
// simulated runtime (kcheck run). It prints one line per failed check and a
// summary.
#include "conformance_checks.h"

#include <cstdio>
#include <cstring>

// A count or code the specification leaves to the implementation: the
// value is printed when it differs.
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

constexpr int N = 256;
__device__ int table[N];

// p[i] = p[i] * mul + add, for i < n.
__global__ void axpb(int *p, int n, int mul, int add) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = p[i] * mul + add;
}
__global__ void iota(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = i;
}

static int hostCalls = 0;
static void countCall(void *data) { ++*static_cast<int *>(data); }
static int order[8], orderCount = 0;
static void note(void *data) {
  order[orderCount++] = int(reinterpret_cast<size_t>(data));
}

static bool all(const int *h, int n, int (*f)(int)) {
  for (int i = 0; i < n; ++i)
    if (h[i] != f(i))
      return false;
  return true;
}

static cudaKernelNodeParams kernelParams(void *func, void **args, int n) {
  cudaKernelNodeParams k = {};
  k.func = func;
  k.gridDim = dim3((n + 127) / 128);
  k.blockDim = dim3(128);
  k.sharedMemBytes = 0;
  k.kernelParams = args;
  k.extra = nullptr;
  return k;
}

// A graph built node by node: memset -> kernel -> memcpy to host -> host
// node, with an empty node joining two branches.
static void explicitGraph() {
  int *d = nullptr, *d2 = nullptr;
  OK(cudaMalloc(&d, N * sizeof(int)));
  OK(cudaMalloc(&d2, N * sizeof(int)));
  static int h[N];
  cudaGraph_t g = nullptr;
  OK(cudaGraphCreate(&g, 0));
  IS(cudaGraphCreate(&g, 1), cudaErrorInvalidValue);
  size_t count = 99;
  OK(cudaGraphGetNodes(g, nullptr, &count));
  CHECK(count == 0, "a new graph has no nodes");

  cudaMemsetParams ms = {};
  ms.dst = d;
  ms.value = 0;
  ms.elementSize = 4;
  ms.width = N;
  ms.height = 1;
  ms.pitch = 0;
  cudaGraphNode_t memset = nullptr, kernel = nullptr, copy = nullptr,
                  host = nullptr, empty = nullptr, second = nullptr;
  OK(cudaGraphAddMemsetNode(&memset, g, nullptr, 0, &ms));
  int n = N, mul = 1, add = 5;
  void *args[] = {&d, &n, &mul, &add};
  cudaKernelNodeParams kp = kernelParams((void *)axpb, args, N);
  OK(cudaGraphAddKernelNode(&kernel, g, &memset, 1, &kp));
  // The node holds its own copy of the arguments: changing them afterwards
  // changes nothing.
  add = 1000;
  cudaKernelNodeParams back = {};
  OK(cudaGraphKernelNodeGetParams(kernel, &back));
  CHECK(back.func == (void *)axpb && back.gridDim.x == 2 &&
            back.blockDim.x == 128,
        "a kernel node's parameters read back");
  CHECK(back.kernelParams && *static_cast<int *>(back.kernelParams[3]) == 5,
        "a kernel node keeps a copy of its arguments");
  add = 5;
  OK(cudaGraphAddMemcpyNode1D(&copy, g, &kernel, 1, h, d, sizeof h,
                              cudaMemcpyDeviceToHost));
  cudaHostNodeParams hp = {countCall, &hostCalls};
  OK(cudaGraphAddHostNode(&host, g, &copy, 1, &hp));
  cudaHostNodeParams hpBack = {};
  OK(cudaGraphHostNodeGetParams(host, &hpBack));
  CHECK(hpBack.fn == countCall && hpBack.userData == &hostCalls,
        "a host node's parameters read back");
  OK(cudaGraphHostNodeSetParams(host, &hp));
  // A second kernel beside the first (on its own buffer: the two may run at
  // once), both joined by an empty node.
  int mul2 = 1, add2 = 0;
  void *args2[] = {&d2, &n, &mul2, &add2};
  cudaKernelNodeParams kp2 = kernelParams((void *)axpb, args2, N);
  OK(cudaGraphAddKernelNode(&second, g, &memset, 1, &kp2));
  cudaGraphNode_t both[] = {kernel, second};
  OK(cudaGraphAddEmptyNode(&empty, g, both, 2));
  IS(cudaGraphAddEmptyNode(&empty, g, nullptr, 1), cudaErrorInvalidValue);
  cudaGetLastError();
  // Kernel node attributes, copied from one node to another.
  cudaKernelNodeAttrValue priority = {};
  priority.priority = -1;
  OK(cudaGraphKernelNodeSetAttribute(kernel, cudaKernelNodeAttributePriority,
                                     &priority));
  cudaKernelNodeAttrValue value = {};
  OK(cudaGraphKernelNodeGetAttribute(kernel, cudaKernelNodeAttributePriority,
                                     &value));
  EQ(value.priority, -1);
  OK(cudaGraphKernelNodeCopyAttributes(second, kernel));
  value.priority = 0;
  OK(cudaGraphKernelNodeGetAttribute(second, cudaKernelNodeAttributePriority,
                                     &value));
  EQ(value.priority, -1);

  OK(cudaGraphGetNodes(g, nullptr, &count));
  CHECK(count == 6, "six nodes");
  cudaGraphNode_t nodes[8];
  count = 8;
  OK(cudaGraphGetNodes(g, nodes, &count));
  CHECK(count == 6 && nodes[0] == memset, "the nodes, in creation order");
  OK(cudaGraphGetRootNodes(g, nullptr, &count));
  CHECK(count == 1, "one root");
  cudaGraphNode_t root = nullptr;
  count = 1;
  OK(cudaGraphGetRootNodes(g, &root, &count));
  CHECK(root == memset, "the memset is the root");
  OK(cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &count));
  CHECK(count == 6, "six edges");
  cudaGraphNode_t from[8], to[8];
  count = 8;
  OK(cudaGraphGetEdges(g, from, to, nullptr, &count));
  CHECK(count == 6, "six edges listed");
  OK(cudaGraphNodeGetDependencies(empty, nullptr, nullptr, &count));
  CHECK(count == 2, "the empty node has two dependencies");
  OK(cudaGraphNodeGetDependentNodes(memset, nullptr, nullptr, &count));
  CHECK(count == 2, "the memset has two dependents");
  cudaGraphNodeType type;
  OK(cudaGraphNodeGetType(memset, &type));
  CHECK(type == cudaGraphNodeTypeMemset, "memset node type");
  OK(cudaGraphNodeGetType(kernel, &type));
  CHECK(type == cudaGraphNodeTypeKernel, "kernel node type");
  OK(cudaGraphNodeGetType(copy, &type));
  CHECK(type == cudaGraphNodeTypeMemcpy, "memcpy node type");
  OK(cudaGraphNodeGetType(host, &type));
  CHECK(type == cudaGraphNodeTypeHost, "host node type");
  OK(cudaGraphNodeGetType(empty, &type));
  CHECK(type == cudaGraphNodeTypeEmpty, "empty node type");
  cudaMemsetParams msBack = {};
  OK(cudaGraphMemsetNodeGetParams(memset, &msBack));
  CHECK(msBack.dst == d && msBack.elementSize == 4 && msBack.width == N,
        "a memset node's parameters read back");
  cudaMemcpy3DParms cp = {};
  OK(cudaGraphMemcpyNodeGetParams(copy, &cp));
  CHECK(cp.extent.width == sizeof h && cp.extent.height == 1 &&
            cp.extent.depth == 1 && cp.kind == cudaMemcpyDeviceToHost &&
            cp.dstPtr.ptr == h && cp.srcPtr.ptr == d,
        "a 1D copy reads back as a 3D copy");
  // Wrong node kind for the call.
  IS(cudaGraphKernelNodeGetParams(memset, &back), cudaErrorInvalidValue);
  IS(cudaGraphHostNodeGetParams(kernel, &hpBack), cudaErrorInvalidValue);
  cudaGetLastError();

  cudaGraphExec_t exec = nullptr;
  OK(cudaGraphInstantiate(&exec, g, 0));
  unsigned long long flags = 99;
  OK(cudaGraphExecGetFlags(exec, &flags));
  CHECK(flags == 0, "instantiated without flags");
  OK(cudaGraphLaunch(exec, 0));
  OK(cudaDeviceSynchronize());
  CHECK(all(h, N, [](int) { return 5; }), "memset, kernel and copy ran");
  CHECK(hostCalls == 1, "the host node ran once");
  OK(cudaGraphLaunch(exec, 0));
  OK(cudaStreamSynchronize(0));
  CHECK(all(h, N, [](int) { return 5; }) && hostCalls == 2,
        "a second launch runs it all again");
  // Parameters of the instantiated graph, the graph's own left as they were.
  add = 7;
  OK(cudaGraphExecKernelNodeSetParams(exec, kernel, &kp));
  OK(cudaGraphLaunch(exec, 0));
  OK(cudaDeviceSynchronize());
  CHECK(all(h, N, [](int) { return 7; }), "the exec's kernel node updated");
  OK(cudaGraphKernelNodeGetParams(kernel, &back));
  CHECK(*static_cast<int *>(back.kernelParams[3]) == 5,
        "the graph's kernel node unchanged by the exec's update");
  // A disabled node does not run (kernel, memset and memcpy nodes can be
  // disabled).
  unsigned enabled = 7;
  OK(cudaGraphNodeGetEnabled(exec, kernel, &enabled));
  EQ(enabled, 1);
  OK(cudaGraphNodeSetEnabled(exec, kernel, 0));
  OK(cudaGraphNodeGetEnabled(exec, kernel, &enabled));
  EQ(enabled, 0);
  IS(cudaGraphNodeSetEnabled(exec, host, 0), cudaErrorInvalidValue);
  cudaGetLastError();
  OK(cudaGraphLaunch(exec, 0));
  OK(cudaDeviceSynchronize());
  CHECK(all(h, N, [](int) { return 0; }),
        "a disabled kernel node does not run");
  EQ(hostCalls, 4);
  OK(cudaGraphNodeSetEnabled(exec, kernel, 1));
  OK(cudaGraphExecHostNodeSetParams(exec, host, &hp));
  ms.value = 3;
  OK(cudaGraphExecMemsetNodeSetParams(exec, memset, &ms));
  OK(cudaGraphExecMemcpyNodeSetParams1D(exec, copy, h, d, sizeof h,
                                        cudaMemcpyDeviceToHost));
  OK(cudaGraphLaunch(exec, 0));
  OK(cudaDeviceSynchronize());
  CHECK(all(h, N, [](int) { return 3 + 7; }), "the exec's memset updated");
  EQ(hostCalls, 5);

  // Graph-side parameter changes reach a new instantiation only.
  ms.value = 0;
  OK(cudaGraphMemsetNodeSetParams(memset, &ms));
  mul = 3;
  add = 1;
  OK(cudaGraphKernelNodeSetParams(kernel, &kp));
  OK(cudaGraphLaunch(exec, 0));
  OK(cudaDeviceSynchronize());
  CHECK(all(h, N, [](int) { return 10; }), "the exec keeps its parameters");
  // cudaGraphExecUpdate: the same topology with the graph's new parameters.
  cudaGraphExecUpdateResultInfo info = {};
  OK(cudaGraphExecUpdate(exec, g, &info));
  CHECK(info.result == cudaGraphExecUpdateSuccess, "the update succeeded");
  OK(cudaGraphLaunch(exec, 0));
  OK(cudaDeviceSynchronize());
  CHECK(all(h, N, [](int) { return 1; }), "the updated exec's results");

  // Clone; a node of the clone found from the original's.
  cudaGraph_t clone = nullptr;
  OK(cudaGraphClone(&clone, g));
  cudaGraphNode_t inClone = nullptr;
  OK(cudaGraphNodeFindInClone(&inClone, kernel, clone));
  CHECK(inClone && inClone != kernel, "the clone's own node");
  OK(cudaGraphNodeGetType(inClone, &type));
  CHECK(type == cudaGraphNodeTypeKernel, "the clone's node is a kernel");
  cudaGraphNode_t notAClone = nullptr;
  IS(cudaGraphNodeFindInClone(&notAClone, kernel, g), cudaErrorInvalidValue);
  cudaGetLastError();
  // A changed topology cannot update the exec.
  cudaGraphNode_t cloneEmpty = nullptr;
  OK(cudaGraphNodeFindInClone(&cloneEmpty, empty, clone));
  OK(cudaGraphDestroyNode(cloneEmpty));
  OK(cudaGraphGetNodes(clone, nullptr, &count));
  CHECK(count == 5, "a destroyed node leaves the clone");
  IS(cudaGraphExecUpdate(exec, clone, &info), cudaErrorGraphExecUpdateFailure);
  CHECK(info.result == cudaGraphExecUpdateErrorTopologyChanged,
        "the update fails for the topology");
  cudaGetLastError();
  // Dependencies added and removed.
  cudaGraphNode_t cloneKernel = inClone, cloneSecond = nullptr;
  OK(cudaGraphNodeFindInClone(&cloneSecond, second, clone));
  OK(cudaGraphAddDependencies(clone, &cloneKernel, &cloneSecond, nullptr, 1));
  OK(cudaGraphNodeGetDependencies(cloneSecond, nullptr, nullptr, &count));
  CHECK(count == 2, "a dependency added");
  OK(cudaGraphRemoveDependencies(clone, &cloneKernel, &cloneSecond, nullptr,
                                 1));
  OK(cudaGraphNodeGetDependencies(cloneSecond, nullptr, nullptr, &count));
  CHECK(count == 1, "a dependency removed");
  IS(cudaGraphRemoveDependencies(clone, &cloneKernel, &cloneSecond, nullptr, 1),
     cudaErrorInvalidValue);
  OK(cudaGraphDebugDotPrint(clone, "/tmp/kcheck_graphs_conformance.dot", 0));
  OK(cudaGraphDestroy(clone));

  cudaGraphExec_t exec2 = nullptr;
  cudaGraphInstantiateParams ip = {};
  ip.flags = cudaGraphInstantiateFlagUpload;
  ip.uploadStream = 0;
  OK(cudaGraphInstantiateWithParams(&exec2, g, &ip));
  CHECK(ip.result_out == cudaGraphInstantiateSuccess,
        "instantiated with parameters");
  OK(cudaGraphExecGetFlags(exec2, &flags));
  EQ(flags, 0); // the upload is done at instantiation, not kept (the H200)
  OK(cudaGraphUpload(exec2, 0));
  OK(cudaGraphLaunch(exec2, 0));
  OK(cudaDeviceSynchronize());
  CHECK(all(h, N, [](int) { return 1; }), "the second exec's results");
  OK(cudaGraphExecDestroy(exec2));
  cudaGraphExec_t exec3 = nullptr;
  OK(cudaGraphInstantiateWithFlags(&exec3, g,
                                   cudaGraphInstantiateFlagAutoFreeOnLaunch));
  OK(cudaGraphExecGetFlags(exec3, &flags));
  EQ(flags, cudaGraphInstantiateFlagAutoFreeOnLaunch);
  OK(cudaGraphExecDestroy(exec3));
  OK(cudaGraphExecDestroy(exec));
  OK(cudaGraphDestroy(g));
  OK(cudaFree(d));
  OK(cudaFree(d2));
}

// Child graphs, event nodes, symbols, the generic cudaGraphAddNode.
static void moreNodes() {
  int *d = nullptr;
  OK(cudaMalloc(&d, N * sizeof(int)));
  static int h[N];
  cudaGraph_t child = nullptr, g = nullptr;
  OK(cudaGraphCreate(&child, 0));
  OK(cudaGraphCreate(&g, 0));
  int n = N;
  void *iotaArgs[] = {&d, &n};
  cudaKernelNodeParams kp = kernelParams((void *)iota, iotaArgs, N);
  cudaGraphNode_t k = nullptr;
  OK(cudaGraphAddKernelNode(&k, child, nullptr, 0, &kp));
  cudaGraphNode_t childNode = nullptr, toSym = nullptr, fromSym = nullptr,
                  rec = nullptr, wait = nullptr, generic = nullptr;
  OK(cudaGraphAddChildGraphNode(&childNode, g, nullptr, 0, child));
  cudaGraph_t inside = nullptr;
  OK(cudaGraphChildGraphNodeGetGraph(childNode, &inside));
  CHECK(inside && inside != child, "a child node holds a clone of the graph");
  size_t count = 0;
  OK(cudaGraphGetNodes(inside, nullptr, &count));
  CHECK(count == 1, "the clone's node");
  // The child's result to the symbol, through host memory.
  OK(cudaGraphAddMemcpyNodeFromSymbol(&fromSym, g, &childNode, 1, h, table,
                                      sizeof h, 0, cudaMemcpyDeviceToHost));
  OK(cudaGraphAddMemcpyNodeToSymbol(&toSym, g, &childNode, 1, table, d,
                                    sizeof h, 0, cudaMemcpyDeviceToDevice));
  OK(cudaGraphRemoveDependencies(g, &childNode, &fromSym, nullptr, 1));
  OK(cudaGraphAddDependencies(g, &toSym, &fromSym, nullptr, 1));
  cudaEvent_t e1, e2;
  OK(cudaEventCreate(&e1));
  OK(cudaEventCreate(&e2));
  OK(cudaGraphAddEventRecordNode(&rec, g, &fromSym, 1, e1));
  OK(cudaGraphAddEventWaitNode(&wait, g, &rec, 1, e1));
  cudaEvent_t got = nullptr;
  OK(cudaGraphEventRecordNodeGetEvent(rec, &got));
  CHECK(got == e1, "the record node's event");
  OK(cudaGraphEventWaitNodeGetEvent(wait, &got));
  CHECK(got == e1, "the wait node's event");
  OK(cudaGraphEventRecordNodeSetEvent(rec, e2));
  OK(cudaGraphEventWaitNodeSetEvent(wait, e2));
  OK(cudaGraphEventRecordNodeGetEvent(rec, &got));
  CHECK(got == e2, "the record node's event set");
  cudaGraphNodeType type;
  OK(cudaGraphNodeGetType(childNode, &type));
  CHECK(type == cudaGraphNodeTypeGraph, "child graph node type");
  OK(cudaGraphNodeGetType(rec, &type));
  CHECK(type == cudaGraphNodeTypeEventRecord, "event record node type");
  OK(cudaGraphNodeGetType(wait, &type));
  CHECK(type == cudaGraphNodeTypeWaitEvent, "event wait node type");
  // The generic form: a kernel node doubling the values.
  int mul = 2, add = 0;
  void *args[] = {&d, &n, &mul, &add};
  cudaGraphNodeParams np = {};
  np.type = cudaGraphNodeTypeKernel;
  np.kernel.func = (void *)axpb;
  np.kernel.gridDim = dim3(2);
  np.kernel.blockDim = dim3(128);
  np.kernel.kernelParams = args;
  OK(cudaGraphAddNode(&generic, g, &toSym, nullptr, 1, &np));
  OK(cudaGraphNodeGetType(generic, &type));
  CHECK(type == cudaGraphNodeTypeKernel, "a generic kernel node");
  cudaGraphExec_t exec = nullptr;
  OK(cudaGraphInstantiate(&exec, g, 0));
  OK(cudaGraphLaunch(exec, 0));
  OK(cudaDeviceSynchronize());
  CHECK(all(h, N, [](int i) { return i; }), "iota through a child graph");
  int hd[N];
  OK(cudaMemcpy(hd, d, sizeof hd, cudaMemcpyDeviceToHost));
  CHECK(all(hd, N, [](int i) { return 2 * i; }), "the generic kernel node ran");
  OK(cudaEventSynchronize(e2));
  // Generic parameter changes, in the graph and in the exec.
  mul = 3;
  OK(cudaGraphNodeSetParams(generic, &np));
  OK(cudaGraphExecNodeSetParams(exec, generic, &np));
  OK(cudaGraphExecChildGraphNodeSetParams(exec, childNode, child));
  OK(cudaGraphExecEventRecordNodeSetEvent(exec, rec, e1));
  OK(cudaGraphExecEventWaitNodeSetEvent(exec, wait, e1));
  OK(cudaGraphExecMemcpyNodeSetParamsToSymbol(exec, toSym, table, d, sizeof h,
                                              0, cudaMemcpyDeviceToDevice));
  OK(cudaGraphExecMemcpyNodeSetParamsFromSymbol(
      exec, fromSym, h, table, sizeof h, 0, cudaMemcpyDeviceToHost));
  OK(cudaGraphLaunch(exec, 0));
  OK(cudaDeviceSynchronize());
  OK(cudaMemcpy(hd, d, sizeof hd, cudaMemcpyDeviceToHost));
  CHECK(all(hd, N, [](int i) { return 3 * i; }), "the exec's generic update");
  OK(cudaGraphMemcpyNodeSetParamsToSymbol(toSym, table, d, sizeof h, 0,
                                          cudaMemcpyDeviceToDevice));
  OK(cudaGraphMemcpyNodeSetParamsFromSymbol(fromSym, h, table, sizeof h, 0,
                                            cudaMemcpyDeviceToHost));
  OK(cudaGraphMemcpyNodeSetParams1D(fromSym, h, d, sizeof h,
                                    cudaMemcpyDeviceToHost));
  cudaMemcpy3DParms cp = {};
  OK(cudaGraphMemcpyNodeGetParams(fromSym, &cp));
  CHECK(cp.srcPtr.ptr == d, "a copy node set to another source");
  OK(cudaGraphMemcpyNodeSetParams(fromSym, &cp));
  OK(cudaGraphExecMemcpyNodeSetParams(exec, fromSym, &cp));
  OK(cudaGraphExecDestroy(exec));
  OK(cudaGraphDestroy(g));
  OK(cudaGraphDestroy(child));
  OK(cudaEventDestroy(e1));
  OK(cudaEventDestroy(e2));
  OK(cudaFree(d));
}

// Stream capture: what a stream is given while capturing becomes nodes.
static void capture() {
  int *d = nullptr;
  OK(cudaMalloc(&d, N * sizeof(int)));
  static int h[N];
  cudaStream_t s, t;
  OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  OK(cudaStreamCreateWithFlags(&t, cudaStreamNonBlocking));
  cudaStreamCaptureStatus status;
  OK(cudaStreamIsCapturing(s, &status));
  CHECK(status == cudaStreamCaptureStatusNone, "not capturing yet");
  IS(cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal),
     cudaErrorStreamCaptureUnsupported);
  cudaGetLastError();
  OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  IS(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal),
     cudaErrorIllegalState);
  cudaGetLastError();
  OK(cudaStreamIsCapturing(s, &status));
  CHECK(status == cudaStreamCaptureStatusActive, "capturing");
  OK(cudaMemsetAsync(d, 0, N * sizeof(int), s));
  iota<<<2, 128, 0, s>>>(d, N);
  OK(cudaGetLastError());
  orderCount = 0;
  OK(cudaLaunchHostFunc(s, note, reinterpret_cast<void *>(1)));
  CHECK(orderCount == 0, "a captured host function has not run");
  unsigned long long id = 0;
  cudaGraph_t inProgress = nullptr;
  const cudaGraphNode_t *deps = nullptr;
  size_t numDeps = 0;
  OK(cudaStreamGetCaptureInfo(s, &status, &id, &inProgress, &deps, nullptr,
                              &numDeps));
  CHECK(status == cudaStreamCaptureStatusActive && id != 0 && inProgress &&
            numDeps == 1,
        "the capture's information");
  cudaGraphNodeType type;
  OK(cudaGraphNodeGetType(deps[0], &type));
  CHECK(type == cudaGraphNodeTypeHost, "the last captured node is the host's");
  // Fork into t and join back, through events.
  cudaEvent_t fork, join;
  OK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
  OK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
  OK(cudaEventRecord(fork, s));
  OK(cudaStreamWaitEvent(t, fork, 0));
  OK(cudaStreamIsCapturing(t, &status));
  CHECK(status == cudaStreamCaptureStatusActive, "t joined the capture");
  unsigned long long idT = 0;
  OK(cudaStreamGetCaptureInfo(t, &status, &idT, nullptr, nullptr, nullptr,
                              nullptr));
  CHECK(idT == id, "one capture sequence");
  int mul = 2, add = 1;
  axpb<<<2, 128, 0, t>>>(d, N, mul, add);
  OK(cudaLaunchHostFunc(t, note, reinterpret_cast<void *>(2)));
  OK(cudaEventRecord(join, t));
  OK(cudaStreamWaitEvent(s, join, 0));
  OK(cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, s));
  OK(cudaLaunchHostFunc(s, note, reinterpret_cast<void *>(3)));
  cudaGraph_t g = nullptr;
  OK(cudaStreamEndCapture(s, &g));
  CHECK(g != nullptr, "the captured graph");
  OK(cudaStreamIsCapturing(s, &status));
  CHECK(status == cudaStreamCaptureStatusNone, "s captures no more");
  OK(cudaStreamIsCapturing(t, &status));
  CHECK(status == cudaStreamCaptureStatusNone, "t captures no more");
  size_t count = 0;
  OK(cudaGraphGetNodes(g, nullptr, &count));
  EQ(count, 7); // memset, kernel, host, kernel, host, copy, host
  OK(cudaGraphGetRootNodes(g, nullptr, &count));
  EQ(count, 1);
  // host 1 -> copy and host 2 -> copy: the join adds the fork's branch to
  // what the stream waited on.
  OK(cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &count));
  EQ(count, 7);
  CHECK(orderCount == 0, "nothing ran while capturing");
  cudaGraphExec_t exec = nullptr;
  OK(cudaGraphInstantiate(&exec, g, 0));
  OK(cudaGraphLaunch(exec, s));
  OK(cudaStreamSynchronize(s));
  CHECK(all(h, N, [](int i) { return 2 * i + 1; }),
        "the captured work's result");
  CHECK(orderCount == 3 && order[0] == 1 && order[1] == 2 && order[2] == 3,
        "host functions in the captured order");
  // Capture again with new arguments, and update the exec from it.
  OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  OK(cudaMemsetAsync(d, 0, N * sizeof(int), s));
  iota<<<2, 128, 0, s>>>(d, N);
  OK(cudaLaunchHostFunc(s, note, reinterpret_cast<void *>(1)));
  OK(cudaEventRecord(fork, s));
  OK(cudaStreamWaitEvent(t, fork, 0));
  axpb<<<2, 128, 0, t>>>(d, N, 3, 0);
  OK(cudaLaunchHostFunc(t, note, reinterpret_cast<void *>(2)));
  OK(cudaEventRecord(join, t));
  OK(cudaStreamWaitEvent(s, join, 0));
  OK(cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, s));
  OK(cudaLaunchHostFunc(s, note, reinterpret_cast<void *>(3)));
  cudaGraph_t g2 = nullptr;
  OK(cudaStreamEndCapture(s, &g2));
  cudaGraphExecUpdateResultInfo info = {};
  OK(cudaGraphExecUpdate(exec, g2, &info));
  OK(cudaGraphLaunch(exec, s));
  OK(cudaStreamSynchronize(s));
  CHECK(all(h, N, [](int i) { return 3 * i; }), "the updated exec's result");
  // An unjoined fork ends the capture with an error.
  OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
  OK(cudaEventRecord(fork, s));
  OK(cudaStreamWaitEvent(t, fork, 0));
  iota<<<2, 128, 0, t>>>(d, N);
  cudaGraph_t g3 = nullptr;
  IS(cudaStreamEndCapture(s, &g3), cudaErrorStreamCaptureUnjoined);
  CHECK(g3 == nullptr, "no graph from an unjoined capture");
  OK(cudaStreamIsCapturing(t, &status));
  CHECK(status == cudaStreamCaptureStatusNone, "the fork's capture ended too");
  cudaGetLastError();
  // Synchronizing a capturing stream invalidates the capture.
  OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  iota<<<2, 128, 0, s>>>(d, N);
  IS(cudaStreamSynchronize(s), cudaErrorStreamCaptureUnsupported);
  OK(cudaStreamIsCapturing(s, &status));
  CHECK(status == cudaStreamCaptureStatusInvalidated,
        "the capture invalidated");
  IS(cudaMemsetAsync(d, 0, 4, s), cudaErrorStreamCaptureInvalidated);
  IS(cudaStreamEndCapture(s, &g3), cudaErrorStreamCaptureInvalidated);
  CHECK(g3 == nullptr, "no graph from an invalidated capture");
  cudaGetLastError();
  // Capture into an existing graph, after one of its nodes; the stream's
  // dependencies replaced while capturing.
  cudaGraph_t into = nullptr;
  OK(cudaGraphCreate(&into, 0));
  cudaGraphNode_t first = nullptr;
  OK(cudaGraphAddEmptyNode(&first, into, nullptr, 0));
  OK(cudaStreamBeginCaptureToGraph(s, into, &first, nullptr, 1,
                                   cudaStreamCaptureModeGlobal));
  iota<<<2, 128, 0, s>>>(d, N);
  OK(cudaStreamUpdateCaptureDependencies(s, &first, nullptr, 1,
                                         cudaStreamSetCaptureDependencies));
  OK(cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, s));
  cudaGraph_t same = nullptr;
  OK(cudaStreamEndCapture(s, &same));
  CHECK(same == into, "the capture ends into the given graph");
  OK(cudaGraphNodeGetDependentNodes(first, nullptr, nullptr, &count));
  EQ(count, 2); // both captured nodes follow the first
  // Allocation in a capture: memory allocation and free nodes.
  cudaGraph_t ga = nullptr;
  OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  int *tmp = nullptr;
  OK(cudaMallocAsync(&tmp, N * sizeof(int), s));
  iota<<<2, 128, 0, s>>>(tmp, N);
  OK(cudaMemcpyAsync(h, tmp, sizeof h, cudaMemcpyDeviceToHost, s));
  OK(cudaFreeAsync(tmp, s));
  OK(cudaStreamEndCapture(s, &ga));
  cudaGraphNode_t an[4];
  count = 4;
  OK(cudaGraphGetNodes(ga, an, &count));
  EQ(count, 4); // alloc, kernel, copy, free
  OK(cudaGraphNodeGetType(an[0], &type));
  CHECK(type == cudaGraphNodeTypeMemAlloc, "a memory allocation node");
  OK(cudaGraphNodeGetType(an[3], &type));
  CHECK(type == cudaGraphNodeTypeMemFree, "a memory free node");
  cudaMemAllocNodeParams ap = {};
  OK(cudaGraphMemAllocNodeGetParams(an[0], &ap));
  CHECK(ap.bytesize == N * sizeof(int) && ap.dptr == tmp,
        "the allocation node's size and address");
  void *freed = nullptr;
  OK(cudaGraphMemFreeNodeGetParams(an[3], &freed));
  CHECK(freed == tmp, "the free node's address");
  std::memset(h, 0, sizeof h);
  cudaGraphExec_t ea = nullptr;
  OK(cudaGraphInstantiate(&ea, ga, 0));
  OK(cudaGraphLaunch(ea, s));
  OK(cudaStreamSynchronize(s));
  CHECK(all(h, N, [](int i) { return i; }), "work on graph-allocated memory");
  size_t used = 99;
  OK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used));
  CHECK(used == 0 || used >= N * sizeof(int), "graph memory in use");
  OK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &used));
  CHECK(used >= N * sizeof(int), "graph memory's high-water mark");
  size_t zero = 0;
  OK(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &zero));
  OK(cudaDeviceGraphMemTrim(0));
  OK(cudaGraphExecDestroy(ea));
  OK(cudaGraphDestroy(ga));
  OK(cudaGraphDestroy(into));
  OK(cudaGraphExecDestroy(exec));
  OK(cudaGraphDestroy(g));
  OK(cudaGraphDestroy(g2));
  OK(cudaEventDestroy(fork));
  OK(cudaEventDestroy(join));
  OK(cudaStreamDestroy(s));
  OK(cudaStreamDestroy(t));
  OK(cudaFree(d));
}

// Allocation and free nodes made by hand, and a pitched 3D copy between
// them: 16 rows of 16 ints to host rows of 32.
static void allocationNodes() {
  cudaGraph_t g = nullptr;
  OK(cudaGraphCreate(&g, 0));
  cudaMemAllocNodeParams ap = {};
  ap.poolProps.allocType = cudaMemAllocationTypePinned;
  ap.poolProps.location.type = cudaMemLocationTypeDevice;
  ap.poolProps.location.id = 0;
  ap.bytesize = N * sizeof(int);
  cudaGraphNode_t alloc = nullptr, kernel = nullptr, copy = nullptr,
                  release = nullptr;
  OK(cudaGraphAddMemAllocNode(&alloc, g, nullptr, 0, &ap));
  CHECK(ap.dptr != nullptr, "the allocation node's address");
  int *p = static_cast<int *>(ap.dptr);
  int n = N;
  void *args[] = {&p, &n};
  cudaKernelNodeParams kp = kernelParams((void *)iota, args, N);
  OK(cudaGraphAddKernelNode(&kernel, g, &alloc, 1, &kp));
  static int h[16 * 32];
  for (int &v : h)
    v = -1;
  cudaMemcpy3DParms cp = {};
  cp.srcPtr.ptr = p;
  cp.srcPtr.pitch = 16 * sizeof(int);
  cp.srcPtr.xsize = 16;
  cp.srcPtr.ysize = 16;
  cp.dstPtr.ptr = h;
  cp.dstPtr.pitch = 32 * sizeof(int);
  cp.dstPtr.xsize = 32;
  cp.dstPtr.ysize = 16;
  cp.extent.width = 16 * sizeof(int);
  cp.extent.height = 16;
  cp.extent.depth = 1;
  cp.kind = cudaMemcpyDeviceToHost;
  OK(cudaGraphAddMemcpyNode(&copy, g, &kernel, 1, &cp));
  OK(cudaGraphAddMemFreeNode(&release, g, &copy, 1, ap.dptr));
  cudaGraphNodeType type;
  OK(cudaGraphNodeGetType(release, &type));
  CHECK(type == cudaGraphNodeTypeMemFree, "a free node made by hand");
  cudaGraphExec_t exec = nullptr;
  OK(cudaGraphInstantiate(&exec, g, 0));
  OK(cudaGraphLaunch(exec, 0));
  OK(cudaDeviceSynchronize());
  bool rows = true;
  for (int r = 0; r < 16; ++r)
    for (int c = 0; c < 32; ++c)
      rows = rows && h[r * 32 + c] == (c < 16 ? r * 16 + c : -1);
  CHECK(rows, "the pitched copy's rows");
  OK(cudaGraphLaunch(exec, 0)); // allocated and freed again
  OK(cudaDeviceSynchronize());
  OK(cudaGraphExecDestroy(exec));
  OK(cudaGraphDestroy(g));
}

// User objects: a graph's references keep an object alive.
static int destroyed = 0;
static void destroyObject(void *p) { ++*static_cast<int *>(p); }
static void userObjects() {
  cudaUserObject_t o = nullptr;
  OK(cudaUserObjectCreate(&o, &destroyed, destroyObject, 1,
                          cudaUserObjectNoDestructorSync));
  OK(cudaUserObjectRetain(o, 2));
  OK(cudaUserObjectRelease(o, 2));
  cudaGraph_t g = nullptr;
  OK(cudaGraphCreate(&g, 0));
  OK(cudaGraphRetainUserObject(g, o, 1, cudaGraphUserObjectMove));
  OK(cudaGraphRetainUserObject(g, o, 1, 0));
  OK(cudaGraphReleaseUserObject(g, o, 1));
  OK(cudaGraphDestroy(g));
  OK(cudaDeviceSynchronize());
  IS(cudaUserObjectCreate(&o, &destroyed, destroyObject, 0,
                          cudaUserObjectNoDestructorSync),
     cudaErrorInvalidValue);
}

int main() {
  explicitGraph();
  moreNodes();
  capture();
  allocationNodes();
  userObjects();
  OK(cudaDeviceSynchronize());
  // The destructor may run on another thread of the driver's, but by now
  // the last reference (the graph's) is gone.
  CHECK(destroyed <= 1, "a user object destroyed at most once");
  std::printf("graphs: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
