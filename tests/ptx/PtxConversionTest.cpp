// Number-format and SIMD instructions of inline PTX (cuda_fp8.hpp's FP8
// conversions, Clang's __vmaxs4 & co.), executed and checked against
// references written from the formats' and instructions' definitions.
#include "tests/ptx/PtxTestSupport.h"

#include <algorithm>
#include <cmath>

namespace kcheck {
namespace {

using namespace ptxtest;

class PtxConversion : public ::testing::TestWithParam<bool> {};

// FP8 (e4m3, e5m2) from the formats' definition: every code's value, and
// the nearest code of a float by search (ties to the even code), saturated.
double fp8Value(unsigned code, int mbits, int bias, bool inf) {
  int ebits = 7 - mbits;
  unsigned e = (code >> mbits) & ((1u << ebits) - 1),
           m = code & ((1u << mbits) - 1);
  double sign = code & 0x80 ? -1 : 1;
  if (e == (1u << ebits) - 1 && (inf || m == (1u << mbits) - 1))
    return inf && m == 0 ? sign * INFINITY : NAN;
  if (e == 0)
    return sign * std::ldexp(double(m), 1 - bias - mbits);
  return sign * std::ldexp(double((1u << mbits) + m), int(e) - bias - mbits);
}

unsigned fp8Nearest(float x, int mbits, int bias, bool inf) {
  if (std::isnan(x))
    return 0x7f;
  if (std::isinf(x)) // satfinite: the largest finite value of x's sign
    x = std::copysign(float(fp8Value(inf ? 0x7b : 0x7e, mbits, bias, inf)), x);
  unsigned best = 0;
  double bestErr = INFINITY;
  for (unsigned c = 0; c < 256; ++c) {
    double v = fp8Value(c, mbits, bias, inf);
    if (std::isnan(v) || std::isinf(v) || (std::signbit(v) != std::signbit(x)))
      continue;
    double err = std::fabs(double(x) - v);
    if (err < bestErr || (err == bestErr && (c & 1) == 0 && (best & 1)))
      best = c, bestErr = err;
  }
  return best; // beyond the largest finite value: that value (satfinite)
}

TEST_P(PtxConversion, Fp8ConversionsMatchTheFormats) {
  // cuda_fp8.hpp's templates (sm_89+): float pairs to e4m3x2/e5m2x2 and back
  // through f16x2, 64 values per lane.
  const char *source = R"(
__global__ void fp8(const float *in, unsigned short *e4, unsigned short *e5,
                    unsigned *back4, unsigned *back5) {
  for (int k = 0; k < 64; k += 2) {
    int i = threadIdx.x * 64 + k;
    unsigned short a, b;
    asm("{cvt.rn.satfinite.e4m3x2.f32 %0, %2, %1;}\n" : "=h"(a) : "f"(in[i]), "f"(in[i + 1]));
    asm("{cvt.rn.satfinite.e5m2x2.f32 %0, %2, %1;}\n" : "=h"(b) : "f"(in[i]), "f"(in[i + 1]));
    e4[i / 2] = a;
    e5[i / 2] = b;
    unsigned h4, h5;
    asm("{cvt.rn.f16x2.e4m3x2 %0, %1;}\n" : "=r"(h4) : "h"((unsigned short)(threadIdx.x * 64 + k)));
    asm("{cvt.rn.f16x2.e5m2x2 %0, %1;}\n" : "=r"(h5) : "h"((unsigned short)(threadIdx.x * 64 + k)));
    back4[i / 2] = h4;
    back5[i / 2] = h5;
  }
})";
  // Every e4m3 and e5m2 value, the midpoints between neighbours (ties) and
  // just off them, overflow, infinities, NaN, signed zeros.
  std::vector<float> in;
  for (int fmt = 0; fmt < 2; ++fmt)
    for (unsigned c = 0; c < 128 && in.size() < 2040; ++c) {
      double v = fmt ? fp8Value(c, 2, 15, true) : fp8Value(c, 3, 7, false);
      double w =
          fmt ? fp8Value(c + 1, 2, 15, true) : fp8Value(c + 1, 3, 7, false);
      if (std::isnan(v) || std::isinf(v))
        continue;
      in.push_back(float(v));
      if (!std::isnan(w) && !std::isinf(w)) {
        float mid = float((v + w) / 2);
        in.push_back(c % 3 == 0 ? -mid : mid);
        in.push_back(std::nextafter(mid, 1e9f));
      }
    }
  for (float x : {500.f, -1e6f, 60000.f, INFINITY, -INFINITY, NAN, -0.f, 0.f,
                  1e-30f, -1e-6f})
    in.push_back(x);
  in.resize(2048, 3.1f);
  KernelRun run;
  RUN_OR_SKIP(run, source, "fp8",
              {bytesOf(in), std::vector<uint8_t>(2048),
               std::vector<uint8_t>(2048), std::vector<uint8_t>(4096),
               std::vector<uint8_t>(4096)});
  auto e4 = run.values<uint16_t>(1, 1024), e5 = run.values<uint16_t>(2, 1024);
  auto b4 = run.values<uint32_t>(3, 1024), b5 = run.values<uint32_t>(4, 1024);
  for (size_t i = 0; i < 2048; i += 2) {
    // cvt d, a, b puts a (%2: in[i + 1]) in the upper byte.
    unsigned want4 = fp8Nearest(in[i + 1], 3, 7, false) << 8 |
                     fp8Nearest(in[i], 3, 7, false);
    unsigned want5 = fp8Nearest(in[i + 1], 2, 15, true) << 8 |
                     fp8Nearest(in[i], 2, 15, true);
    EXPECT_EQ(e4[i / 2], want4) << in[i] << " " << in[i + 1];
    EXPECT_EQ(e5[i / 2], want5) << in[i] << " " << in[i + 1];
    unsigned pair = unsigned(i) & 0xffff; // the 16 bits each lane converted
    for (int half = 0; half < 2; ++half) {
      unsigned code = pair >> (8 * half) & 0xff;
      auto check = [&](uint32_t got, int mbits, int bias, bool inf) {
        double v = fp8Value(code, mbits, bias, inf);
        uint16_t bits = uint16_t(got >> (16 * half));
        float h = floatFromHalf(bits);
        if (std::isnan(v)) // the canonical NaN, as the H100 gives it
          EXPECT_EQ(bits, 0x7fff) << code;
        else
          EXPECT_EQ(double(h), v) << code;
      };
      check(b4[i / 2], 3, 7, false);
      check(b5[i / 2], 2, 15, true);
    }
  }
}

TEST_P(PtxConversion, SimdVideoInstructions) {
  // Clang's __vmaxs4 & co.: SIMD video instructions in inline PTX, with
  // the templates of __clang_cuda_device_functions.h.
  const char *source = R"(
#define V(name, text) \
  __device__ unsigned name(unsigned a, unsigned b) { \
    unsigned r; \
    asm(text " %0,%1,%2,%3;" : "=r"(r) : "r"(a), "r"(b), "r"(0)); \
    return r; \
  }
V(vmaxs4, "vmax4.s32.s32.s32")
V(vminu2, "vmin2.u32.u32.u32")
V(vabsdiffs4, "vabsdiff4.s32.s32.s32")
V(vaddss4, "vadd4.s32.s32.s32.sat")
V(vsetltu4, "vset4.u32.u32.lt")
V(vavgu4, "vavrg4.u32.u32.u32")
V(vsadu4, "vabsdiff4.u32.u32.u32.add")
__global__ void simd(const unsigned *a, const unsigned *b, unsigned *out) {
  int i = threadIdx.x;
  unsigned x = a[i], y = b[i];
  out[i * 7 + 0] = vmaxs4(x, y);
  out[i * 7 + 1] = vminu2(x, y);
  out[i * 7 + 2] = vabsdiffs4(x, y);
  out[i * 7 + 3] = vaddss4(x, y);
  out[i * 7 + 4] = vsetltu4(x, y);
  out[i * 7 + 5] = vavgu4(x, y);
  out[i * 7 + 6] = vsadu4(x, y);
})";
  std::vector<uint32_t> a(32), b(32);
  uint32_t seed = 12345;
  auto next = [&] { return seed = seed * 1664525u + 1013904223u; };
  for (int i = 0; i < 32; ++i)
    a[i] = next(), b[i] = i < 4 ? a[i] : next();
  a[5] = 0x7f80ff01, b[5] = 0x7f7f0180; // saturation and sign edges
  KernelRun run;
  RUN_OR_SKIP(run, source, "simd",
              {bytesOf(a), bytesOf(b), std::vector<uint8_t>(32 * 7 * 4)});
  auto out = run.values<uint32_t>(2, 32 * 7);
  // Per-lane references from the CUDA Math API's definitions.
  auto lanes4 = [](uint32_t x, uint32_t y, auto f) {
    uint32_t r = 0;
    for (int k = 0; k < 4; ++k)
      r |= (uint32_t(f(x >> 8 * k & 0xff, y >> 8 * k & 0xff)) & 0xff) << 8 * k;
    return r;
  };
  auto s8 = [](uint32_t v) { return int(int8_t(uint8_t(v))); };
  for (int i = 0; i < 32; ++i) {
    uint32_t x = a[i], y = b[i];
    EXPECT_EQ(out[i * 7 + 0], lanes4(x, y, [&](uint32_t p, uint32_t q) {
                return std::max(s8(p), s8(q));
              }));
    uint32_t mn = 0;
    for (int k = 0; k < 2; ++k)
      mn |= std::min(x >> 16 * k & 0xffff, y >> 16 * k & 0xffff) << 16 * k;
    EXPECT_EQ(out[i * 7 + 1], mn);
    EXPECT_EQ(out[i * 7 + 2], lanes4(x, y, [&](uint32_t p, uint32_t q) {
                return std::abs(s8(p) - s8(q));
              }));
    EXPECT_EQ(out[i * 7 + 3], lanes4(x, y, [&](uint32_t p, uint32_t q) {
                return std::clamp(s8(p) + s8(q), -128, 127);
              }));
    EXPECT_EQ(out[i * 7 + 4], lanes4(x, y, [](uint32_t p, uint32_t q) {
                return p < q ? 1u : 0u;
              }));
    EXPECT_EQ(out[i * 7 + 5], lanes4(x, y, [](uint32_t p, uint32_t q) {
                return (p + q + 1) / 2;
              }));
    uint32_t sad = 0;
    for (int k = 0; k < 4; ++k)
      sad +=
          uint32_t(std::abs(int(x >> 8 * k & 0xff) - int(y >> 8 * k & 0xff)));
    EXPECT_EQ(out[i * 7 + 6], sad) << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Headers, PtxConversion, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool> &info) {
                           return info.param ? "Toolkit" : "Bundled";
                         });

} // namespace
} // namespace kcheck
