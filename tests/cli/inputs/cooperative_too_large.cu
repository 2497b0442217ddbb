// A cooperative launch of more blocks than the GPU holds at once: the
// runtime refuses it (cudaErrorCooperativeLaunchTooLarge) and kcheck says so.
#include <cstdio>

__global__ void touch(int *p) { p[blockIdx.x * blockDim.x + threadIdx.x] = 1; }

int main() {
  const int blocks = 100000, threads = 256;
  int *p;
  cudaMalloc(&p, sizeof(int) * blocks * threads);
  void *args[] = {&p};
  cudaError_t err = cudaLaunchCooperativeKernel(
      (void *)touch, dim3(blocks), dim3(threads), args, 0, 0);
  printf("%s\n", cudaGetErrorName(err));
  return 0;
}
