// synccheck: threads that have exited do not hold up a __syncthreads() (sm_70
// and later: the barrier waits for the block's threads that have not
// exited). The three fixed kernels exit some threads of a warp before the
// barrier: a bounds check that returns (the last warp of the grid is
// partial), lanes that store and return, and threads that leave a loop
// whose every iteration has a barrier; compute-sanitizer's synccheck
// reports none of them on the H200. Planted bug: the threads that stay
// reach the barrier only in part (synccheck: "Divergent thread(s) in
// warp").
#include <cstdio>
#include <cuda_runtime.h>

#define BLOCK 128

__global__ void boundsCheckFixed(const float *in, float *out, int n) {
  __shared__ float s[BLOCK];
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i >= n)
    return;
  s[threadIdx.x] = in[i];
  __syncthreads();
  out[i] = s[threadIdx.x] * 2.0f;
}

__global__ void exitLanesFixed(float *out, int *flags) {
  __shared__ float s[BLOCK];
  unsigned t = threadIdx.x;
  if (t % 32 >= 24) {
    flags[t] = 1;
    return;
  }
  s[t] = float(t);
  __syncthreads();
  out[t] = s[t] + 1.0f;
}

__global__ void leaveLoopFixed(float *out, const int *trips) {
  __shared__ float s[BLOCK];
  unsigned t = threadIdx.x;
  float v = 0.0f;
  for (int k = 0;; ++k) {
    if (k >= trips[t]) // each thread its own trip count
      return;
    s[t] = v + float(k);
    __syncthreads();
    v += s[t];
    out[t] = v;
  }
}

__global__ void exitThenHalfBarrier(float *out, int n) {
  __shared__ float s[BLOCK];
  unsigned t = threadIdx.x;
  if (int(t) >= n)
    return;
  s[t] = float(t);
  if (t % 32 < 8)
    __syncthreads(); // expected-error {{__syncthreads() reached by only part of a block}}
  out[t] = s[t];
}

int main() {
  const int n = 3 * BLOCK + 40;
  float *in, *out;
  int *trips, *flags, host[BLOCK];
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMalloc(&trips, sizeof host);
  cudaMalloc(&flags, sizeof host);
  cudaMemset(in, 0, n * sizeof(float));
  for (int t = 0; t < BLOCK; ++t)
    host[t] = 3 + t % 5;
  cudaMemcpy(trips, host, sizeof host, cudaMemcpyHostToDevice);
  boundsCheckFixed<<<4, BLOCK>>>(in, out, n);
  exitLanesFixed<<<1, BLOCK>>>(out, flags);
  leaveLoopFixed<<<1, BLOCK>>>(out, trips);
  exitThenHalfBarrier<<<1, BLOCK>>>(out, 100);
  float first;
  cudaMemcpy(&first, out, sizeof first, cudaMemcpyDeviceToHost);
  printf("out[0] = %g\n", first);
  return 0;
}
