// initcheck, planted bug: a block sum whose shared array is only filled for
// the threads that have an element (n = 48 of 64), while the tree reduction
// reads every slot, so it sums 16 slots no thread of the block wrote. The
// same with dynamic shared memory. The fixed kernel writes 0 for the
// threads past n. Not a finding either: warp sums read from slots 1-3,
// where ptxas reads the 16-byte chunk of slots 0-3 with one LDS.128 (the
// bytes of slot 0, which no thread wrote, are read for the hardware only).
#include <cstdio>
#include <cuda_runtime.h>

#define BLOCK 64

__global__ void blockSumFixed(const float *in, float *out, int n) {
  __shared__ float sdata[BLOCK];
  unsigned tid = threadIdx.x;
  sdata[tid] = tid < n ? in[tid] : 0.0f;
  __syncthreads();
  for (unsigned s = BLOCK / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[0] = sdata[0];
}

__global__ void partialChunk(const float *in, float *out) {
  __shared__ float warpSums[4];
  float v = in[threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  if (threadIdx.x % 32 == 0 && threadIdx.x > 0)
    warpSums[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x == 0)
    out[0] = v + warpSums[1] + warpSums[2] + warpSums[3];
}

__global__ void blockSumTail(const float *in, float *out, int n) {
  __shared__ float sdata[BLOCK];
  unsigned tid = threadIdx.x;
  if (tid < n)
    sdata[tid] = in[tid];
  __syncthreads();
  for (unsigned s = BLOCK / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s]; // expected-error {{uninitialized shared memory read: thread (16,0,0) in block (0,0,0) reads 'sdata' (shared byte 0xc0, byte 192 of it) before any thread of its block wrote it}}
    __syncthreads();
  }
  if (tid == 0)
    out[1] = sdata[0];
}

__global__ void lastOfDynamic(const float *in, float *out, int n) {
  extern __shared__ float staged[];
  if (threadIdx.x < n)
    staged[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0)
    out[2] = staged[blockDim.x - 1]; // expected-error {{uninitialized shared memory read: thread (0,0,0) in block (0,0,0) reads 'staged' (shared byte 0xfc, byte 252 of it)}}
}

int main() {
  float host[128], *in, *out;
  for (int i = 0; i < 128; ++i)
    host[i] = 1.0f;
  cudaMalloc(&in, sizeof host);
  cudaMalloc(&out, 3 * sizeof(float));
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  blockSumFixed<<<1, BLOCK>>>(in, out, 48);
  partialChunk<<<1, 128>>>(in, out);
  blockSumTail<<<1, BLOCK>>>(in, out, 48);
  lastOfDynamic<<<1, BLOCK, BLOCK * sizeof(float)>>>(in, out, 48);
  cudaMemcpy(host, out, 3 * sizeof(float), cudaMemcpyDeviceToHost);
  printf("fixed %g, tail %g (48 expected), dynamic %g\n", host[0], host[1],
         host[2]);
  return 0;
}
