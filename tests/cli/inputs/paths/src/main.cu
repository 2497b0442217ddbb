// tests/cli/paths_test.sh: a project laid out as src/, include/ and build/,
// analysed from build/ with the file named absolutely and relatively.
#include "../include/strided.cuh"

__global__ void scaledCopy(float *out, const float *in) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 2.0f * in[i + 1];
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 2 << 20);
  cudaMalloc(&out, 1 << 20);
  stridedCopy<<<256, 256>>>(out, in);
  scaledCopy<<<256, 256>>>(out, in);
  cudaDeviceSynchronize();
  return 0;
}
