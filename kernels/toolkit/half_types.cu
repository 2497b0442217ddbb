// fp16 and bf16 as real kernels use them: half2 loads through __ldg, packed
// arithmetic (__hfma2, __hmul2), conversions, a half reduction with
// __shfl_xor_sync, bf16 scaling, and cache-hinted loads and stores (__ldcs,
// __ldcg, __ldca, __ldlu, __stcs, __stcg, __stwb, __stwt).
#include "common.h"
#include <cuda_bf16.h>
#include <cuda_fp16.h>

__global__ void half2_axpy(half2 *y, const half2 *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = __hfma2(__float2half2_rn(a), __ldg(&x[i]), y[i]);
}

__global__ void half_strided(half *out, const half *in, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = __half2float(in[i * stride]);
  out[i] = __float2half(v * 2.0f + 1.0f);
}

__global__ void half_warp_sum(float *out, const half *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  half v = in[i];
  for (int d = 16; d > 0; d /= 2)
    v = __hadd(v, __shfl_xor_sync(0xffffffff, v, d));
  if ((threadIdx.x & 31) == 0)
    out[i / 32] = __half2float(v);
}

__global__ void bf16_scale(__nv_bfloat16 *x, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = __float2bfloat16(__bfloat162float(x[i]) * s);
}

__global__ void cache_hints(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = __ldcs(&in[i]) + __ldcg(&in[i + 1]) + __ldca(&in[2 * i]);
  float b = __ldlu(&in[i]);
  __stcs(&out[i], a);
  __stcg(&out[i + 4096], b);
  __stwb(&out[2 * i + 8192], a + b);
  __stwt(&out[i + 16384], a - b);
}

int main() {
  const int n = 1 << 16;
  half *x = deviceBuffer<half>(4 * n, 1), *y = deviceBuffer<half>(4 * n, 2);
  float *f = deviceBuffer<float>(8 * n, 3), *g;
  __nv_bfloat16 *z = deviceBuffer<__nv_bfloat16>(n, 4);
  CHECK(cudaMalloc(&g, 8 * n * sizeof(float)));
  half2_axpy<<<n / 2 / 256, 256>>>((half2 *)y, (const half2 *)x, 0.5f,
                                   n / 2);
  CHECK_LAUNCH();
  half_strided<<<n / 256, 256>>>(y, x, 1);
  CHECK_LAUNCH();
  half_strided<<<n / 256, 256>>>(y, x, 3);
  CHECK_LAUNCH();
  half_warp_sum<<<n / 256, 256>>>(g, x);
  CHECK_LAUNCH();
  bf16_scale<<<(n + 255) / 256, 256>>>(z, 1.5f, n - 7);
  CHECK_LAUNCH();
  cache_hints<<<4096 / 256, 256>>>(g, f);
  CHECK_LAUNCH();
  printf("sum %.1f\n", deviceSum(g, 2048));
  return 0;
}
