// __managed__ variables: host code and kernels read and write the same
// memory (a counter the host sets and kernels increment, an array the
// kernel fills and the host reads), and cudaMemcpyToSymbol reaches it too.
#include <cstdio>

__managed__ int counter;
__managed__ float data[64];
__managed__ int initialized = 41;

__global__ void bump() {
  atomicAdd(&counter, 1);
  data[threadIdx.x] = threadIdx.x + initialized;
}

int main() {
  counter = 5;
  bump<<<1, 64>>>();
  cudaDeviceSynchronize();
  int ten = 10;
  cudaMemcpyToSymbol(initialized, &ten, sizeof ten);
  bump<<<1, 64>>>();
  cudaDeviceSynchronize();
  cudaPointerAttributes a;
  cudaPointerGetAttributes(&a, &counter);
  bool ok = counter == 133 && data[63] == 73 && initialized == 10 &&
            a.type == cudaMemoryTypeManaged;
  std::printf("counter %d data[63] %.0f initialized %d %s\n", counter,
              data[63], initialized, ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
