// __constant__ and __device__ variables through cudaMemcpyToSymbol /
// FromSymbol, a kernel launched in a host loop, and exit() after it.
#include <cstdio>
#include <cstdlib>

__constant__ int coeff[4];
__device__ int counter = 100; // initialized in the device image

__global__ void scale(int *data, int round) {
  int i = threadIdx.x;
  data[i] = data[i] * coeff[i % 4] + round;
  if (i == 0)
    counter += 1;
}

int main() {
  int h[64], c[4] = {1, 2, 3, 4};
  for (int i = 0; i < 64; ++i)
    h[i] = i;
  int *d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemcpyToSymbol(coeff, c, sizeof c);
  for (int round = 0; round < 3; ++round)
    scale<<<1, 64>>>(d, round);
  cudaDeviceSynchronize();
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int count = 0;
  cudaMemcpyFromSymbol(&count, counter, sizeof count);
  long sum = 0;
  for (int v : h)
    sum += v;
  std::printf("sum=%ld h[5]=%d counter=%d\n", sum, h[5], count);
  std::exit(7);
}
