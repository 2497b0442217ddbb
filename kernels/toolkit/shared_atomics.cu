// Floating-point atomics on shared memory, which the H100 runs as a
// compare-and-swap loop (LDS + ATOMS.CAST.SPIN, one LDS per pass, lanes on
// one word succeeding one per pass: analyzer/pipeline/IrPipelineAtomics.h), beside
// the atomics it runs natively. One warp per block, so that no two warps
// meet on a word (their passes would depend on the scheduler).
#include "common.h"

__global__ void f32_distinct_words(float *out) {
  __shared__ float s[32];
  s[threadIdx.x] = 0;
  __syncthreads();
  atomicAdd(&s[threadIdx.x], 1.0f);
  __syncthreads();
  out[blockIdx.x * 32 + threadIdx.x] = s[threadIdx.x];
}

__global__ void f32_one_word(float *out) {
  __shared__ float s[32];
  s[threadIdx.x] = 0;
  __syncthreads();
  atomicAdd(&s[0], 1.0f);
  __syncthreads();
  out[blockIdx.x * 32 + threadIdx.x] = s[threadIdx.x];
}

// Eight words of four lanes each; then odd lanes only, on four words.
__global__ void f32_word_groups(float *out) {
  __shared__ float s[32];
  s[threadIdx.x] = 0;
  __syncthreads();
  atomicAdd(&s[threadIdx.x & 7], 1.0f);
  if (threadIdx.x & 1)
    atomicAdd(&s[8 + (threadIdx.x >> 3)], 2.0f);
  __syncthreads();
  out[blockIdx.x * 32 + threadIdx.x] = s[threadIdx.x];
}

__global__ void f64_words(double *out) {
  __shared__ double s[32];
  s[threadIdx.x] = 0;
  __syncthreads();
  atomicAdd(&s[threadIdx.x], 1.0);
  atomicAdd(&s[threadIdx.x & 3], 1.0);
  __syncthreads();
  out[blockIdx.x * 32 + threadIdx.x] = s[threadIdx.x];
}

// Native: integer add and max (a warp-uniform max becomes one lane's
// ATOMS), float exchange, and float add on global memory (RED).
__global__ void native_atomics(int *out, float *g) {
  __shared__ int s[32];
  __shared__ float f[32];
  s[threadIdx.x] = 0;
  f[threadIdx.x] = 0;
  __syncthreads();
  atomicAdd(&s[threadIdx.x & 3], int(threadIdx.x));
  atomicMax(&s[5], int(threadIdx.x));
  atomicExch(&f[threadIdx.x], 2.0f);
  atomicAdd(&g[threadIdx.x & 3], 1.0f);
  __syncthreads();
  out[blockIdx.x * 32 + threadIdx.x] = s[threadIdx.x] + int(f[threadIdx.x]);
}

// A generic pointer into shared memory for even lanes and global memory for
// odd ones: ptxas tests the space, and only the shared path loops.
__global__ void f32_generic_pointer(float *out, float *g) {
  __shared__ float s[32];
  s[threadIdx.x] = 0;
  __syncthreads();
  float *p = (threadIdx.x & 1) ? &g[threadIdx.x & 6] : &s[threadIdx.x & 6];
  atomicAdd(p, 1.0f);
  __syncthreads();
  out[blockIdx.x * 32 + threadIdx.x] = s[threadIdx.x];
}

int main() {
  const int blocks = 4;
  float *f, *g;
  double *d;
  int *n;
  CHECK(cudaMalloc(&f, blocks * 32 * sizeof(float)));
  CHECK(cudaMalloc(&g, 32 * sizeof(float)));
  CHECK(cudaMalloc(&d, blocks * 32 * sizeof(double)));
  CHECK(cudaMalloc(&n, blocks * 32 * sizeof(int)));
  CHECK(cudaMemset(g, 0, 32 * sizeof(float)));
  f32_distinct_words<<<blocks, 32>>>(f);
  CHECK_LAUNCH();
  f32_one_word<<<blocks, 32>>>(f);
  CHECK_LAUNCH();
  f32_word_groups<<<blocks, 32>>>(f);
  CHECK_LAUNCH();
  f64_words<<<blocks, 32>>>(d);
  CHECK_LAUNCH();
  native_atomics<<<blocks, 32>>>(n, g);
  CHECK_LAUNCH();
  f32_generic_pointer<<<blocks, 32>>>(f, g);
  CHECK_LAUNCH();
  float h[32];
  CHECK(cudaMemcpy(h, f, sizeof h, cudaMemcpyDeviceToHost));
  printf("s[0] %.1f s[6] %.1f\n", h[0], h[6]);
  return 0;
}
