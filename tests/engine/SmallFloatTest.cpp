// 16-bit float arithmetic and PTX min/max (simulator/engine/SmallFloat.h)
// against brute force: every half is k * 2^-24 for an integer k, so sums
// and fused multiply-adds of halves are exact in 128-bit integers; the
// result must be the half nearest to the exact value (ties to even), found
// by comparing the exact value with the neighbours of a candidate.
#include "simulator/engine/SmallFloat.h"

#include "core/Float16.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <random>

namespace kcheck::sim::alu {
namespace {

using i128 = __int128;

// A finite half's value in units of 2^-48 (exact: |value| < 2^16).
i128 units48(uint16_t h) {
  int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  i128 mag = e == 0 ? i128(m) << 24 : i128(m | 0x400) << (23 + e);
  return (h & 0x8000) ? -mag : mag;
}

// Halves in order of value (for neighbours): the sign-magnitude bits as a
// signed line.
int orderOf(uint16_t h) { return (h & 0x8000) ? -(h & 0x7fff) : (h & 0x7fff); }
uint16_t fromOrder(int o) {
  return o < 0 ? uint16_t(0x8000 | -o) : uint16_t(o);
}

// The half nearest to `exact` (units of 2^-48), ties to even; finite range.
uint16_t nearestHalf(i128 exact) {
  uint16_t guess = halfFromDouble(double(exact) * 0x1p-48);
  int o = orderOf(guess);
  uint16_t best = guess;
  i128 bestDist = -1;
  for (int d = -2; d <= 2; ++d) {
    uint16_t c = fromOrder(o + d);
    if (((c >> 10) & 0x1f) == 0x1f)
      continue; // infinities are not candidates here
    i128 dist = units48(c) - exact;
    if (dist < 0)
      dist = -dist;
    if (bestDist < 0 || dist < bestDist ||
        (dist == bestDist && (c & 1) == 0 && (best & 1))) {
      best = c, bestDist = dist;
    }
  }
  return best;
}

uint16_t randomFiniteHalf(std::mt19937 &random, int maxExponent) {
  for (;;) {
    uint16_t h = uint16_t(random());
    int e = (h >> 10) & 0x1f;
    if (e != 0x1f && e <= maxExponent)
      return h;
  }
}

TEST(SmallFloat, HalfFmaRoundsTheExactValueOnce) {
  std::mt19937 random(16);
  for (int k = 0; k < 200000; ++k) {
    // Exponents kept small enough that the product stays finite in half.
    uint16_t a = randomFiniteHalf(random, 22), b = randomFiniteHalf(random, 22);
    uint16_t c = randomFiniteHalf(random, 30);
    // The exact a * b + c in units of 2^-96 (the product has bits below
    // 2^-48).
    i128 s96 = units48(a) * units48(b) + (units48(c) << 48);
    double approx = double(s96) * 0x1p-96;
    if (std::fabs(approx) >= 65504)
      continue; // overflow: not this test's concern
    uint16_t guess = halfFromDouble(approx);
    uint16_t best = guess;
    i128 bestDist = -1;
    for (int d = -2; d <= 2; ++d) {
      uint16_t cand = fromOrder(orderOf(guess) + d);
      if (((cand >> 10) & 0x1f) == 0x1f)
        continue;
      i128 dist = (units48(cand) << 48) - s96;
      if (dist < 0)
        dist = -dist;
      if (bestDist < 0 || dist < bestDist ||
          (dist == bestDist && (cand & 1) == 0 && (best & 1)))
        best = cand, bestDist = dist;
    }
    uint16_t got = uint16_t(smallFma(a, b, c, false));
    // A zero result's sign is the rounding's (+0 but for -0 + -0), not
    // this brute force's.
    if ((got & 0x7fff) == 0 && (best & 0x7fff) == 0)
      continue;
    ASSERT_EQ(got, best) << std::hex << a << " " << b << " " << c;
  }
}

TEST(SmallFloat, HalfSumsAndProductsInDoubleAreCorrectlyRounded) {
  std::mt19937 random(17);
  for (int k = 0; k < 200000; ++k) {
    uint16_t a = randomFiniteHalf(random, 29), b = randomFiniteHalf(random, 29);
    uint16_t sum = uint16_t(smallFromDouble(
        smallToDouble(a, false) + smallToDouble(b, false), false));
    i128 exact = units48(a) + units48(b);
    if (std::fabs(double(exact) * 0x1p-48) >= 65504 || exact == 0)
      continue;
    ASSERT_EQ(sum, nearestHalf(exact)) << std::hex << a << " + " << b;
  }
}

// bfloat16's range lets a product's exact sum with a tiny addend fall just
// off a midpoint that double cannot hold apart from it: (1 + 2^-7) * 1.5 =
// 1.51171875, halfway between 0x3fc1 and 0x3fc2; minus 2^-100 it must round
// down, where rounding to double first gives the tie, and ties to even up.
TEST(SmallFloat, BfloatFmaDoesNotRoundTwice) {
  EXPECT_EQ(smallFma(0x3f81, 0x3fc0, 0x8d80, true), 0x3fc1u);
  EXPECT_EQ(smallFma(0x3f81, 0x3fc0, 0x0d80, true), 0x3fc2u);
  EXPECT_EQ(smallFma(0x3f81, 0x3fc0, 0x0000, true), 0x3fc2u); // the tie
}

// Each directed rounding of random floats brackets the float: toward zero
// no larger in magnitude and the next value away larger; down no larger and
// the next value up larger; up the mirror.
TEST(SmallFloat, DirectedConversionsBracketTheFloat) {
  std::mt19937 random(18);
  for (bool bf : {false, true})
    for (int k = 0; k < 100000; ++k) {
      float v = std::bit_cast<float>(uint32_t(random()));
      if (std::isnan(v) || std::fabs(v) > (bf ? 3e38f : 65000.0f))
        continue;
      double x = v;
      auto value = [&](uint64_t h) { return smallToDouble(h, bf); };
      auto next = [&](uint64_t h, bool up) {
        double a = value(h);
        // The neighbour in the direction: one step of the bit pattern.
        uint16_t n = uint16_t(h);
        bool negative = n & 0x8000;
        if ((n & 0x7fff) == 0)
          n = up ? 0x0001 : 0x8001;
        else
          n = uint16_t(up != negative ? n + 1 : n - 1);
        double b = value(n);
        EXPECT_TRUE(up ? b > a : b < a);
        return b;
      };
      uint64_t z = smallFromFloat(v, bf, 1, false, false);
      EXPECT_LE(std::fabs(value(z)), std::fabs(x));
      EXPECT_GT(std::fabs(next(z, x >= 0)), std::fabs(x));
      uint64_t d = smallFromFloat(v, bf, 2, false, false);
      EXPECT_LE(value(d), x);
      EXPECT_GT(next(d, true), x);
      uint64_t u = smallFromFloat(v, bf, 3, false, false);
      EXPECT_GE(value(u), x);
      EXPECT_LT(next(u, false), x);
      EXPECT_EQ(smallFromFloat(v, bf, 0, false, false),
                bf ? bfloat16FromDouble(x) : halfFromDouble(x));
    }
  // .satfinite and .relu.
  EXPECT_EQ(smallFromFloat(1e6f, false, 0, false, true), 0x7bffu);
  EXPECT_EQ(smallFromFloat(-INFINITY, true, 0, false, true), 0xff7fu);
  EXPECT_EQ(smallFromFloat(-2.0f, false, 0, true, false), 0u);
  EXPECT_EQ(smallFromFloat(-0.0f, false, 0, true, false), 0u);
  EXPECT_EQ(smallFromFloat(NAN, false, 0, true, true), 0x7fffu);
  EXPECT_EQ(smallFromFloat(1e6f, false, 1, false, false), 0x7bffu); // rz
}

// tf32 as the H200 converts (a probe of cvt.{rn,rz,rna}{.relu}.tf32.f32,
// 4096 inputs, all equal to these rules).
TEST(SmallFloat, Tf32Conversions) {
  auto f = [](uint32_t u) { return std::bit_cast<float>(u); };
  EXPECT_EQ(tf32FromFloat(f(0x3f800fffu), 0, false, false), 0x3f800000u);
  EXPECT_EQ(tf32FromFloat(f(0x3f801000u), 0, false, false), 0x3f800000u);
  EXPECT_EQ(tf32FromFloat(f(0x3f803000u), 0, false, false), 0x3f804000u);
  EXPECT_EQ(tf32FromFloat(f(0x3f801000u), 4, false, false), 0x3f802000u);
  EXPECT_EQ(tf32FromFloat(f(0x3f803fffu), 1, false, false), 0x3f802000u);
  EXPECT_EQ(tf32FromFloat(f(0x00001100u), 0, false, false), 0x00002000u);
  EXPECT_EQ(tf32FromFloat(f(0x80001100u), 0, true, false), 0u);
  EXPECT_EQ(tf32FromFloat(f(0x7f8434bcu), 0, false, false), 0x7fffe000u);
  EXPECT_EQ(tf32FromFloat(f(0xffbd43a8u), 1, true, false), 0x7fffe000u);
  EXPECT_EQ(tf32FromFloat(f(0x7f8434bcu), 4, false, false), 0x7f842000u);
  EXPECT_EQ(tf32FromFloat(f(0x7f8434bcu), 4, false, true), 0x7fffffffu);
  EXPECT_EQ(tf32FromFloat(f(0x7f800000u), 4, false, true), 0x7f7fe000u);
}

TEST(SmallFloat, NaNsAreCanonical) {
  EXPECT_EQ(smallFromDouble(NAN, false), 0x7fffu);
  EXPECT_EQ(smallFromDouble(NAN, true), 0x7fffu);
  EXPECT_EQ(smallFma(0x7c00, 0x0000, 0x3c00, false), 0x7fffu); // inf * 0
}

TEST(SmallFloat, MinMaxFollowThePtxRules) {
  MinMaxMode min, max;
  max.max = true;
  const uint32_t nan = 0x7fc00001u, one = 0x3f800000u, two = 0x40000000u;
  const uint32_t pz = 0, nz = 0x80000000u, minusTwo = 0xc0000000u;
  EXPECT_EQ(ptxMinMax(min, 32, false, one, two), one);
  EXPECT_EQ(ptxMinMax(max, 32, false, one, two), two);
  // A NaN gives the other operand; two NaNs the canonical NaN.
  EXPECT_EQ(ptxMinMax(min, 32, false, nan, two), two);
  EXPECT_EQ(ptxMinMax(max, 32, false, one, nan), one);
  EXPECT_EQ(ptxMinMax(min, 32, false, nan, nan), 0x7fffffffu);
  // -0 is less than +0, in either order.
  EXPECT_EQ(ptxMinMax(min, 32, false, pz, nz), nz);
  EXPECT_EQ(ptxMinMax(min, 32, false, nz, pz), nz);
  EXPECT_EQ(ptxMinMax(max, 32, false, nz, pz), pz);
  EXPECT_EQ(ptxMinMax(max, 32, false, pz, nz), pz);
  // .NaN: any NaN gives the canonical NaN.
  MinMaxMode minNaN = min;
  minNaN.nan = true;
  EXPECT_EQ(ptxMinMax(minNaN, 32, false, nan, two), 0x7fffffffu);
  // .xorsign.abs: the smaller magnitude, with the xor of the signs.
  MinMaxMode minXor = min;
  minXor.xorSignAbs = true;
  EXPECT_EQ(ptxMinMax(minXor, 32, false, minusTwo, one), 0xbf800000u);
  EXPECT_EQ(ptxMinMax(minXor, 32, false, minusTwo, 0xbf800000u), one);
  // .ftz: a subnormal operand is a zero of its sign.
  MinMaxMode minFtz = min;
  minFtz.ftz = true;
  EXPECT_EQ(ptxMinMax(minFtz, 32, false, 0x00000001u, one), pz);
  EXPECT_EQ(ptxMinMax(min, 32, false, 0x00000001u, one), 0x00000001u);
  // 16-bit: the same rules on half and bfloat16 registers.
  EXPECT_EQ(ptxMinMax(min, 16, false, 0x3c00, 0x4000), 0x3c00u);
  EXPECT_EQ(ptxMinMax(max, 16, true, 0x3f80, 0x7fc1), 0x3f80u);
  EXPECT_EQ(ptxMinMax(min, 16, false, 0x7e01, 0x7e02), 0x7fffu);
  EXPECT_EQ(ptxMinMax(min, 16, false, 0x0000, 0x8000), 0x8000u);
}

} // namespace
} // namespace kcheck::sim::alu
