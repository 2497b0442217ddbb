// A coalesced scale: the project's clean file.
#include <cuda_runtime.h>

__global__ void scale(float *data, float by) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  data[i] *= by;
}

int main() {
  float *data;
  cudaMalloc(&data, 1 << 20);
  scale<<<1024, 256>>>(data, 2.0f);
  cudaDeviceSynchronize();
  return 0;
}
