// Reads every other element: an uncoalesced load kcheck check -p BUILD
// finds when it analyses the whole project.
#include <cuda_runtime.h>

__global__ void everyOther(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[2 * i];
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 2 << 20);
  cudaMalloc(&out, 1 << 20);
  everyOther<<<1024, 256>>>(out, in);
  cudaDeviceSynchronize();
  return 0;
}
