// Loads that ptxas executes after the branch that ends their block, because
// only one side uses them (analyzer/pipeline/IrPipelineSink.h); 1024-thread blocks of
// which 256 threads (8 warps) take the working side.
#include "common.h"

// Used after an early exit only (HeCBench dense-embedding's offsets).
__global__ void after_early_exit(const int *__restrict__ offset, float *out,
                                 int width) {
  const int begin = offset[blockIdx.x];
  const int range = offset[blockIdx.x + 1] - begin;
  for (int i = threadIdx.x; i < width; i += blockDim.x)
    for (int j = i; j < range; j += width)
      out[begin + j] = 1.0f;
}

// Needed by the exit test itself: every warp loads them.
__global__ void in_exit_test(const int *__restrict__ offset, float *out,
                             int width) {
  const int begin = offset[blockIdx.x];
  const int range = offset[blockIdx.x + 1] - begin;
  if (threadIdx.x >= width || threadIdx.x >= range)
    return;
  out[begin + threadIdx.x] = 2.0f;
}

// Used in one arm of an if/else.
__global__ void in_one_arm(const int *__restrict__ offset, float *out,
                           int width) {
  const int a = offset[blockIdx.x], b = offset[blockIdx.x + 1];
  if (threadIdx.x < width)
    out[blockIdx.x * blockDim.x + threadIdx.x] = float(b - a);
  else
    out[blockIdx.x * blockDim.x + threadIdx.x] = 2.0f;
}

// Shared loads before an early exit.
__global__ void shared_after_exit(const int *__restrict__ offset, float *out,
                                  int width) {
  __shared__ int s[64];
  if (threadIdx.x < 64)
    s[threadIdx.x] = offset[threadIdx.x];
  __syncthreads();
  const int a = s[blockIdx.x & 31], b = s[(blockIdx.x & 31) + 1];
  if (threadIdx.x >= width)
    return;
  out[blockIdx.x * blockDim.x + threadIdx.x] = float(b - a);
}

int main() {
  const int blocks = 64, width = 256;
  int h[blocks + 1];
  for (int i = 0; i <= blocks; ++i)
    h[i] = 300 * i;
  int *offset;
  float *out;
  CHECK(cudaMalloc(&offset, sizeof h));
  CHECK(cudaMemcpy(offset, h, sizeof h, cudaMemcpyHostToDevice));
  CHECK(cudaMalloc(&out, blocks * 1024 * sizeof(float)));
  after_early_exit<<<blocks, 1024>>>(offset, out, width);
  CHECK_LAUNCH();
  in_exit_test<<<blocks, 1024>>>(offset, out, width);
  CHECK_LAUNCH();
  in_one_arm<<<blocks, 1024>>>(offset, out, width);
  CHECK_LAUNCH();
  shared_after_exit<<<blocks, 1024>>>(offset, out, width);
  CHECK_LAUNCH();
  printf("sum %.1f\n", deviceSum(out, blocks * 1024));
  return 0;
}
