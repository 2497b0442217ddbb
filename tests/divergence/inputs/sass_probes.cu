// Probes of which short thread-dependent bodies ptxas keeps as real branches
// (smsp__sass_branch_targets_threads_divergent.sum), for cli/Divergence's
// SASS rule. Each kernel: 2 blocks x 64 threads, n = 45, so one warp of
// block 0 straddles `i < n`. Measured on the H100 (nvcc -O3 -arch=sm_90,
// ncu --metrics): ../h100/sass_probes.csv. A float loaded from global
// memory under the condition and used after it (m1, m2, m4-m7, m12) kept a
// BSSY/BSYNC branch; stores, shared reads and atomics under the condition
// (m3, m10, m11) were predicated, and so were m8 (an int) and m9 (a float
// stored to shared before a barrier).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void m1_ternary_load_shfl_loop(float *total, const float *in,
                                          int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = (i < n) ? in[i] : 0.0f;
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffff, v, o);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(total, v);
}
__global__ void m2_ternary_load_store(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = (i < n) ? in[i] : 0.0f;
  out[i] = v * 2.0f;
}
__global__ void m3_if_store_then_shfl(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] + 1.0f;
  float v = __shfl_down_sync(0xffffffff, (float)i, 1);
  out[1000 + i] = v;
}
__global__ void m4_ternary_load_one_shfl(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = (i < n) ? in[i] : 0.0f;
  v += __shfl_xor_sync(0xffffffff, v, 1);
  out[i] = v;
}
__global__ void m5_ternary_load_syncwarp(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = (i < n) ? in[i] : 0.0f;
  __syncwarp();
  out[i] = v;
}
__global__ void m6_restrict_load_shfl(float *__restrict__ total,
                                      const float *__restrict__ in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = (i < n) ? in[i] : 0.0f;
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffff, v, o);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(total, v);
}
__global__ void m7_if_value_arith(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = 1.0f;
  if (i < n)
    v = in[i] * 3.0f + 1.0f;
  out[i] = v;
}
__global__ void m8_int_ternary_shfl_up(int *out, const int *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = (i < n) ? in[i] : 0;
#pragma unroll
  for (int o = 1; o < 32; o *= 2) {
    int t = __shfl_up_sync(0xffffffff, v, o);
    if ((threadIdx.x & 31) >= o)
      v += t;
  }
  out[i] = v;
}
__global__ void m9_ternary_load_then_barrier(float *out, const float *in,
                                             int n) {
  __shared__ float s[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = (i < n) ? in[i] : 0.0f;
  __syncthreads();
  out[i] = s[63 - threadIdx.x];
}
__global__ void m10_shfl_loop_no_branch(float *total, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffff, v, o);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(total, v);
}
__global__ void m11_lane0_atomic_only(float *total, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if ((threadIdx.x & 31) == 3)
    atomicAdd(total, in[i]);
}
__global__ void m12_ternary_load_shfl_loop_lane_cond(float *total,
                                                     const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = ((threadIdx.x & 31) < 13) ? in[i] : 0.0f;
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffff, v, o);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(total, v);
}

int main() {
  float *a, *b;
  int *ia, *ib;
  cudaMalloc(&a, 1 << 16);
  cudaMalloc(&b, 1 << 16);
  cudaMalloc(&ia, 1 << 16);
  cudaMalloc(&ib, 1 << 16);
  cudaMemset(a, 0, 1 << 16);
  cudaMemset(b, 0, 1 << 16);
  cudaMemset(ia, 0, 1 << 16);
  cudaMemset(ib, 0, 1 << 16);
  int n = 45;
  m1_ternary_load_shfl_loop<<<2, 64>>>(a, b, n);
  m2_ternary_load_store<<<2, 64>>>(a, b, n);
  m3_if_store_then_shfl<<<2, 64>>>(a, b, n);
  m4_ternary_load_one_shfl<<<2, 64>>>(a, b, n);
  m5_ternary_load_syncwarp<<<2, 64>>>(a, b, n);
  m6_restrict_load_shfl<<<2, 64>>>(a, b, n);
  m7_if_value_arith<<<2, 64>>>(a, b, n);
  m8_int_ternary_shfl_up<<<2, 64>>>(ia, ib, n);
  m9_ternary_load_then_barrier<<<2, 64>>>(a, b, n);
  m10_shfl_loop_no_branch<<<2, 64>>>(a, b, n);
  m11_lane0_atomic_only<<<2, 64>>>(a, b, n);
  m12_ternary_load_shfl_loop_lane_cond<<<2, 64>>>(a, b, n);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorString(e));
  return e != cudaSuccess;
}
