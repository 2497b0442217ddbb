// 64/128-bit shared loads by part of a warp: 18 lane masks x 6 address patterns (SharedBankModel.h's pair rule; README.md).
#include "common.h"
__device__ int slotOf(int pattern, int l) {
  switch (pattern) {
  case 0: return l;                       // contiguous
  case 1: return l / 2;                   // pairs
  case 2: return 2 * l;                   // stride 2 slots
  case 3: return (l * 5) % 32;            // permutation
  case 4: return 16 * (l % 2) + l / 2;    // even lanes line 0, odd line 1 (64-bit: 128 B lines)
  case 5: return l / 4;                   // quads
  default: return 0;
  }
}
__global__ void load64(const float2 *in, float *out, unsigned mask, int pattern) {
  __shared__ float2 s[128];
  int lane = threadIdx.x;
  for (int i = lane; i < 128; i += 32) s[i] = in[i];
  __syncthreads();
  float2 v = make_float2(0, 0);
  if (mask >> lane & 1) v = s[slotOf(pattern, lane)];
  out[lane] = v.x + v.y;
}
__global__ void load128(const float4 *in, float *out, unsigned mask, int pattern) {
  __shared__ float4 s[128];
  int lane = threadIdx.x;
  for (int i = lane; i < 128; i += 32) s[i] = in[i];
  __syncthreads();
  float4 v = make_float4(0, 0, 0, 0);
  if (mask >> lane & 1) v = s[slotOf(pattern, lane)];
  out[lane] = v.x + v.y + v.z + v.w;
}
int main() {
  float *values = deviceBuffer<float>(128 * 4, 1), *out;
  CHECK(cudaMalloc(&out, 32 * sizeof(float)));
  const unsigned masks[] = {0x0001ffffu, 0xffff0001u, 0x55555555u, 0x33333333u, 0x0f0f0f0fu,
                            0xfffffffeu, 0x7fffffffu, 0x00010001u, 0x8000ffffu, 0x0000fff0u,
                            0x12345678u, 0x9abcdef0u, 0xdeadbeefu, 0x0badf00du, 0x6b8b4567u,
                            0x327b23c6u, 0x643c9869u, 0x66334873u};
  for (int pattern = 0; pattern < 6; ++pattern)
    for (unsigned mask : masks) {
      load64<<<1, 32>>>(reinterpret_cast<float2 *>(values), out, mask, pattern);
      CHECK_LAUNCH();
      if (pattern == 0 || pattern == 1 || pattern == 5) {
        load128<<<1, 32>>>(reinterpret_cast<float4 *>(values), out, mask, pattern);
        CHECK_LAUNCH();
      }
    }
  printf("sum %.1f\n", deviceSum(out, 32));
  return 0;
}
