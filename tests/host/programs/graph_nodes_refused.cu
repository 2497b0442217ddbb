// A graph whose only kernel node asks for 4096 threads a block: the GPU
// refuses the node when it is added (cudaErrorInvalidValue, as the H200
// answers), so launching the graph runs no kernel, and both host paths say
// the program makes no launch.
#include <cstdio>

__global__ void step(int *a) { a[threadIdx.x] += 1; }

int main() {
  int *a;
  cudaMalloc(&a, 4096 * sizeof(int));
  cudaGraph_t graph;
  cudaGraphCreate(&graph, 0);
  void *args[] = {&a};
  cudaKernelNodeParams p = {};
  p.func = (void *)step;
  p.gridDim = dim3(1);
  p.blockDim = dim3(4096);
  p.kernelParams = args;
  cudaGraphNode_t node;
  cudaError_t e = cudaGraphAddKernelNode(&node, graph, nullptr, 0, &p);
  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, graph, 0);
  for (int i = 0; i < 10; ++i)
    cudaGraphLaunch(exec, 0);
  cudaDeviceSynchronize();
  printf("node: %s\n", cudaGetErrorName(e));
  return 0;
}
