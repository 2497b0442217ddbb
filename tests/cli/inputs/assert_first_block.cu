// A device assert that fails in block 0 (the host writes a[0] = 1) of a
// launch whose 4096 blocks run a long loop each: the launch stops at the
// failed assert, named at its line with its expression as the GPU prints it,
// without running the blocks after it (their counts would be dropped).
#include <cassert>

__global__ void sumChecked(const float *a, float *out, int steps) {
  if (blockIdx.x == 0) {
    out[threadIdx.x] = 0.f; // a block apart for static runs (2 classes)
    if (threadIdx.x == 0)
      assert(a[0] == 0.f);
  }
  float sum = 0.f;
  for (int i = 0; i < steps; ++i)
    sum += a[(threadIdx.x + i) % 256];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

int main() {
  const int blocks = 4096, threads = 256;
  float one = 1.f, *a, *out;
  cudaMalloc(&a, threads * sizeof(float));
  cudaMalloc(&out, blocks * threads * sizeof(float));
  cudaMemset(a, 0, threads * sizeof(float));
  cudaMemcpy(a, &one, sizeof(float), cudaMemcpyHostToDevice);
  sumChecked<<<blocks, threads>>>(a, out, 4096);
  cudaDeviceSynchronize();
}
