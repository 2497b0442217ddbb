// Launches the GPU refuses (nothing runs): a block over 1024 threads, and
// dynamic shared memory over 48 KB without the kernel's opt-in
// (cudaErrorInvalidValue), a cooperative launch of more blocks than can be
// resident at once (cudaErrorCooperativeLaunchTooLarge). Both host paths
// leave them out and number the launch that runs #0, as Nsight Compute does
// (core::launchRefusal).
#include <cstdio>
__global__ void big(float *x) { x[threadIdx.x] = 1.0f; }
__global__ void wide(float *x) {
  extern __shared__ float s[];
  s[threadIdx.x] = x[threadIdx.x];
  x[threadIdx.x] = s[threadIdx.x ^ 1];
}
int main() {
  float *x;
  cudaMalloc(&x, 4096 * sizeof(float));
  big<<<1, 2048>>>(x);
  printf("big: %s\n", cudaGetErrorName(cudaGetLastError()));
  wide<<<1, 32, 100000>>>(x);
  printf("wide: %s\n", cudaGetErrorName(cudaGetLastError()));
  void *args[] = {&x};
  cudaError_t e = cudaLaunchCooperativeKernel((void *)big, dim3(100000),
                                              dim3(1024), args, 0, 0);
  printf("cooperative: %s\n", cudaGetErrorName(e));
  cudaGetLastError(); // the launch's error is the last error too
  cudaFuncSetAttribute(wide, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       100000);
  wide<<<1, 32, 100000>>>(x);
  printf("wide with its opt-in: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
