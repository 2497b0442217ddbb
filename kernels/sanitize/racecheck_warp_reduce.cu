// racecheck, planted bug: seed 002's reduce_v4 ("unroll the last warp") with
// warpReduce's `volatile` left out. The last warp's steps read what other
// lanes of the same warp just wrote, with no __syncwarp() between them:
// without `volatile` the compiler keeps cache[tid] in a register and
// stores it once at the end, so lanes read stale sums (the seed's note on
// volatile), and since Volta the lanes are not guaranteed to run in
// lockstep anyway. The volatile version is seed 002's own code.
#include <cstdio>
#include <cuda_runtime.h>

#define BLOCK_SIZE 256
#define N (BLOCK_SIZE * 2 * 4)

__device__ void warpReduce(volatile float *cache, unsigned int tid) {
  cache[tid] += cache[tid + 32];
  cache[tid] += cache[tid + 16];
  cache[tid] += cache[tid + 8];
  cache[tid] += cache[tid + 4];
  cache[tid] += cache[tid + 2];
  cache[tid] += cache[tid + 1];
}

__device__ void warpReduceNoVolatile(float *cache, unsigned int tid) {
  cache[tid] += cache[tid + 32];
  cache[tid] += cache[tid + 16];
  cache[tid] += cache[tid + 8];
  cache[tid] += cache[tid + 4];
  cache[tid] += cache[tid + 2];
  // Without volatile the sums stay in a register and cache[tid] is stored
  // once, here, after the other lanes read it (one finding per pair; the
  // shadow remembers the two latest readers of a byte).
  cache[tid] += cache[tid + 1]; // expected-warning {{write-after-read hazard on 'sdata' (shared byte 0x4, byte 4 of it) between lanes of one warp with no __syncwarp() between them: this write by thread (1,0,0) and the read at line 32 by thread (0,0,0) (in block (0,0,0)) rely on implicit warp synchrony}} expected-warning {{this write by thread (2,0,0) and the read at line 28 by thread (0,0,0)}}
}

__global__ void reduce_v4(float *g_idata, float *g_odata) {
  __shared__ float sdata[BLOCK_SIZE];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  sdata[tid] = g_idata[i] + g_idata[i + blockDim.x];
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32)
    warpReduce(sdata, tid);
  if (tid == 0)
    g_odata[blockIdx.x] = sdata[0];
}

__global__ void reduce_v4_no_volatile(float *g_idata, float *g_odata) {
  __shared__ float sdata[BLOCK_SIZE];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  sdata[tid] = g_idata[i] + g_idata[i + blockDim.x];
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32)
    warpReduceNoVolatile(sdata, tid);
  if (tid == 0)
    g_odata[blockIdx.x] = sdata[0];
}

int main() {
  static float host[N];
  float *in, *out, sums[2 * (N / (2 * BLOCK_SIZE))];
  for (int i = 0; i < N; ++i)
    host[i] = 1.0f;
  const int blocks = N / (2 * BLOCK_SIZE);
  cudaMalloc(&in, N * sizeof(float));
  cudaMalloc(&out, 2 * blocks * sizeof(float));
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  reduce_v4<<<blocks, BLOCK_SIZE>>>(in, out);
  reduce_v4_no_volatile<<<blocks, BLOCK_SIZE>>>(in, out + blocks);
  cudaMemcpy(sums, out, sizeof sums, cudaMemcpyDeviceToHost);
  printf("volatile: %g, without volatile: %g (512 expected)\n", sums[0],
         sums[blocks]);
  return 0;
}
