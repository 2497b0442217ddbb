// IEEE half (binary16) and bfloat16 conversions, exact to the bit: what
// cvt.rn.f16.f32 / cvt.rn.bf16.f32 and cvt.f32.f16 / cvt.f32.bf16 compute.
// Pure functions; round to nearest, ties to even, from double (every float
// and every f16/bf16 sum, difference, product and quotient computed in
// double rounds correctly this way).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

namespace kcheck {

// A 16-bit float with `mantissaBits` stored mantissa bits and `exponentBits`
// exponent bits, rounded from `v`.
inline uint16_t roundToSmallFloat(double v, int mantissaBits,
                                  int exponentBits) {
  const int bias = (1 << (exponentBits - 1)) - 1;
  const uint16_t sign = std::signbit(v) ? uint16_t(1u << 15) : 0;
  const uint16_t expMask = uint16_t(((1u << exponentBits) - 1) << mantissaBits);
  if (std::isnan(v))
    return uint16_t(sign | expMask | (1u << (mantissaBits - 1)));
  double a = std::fabs(v);
  if (std::isinf(a))
    return uint16_t(sign | expMask);
  const int minExponent = 1 - bias; // of the normal numbers
  int e;
  std::frexp(a, &e); // a = m * 2^e, m in [0.5, 1)
  e -= 1;            // a = m' * 2^e, m' in [1, 2)
  if (a == 0 || e < minExponent) {
    // Subnormal (or rounds up to the smallest normal: mantissa 2^bits).
    double m = std::nearbyint(std::ldexp(a, mantissaBits - minExponent));
    return uint16_t(sign | uint16_t(m));
  }
  double m = std::nearbyint(std::ldexp(a, mantissaBits - e)); // [2^b, 2^b+1]
  if (m >= std::ldexp(1.0, mantissaBits + 1)) {
    m /= 2;
    ++e;
  }
  if (e + bias >= (1 << exponentBits) - 1)
    return uint16_t(sign | expMask); // overflow: infinity
  uint32_t mantissa = uint32_t(m) - (1u << mantissaBits);
  return uint16_t(sign | (uint32_t(e + bias) << mantissaBits) | mantissa);
}

inline uint16_t halfFromDouble(double v) { return roundToSmallFloat(v, 10, 5); }
inline uint16_t bfloat16FromDouble(double v) {
  return roundToSmallFloat(v, 7, 8);
}

inline float floatFromHalf(uint16_t h) {
  int exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  double magnitude;
  if (exponent == 0x1f)
    magnitude = mantissa ? NAN : INFINITY;
  else if (exponent == 0)
    magnitude = std::ldexp(double(mantissa), -24);
  else
    magnitude = std::ldexp(double(mantissa | 0x400), exponent - 25);
  return float((h & 0x8000) ? -magnitude : magnitude);
}

inline float floatFromBfloat16(uint16_t b) {
  uint32_t bits = uint32_t(b) << 16; // bfloat16 is float's top half
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

} // namespace kcheck
