// Device printf between host printfs: the lines appear in program order.
#include <cstdio>

__global__ void hello(const int *values) {
  if (threadIdx.x % 16 == 0)
    printf("block %d thread %d value %d\n", blockIdx.x, threadIdx.x,
           values[blockIdx.x * blockDim.x + threadIdx.x]);
}

int main() {
  int h[64];
  for (int i = 0; i < 64; ++i)
    h[i] = i * i;
  int *d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  std::printf("host before\n");
  hello<<<2, 32>>>(d);
  cudaDeviceSynchronize();
  std::printf("host after\n");
  return 0;
}
