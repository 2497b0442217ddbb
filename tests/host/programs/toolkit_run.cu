// --run-host against the CUDA toolkit's headers: host code converting with
// cuda_fp16.h, a CUB block reduction, and cudaGetDeviceProperties filled in
// the toolkit's own cudaDeviceProp layout.
#include <cub/block/block_reduce.cuh>
#include <cuda_fp16.h>
#include <cstdio>
#include <vector>

constexpr int kBlock = 128;

__global__ void sumHalves(const __half *in, float *out, int n) {
  using Reduce = cub::BlockReduce<float, kBlock>;
  __shared__ typename Reduce::TempStorage temp;
  int i = blockIdx.x * kBlock + threadIdx.x;
  float v = i < n ? __half2float(in[i]) : 0.f;
  float s = Reduce(temp).Sum(v);
  if (threadIdx.x == 0)
    out[blockIdx.x] = s;
}

int main() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  int n = prop.multiProcessorCount * kBlock; // 132 blocks on an H100
  std::vector<__half> h(n);
  for (int i = 0; i < n; ++i)
    h[i] = __float2half(float(i % 4));
  __half *in;
  float *out;
  cudaMalloc(&in, n * sizeof(__half));
  cudaMalloc(&out, prop.multiProcessorCount * sizeof(float));
  cudaMemcpy(in, h.data(), n * sizeof(__half), cudaMemcpyHostToDevice);
  sumHalves<<<prop.multiProcessorCount, kBlock>>>(in, out, n);
  float first = 0;
  cudaMemcpy(&first, out, sizeof first, cudaMemcpyDeviceToHost);
  std::printf("%s: %d SMs, %zu bytes shared per block, block 0 sums to %.0f\n",
              prop.name, prop.multiProcessorCount, prop.sharedMemPerBlock,
              first);
  return 0;
}
