// FP8 conversions (cuda_fp8.h: cvt.rn.satfinite.e4m3x2/e5m2x2.f32 and
// cvt.rn.f16x2.e4m3x2/e5m2x2) and SIMD video intrinsics (__vmaxs4 & co.:
// vmax4, vmin2, vabsdiff4, vadd4.sat, vset4, vavrg4, vabsdiff4.add,
// vsub2.sat) over values around every FP8 magnitude, ties, overflow, NaN and
// infinities. The program prints hashes of every result: `kcheck run` of it
// prints the same as the H100 running it (h100/fp8_video.out).
#include "common.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <vector>

constexpr int kN = 4096;

__global__ void fp8Convert(const float2 *in, uint16_t *e4, uint16_t *e5,
                           uint32_t *back4, uint32_t *back5) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= kN)
    return;
  e4[i] = __nv_cvt_float2_to_fp8x2(in[i], __NV_SATFINITE, __NV_E4M3);
  e5[i] = __nv_cvt_float2_to_fp8x2(in[i], __NV_SATFINITE, __NV_E5M2);
  __half2_raw h4 =
      __nv_cvt_fp8x2_to_halfraw2(__nv_fp8x2_storage_t(i), __NV_E4M3);
  __half2_raw h5 =
      __nv_cvt_fp8x2_to_halfraw2(__nv_fp8x2_storage_t(i), __NV_E5M2);
  back4[i] = uint32_t(h4.x) | uint32_t(h4.y) << 16;
  back5[i] = uint32_t(h5.x) | uint32_t(h5.y) << 16;
}

__global__ void simdVideo(const uint32_t *a, const uint32_t *b, uint32_t *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= kN)
    return;
  uint32_t x = a[i], y = b[i];
  out[i * 8 + 0] = __vmaxs4(x, y);
  out[i * 8 + 1] = __vminu2(x, y);
  out[i * 8 + 2] = __vabsdiffs4(x, y);
  out[i * 8 + 3] = __vaddss4(x, y);
  out[i * 8 + 4] = __vsetltu4(x, y);
  out[i * 8 + 5] = __vavgu4(x, y);
  out[i * 8 + 6] = __vsadu4(x, y);
  out[i * 8 + 7] = __vsubss2(x, y);
}

static uint64_t fnv(const void *p, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t k = 0; k < n; ++k)
    h = (h ^ static_cast<const uint8_t *>(p)[k]) * 1099511628211ull;
  return h;
}

int main() {
  // Floats around every FP8 magnitude, their midpoints, overflow, NaN, inf.
  std::vector<float2> in(kN);
  uint32_t seed = 2024;
  auto next = [&] { return seed = seed * 1664525u + 1013904223u; };
  for (int i = 0; i < kN; ++i) {
    float e = std::ldexp(1.0f, int(next() % 40) - 22);
    float m = 1.0f + float(next() % 64) / 32.0f;
    float s = next() & 1 ? -1.0f : 1.0f;
    in[i] = make_float2(s * e * m, -s * e * (m + 1.0f / 64));
  }
  in[0] = make_float2(NAN, INFINITY);
  in[1] = make_float2(-INFINITY, 1e6f);
  in[2] = make_float2(-0.0f, 0.0f);
  std::vector<uint32_t> a(kN), b(kN);
  for (int i = 0; i < kN; ++i)
    a[i] = next(), b[i] = i % 7 ? next() : a[i];
  float2 *dIn;
  uint16_t *e4, *e5;
  uint32_t *b4, *b5, *dA, *dB, *out;
  CHECK(cudaMalloc(&dIn, kN * sizeof(float2)));
  CHECK(cudaMalloc(&e4, kN * 2));
  CHECK(cudaMalloc(&e5, kN * 2));
  CHECK(cudaMalloc(&b4, kN * 4));
  CHECK(cudaMalloc(&b5, kN * 4));
  CHECK(cudaMalloc(&dA, kN * 4));
  CHECK(cudaMalloc(&dB, kN * 4));
  CHECK(cudaMalloc(&out, kN * 32));
  CHECK(
      cudaMemcpy(dIn, in.data(), kN * sizeof(float2), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dA, a.data(), kN * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, b.data(), kN * 4, cudaMemcpyHostToDevice));
  fp8Convert<<<kN / 128, 128>>>(dIn, e4, e5, b4, b5);
  CHECK_LAUNCH();
  simdVideo<<<kN / 128, 128>>>(dA, dB, out);
  CHECK_LAUNCH();
  std::vector<uint16_t> h4(kN), h5(kN);
  std::vector<uint32_t> r4(kN), r5(kN), o(kN * 8);
  CHECK(cudaMemcpy(h4.data(), e4, kN * 2, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h5.data(), e5, kN * 2, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(r4.data(), b4, kN * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(r5.data(), b5, kN * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(o.data(), out, kN * 32, cudaMemcpyDeviceToHost));
  std::printf("e4m3x2 %016llx e5m2x2 %016llx\n",
              (unsigned long long)fnv(h4.data(), kN * 2),
              (unsigned long long)fnv(h5.data(), kN * 2));
  std::printf("f16x2<-e4m3x2 %016llx f16x2<-e5m2x2 %016llx\n",
              (unsigned long long)fnv(r4.data(), kN * 4),
              (unsigned long long)fnv(r5.data(), kN * 4));
  for (int k = 0; k < 8; ++k) {
    std::vector<uint32_t> col(kN);
    for (int i = 0; i < kN; ++i)
      col[i] = o[i * 8 + k];
    std::printf("video%d %016llx\n", k,
                (unsigned long long)fnv(col.data(), kN * 4));
  }
  for (int i = 0; i < 6; ++i)
    std::printf("%d: e4 %04x e5 %04x\n", i, h4[i], h5[i]);
  return 0;
}
