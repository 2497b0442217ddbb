// What cudaGraphSetConditional costs in the memory counters of the launch
// that calls it: the instructions the driver's code behind its CALL.ABS
// runs. Nsight Compute profiles no kernel node of a graph that can have
// conditional nodes ("not supported for profiling"), so the kernels are
// launched on their own, each with a handle of a graph that has a
// conditional node, one thread (or a warp) calling; a kernel that stores
// only its own word is the baseline. Then the graph runs, to print whether
// the value set by a plain launch reached its condition (no default flag).
//   nvcc -O3 -arch=sm_90 set_conditional_costs.cu
#include <cuda_runtime.h>

#include <cstdio>

__global__ void baseline(cudaGraphConditionalHandle, int *out) { out[0] = 1; }
__global__ void setOnce(cudaGraphConditionalHandle h, int *out) {
  if (threadIdx.x == 0)
    cudaGraphSetConditional(h, 1);
  out[0] = 1;
}
__global__ void setByWarp(cudaGraphConditionalHandle h, int *out) {
  cudaGraphSetConditional(h, threadIdx.x & 1);
  out[0] = 1;
}
__global__ void setTwice(cudaGraphConditionalHandle h, int *out) {
  if (threadIdx.x == 0) {
    cudaGraphSetConditional(h, 0);
    cudaGraphSetConditional(h, 1);
  }
  out[0] = 1;
}
__global__ void mark(int *out) { out[1] += 1; }

int main() {
  int *out;
  cudaMalloc(&out, 2 * sizeof(int));
  cudaMemset(out, 0, 2 * sizeof(int));
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  cudaGraphConditionalHandle h;
  cudaGraphConditionalHandleCreate(&h, g, 0, 0);
  cudaGraphNodeParams p = {};
  p.type = cudaGraphNodeTypeConditional;
  p.conditional.handle = h;
  p.conditional.type = cudaGraphCondTypeIf;
  p.conditional.size = 1;
  cudaGraphNode_t node;
  cudaGraphAddNode(&node, g, nullptr, nullptr, 0, &p);
  cudaKernelNodeParams k = {};
  void *args[] = {&out};
  k.func = (void *)mark;
  k.gridDim = dim3(1);
  k.blockDim = dim3(1);
  k.kernelParams = args;
  cudaGraphNode_t kn;
  cudaGraphAddKernelNode(&kn, p.conditional.phGraph_out[0], nullptr, 0, &k);
  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, g, 0);
  baseline<<<1, 32>>>(h, out);
  setOnce<<<1, 32>>>(h, out);
  setByWarp<<<1, 32>>>(h, out);
  setTwice<<<1, 32>>>(h, out);
  cudaGraphLaunch(exec, 0);
  int back[2];
  cudaMemcpy(back, out, sizeof back, cudaMemcpyDeviceToHost);
  std::printf("probe handle %llx\n", (unsigned long long)h);
  std::printf("probe body_ran_after_plain_set %d\n", back[1]);
  std::printf("status %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
