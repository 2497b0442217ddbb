// racecheck, planted bug: a missing __syncthreads() between a shared write
// and another warp's read. Each thread stores its value, then reads its
// neighbour's 32 slots further on (a thread of the next warp), with no
// barrier in between. The fixed kernel has the barrier; atomics on shared
// memory and writes separated by barriers are not races.
#include <cstdio>
#include <cuda_runtime.h>

#define BLOCK 128

__global__ void rotateFixed(const int *in, int *out) {
  __shared__ int s[BLOCK];
  __shared__ int total;
  unsigned t = threadIdx.x;
  if (t == 0)
    total = 0;
  s[t] = in[t];
  __syncthreads();
  int v = s[(t + 32) % BLOCK];
  atomicAdd(&total, v);
  __syncthreads();
  out[t] = v + total;
}

__global__ void rotateNoBarrier(const int *in, int *out) {
  __shared__ int s[BLOCK];
  unsigned t = threadIdx.x;
  // Warp 0 reads s[32..63] before warp 1 writes them (its read also sees
  // bytes no thread wrote yet); warp 3 reads s[0..31] after warp 0 wrote
  // them. Both orders are possible on a GPU.
  s[t] = in[t]; // expected-error {{shared-memory data race (write-after-read hazard) on 's' (shared byte 0x80, byte 128 of it): this write by thread (32,0,0) and the read at line 32 by thread (0,0,0) (in block (0,0,0)), in different warps with no __syncthreads() between them}}
  out[t] = s[(t + 32) % BLOCK]; // expected-error {{shared-memory data race (read-after-write hazard) on 's' (shared byte 0x0, byte 0 of it): this read by thread (96,0,0) and the write at line 31 by thread (0,0,0)}} expected-error {{uninitialized shared memory read: thread (0,0,0) in block (0,0,0) reads 's' (shared byte 0x80, byte 128 of it)}}
}

int main() {
  int host[BLOCK], *in, *out;
  for (int i = 0; i < BLOCK; ++i)
    host[i] = i;
  cudaMalloc(&in, sizeof host);
  cudaMalloc(&out, sizeof host);
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  rotateFixed<<<1, BLOCK>>>(in, out);
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  printf("fixed: out[0] = %d\n", host[0]);
  rotateNoBarrier<<<1, BLOCK>>>(in, out);
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  printf("no barrier: out[0] = %d\n", host[0]);
  return 0;
}
