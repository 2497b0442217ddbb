// 150 KB of dynamic shared memory: within sm_90's opt-in maximum (227 KB),
// past sm_120's (99 KB). Static prediction and the simulated runtime refuse
// it on the same architectures (both read core/DeviceFacts.h).
#include <cstdio>

__global__ void big(float *out) {
  extern __shared__ float tile[];
  tile[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = tile[31 - threadIdx.x];
}

int main() {
  float *out;
  cudaMalloc(&out, 128);
  cudaError_t set = cudaFuncSetAttribute(
      big, cudaFuncAttributeMaxDynamicSharedMemorySize, 150 * 1024);
  big<<<1, 32, 150 * 1024>>>(out);
  printf("%s %s\n", cudaGetErrorName(set), cudaGetErrorName(cudaGetLastError()));
  cudaFree(out);
  return 0;
}
