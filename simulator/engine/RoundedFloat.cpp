#include "simulator/engine/RoundedFloat.h"

#include "simulator/engine/SmallFloat.h"

#include <cfenv>
#include <cmath>
#include <cstring>
#include <type_traits>

namespace kcheck::sim {

namespace {

using bc::RoundedOp;

template <class T, class U> T bitCast(U u) {
  static_assert(sizeof(T) == sizeof(U));
  T t;
  std::memcpy(&t, &u, sizeof t);
  return t;
}

float flush(float x) {
  return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x;
}

// The host's rounding direction for one operation, restored after it.
class Direction {
public:
  explicit Direction(bc::Rounding r) : saved_(std::fegetround()) {
    int mode = FE_TONEAREST;
    switch (r) {
    case bc::Rounding::Nearest:
      mode = FE_TONEAREST;
      break;
    case bc::Rounding::Zero:
      mode = FE_TOWARDZERO;
      break;
    case bc::Rounding::Down:
      mode = FE_DOWNWARD;
      break;
    case bc::Rounding::Up:
      mode = FE_UPWARD;
      break;
    case bc::Rounding::NearestAway: // tf32 only, rounded by its own code
      mode = FE_TONEAREST;
      break;
    }
    std::fesetround(mode);
  }
  ~Direction() { std::fesetround(saved_); }
  Direction(const Direction &) = delete;
  Direction &operator=(const Direction &) = delete;

private:
  int saved_;
};

// The GPU's NaN result of an f32 arithmetic instruction: 0x7fffffff,
// whatever the operands' payloads. f64 results keep the host's NaN, which is
// the H200's (ExecAlu.cpp, canonicalizeF32NaNs); so does a conversion's
// (cvt.rn.f32.f64 of 0x7ff8000000000000: 0x7fc00000 on both).
float canonicalNaN() { return bitCast<float>(uint32_t(0x7fffffff)); }
// finish()'s flag for a conversion's result.
constexpr uint16_t kConversion = 0x100;

template <class T> T arithmetic(RoundedOp op, bc::Rounding r, T x, T y, T z) {
  volatile T a = x, b = y, c = z; // read after the direction is set
  Direction d(r);
  volatile T result = 0;
  switch (op) {
  case RoundedOp::Add:
    result = a + b;
    break;
  case RoundedOp::Mul:
    result = a * b;
    break;
  case RoundedOp::Fma:
    result = std::fma(T(a), T(b), T(c));
    break;
  case RoundedOp::Div:
    result = a / b;
    break;
  case RoundedOp::Sqrt:
    result = std::sqrt(T(a));
    break;
  case RoundedOp::Rcp:
    result = T(1) / a;
    break;
  case RoundedOp::FromS32:
  case RoundedOp::FromU32:
  case RoundedOp::FromS64:
  case RoundedOp::FromU64:
  case RoundedOp::FromF64:
  case RoundedOp::ToHalf:
  case RoundedOp::ToBfloat:
  case RoundedOp::ToTf32:
  case RoundedOp::ToE4m3:
  case RoundedOp::ToE5m2:
  case RoundedOp::FromE4m3:
  case RoundedOp::FromE5m2:
    break; // conversions: convert() below, and roundedFloat's own
  }
  return result;
}

template <class T> T convert(RoundedOp op, bc::Rounding r, uint64_t bits) {
  Direction d(r);
  volatile T result = 0;
  switch (op) {
  case RoundedOp::FromS32:
    result = T(bitCast<int32_t>(uint32_t(bits)));
    break;
  case RoundedOp::FromU32:
    result = T(uint32_t(bits));
    break;
  case RoundedOp::FromS64:
    result = T(bitCast<int64_t>(bits));
    break;
  case RoundedOp::FromU64:
    result = T(bits);
    break;
  case RoundedOp::FromF64: {
    volatile double x = bitCast<double>(bits);
    result = T(x);
    break;
  }
  default:
    break; // arithmetic: arithmetic() above
  }
  return result;
}

bool isConversion(RoundedOp op) {
  return op == RoundedOp::FromS32 || op == RoundedOp::FromU32 ||
         op == RoundedOp::FromS64 || op == RoundedOp::FromU64 ||
         op == RoundedOp::FromF64;
}

template <class T> T finish(T x, uint16_t flags) {
  if constexpr (std::is_same_v<T, float>) {
    if (std::isnan(x) && !(flags & kConversion))
      x = canonicalNaN();
    if (flags & bc::kRoundFtz)
      x = flush(x);
  }
  if (flags & bc::kRoundSat)
    x = std::isnan(x) ? T(0) : x < T(0) ? T(0) : x > T(1) ? T(1) : x;
  return x;
}

} // namespace

uint64_t roundedFloat(bc::RoundedOp op, bc::Rounding rounding, uint16_t flags,
                      unsigned bits, uint64_t a, uint64_t b, uint64_t c) {
  if (op == RoundedOp::ToTf32)
    return alu::tf32FromFloat(bitCast<float>(uint32_t(a)), unsigned(rounding),
                              flags & bc::kRoundRelu,
                              flags & bc::kRoundSatFinite);
  if (op == RoundedOp::ToHalf || op == RoundedOp::ToBfloat) {
    float x = bitCast<float>(uint32_t(a));
    if (flags & bc::kRoundFtz)
      x = flush(x);
    return alu::smallFromFloat(x, op == RoundedOp::ToBfloat, unsigned(rounding),
                               flags & bc::kRoundRelu,
                               flags & bc::kRoundSatFinite);
  }
  if (bits == 32) {
    float r;
    if (isConversion(op)) {
      // cvt.ftz.f32.f64 flushes the result (finish).
      r = convert<float>(op, rounding, a);
    } else {
      float x = bitCast<float>(uint32_t(a)), y = bitCast<float>(uint32_t(b)),
            z = bitCast<float>(uint32_t(c));
      if (flags & bc::kRoundFtz)
        x = flush(x), y = flush(y), z = flush(z);
      r = arithmetic<float>(op, rounding, x, y, z);
    }
    return bitCast<uint32_t>(
        finish(r, uint16_t(flags | (isConversion(op) ? kConversion : 0))));
  }
  double r = isConversion(op)
                 ? convert<double>(op, rounding, a)
                 : arithmetic<double>(op, rounding, bitCast<double>(a),
                                      bitCast<double>(b), bitCast<double>(c));
  return bitCast<uint64_t>(finish(r, flags));
}

} // namespace kcheck::sim
