// synccheck, planted bug: a __syncthreads() inside a thread-dependent branch
// (only the first half of each warp reaches it; the other half goes on to
// the store after it, so it does not exit first). The fixed kernel keeps the
// branch for the work and the barrier outside it. (A first version put the
// store inside the branch: the other half then only exits, which sm_70 and
// later do not wait for, and compute-sanitizer reported nothing on the H100.)
#include <cstdio>
#include <cuda_runtime.h>

#define BLOCK 64

__global__ void halfBarrierFixed(int *data) {
  __shared__ int s[BLOCK];
  unsigned t = threadIdx.x;
  s[t] = t;
  __syncthreads();
  if (t % 32 < 16)
    data[t] = s[BLOCK - 1 - t];
}

__global__ void halfBarrier(int *data) {
  __shared__ int s[BLOCK];
  unsigned t = threadIdx.x;
  s[t] = t;
  if (t % 32 < 16)
    __syncthreads(); // expected-error {{__syncthreads() reached by only part of a block}}
  data[t] = s[BLOCK - 1 - t];
}

int main() {
  int host[BLOCK], *data;
  cudaMalloc(&data, sizeof host);
  halfBarrierFixed<<<1, BLOCK>>>(data);
  halfBarrier<<<1, BLOCK>>>(data);
  cudaMemcpy(host, data, sizeof host, cudaMemcpyDeviceToHost);
  printf("data[0] = %d\n", host[0]);
  return 0;
}
