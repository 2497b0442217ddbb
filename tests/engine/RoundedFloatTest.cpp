// bc::Op::RoundedFloat against a brute-force reference: the exact result
// (a float sum or product is exact in long double, an int64 too) rounded to
// float in each direction by stepping from the nearest float.
#include "simulator/engine/RoundedFloat.h"

#include <gtest/gtest.h>

#include <cfenv>
#include <cmath>
#include <cstring>
#include <random>

namespace kcheck::sim {
namespace {

using bc::RoundedOp;
using bc::Rounding;

uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float fromBits(uint64_t u) {
  uint32_t v = uint32_t(u);
  float f;
  std::memcpy(&f, &v, 4);
  return f;
}

// `exact` rounded to float in direction `r`.
float reference(long double exact, Rounding r) {
  float nearest = float(exact);
  if ((long double)nearest == exact)
    return nearest;
  float up = (long double)nearest > exact ? nearest
                                          : std::nextafter(nearest, INFINITY);
  float down = (long double)nearest < exact
                   ? nearest
                   : std::nextafter(nearest, -INFINITY);
  switch (r) {
  case Rounding::Nearest:
    return nearest;
  case Rounding::Up:
    return up;
  case Rounding::Down:
    return down;
  case Rounding::Zero:
    return exact > 0 ? down : up;
  case Rounding::NearestAway: // tf32's only (SmallFloatTest)
    break;
  }
  return nearest;
}

constexpr Rounding kAll[] = {Rounding::Nearest, Rounding::Zero, Rounding::Down,
                             Rounding::Up};

TEST(RoundedFloat, AddAndMulRoundInEachDirection) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> value(-1e3f, 1e3f);
  for (int i = 0; i < 20000; ++i) {
    float a = value(rng), b = value(rng) * 1e-3f;
    for (Rounding r : kAll) {
      float sum =
          fromBits(roundedFloat(RoundedOp::Add, r, 0, 32, bits(a), bits(b), 0));
      EXPECT_EQ(bits(sum), bits(reference((long double)a + b, r)))
          << a << " + " << b << " mode " << int(r);
      float product =
          fromBits(roundedFloat(RoundedOp::Mul, r, 0, 32, bits(a), bits(b), 0));
      EXPECT_EQ(bits(product), bits(reference((long double)a * b, r)))
          << a << " * " << b << " mode " << int(r);
    }
  }
}

TEST(RoundedFloat, ConversionsFromInt64RoundInEachDirection) {
  std::mt19937_64 rng(11);
  for (int i = 0; i < 20000; ++i) {
    int64_t v = int64_t(rng()) >> (rng() % 40);
    for (Rounding r : kAll) {
      float f = fromBits(
          roundedFloat(RoundedOp::FromS64, r, 0, 32, uint64_t(v), 0, 0));
      EXPECT_EQ(bits(f), bits(reference((long double)v, r))) << v;
    }
  }
}

TEST(RoundedFloat, FtzSatAndNaN) {
  float tiny = 1e-40f; // subnormal
  // .ftz: the subnormal input is zero, and so is a subnormal result.
  EXPECT_EQ(bits(fromBits(roundedFloat(RoundedOp::Add, Rounding::Nearest,
                                       bc::kRoundFtz, 32, bits(tiny),
                                       bits(0.0f), 0))),
            bits(0.0f));
  EXPECT_EQ(bits(fromBits(roundedFloat(RoundedOp::Add, Rounding::Nearest, 0, 32,
                                       bits(tiny), bits(0.0f), 0))),
            bits(tiny));
  // .sat: clamped to [0, 1]; NaN is +0.
  EXPECT_EQ(fromBits(roundedFloat(RoundedOp::Mul, Rounding::Up, bc::kRoundSat,
                                  32, bits(3.0f), bits(2.0f), 0)),
            1.0f);
  EXPECT_EQ(
      bits(fromBits(roundedFloat(RoundedOp::Add, Rounding::Up, bc::kRoundSat,
                                 32, bits(NAN), bits(1.0f), 0))),
      bits(0.0f));
  // A NaN result is the canonical one, whatever the operand's payload.
  EXPECT_EQ(uint32_t(roundedFloat(RoundedOp::Add, Rounding::Zero, 0, 32,
                                  0xffc00123u, bits(1.0f), 0)),
            0x7fffffffu);
  // The host's direction is left as it was.
  EXPECT_EQ(std::fegetround(), FE_TONEAREST);
}

} // namespace
} // namespace kcheck::sim
