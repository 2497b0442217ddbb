// A CUDA graph built node by node: kernel nodes in a chain, a memset and a
// copy node, a child graph, an empty node, a kernel node the GPU refuses
// (4096 threads a block: cudaGraphAddKernelNode fails, as on the H200), the
// executable graph launched three times, a node's parameters changed in
// the executable graph, launched again. The static analysis must make the
// launches running the host code makes (tests/host/static_equals_run.sh);
// running it, the program checks its results.
#include <cstdio>

__global__ void addOne(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] += 1;
}

__global__ void twice(const int *a, int *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    b[i] = 2 * a[i];
}

int main() {
  const int n = 1000;
  int *a, *b;
  cudaMalloc(&a, n * sizeof(int));
  cudaMalloc(&b, n * sizeof(int));
  static int host[n];
  for (int i = 0; i < n; ++i)
    host[i] = i;

  cudaGraph_t graph, child;
  cudaGraphCreate(&graph, 0);
  cudaGraphCreate(&child, 0);
  cudaGraphNode_t copy, clear, first, second, sub, none, refused;
  cudaGraphAddMemcpyNode1D(&copy, graph, nullptr, 0, a, host, n * sizeof(int),
                           cudaMemcpyHostToDevice);
  cudaMemsetParams ms = {};
  ms.dst = b;
  ms.value = 0;
  ms.elementSize = 4;
  ms.width = n;
  ms.height = 1;
  cudaGraphAddMemsetNode(&clear, graph, &copy, 1, &ms);

  int count = n;
  void *addArgs[] = {&a, &count};
  cudaKernelNodeParams p = {};
  p.func = (void *)addOne;
  p.gridDim = dim3((n + 127) / 128);
  p.blockDim = dim3(128);
  p.kernelParams = addArgs;
  cudaGraphAddKernelNode(&first, graph, &clear, 1, &p);

  void *twiceArgs[] = {&a, &b, &count};
  cudaKernelNodeParams q = {};
  q.func = (void *)twice;
  q.gridDim = dim3((n + 255) / 256);
  q.blockDim = dim3(256);
  q.kernelParams = twiceArgs;
  cudaGraphNode_t inChild;
  cudaGraphAddKernelNode(&inChild, child, nullptr, 0, &q);
  cudaGraphAddKernelNode(&second, graph, &first, 1, &p);
  cudaGraphAddChildGraphNode(&sub, graph, &second, 1, child);
  cudaGraphAddEmptyNode(&none, graph, &sub, 1);

  cudaKernelNodeParams big = p;
  big.blockDim = dim3(4096);
  cudaError_t e = cudaGraphAddKernelNode(&refused, graph, &none, 1, &big);
  printf("a node of 4096 threads: %s\n", cudaGetErrorName(e));

  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, graph, 0);
  for (int r = 0; r < 3; ++r)
    cudaGraphLaunch(exec, 0);
  // The second kernel node, now over the first 500 elements only.
  p.gridDim = dim3(4);
  cudaGraphExecKernelNodeSetParams(exec, second, &p);
  cudaGraphLaunch(exec, 0);
  cudaDeviceSynchronize();

  int got[n];
  cudaMemcpy(got, b, sizeof(got), cudaMemcpyDeviceToHost);
  int failures = 0;
  for (int i = 0; i < n; ++i)
    failures += got[i] != 2 * (i + 1 + (i < 512));
  printf("graph nodes: %d failures: %s\n", failures,
         failures ? "FAIL" : "PASS");
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(child);
  cudaGraphDestroy(graph);
  return failures != 0;
}
