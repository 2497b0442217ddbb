// racecheck, clean: synchronisation that must not be reported. A warp tail
// with __syncwarp() between its steps (the Volta-safe warpReduce), the same
// with a cooperative-groups tile's sync() and the block's sync(), a shared
// histogram built with atomicAdd, and a shuffle reduction.
// expected-no-diagnostics
#include <cooperative_groups.h>
#include <cstdio>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

#define BLOCK 128
#define BINS 16

__device__ void warpReduceSynced(float *cache, unsigned tid) {
  float v = cache[tid];
  for (unsigned offset = 32; offset > 0; offset >>= 1) {
    v += cache[tid + offset];
    __syncwarp();
    cache[tid] = v;
    __syncwarp();
  }
}

__global__ void reduceSyncwarp(const float *in, float *out) {
  __shared__ float sdata[BLOCK];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * BLOCK + tid];
  __syncthreads();
  if (tid < 64)
    sdata[tid] += sdata[tid + 64];
  __syncthreads();
  if (tid < 32)
    warpReduceSynced(sdata, tid);
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

__global__ void reduceGroups(const float *in, float *out) {
  __shared__ float sdata[BLOCK];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  unsigned tid = block.thread_rank();
  sdata[tid] = in[blockIdx.x * BLOCK + tid];
  block.sync();
  if (tid < 64)
    sdata[tid] += sdata[tid + 64];
  block.sync();
  if (tid < 32) {
    for (unsigned offset = 32; offset > 0; offset >>= 1) {
      float v = sdata[tid] + sdata[tid + offset];
      warp.sync();
      sdata[tid] = v;
      warp.sync();
    }
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

__global__ void histogram(const int *in, int *out) {
  __shared__ int bins[BINS];
  unsigned tid = threadIdx.x;
  if (tid < BINS)
    bins[tid] = 0;
  __syncthreads();
  atomicAdd(&bins[in[blockIdx.x * BLOCK + tid] % BINS], 1);
  __syncthreads();
  if (tid < BINS)
    atomicAdd(&out[tid], bins[tid]);
}

__global__ void reduceShuffle(const float *in, float *out) {
  __shared__ float warpSums[BLOCK / 32];
  unsigned tid = threadIdx.x;
  float v = in[blockIdx.x * BLOCK + tid];
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  if (tid % 32 == 0)
    warpSums[tid / 32] = v;
  __syncthreads();
  if (tid < 32) {
    v = tid < BLOCK / 32 ? warpSums[tid] : 0.0f;
    for (int offset = 16; offset > 0; offset >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, offset);
    if (tid == 0)
      out[blockIdx.x] = v;
  }
}

int main() {
  const int blocks = 4;
  static float hostIn[blocks * BLOCK];
  static int hostInts[blocks * BLOCK];
  for (int i = 0; i < blocks * BLOCK; ++i) {
    hostIn[i] = 1.0f;
    hostInts[i] = i;
  }
  float *in, *out;
  int *ints, *bins;
  cudaMalloc(&in, sizeof hostIn);
  cudaMalloc(&out, 3 * blocks * sizeof(float));
  cudaMalloc(&ints, sizeof hostInts);
  cudaMalloc(&bins, BINS * sizeof(int));
  cudaMemcpy(in, hostIn, sizeof hostIn, cudaMemcpyHostToDevice);
  cudaMemcpy(ints, hostInts, sizeof hostInts, cudaMemcpyHostToDevice);
  cudaMemset(bins, 0, BINS * sizeof(int));
  reduceSyncwarp<<<blocks, BLOCK>>>(in, out);
  reduceGroups<<<blocks, BLOCK>>>(in, out + blocks);
  reduceShuffle<<<blocks, BLOCK>>>(in, out + 2 * blocks);
  histogram<<<blocks, BLOCK>>>(ints, bins);
  float sums[3 * blocks];
  int counts[BINS];
  cudaMemcpy(sums, out, sizeof sums, cudaMemcpyDeviceToHost);
  cudaMemcpy(counts, bins, sizeof counts, cudaMemcpyDeviceToHost);
  printf("sums %g %g %g (128 expected), bin 0: %d (32 expected)\n", sums[0],
         sums[blocks], sums[2 * blocks], counts[0]);
  return 0;
}
