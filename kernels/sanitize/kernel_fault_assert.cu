// [kernel-fault]: a device assert the GPU fails in one thread of the first
// block: the launch is reported up to the fault, the second launch does not
// run (the context is unusable after a fault), and the check's error names
// the assert, its thread and block.
#include <cassert>

__global__ void scale(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = 2 * in[i];
    assert(i != 100); // expected-error {{assertion `i != 100` failed by thread (100,0,0) in block (0,0,0) of scale}}
  }
}

__global__ void clean(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i];
}

int main() {
  const int n = 1024;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  scale<<<n / 256, 256>>>(in, out, n);
  clean<<<n / 256, 256>>>(in, out, n);
  cudaDeviceSynchronize();
  return 0;
}
