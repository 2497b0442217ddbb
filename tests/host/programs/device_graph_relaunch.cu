// A device graph that tail-launches itself (cudaGetCurrentGraphExec) until
// its count reaches the program's argument: each relaunch runs after the one
// before (the Programming Guide's "Device Graph Launch"), and kcheck runs a
// long chain of them as a queue, in constant stack.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void again(int *count, int limit) {
  if (threadIdx.x == 0 && ++count[0] < limit)
    cudaGraphLaunch(cudaGetCurrentGraphExec(), cudaStreamGraphTailLaunch);
}

int main(int argc, char **argv) {
  int limit = argc > 1 ? std::atoi(argv[1]) : 3;
  int *count = nullptr;
  cudaMalloc(&count, sizeof(int));
  cudaMemset(count, 0, sizeof(int));
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  cudaKernelNodeParams k = {};
  void *args[] = {&count, &limit};
  k.func = (void *)again;
  k.gridDim = dim3(1);
  k.blockDim = dim3(32);
  k.kernelParams = args;
  cudaGraphNode_t n;
  cudaGraphAddKernelNode(&n, g, nullptr, 0, &k);
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, cudaGraphInstantiateFlagDeviceLaunch);
  cudaGraphUpload(e, 0);
  cudaGraphLaunch(e, 0);
  int back = 0;
  cudaMemcpy(&back, count, sizeof back, cudaMemcpyDeviceToHost);
  std::printf("count %d: %s\n", back, back == limit ? "PASS" : "FAIL");
  return back == limit ? 0 : 1;
}
