// Blocks that wait for a later block (issue 18): block 0 spins on a flag
// that block 1 sets, as HeCBench bh's SortKernel waits for the cells later
// blocks fill. On the GPU both are resident and block 0 goes on; kcheck
// parks the waiting block and resumes it once a later one has stored.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void handOver(volatile int *flag, int *out) {
  if (blockIdx.x == 0) {
    while (flag[0] == 0) {
    }
    out[threadIdx.x] = flag[0];
  } else if (threadIdx.x == 0) {
    flag[0] = 7;
  }
}

int main() {
  int *flag, *out;
  cudaMalloc(&flag, sizeof(int));
  cudaMalloc(&out, 32 * sizeof(int));
  cudaMemset(flag, 0, sizeof(int));
  handOver<<<2, 32>>>(flag, out);
  int h[32] = {};
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  printf("out[0] %d out[31] %d\n", h[0], h[31]);
  return 0;
}
