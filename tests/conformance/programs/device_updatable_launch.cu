// Conformance program for cudaLaunchAttributeDeviceUpdatableKernelNode on a
// launch (the Runtime API reference: "graphs-only, and passing it to a launch
// in a non-capturing stream will result in an error"): a captured launch
// with it makes a device-updatable node whose handle the attribute returns,
// which a later kernel of the graph updates; the error of a launch outside a
// capture is printed as a `probe` line.
#include "conformance_checks.h"

#include <cstdio>

__global__ void target(int *out, int add) {
  if (threadIdx.x == 0)
    out[blockIdx.x] += add;
}
__global__ void updater(cudaGraphDeviceNode_t node, int value, int *status) {
  if (threadIdx.x == 0)
    *status =
        cudaGraphKernelNodeSetParam(node, sizeof(int *), &value, sizeof value);
}

int main() {
  int *out = nullptr, *status = nullptr;
  OK(cudaMalloc(&out, 16 * sizeof(int)));
  OK(cudaMalloc(&status, sizeof(int)));
  OK(cudaMemset(out, 0, 16 * sizeof(int)));
  cudaLaunchAttribute attr = {};
  attr.id = cudaLaunchAttributeDeviceUpdatableKernelNode;
  attr.val.deviceUpdatableKernelNode.deviceUpdatable = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(2);
  config.blockDim = dim3(32);
  config.attrs = &attr;
  config.numAttrs = 1;
  // Outside a capture.
  cudaError_t e = cudaLaunchKernelEx(&config, target, out, 1);
  std::printf("probe plain_launch %d\n", int(e));
  std::printf("probe plain_launch_sync %d\n", int(cudaDeviceSynchronize()));
  cudaGetLastError();
  int h[2];
  OK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
  std::printf("probe plain_launch_ran %d\n", h[0]);
  // Captured: the node, its handle, updated by a later kernel.
  OK(cudaMemset(out, 0, 16 * sizeof(int)));
  cudaStream_t s;
  OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  config.stream = s;
  attr.val.deviceUpdatableKernelNode.devNode = nullptr;
  OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  cudaGraphDeviceNode_t node = nullptr;
  // The updater first (its argument, the handle, known only after the
  // target's launch: a second capture adds it below).
  OK(cudaLaunchKernelEx(&config, target, out, 1));
  node = attr.val.deviceUpdatableKernelNode.devNode;
  cudaGraph_t g;
  OK(cudaStreamEndCapture(s, &g));
  CHECK(node != nullptr, "the captured launch returns the node's handle");
  size_t count = 0;
  OK(cudaGraphGetNodes(g, nullptr, &count));
  cudaGraphNode_t targetNode;
  count = 1;
  OK(cudaGraphGetNodes(g, &targetNode, &count));
  cudaLaunchAttributeValue back = {};
  OK(cudaGraphKernelNodeGetAttribute(
      targetNode, cudaLaunchAttributeDeviceUpdatableKernelNode, &back));
  CHECK(back.deviceUpdatableKernelNode.deviceUpdatable == 1 &&
            back.deviceUpdatableKernelNode.devNode == node,
        "the node is device-updatable, with that handle");
  int value = 7;
  void *args[] = {&node, &value, &status};
  cudaKernelNodeParams uk = {};
  uk.func = (void *)updater;
  uk.gridDim = dim3(1);
  uk.blockDim = dim3(32);
  uk.kernelParams = args;
  cudaGraphNode_t updaterNode;
  OK(cudaGraphAddKernelNode(&updaterNode, g, nullptr, 0, &uk));
  OK(cudaGraphAddDependencies(g, &updaterNode, &targetNode, nullptr, 1));
  cudaGraphExec_t exec;
  OK(cudaGraphInstantiate(&exec, g, 0));
  OK(cudaGraphLaunch(exec, s));
  OK(cudaStreamSynchronize(s));
  OK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
  int st = -1;
  OK(cudaMemcpy(&st, status, sizeof st, cudaMemcpyDeviceToHost));
  CHECK(st == 0 && h[0] == 7 && h[1] == 7,
        "the updater's parameter reaches the captured node");
  OK(cudaGraphExecDestroy(exec));
  OK(cudaGraphDestroy(g));
  OK(cudaStreamDestroy(s));
  std::printf("device_updatable_launch: %d checks, %d failures\n", checks,
              failures);
  return failures ? 1 : 0;
}
