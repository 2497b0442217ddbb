// core/Float16.h against brute force: the nearest of all 65536
// encodings, ties to the even one.
#include "core/Float16.h"

#include <gtest/gtest.h>

#include <random>

namespace kcheck::sim {
namespace {

// The correctly rounded encoding of `v` among all finite encodings of
// `decode` (and infinity past the largest, as IEEE rounding overflows).
template <class Decode>
uint16_t bruteForce(double v, Decode decode, uint16_t infinityBits) {
  uint16_t best = 0;
  double bestError = INFINITY;
  double largest = 0;
  for (uint32_t e = 0; e < 0x8000; ++e) {
    double x = decode(uint16_t(e));
    if (!std::isfinite(x))
      continue;
    largest = std::max(largest, x);
    double err = std::fabs(std::fabs(v) - x);
    if (err < bestError || (err == bestError && (e & 1) == 0)) {
      best = uint16_t(e);
      bestError = err;
    }
  }
  // Past the largest finite value, IEEE rounding overflows to infinity from
  // half an ulp above it (the tie goes to infinity, whose mantissa is even).
  double ulp = largest - decode(uint16_t(infinityBits - 2));
  if (std::fabs(v) >= largest + ulp / 2)
    best = infinityBits;
  uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  return uint16_t(sign | (std::isinf(v) ? infinityBits : best));
}

TEST(Float16, EveryHalfRoundTrips) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    float f = floatFromHalf(uint16_t(h));
    if (std::isnan(f))
      continue;
    EXPECT_EQ(halfFromDouble(f), h) << std::hex << h;
  }
}

TEST(Float16, EveryBfloat16RoundTrips) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    float f = floatFromBfloat16(uint16_t(h));
    if (std::isnan(f))
      continue;
    EXPECT_EQ(bfloat16FromDouble(f), h) << std::hex << h;
  }
}

TEST(Float16, RoundsToNearestEvenLikeBruteForce) {
  std::mt19937_64 rng(42);
  auto half = [](uint16_t e) { return double(floatFromHalf(e)); };
  auto bf16 = [](uint16_t e) { return double(floatFromBfloat16(e)); };
  for (int i = 0; i < 300; ++i) {
    // Values over the whole range of half, midpoints included.
    uint16_t a = uint16_t(rng() % 0x7bff), b = uint16_t(a + 1);
    double mid = (half(a) + half(b)) / 2;
    double v = i % 3 == 0 ? mid
                          : half(a) + (half(b) - half(a)) *
                                          double(rng() % 1000) / 1000;
    if (i % 2)
      v = -v;
    EXPECT_EQ(halfFromDouble(v), bruteForce(v, half, 0x7c00)) << v;
    uint16_t c = uint16_t(rng() % 0x7f7f), d = uint16_t(c + 1);
    double w = i % 3 == 0 ? (bf16(c) + bf16(d)) / 2
                          : bf16(c) + (bf16(d) - bf16(c)) *
                                          double(rng() % 1000) / 1000;
    EXPECT_EQ(bfloat16FromDouble(w), bruteForce(w, bf16, 0x7f80)) << w;
  }
}

TEST(Float16, OverflowSubnormalsAndSpecials) {
  EXPECT_EQ(halfFromDouble(65504.0), 0x7bff);
  EXPECT_EQ(halfFromDouble(65519.99), 0x7bff);
  EXPECT_EQ(halfFromDouble(65520.0), 0x7c00); // the tie rounds to infinity
  EXPECT_EQ(halfFromDouble(-1e9), 0xfc00);
  EXPECT_EQ(halfFromDouble(std::ldexp(1.0, -24)), 0x0001);
  EXPECT_EQ(halfFromDouble(std::ldexp(1.0, -25)), 0x0000); // tie to even 0
  EXPECT_EQ(halfFromDouble(std::ldexp(1.5, -25)), 0x0001);
  EXPECT_EQ(halfFromDouble(1.0), 0x3c00);
  EXPECT_EQ(halfFromDouble(0.1), 0x2e66);
  EXPECT_EQ(halfFromDouble(-0.0), 0x8000);
  EXPECT_EQ(halfFromDouble(NAN) & 0x7e00, 0x7e00);
  EXPECT_EQ(bfloat16FromDouble(1.0), 0x3f80);
  EXPECT_EQ(bfloat16FromDouble(3.0e38), 0x7f62);
  EXPECT_EQ(bfloat16FromDouble(3.4e38), 0x7f80); // past the largest: inf
  EXPECT_TRUE(std::isinf(floatFromHalf(0x7c00)));
  EXPECT_EQ(floatFromHalf(0x0001), std::ldexp(1.0f, -24));
}

} // namespace
} // namespace kcheck::sim
