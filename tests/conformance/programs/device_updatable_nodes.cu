// Conformance program for device-updatable kernel nodes
// (cudaLaunchAttributeDeviceUpdatableKernelNode; cudaGraphKernelNodeSetParam,
// cudaGraphKernelNodeSetEnabled, cudaGraphKernelNodeSetGridDim and
// cudaGraphKernelNodeUpdatesApply in device code), written from the Runtime
// API reference: a kernel of the graph updates a later node's parameters,
// grid and enabled state, which that node runs with; the restrictions the
// reference names (no destroy, no opting out, no copying attributes, one
// instantiation, no cudaGraphExecUpdate) are refused, their errors printed
// as `probe` lines.
#include "conformance_checks.h"

#include <cstdio>

// Each block of the target adds `add` to out[blockIdx.x].
__global__ void target(int *out, int add) {
  if (threadIdx.x == 0)
    out[blockIdx.x] += add;
}
// Updates the target node: its `add` to value, its grid to blocks, and
// whether it runs.
__global__ void updater(cudaGraphDeviceNode_t node, int value, unsigned blocks,
                        int enabled, int how, int *status) {
  if (threadIdx.x != 0)
    return;
  if (how == 0) { // one call each
    status[0] =
        cudaGraphKernelNodeSetParam(node, sizeof(int *), &value, sizeof value);
    status[1] = cudaGraphKernelNodeSetGridDim(node, dim3(blocks));
    status[2] = cudaGraphKernelNodeSetEnabled(node, enabled != 0);
  } else { // one cudaGraphKernelNodeUpdatesApply of three updates
    // Its union holds a dim3, whose constructor deletes the default one.
    alignas(cudaGraphKernelNodeUpdate) unsigned char
        raw[3 * sizeof(cudaGraphKernelNodeUpdate)] = {};
    cudaGraphKernelNodeUpdate *u =
        reinterpret_cast<cudaGraphKernelNodeUpdate *>(raw);
    u[0].node = node;
    u[0].field = cudaGraphKernelNodeFieldParam;
    u[0].updateData.param.pValue = &value;
    u[0].updateData.param.offset = sizeof(int *);
    u[0].updateData.param.size = sizeof value;
    u[1].node = node;
    u[1].field = cudaGraphKernelNodeFieldGridDim;
    u[1].updateData.gridDim = dim3(blocks);
    u[2].node = node;
    u[2].field = cudaGraphKernelNodeFieldEnabled;
    u[2].updateData.isEnabled = enabled;
    status[0] = cudaGraphKernelNodeUpdatesApply(u, 3);
  }
}
// A malformed update: offset past the parameters.
__global__ void badUpdate(cudaGraphDeviceNode_t node, int *status) {
  if (threadIdx.x == 0) {
    int v = 1;
    status[3] = cudaGraphKernelNodeSetParam(node, 4096, &v, sizeof v);
  }
}

int main() {
  std::setvbuf(stdout, nullptr, _IONBF, 0);
  int *out = nullptr, *status = nullptr;
  OK(cudaMalloc(&out, 64 * sizeof(int)));
  OK(cudaMalloc(&status, 8 * sizeof(int)));
  for (int how = 0; how < 2; ++how) {
    cudaGraph_t g;
    OK(cudaGraphCreate(&g, 0));
    int add = 1;
    void *targetArgs[] = {&out, &add};
    cudaKernelNodeParams tk = {};
    tk.func = (void *)target;
    tk.gridDim = dim3(2);
    tk.blockDim = dim3(32);
    tk.kernelParams = targetArgs;
    cudaGraphNode_t targetNode;
    OK(cudaGraphAddKernelNode(&targetNode, g, nullptr, 0, &tk));
    cudaLaunchAttributeValue v = {};
    v.deviceUpdatableKernelNode.deviceUpdatable = 1;
    OK(cudaGraphKernelNodeSetAttribute(
        targetNode, cudaLaunchAttributeDeviceUpdatableKernelNode, &v));
    cudaLaunchAttributeValue back = {};
    OK(cudaGraphKernelNodeGetAttribute(
        targetNode, cudaLaunchAttributeDeviceUpdatableKernelNode, &back));
    cudaGraphDeviceNode_t dev = back.deviceUpdatableKernelNode.devNode;
    CHECK(back.deviceUpdatableKernelNode.deviceUpdatable == 1 && dev,
          "a device-updatable node gives a handle");
    std::printf("probe set_attribute_wrote_handle %d\n",
                v.deviceUpdatableKernelNode.devNode != nullptr);
    // The updater runs first, the target after it.
    int value = 10, blocks = 4, enabled = 1;
    void *updaterArgs[] = {&dev, &value, &blocks, &enabled, &how, &status};
    cudaKernelNodeParams uk = tk;
    uk.func = (void *)updater;
    uk.gridDim = dim3(1);
    uk.kernelParams = updaterArgs;
    cudaGraphNode_t updaterNode;
    OK(cudaGraphAddKernelNode(&updaterNode, g, nullptr, 0, &uk));
    OK(cudaGraphAddDependencies(g, &updaterNode, &targetNode, nullptr, 1));
    // The restrictions, before instantiation.
    if (how == 0) {
      v.deviceUpdatableKernelNode.deviceUpdatable = 0;
      PROBE_ERROR(
          "opt_out",
          cudaGraphKernelNodeSetAttribute(
              targetNode, cudaLaunchAttributeDeviceUpdatableKernelNode, &v));
      PROBE_ERROR("copy_attributes_from",
                  cudaGraphKernelNodeCopyAttributes(updaterNode, targetNode));
      PROBE_ERROR("copy_attributes_to",
                  cudaGraphKernelNodeCopyAttributes(targetNode, updaterNode));
      PROBE_ERROR("destroy_node", cudaGraphDestroyNode(targetNode));
    }
    cudaGraphExec_t exec;
    OK(cudaGraphInstantiate(&exec, g, 0));
    if (how == 0) {
      cudaGraphExec_t second = nullptr;
      cudaError_t e = cudaGraphInstantiate(&second, g, 0);
      PROBE_ERROR("second_instantiation", e);
      if (e == cudaSuccess)
        OK(cudaGraphExecDestroy(second));
      cudaGraphExecUpdateResultInfo info = {};
      PROBE_ERROR("exec_update", cudaGraphExecUpdate(exec, g, &info));
    }
    // Launch 1: updated before the target runs: 4 blocks add 10.
    OK(cudaMemset(out, 0, 64 * sizeof(int)));
    OK(cudaMemset(status, 0xff, 8 * sizeof(int)));
    OK(cudaGraphLaunch(exec, 0));
    OK(cudaDeviceSynchronize());
    int h[8], s[8];
    OK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    OK(cudaMemcpy(s, status, sizeof s, cudaMemcpyDeviceToHost));
    std::printf("probe how_%d_status %d %d %d\n", how, s[0], s[1], s[2]);
    std::printf("probe how_%d_first %d %d %d %d %d\n", how, h[0], h[1], h[2],
                h[3], h[4]);
    CHECK(h[0] == 10 && h[3] == 10 && h[4] == 0,
          "the target runs with the updated parameter and grid");
    // Launch 2: the updater disables the target (value 20, 1 block).
    value = 20, blocks = 1, enabled = 0;
    cudaKernelNodeParams again = uk;
    OK(cudaGraphExecKernelNodeSetParams(exec, updaterNode, &again));
    OK(cudaMemset(out, 0, 64 * sizeof(int)));
    OK(cudaGraphLaunch(exec, 0));
    OK(cudaDeviceSynchronize());
    OK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    std::printf("probe how_%d_disabled %d %d\n", how, h[0], h[1]);
    CHECK(h[0] == 0 && h[1] == 0, "a disabled target does not run");
    // Launch 3: enabled again, 3 blocks of 5; the update stays for the
    // launch after.
    value = 5, blocks = 3, enabled = 1;
    OK(cudaGraphExecKernelNodeSetParams(exec, updaterNode, &again));
    OK(cudaMemset(out, 0, 64 * sizeof(int)));
    OK(cudaGraphLaunch(exec, 0));
    OK(cudaDeviceSynchronize());
    OK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    std::printf("probe how_%d_again %d %d %d %d\n", how, h[0], h[1], h[2],
                h[3]);
    CHECK(h[0] == 5 && h[2] == 5 && h[3] == 0, "enabled again");
    if (how == 0) {
      // A bad offset, from a kernel launched on its own.
      badUpdate<<<1, 32>>>(dev, status);
      cudaError_t e = cudaDeviceSynchronize();
      OK(cudaMemcpy(s, status, sizeof s, cudaMemcpyDeviceToHost));
      std::printf("probe bad_offset %d sync %d\n", s[3], int(e));
    }
    OK(cudaGraphExecDestroy(exec));
    OK(cudaGraphDestroy(g));
  }
  std::printf("device_updatable_nodes: %d checks, %d failures\n", checks,
              failures);
  return failures ? 1 : 0;
}
