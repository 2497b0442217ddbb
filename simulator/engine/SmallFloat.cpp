#include "simulator/engine/SmallFloat.h"

#include "core/Float16.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace kcheck::sim::alu {

namespace {

constexpr uint64_t kCanonicalF32NaN = 0x7fffffffu;
constexpr uint64_t kCanonicalSmallNaN = 0x7fffu;
constexpr uint64_t kCanonicalF64NaN = 0x7fffffffffffffffull;

uint64_t canonicalNaN(unsigned bits) {
  return bits == 16   ? kCanonicalSmallNaN
         : bits == 32 ? kCanonicalF32NaN
                      : kCanonicalF64NaN;
}

double toDouble(unsigned bits, bool bf, uint64_t v) {
  if (bits == 16)
    return smallToDouble(v, bf);
  if (bits == 32)
    return double(std::bit_cast<float>(uint32_t(v)));
  return std::bit_cast<double>(v);
}

// The smallest normal magnitude of each format (.ftz flushes below it).
double smallestNormal(unsigned bits, bool bf) {
  if (bits == 16)
    return bf ? 0x1p-126 : 0x1p-14;
  return bits == 32 ? 0x1p-126 : 0x1p-1022;
}

} // namespace

double smallToDouble(uint64_t bits, bool bf) {
  uint16_t h = uint16_t(bits);
  return bf ? double(floatFromBfloat16(h)) : double(floatFromHalf(h));
}

uint64_t smallFromDouble(double v, bool bf) {
  if (std::isnan(v))
    return kCanonicalSmallNaN;
  return bf ? bfloat16FromDouble(v) : halfFromDouble(v);
}

uint64_t smallFma(uint64_t a, uint64_t b, uint64_t c, bool bf) {
  double x = smallToDouble(a, bf), y = smallToDouble(b, bf),
         z = smallToDouble(c, bf);
  double p = x * y; // exact: 2 x 11 (or 2 x 8) significant bits
  double s = p + z;
  if (!std::isfinite(s))
    return smallFromDouble(s, bf);
  // The rounding error of the sum (TwoSum), then rounding to odd: of the
  // two doubles around the exact sum, the one with an odd last bit.
  double pp = s - z, zz = s - pp;
  double err = (p - pp) + (z - zz);
  if (err != 0 && (std::bit_cast<uint64_t>(s) & 1) == 0)
    s = std::nextafter(s, err > 0 ? INFINITY : -INFINITY);
  return smallFromDouble(s, bf);
}

uint64_t smallFromFloat(float v, bool bf, unsigned rounding, bool relu,
                        bool satFinite) {
  if (std::isnan(v))
    return kCanonicalSmallNaN;
  double x = v;
  uint16_t r = uint16_t(smallFromDouble(x, bf));
  // Directed roundings: one step from the nearest value, along the values'
  // order (sign and magnitude), where it lies on the wrong side.
  auto step = [](uint16_t h, bool up) -> uint16_t {
    bool negative = h & 0x8000;
    if ((h & 0x7fff) == 0)
      return up ? 0x0001 : 0x8001;
    return up != negative ? uint16_t(h + 1) : uint16_t(h - 1);
  };
  double got = smallToDouble(r, bf);
  if (rounding == 1 && std::fabs(got) > std::fabs(x))
    r = step(r, x < 0);
  else if (rounding == 2 && got > x)
    r = step(r, false);
  else if (rounding == 3 && got < x)
    r = step(r, true);
  uint16_t expMask = bf ? 0x7f80 : 0x7c00;
  if (satFinite && (r & 0x7fff) == expMask) // an infinity
    r = uint16_t((r & 0x8000) | (expMask - 1));
  if (relu && (r & 0x8000))
    r = 0;
  return r;
}

uint32_t tf32FromFloat(float v, unsigned rounding, bool relu, bool satFinite) {
  uint32_t u = std::bit_cast<uint32_t>(v);
  // A NaN (measured on the H200: nvvm_calls.cu's __nvvm_f2tf32_* and a
  // probe of cvt.{rn,rz,rna}{.relu}.tf32.f32 over 4096 inputs): .rna keeps
  // its top 19 bits, .rna.satfinite gives 0x7fffffff, .rn and .rz
  // 0x7fffe000 (whatever .relu).
  if (std::isnan(v) && satFinite)
    return uint32_t(kCanonicalF32NaN);
  if (std::isnan(v))
    return rounding == 4 ? u & ~0x1fffu : 0x7fffe000u;
  if (std::isfinite(v)) {
    if (rounding == 0)
      u += 0xfff + ((u >> 13) & 1); // to nearest, ties to even
    else if (rounding == 4)
      u += 0x1000; // to nearest, ties away from zero
    u &= ~0x1fffu; // (toward zero: the truncation alone)
  }
  if (satFinite && (u & 0x7fffffffu) == 0x7f800000u)
    u = (u & 0x80000000u) | 0x7f7fe000u;
  if (relu && (u & 0x80000000u))
    u = 0;
  return u;
}

uint8_t fp8FromDouble(double v, bool e5m2, bool relu) {
  if (std::isnan(v))
    return 0x7f;
  if (relu && (v < 0 || std::signbit(v)))
    return 0;
  const int mantissaBits = e5m2 ? 2 : 3, bias = e5m2 ? 15 : 7;
  const double largest = e5m2 ? 57344.0 : 448.0;
  uint8_t sign = std::signbit(v) ? 0x80 : 0;
  double a = std::fabs(v);
  if (a == 0)
    return sign;
  int e;
  std::frexp(a, &e);
  e = std::max(e - 1, 1 - bias); // subnormals: the smallest normal's step
  double step = std::ldexp(1.0, e - mantissaBits);
  double r = std::nearbyint(a / step) * step; // to nearest, ties to even
  if (r > largest)
    r = largest;
  if (r == 0)
    return sign;
  std::frexp(r, &e);
  e -= 1;
  if (e < 1 - bias) // subnormal
    return uint8_t(sign |
                   uint8_t(r / std::ldexp(1.0, 1 - bias - mantissaBits)));
  int mantissa =
      int(r / std::ldexp(1.0, e - mantissaBits)) - (1 << mantissaBits);
  return uint8_t(sign | ((e + bias) << mantissaBits) | mantissa);
}

double fp8ToDouble(uint8_t v, bool e5m2) {
  const int mantissaBits = e5m2 ? 2 : 3, bias = e5m2 ? 15 : 7;
  int exponent = (v & 0x7f) >> mantissaBits,
      mantissa = v & ((1 << mantissaBits) - 1);
  double sign = (v & 0x80) ? -1 : 1;
  if (!e5m2 && (v & 0x7f) == 0x7f)
    return NAN;
  if (e5m2 && exponent == 31)
    return mantissa ? NAN : sign * INFINITY;
  if (exponent == 0)
    return sign * std::ldexp(double(mantissa), 1 - bias - mantissaBits);
  return sign * std::ldexp(double(mantissa | (1 << mantissaBits)),
                           exponent - bias - mantissaBits);
}

uint64_t ptxMinMax(MinMaxMode mode, unsigned bits, bool bf, uint64_t a,
                   uint64_t b) {
  double x = toDouble(bits, bf, a), y = toDouble(bits, bf, b);
  if (mode.ftz) {
    double tiny = smallestNormal(bits, bf);
    if (std::fabs(x) < tiny)
      x = std::copysign(0.0, x);
    if (std::fabs(y) < tiny)
      y = std::copysign(0.0, y);
  }
  bool negative = false;
  if (mode.xorSignAbs) {
    negative = std::signbit(x) != std::signbit(y);
    x = std::fabs(x), y = std::fabs(y);
  }
  bool nx = std::isnan(x), ny = std::isnan(y);
  if ((nx && ny) || (mode.nan && (nx || ny)))
    return canonicalNaN(bits);
  double r;
  if (nx || ny)
    r = nx ? y : x;
  else if (x == y) // equal, or zeros of either sign: -0 < +0
    r = (std::signbit(x) == mode.max) ? y : x;
  else
    r = (mode.max ? x > y : x < y) ? x : y;
  if (mode.xorSignAbs)
    r = std::copysign(r, negative ? -1.0 : 1.0);
  if (bits == 16)
    return smallFromDouble(r, bf); // exact: r is an operand's value
  if (bits == 32)
    return std::bit_cast<uint32_t>(float(r));
  return std::bit_cast<uint64_t>(r);
}

} // namespace kcheck::sim::alu
