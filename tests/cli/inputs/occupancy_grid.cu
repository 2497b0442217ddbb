// A grid sized by the occupancy API, as grid-stride and cooperative kernels
// are: its blocks per SM come from the registers nvcc gives the kernel.
#include <cstdio>

__global__ void scale(float *x, int n) {
  __shared__ float tile[1024];
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x) {
    tile[threadIdx.x] = x[i];
    __syncthreads();
    x[i] = 2 * tile[threadIdx.x];
    __syncthreads();
  }
}

int main() {
  int n = 1 << 20;
  float *x;
  cudaMalloc(&x, n * sizeof(float));
  cudaMemset(x, 0, n * sizeof(float));
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  int perSM = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSM, scale, 256, 0);
  scale<<<perSM * prop.multiProcessorCount, 256>>>(x, n);
  cudaFuncAttributes attr;
  cudaFuncGetAttributes(&attr, scale);
  scale<<<1, attr.maxThreadsPerBlock>>>(x, 1024);
  cudaFree(x);
  return 0;
}
