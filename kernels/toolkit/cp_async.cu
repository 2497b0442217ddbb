// cp.async (LDGSTS) as real code writes it: cuda_pipeline.h's primitives
// (4-byte .ca), inline PTX (16-byte .cg, 16-byte .ca with a 32-byte source
// stride, zero fill through src-size), cuda::memcpy_async with a block-scope
// cuda::pipeline, and cooperative groups' memcpy_async.
#include "common.h"
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/pipeline>
#include <cuda_pipeline.h>

namespace cg = cooperative_groups;

__global__ void primitives4(float *out, const float *in) {
  __shared__ float tile[256];
  int i = blockIdx.x * 256 + threadIdx.x;
  __pipeline_memcpy_async(&tile[threadIdx.x], &in[i], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[i] = tile[255 - threadIdx.x];
}

__global__ void ptx_cg16(float4 *out, const float4 *in) {
  __shared__ float4 tile[256];
  int i = blockIdx.x * 256 + threadIdx.x;
  unsigned dst = (unsigned)__cvta_generic_to_shared(&tile[threadIdx.x]);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst),
               "l"(&in[i]));
  asm volatile("cp.async.commit_group;\ncp.async.wait_group 0;" ::: "memory");
  __syncthreads();
  out[i] = tile[threadIdx.x ^ 1];
}

__global__ void ptx_ca16_strided(float4 *out, const float4 *in) {
  __shared__ float4 tile[256];
  int i = blockIdx.x * 512 + 2 * threadIdx.x; // source 32 bytes apart
  unsigned dst = (unsigned)__cvta_generic_to_shared(&tile[threadIdx.x]);
  asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" ::"r"(dst),
               "l"(&in[i]));
  asm volatile("cp.async.wait_all;" ::: "memory");
  __syncthreads();
  out[blockIdx.x * 256 + threadIdx.x] = tile[threadIdx.x];
}

__global__ void ptx_zero_fill(float4 *out, const float4 *in, int n) {
  __shared__ float4 tile[256];
  int i = blockIdx.x * 256 + threadIdx.x;
  unsigned dst = (unsigned)__cvta_generic_to_shared(&tile[threadIdx.x]);
  int bytes = i < n ? 16 : 0; // past n: nothing read, zeros written
  const float4 *src = i < n ? &in[i] : in;
  asm volatile("cp.async.ca.shared.global [%0], [%1], 16, %2;" ::"r"(dst),
               "l"(src), "r"(bytes));
  asm volatile("cp.async.commit_group;\ncp.async.wait_group 0;" ::: "memory");
  __syncthreads();
  out[i] = tile[threadIdx.x];
}

__global__ void pipeline_block(float *out, const float *in) {
  __shared__ float tile[2][256];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
  auto block = cg::this_thread_block();
  auto pipe = cuda::make_pipeline(block, &state);
  float acc = 0;
  for (int stage = 0; stage < 2; ++stage) {
    pipe.producer_acquire();
    cuda::memcpy_async(block, tile[stage], in + (blockIdx.x * 2 + stage) * 256,
                       sizeof(float) * 256, pipe);
    pipe.producer_commit();
  }
  for (int stage = 0; stage < 2; ++stage) {
    pipe.consumer_wait();
    acc += tile[stage][threadIdx.x];
    pipe.consumer_release();
  }
  out[blockIdx.x * 256 + threadIdx.x] = acc;
}

__global__ void cg_memcpy(float *out, const float *in) {
  __shared__ float tile[256];
  auto block = cg::this_thread_block();
  cg::memcpy_async(block, tile, in + blockIdx.x * 256, sizeof(float) * 256);
  cg::wait(block);
  out[blockIdx.x * 256 + threadIdx.x] = tile[(threadIdx.x * 33) % 256];
}

int main() {
  const int blocks = 64, n = blocks * 256;
  float *in = deviceBuffer<float>(2 * n * 4, 1), *out;
  CHECK(cudaMalloc(&out, n * 4 * sizeof(float)));
  primitives4<<<blocks, 256>>>(out, in);
  CHECK_LAUNCH();
  ptx_cg16<<<blocks, 256>>>((float4 *)out, (const float4 *)in);
  CHECK_LAUNCH();
  ptx_ca16_strided<<<blocks, 256>>>((float4 *)out, (const float4 *)in);
  CHECK_LAUNCH();
  ptx_zero_fill<<<blocks, 256>>>((float4 *)out, (const float4 *)in, n - 100);
  CHECK_LAUNCH();
  pipeline_block<<<blocks, 256>>>(out, in);
  CHECK_LAUNCH();
  cg_memcpy<<<blocks, 256>>>(out, in);
  CHECK_LAUNCH();
  printf("sum %.0f\n", deviceSum(out, n));
  return 0;
}
