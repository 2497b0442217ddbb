// 64- and 128-bit shared loads made by part of a warp (a lane-dependent
// branch around a float2/float4 read): how many wavefronts the H100 counts
// when the lanes that would pair up or share a phase are inactive. Each
// launch is one warp; `mask` names the lanes that load, `pattern` where:
// 0 every lane the same 16 bytes (a broadcast), 1 lane l at W*l
// (contiguous), 2 lane l at W*(l/2) (lanes in pairs).
#include "common.h"

__device__ int addressOf(int pattern, int lane) {
  return pattern == 0 ? 0 : pattern == 1 ? lane : lane / 2;
}

__global__ void load64(const float2 *in, float *out, unsigned mask,
                       int pattern) {
  __shared__ float2 s[64];
  int lane = threadIdx.x;
  s[lane] = in[lane];
  s[lane + 32] = in[lane + 32];
  __syncthreads();
  float2 v = make_float2(0, 0);
  if (mask >> lane & 1)
    v = s[addressOf(pattern, lane)];
  out[lane] = v.x + v.y;
}

__device__ void load128Body(const float4 *in, float *out, unsigned mask,
                            int pattern) {
  __shared__ float4 s[64];
  int lane = threadIdx.x;
  s[lane] = in[lane];
  s[lane + 32] = in[lane + 32];
  __syncthreads();
  float4 v = make_float4(0, 0, 0, 0);
  if (mask >> lane & 1)
    v = s[addressOf(pattern, lane)];
  out[lane] = v.x + v.y + v.z + v.w;
}

__global__ void load128(const float4 *in, float *out, unsigned mask,
                        int pattern) {
  load128Body(in, out, mask, pattern);
}

// The odd lanes reading 16 * (lane / 2): 3 wavefronts on the H100, 2 in
// kcheck's model (SharedBankModel.h); its own kernel so that the test can
// leave it out.
__global__ void load128_odd_lanes_in_pairs(const float4 *in, float *out) {
  load128Body(in, out, 0xaaaaaaaau, 2);
}

int main() {
  float *values = deviceBuffer<float>(64 * 4, 1), *out;
  float2 *in2 = reinterpret_cast<float2 *>(values);
  float4 *in4 = reinterpret_cast<float4 *>(values);
  CHECK(cudaMalloc(&out, 32 * sizeof(float)));
  const unsigned masks[] = {0x01010101u, 0x0000ffffu, 0xaaaaaaaau, 0x00ff00ffu,
                            0x80000001u, 0x00ffffffu, 0xffffffffu};
  for (int pattern = 0; pattern < 3; ++pattern)
    for (unsigned mask : masks) {
      load64<<<1, 32>>>(in2, out, mask, pattern);
      CHECK_LAUNCH();
      if (pattern == 2 && mask == 0xaaaaaaaau)
        load128_odd_lanes_in_pairs<<<1, 32>>>(in4, out);
      else
        load128<<<1, 32>>>(in4, out, mask, pattern);
      CHECK_LAUNCH();
    }
  printf("sum %.1f\n", deviceSum(out, 32));
  return 0;
}
