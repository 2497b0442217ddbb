// A write far outside every allocation: the kernel stops with an illegal
// address, which the next synchronization reports, and a later copy fails
// with it too; the program goes on to its end (issue 18). Measured on the
// H100 (tests/host/h100/illegal_address.stdout).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void wild(int *out, long offset) { out[offset] = 1; }

int main() {
  int *out;
  cudaMalloc(&out, 1024);
  wild<<<1, 1>>>(out, 1L << 36);
  printf("synchronize: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  int h = -1;
  printf("copy: %s, h %d\n",
         cudaGetErrorString(cudaMemcpy(&h, out, 4, cudaMemcpyDeviceToHost)),
         h);
  printf("done\n");
  return 0;
}
