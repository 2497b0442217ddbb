// Probe: what cudaGraphAddKernelNode answers for dimensions the GPU refuses
// (a block of 4096 threads, a grid of 2^31 blocks, a 32x32x2 block, an
// empty block, too much dynamic shared memory), and whether it reads the
// arguments first (the first node's second argument is no host pointer).
// The H200 (docs/validation/data/h200-graph_kernel_node_dimensions.txt):
// invalid value for each, 300000 bytes of dynamic shared memory included,
// at the node's addition; the node with a bad argument is not read. kcheck
// answers from one rule (core::launchRefusal, host/CudaRuntimeGraphs.cpp
// kernelWork), before the arguments are read; ctest
// conformance.graph_kernel_node_dimensions compares the two. Written from
// HeCBench-like code that runs on the H200 with such a node
// (docs/validation/real-world-families.md, graphs).
#include <cstdio>
__global__ void k(int *a, int *b) {
  if (a)
    a[threadIdx.x] = b ? 1 : 2;
}
int main() {
  int *d;
  cudaMalloc(&d, 4096 * 4);
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  cudaKernelNodeParams p = {};
  void *args[2] = {&d,
                   (void *)0x10}; // second argument pointer invalid on the host
  p.func = (void *)k;
  p.gridDim = dim3(1);
  p.blockDim = dim3(4096);
  p.kernelParams = args;
  cudaGraphNode_t n;
  cudaError_t e = cudaGraphAddKernelNode(&n, g, nullptr, 0, &p);
  printf("probe add_block4096_badarg %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  void *args2[2] = {&d, &d};
  p.kernelParams = args2;
  e = cudaGraphAddKernelNode(&n, g, nullptr, 0, &p);
  printf("probe add_block4096 %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  cudaGraphExec_t x;
  e = cudaGraphInstantiate(&x, g, 0);
  printf("probe instantiate %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  if (e == cudaSuccess) {
    e = cudaGraphLaunch(x, 0);
    printf("probe launch %s\n", cudaGetErrorName(e));
    e = cudaDeviceSynchronize();
    printf("probe sync %s\n", cudaGetErrorName(e));
  }
  cudaGetLastError();
  p.blockDim = dim3(32);
  p.gridDim = dim3(1u << 31);
  e = cudaGraphAddKernelNode(&n, g, nullptr, 0, &p);
  printf("probe add_grid2^31 %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  p.gridDim = dim3(1);
  p.sharedMemBytes = 300000;
  e = cudaGraphAddKernelNode(&n, g, nullptr, 0, &p);
  printf("probe add_shared300000 %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  p.sharedMemBytes = 0;
  p.blockDim = dim3(32, 32, 2);
  e = cudaGraphAddKernelNode(&n, g, nullptr, 0, &p);
  printf("probe add_block32x32x2 %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  p.blockDim = dim3(0);
  e = cudaGraphAddKernelNode(&n, g, nullptr, 0, &p);
  printf("probe add_block0 %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  return 0;
}
