// A kernel fault leaves the CUDA context unusable, and the program goes on
// (issue 18): a failed device assert prints its line, and every later call
// that reaches the device returns the fault's error; cudaGetLastError returns
// it once and is reset; a later kernel does not run (its printf is not
// printed). Measured on the H100 (tests/host/h100/device_fault.stdout).
#include <cassert>
#include <cstdio>
#include <cuda_runtime.h>

__global__ void check(const int *v, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(v[i] != 7);
  out[i] = v[i] * 2;
}

__global__ void hello(int *out) {
  printf("hello from block %d\n", blockIdx.x);
  out[threadIdx.x] = 1;
}

int main() {
  const int n = 256;
  int host[n];
  for (int i = 0; i < n; ++i)
    host[i] = i == 100 ? 7 : 1;
  int *v, *out;
  cudaMalloc(&v, n * sizeof(int));
  cudaMalloc(&out, n * sizeof(int));
  cudaMemcpy(v, host, n * sizeof(int), cudaMemcpyHostToDevice);
  check<<<1, n>>>(v, out);
  printf("synchronize %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  // One call per statement: the order of a call's arguments is the
  // compiler's.
  printf("last error %s, ", cudaGetErrorName(cudaGetLastError()));
  printf("again %s\n", cudaGetErrorName(cudaGetLastError()));
  hello<<<2, 1>>>(out);
  printf("after hello: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  host[0] = -1;
  cudaError_t copied =
      cudaMemcpy(host, out, n * sizeof(int), cudaMemcpyDeviceToHost);
  printf("copy %s, host[0] %d\n", cudaGetErrorName(copied), host[0]);

  printf("done\n");
  return 0;
}
