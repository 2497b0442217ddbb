// cub::DeviceReduce::Sum, called twice as CUB asks (the size of its
// temporary storage, then the reduction): its kernel launches are made inside
// CUB, on the host side of NV_IF_TARGET. For 2^20 floats on sm_90 CUB's
// dispatch launches DeviceReduceKernel on 256 blocks (one 4096-item tile
// each) and DeviceReduceSingleTileKernel on one.
#include <cub/cub.cuh>
#include <cstdio>

int main() {
  const int n = 1 << 20;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, sizeof(float));
  cudaMemset(in, 0, n * sizeof(float));
  void *temp = nullptr;
  size_t bytes = 0;
  cub::DeviceReduce::Sum(temp, bytes, in, out, n);
  cudaMalloc(&temp, bytes);
  cub::DeviceReduce::Sum(temp, bytes, in, out, n);
  float r = -1;
  cudaMemcpy(&r, out, sizeof r, cudaMemcpyDeviceToHost);
  printf("%s\n", r == 0.f ? "PASS" : "FAIL");
  return 0;
}
