// nvcc: -rdc=true -lcudadevrt
// Conformance program for device graph launch (the Programming Guide's
// "Device Graph Launch": graphs instantiated with
// cudaGraphInstantiateFlagDeviceLaunch, uploaded, and launched by a kernel
// of a graph with cudaGraphLaunch into cudaStreamGraphFireAndForget or
// cudaStreamGraphTailLaunch; cudaGetCurrentGraphExec to launch itself
// again). What the guide fixes is checked: a fire-and-forget graph runs
// before the launching graph completes, a tail launch after its work, in
// launch order, and a graph that tail-launches itself runs until it stops;
// what it leaves open (the error of each refused instantiation and launch)
// is printed as a `probe` line.
#include "conformance_checks.h"

#include <cstdio>

// The order work ran in: each run takes the next slot of order[].
__device__ int next;
__global__ void mark(int *order, int tag) {
  if (threadIdx.x == 0 && blockIdx.x == 0)
    order[atomicAdd(&next, 1)] = tag;
}
// Launches `exec` into `stream` and records the status.
__global__ void launcher(cudaGraphExec_t exec, cudaStream_t stream, int *status,
                         int *order, int tag) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    *status = cudaGraphLaunch(exec, stream);
    order[atomicAdd(&next, 1)] = tag;
  }
}
// Runs while count[0] < limit, by tail-launching its own graph again.
__global__ void again(int *count, int limit, int *status) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    int n = ++count[0];
    if (n < limit)
      status[n] =
          cudaGraphLaunch(cudaGetCurrentGraphExec(), cudaStreamGraphTailLaunch);
  }
}
__global__ void current(cudaGraphExec_t *out) {
  if (threadIdx.x == 0)
    *out = cudaGetCurrentGraphExec();
}

static int *order = nullptr, *status = nullptr, *count = nullptr;

static void kernelNode(cudaGraph_t g, void *func, void **args,
                       cudaGraphNode_t *dep = nullptr,
                       cudaGraphNode_t *out = nullptr) {
  cudaKernelNodeParams k = {};
  k.func = func;
  k.gridDim = dim3(1);
  k.blockDim = dim3(32);
  k.kernelParams = args;
  cudaGraphNode_t n;
  OK(cudaGraphAddKernelNode(out ? out : &n, g, dep, dep ? 1 : 0, &k));
}
// A graph of one kernel node marking `tag`.
static cudaGraph_t markGraph(int *tagStore) {
  cudaGraph_t g;
  OK(cudaGraphCreate(&g, 0));
  void *args[] = {&order, tagStore};
  kernelNode(g, (void *)mark, args);
  return g;
}
static void resetOrder() {
  int zero = 0;
  OK(cudaMemcpyToSymbol(next, &zero, sizeof zero));
  OK(cudaMemset(order, 0xff, 64 * sizeof(int)));
  OK(cudaMemset(status, 0xff, 64 * sizeof(int)));
}
static void readOrder(int *h, int n) {
  OK(cudaDeviceSynchronize());
  OK(cudaMemcpy(h, order, n * sizeof(int), cudaMemcpyDeviceToHost));
}
static int statusAt(int i) {
  int s = -2;
  OK(cudaMemcpy(&s, status + i, sizeof s, cudaMemcpyDeviceToHost));
  return s;
}

int main() {
  std::setvbuf(stdout, nullptr, _IONBF, 0); // each line out as it is made
  OK(cudaMalloc(&order, 64 * sizeof(int)));
  OK(cudaMalloc(&status, 64 * sizeof(int)));
  OK(cudaMalloc(&count, sizeof(int)));
  static int tags[8] = {1, 2, 3, 4, 5, 6, 7, 8};

  // A device graph: instantiated for device launch and uploaded.
  cudaGraph_t childGraph = markGraph(&tags[0]);
  cudaGraphExec_t child = nullptr;
  OK(cudaGraphInstantiate(&child, childGraph,
                          cudaGraphInstantiateFlagDeviceLaunch));
  unsigned long long flags = 0;
  OK(cudaGraphExecGetFlags(child, &flags));
  std::printf("probe device_graph_flags %llu\n", flags);
  OK(cudaGraphUpload(child, 0));

  // Launched by a kernel of a host-launched graph, fire-and-forget then tail.
  cudaStream_t streams[] = {cudaStreamGraphFireAndForget,
                            cudaStreamGraphTailLaunch,
                            cudaStreamGraphFireAndForgetAsSibling};
  const char *names[] = {"fire_and_forget", "tail", "sibling"};
  for (int k = 0; k < 3; ++k) {
    cudaGraph_t parentGraph;
    OK(cudaGraphCreate(&parentGraph, 0));
    void *args[] = {&child, &streams[k], &status, &order, &tags[1]};
    cudaGraphNode_t first;
    kernelNode(parentGraph, (void *)launcher, args, nullptr, &first);
    void *after[] = {&order, &tags[2]};
    kernelNode(parentGraph, (void *)mark, after, &first);
    cudaGraphExec_t parent;
    OK(cudaGraphInstantiate(&parent, parentGraph, 0));
    resetOrder();
    OK(cudaGraphLaunch(parent, 0));
    int h[4];
    readOrder(h, 4);
    std::printf("probe %s_status %d\n", names[k], statusAt(0));
    std::printf("probe %s_order %d %d %d %d\n", names[k], h[0], h[1], h[2],
                h[3]);
    CHECK(statusAt(0) == 0, names[k]);
    // Every order has the launcher first and the device graph run once.
    int runs = (h[1] == 1) + (h[2] == 1) + (h[3] == 1);
    CHECK(h[0] == 2 && runs == 1, names[k]);
    if (k == 1)
      CHECK(h[1] == 3 && h[2] == 1,
            "a tail launch runs after the graph's work");
    OK(cudaGraphExecDestroy(parent));
    OK(cudaGraphDestroy(parentGraph));
  }

  // A graph that tail-launches itself until its count reaches 5, launched
  // from the host.
  {
    cudaGraph_t loopGraph;
    OK(cudaGraphCreate(&loopGraph, 0));
    int limit = 5;
    void *args[] = {&count, &limit, &status};
    kernelNode(loopGraph, (void *)again, args);
    cudaGraphExec_t loop;
    OK(cudaGraphInstantiate(&loop, loopGraph,
                            cudaGraphInstantiateFlagDeviceLaunch));
    OK(cudaGraphUpload(loop, 0));
    OK(cudaMemset(count, 0, sizeof(int)));
    resetOrder();
    OK(cudaGraphLaunch(loop, 0));
    OK(cudaDeviceSynchronize());
    int n = 0;
    OK(cudaMemcpy(&n, count, sizeof n, cudaMemcpyDeviceToHost));
    CHECK(n == 5, "a graph that tail-launches itself runs 5 times");
    std::printf("probe self_relaunch_runs %d statuses %d %d\n", n, statusAt(1),
                statusAt(4));
    OK(cudaGraphExecDestroy(loop));
    OK(cudaGraphDestroy(loopGraph));
  }

  // cudaGetCurrentGraphExec: 0 outside a device graph, the graph inside.
  {
    cudaGraphExec_t *got = nullptr;
    OK(cudaMalloc(&got, 2 * sizeof(cudaGraphExec_t)));
    OK(cudaMemset(got, 0xff, 2 * sizeof(cudaGraphExec_t)));
    current<<<1, 32>>>(got);
    cudaGraph_t g;
    OK(cudaGraphCreate(&g, 0));
    cudaGraphExec_t *second = got + 1;
    void *args[] = {&second};
    kernelNode(g, (void *)current, args);
    cudaGraphExec_t e;
    OK(cudaGraphInstantiate(&e, g, cudaGraphInstantiateFlagDeviceLaunch));
    OK(cudaGraphLaunch(e, 0));
    OK(cudaDeviceSynchronize());
    cudaGraphExec_t back[2];
    OK(cudaMemcpy(back, got, sizeof back, cudaMemcpyDeviceToHost));
    CHECK(back[0] == nullptr, "no current graph outside a graph");
    CHECK(back[1] == e, "the current graph is the launched one");
    cudaGraph_t h;
    OK(cudaGraphCreate(&h, 0));
    kernelNode(h, (void *)current, args);
    cudaGraphExec_t hostOnly;
    OK(cudaGraphInstantiate(&hostOnly, h, 0));
    OK(cudaGraphLaunch(hostOnly, 0));
    OK(cudaDeviceSynchronize());
    OK(cudaMemcpy(back, got, sizeof back, cudaMemcpyDeviceToHost));
    std::printf("probe current_in_host_graph_is_null %d\n", back[1] == nullptr);
    OK(cudaGraphExecDestroy(e));
    OK(cudaGraphExecDestroy(hostOnly));
    OK(cudaFree(got));
  }

  // cudaGraphInstantiateFlagUpload outside cudaGraphInstantiateWithParams.
  {
    cudaGraph_t g = markGraph(&tags[6]);
    cudaGraphExec_t e = nullptr;
    for (unsigned long long f :
         {(unsigned long long)cudaGraphInstantiateFlagUpload,
          (unsigned long long)(cudaGraphInstantiateFlagUpload |
                               cudaGraphInstantiateFlagDeviceLaunch)}) {
      cudaError_t err = cudaGraphInstantiate(&e, g, f);
      std::printf("probe instantiate_flags_%llu %d\n", f, int(err));
      cudaGetLastError();
      if (err == cudaSuccess)
        OK(cudaGraphExecDestroy(e));
    }
    cudaGraphInstantiateParams ip = {};
    ip.flags =
        cudaGraphInstantiateFlagUpload | cudaGraphInstantiateFlagDeviceLaunch;
    ip.uploadStream = 0;
    cudaError_t err = cudaGraphInstantiateWithParams(&e, g, &ip);
    std::printf("probe instantiate_with_params_upload %d %d\n", int(err),
                int(ip.result_out));
    cudaGetLastError();
    if (err == cudaSuccess)
      OK(cudaGraphExecDestroy(e));
    OK(cudaGraphDestroy(g));
  }

  // Instantiations the guide refuses for device launch.
  {
    struct Case {
      const char *name;
      int kind;
    } cases[] = {{"host_node", 0},         {"event_record_node", 1},
                 {"child_graph", 2},       {"memcpy_to_pageable", 3},
                 {"empty_node", 4},        {"memset_node", 5},
                 {"two_instantiations", 6}};
    static int pageable[16];
    for (const Case &c : cases) {
      cudaGraph_t g;
      OK(cudaGraphCreate(&g, 0));
      cudaGraphNode_t n;
      cudaEvent_t ev = nullptr;
      if (c.kind == 0) {
        cudaHostNodeParams hp = {[](void *) {}, nullptr};
        OK(cudaGraphAddHostNode(&n, g, nullptr, 0, &hp));
      } else if (c.kind == 1) {
        OK(cudaEventCreate(&ev));
        OK(cudaGraphAddEventRecordNode(&n, g, nullptr, 0, ev));
      } else if (c.kind == 2) {
        cudaGraph_t inner = markGraph(&tags[4]);
        OK(cudaGraphAddChildGraphNode(&n, g, nullptr, 0, inner));
        OK(cudaGraphDestroy(inner));
      } else if (c.kind == 3) {
        OK(cudaGraphAddMemcpyNode1D(&n, g, nullptr, 0, pageable, order,
                                    sizeof pageable, cudaMemcpyDeviceToHost));
      } else if (c.kind == 4) {
        OK(cudaGraphAddEmptyNode(&n, g, nullptr, 0));
      } else if (c.kind == 5) {
        cudaMemsetParams ms = {};
        ms.dst = order;
        ms.elementSize = 4;
        ms.width = 16;
        ms.height = 1;
        OK(cudaGraphAddMemsetNode(&n, g, nullptr, 0, &ms));
      } else {
        void *args[] = {&order, &tags[5]};
        kernelNode(g, (void *)mark, args);
      }
      cudaGraphExec_t e = nullptr;
      cudaGraphInstantiateParams ip = {};
      ip.flags = cudaGraphInstantiateFlagDeviceLaunch;
      cudaError_t err = cudaGraphInstantiateWithParams(&e, g, &ip);
      std::printf("probe instantiate_%s %d %d\n", c.name, int(err),
                  int(ip.result_out));
      cudaGetLastError();
      if (c.kind == 6 && err == cudaSuccess) {
        cudaGraphExec_t e2 = nullptr;
        cudaError_t err2 =
            cudaGraphInstantiate(&e2, g, cudaGraphInstantiateFlagDeviceLaunch);
        std::printf("probe instantiate_second %d\n", int(err2));
        cudaGetLastError();
        if (err2 == cudaSuccess)
          OK(cudaGraphExecDestroy(e2));
      }
      if (err == cudaSuccess)
        OK(cudaGraphExecDestroy(e));
      OK(cudaGraphDestroy(g));
      if (ev)
        OK(cudaEventDestroy(ev));
    }
  }
  // The checks' summary; then, last, probes of what the GPU may not live
  // through: a device graph not uploaded, and one launched by a kernel
  // launched on its own (kcheck stops that kernel: the last probe).
  std::printf("graph_device_launch: %d checks, %d failures\n", checks,
              failures);
  // A device graph not uploaded, launched from a graph's kernel.
  cudaGraph_t lazyGraph = markGraph(&tags[3]);
  cudaGraphExec_t lazy = nullptr;
  OK(cudaGraphInstantiate(&lazy, lazyGraph,
                          cudaGraphInstantiateFlagDeviceLaunch));
  {
    cudaGraph_t parentGraph;
    OK(cudaGraphCreate(&parentGraph, 0));
    void *args[] = {&lazy, &streams[0], &status, &order, &tags[1]};
    kernelNode(parentGraph, (void *)launcher, args);
    cudaGraphExec_t parent;
    OK(cudaGraphInstantiate(&parent, parentGraph, 0));
    resetOrder();
    std::printf("probe not_uploaded_host_launch %d\n",
                int(cudaGraphLaunch(parent, 0)));
    std::printf("probe not_uploaded_sync %d\n", int(cudaDeviceSynchronize()));
    int s = -2;
    cudaMemcpy(&s, status, sizeof s, cudaMemcpyDeviceToHost);
    std::printf("probe not_uploaded_launch %d\n", s);
    cudaGetLastError();
    cudaGraphExecDestroy(parent);
    cudaGraphDestroy(parentGraph);
  }

  // From a kernel launched on its own (not by a graph).
  resetOrder();
  launcher<<<1, 32>>>(child, cudaStreamGraphFireAndForget, status, order, 2);
  {
    cudaError_t e = cudaDeviceSynchronize();
    std::printf("probe plain_kernel_sync %d\n", int(e));
    int s = -2;
    cudaMemcpy(&s, status, sizeof s, cudaMemcpyDeviceToHost);
    std::printf("probe plain_kernel_launch %d\n", s);
    cudaGetLastError();
  }

  cudaGraphExecDestroy(child);
  cudaGraphExecDestroy(lazy);
  cudaGraphDestroy(childGraph);
  cudaGraphDestroy(lazyGraph);
  return failures ? 1 : 0;
}
