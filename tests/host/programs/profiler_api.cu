// Profiler control around a launch (Learn-CUDA-Programming's focused
// profiling): with no profiler attached, both calls succeed and the program
// goes on.
#include <cstdio>
#include <cuda_profiler_api.h>

__global__ void fill(int *p) { p[threadIdx.x] = threadIdx.x; }

int main() {
  int *p, h[32];
  cudaMalloc(&p, sizeof h);
  cudaError_t start = cudaProfilerStart();
  fill<<<1, 32>>>(p);
  cudaError_t stop = cudaProfilerStop();
  cudaMemcpy(h, p, sizeof h, cudaMemcpyDeviceToHost);
  printf("start %d stop %d h[31]=%d\n", int(start), int(stop), h[31]);
  cudaFree(p);
  return 0;
}
