// The scalar ALU operations (AluOps.h).
#include "simulator/engine/AluOps.h"

#include "core/Float16.h"
#include "simulator/engine/AddressWindows.h"

#include <cmath>
#include <limits>
#include <type_traits>

namespace kcheck::sim::alu {

using bc::Inst;
template <class T> bool fcmp(unsigned pred, T a, T b) {
  bool unordered = std::isnan(a) || std::isnan(b);
  switch (FcmpPred(pred)) {
  case FcmpPred::False:
    return false;
  case FcmpPred::Oeq:
    return !unordered && a == b;
  case FcmpPred::Ogt:
    return !unordered && a > b;
  case FcmpPred::Oge:
    return !unordered && a >= b;
  case FcmpPred::Olt:
    return !unordered && a < b;
  case FcmpPred::Ole:
    return !unordered && a <= b;
  case FcmpPred::One:
    return !unordered && a != b;
  case FcmpPred::Ord:
    return !unordered;
  case FcmpPred::Uno:
    return unordered;
  case FcmpPred::Ueq:
    return unordered || a == b;
  case FcmpPred::Ugt:
    return unordered || a > b;
  case FcmpPred::Uge:
    return unordered || a >= b;
  case FcmpPred::Ult:
    return unordered || a < b;
  case FcmpPred::Ule:
    return unordered || a <= b;
  case FcmpPred::Une:
    return unordered || a != b;
  case FcmpPred::True:
    return true;
  }
  return false; // the decoder stores only these sixteen
}

template <class T> T floatFn(bc::FloatFnKind k, T a, T b, T c) {
  using K = bc::FloatFnKind;
  switch (k) {
  case K::Sqrt:
    return floatFnOf<K::Sqrt>(a, b, c);
  case K::Fabs:
    return floatFnOf<K::Fabs>(a, b, c);
  case K::Exp:
    return std::exp(a);
  case K::Exp2:
    return std::exp2(a);
  case K::Exp10:
    return std::pow(T(10), a);
  case K::Log:
    return std::log(a);
  case K::Log2:
    return std::log2(a);
  case K::Log10:
    return std::log10(a);
  case K::Sin:
    return std::sin(a);
  case K::Cos:
    return std::cos(a);
  case K::Tan:
    return std::tan(a);
  case K::Tanh:
    return std::tanh(a);
  case K::Floor:
    return std::floor(a);
  case K::Ceil:
    return std::ceil(a);
  case K::Trunc:
    return std::trunc(a);
  case K::Round:
    return std::round(a);
  case K::Rint:
    return std::nearbyint(a);
  case K::Rsqrt:
    return T(1) / std::sqrt(a);
  case K::Rcp:
    return T(1) / a;
  case K::Saturate:
    return std::isnan(a) ? T(0) : std::fmin(std::fmax(a, T(0)), T(1));
  case K::Erf:
    return std::erf(a);
  case K::MinNum:
    return std::fmin(a, b);
  case K::MaxNum:
    return std::fmax(a, b);
  case K::Minimum:
    return std::isnan(a) || std::isnan(b) ? std::numeric_limits<T>::quiet_NaN()
                                          : std::fmin(a, b);
  case K::Maximum:
    return std::isnan(a) || std::isnan(b) ? std::numeric_limits<T>::quiet_NaN()
                                          : std::fmax(a, b);
  case K::CopySign:
    return std::copysign(a, b);
  case K::Pow:
    return std::pow(a, b);
  case K::Div:
    return a / b;
  case K::Fmod:
    return std::fmod(a, b);
  case K::Atan2:
    return std::atan2(a, b);
  case K::Fma:
    return floatFnOf<K::Fma>(a, b, c);
  }
  return 0;
}

uint64_t intFn(bc::IntFnKind k, uint64_t a, uint64_t b, uint64_t c,
               unsigned bits) {
  using K = bc::IntFnKind;
  int64_t sa = sext(a, bits), sb = sext(b, bits);
  switch (k) {
  case K::UMin:
    return a < b ? a : b;
  case K::UMax:
    return a > b ? a : b;
  case K::SMin:
    return sa < sb ? a : b;
  case K::SMax:
    return sa > sb ? a : b;
  case K::Abs:
    return maskTo(sa < 0 ? 0 - uint64_t(sa) : a, bits);
  case K::Ctpop:
    return uint64_t(std::popcount(a));
  case K::Ctlz:
    return a ? uint64_t(std::countl_zero(a) - (64 - int(bits))) : bits;
  case K::Cttz:
    return a ? uint64_t(std::countr_zero(a)) : bits;
  case K::Fshl: {
    unsigned s = unsigned(c % bits);
    return s ? maskTo((a << s) | (b >> (bits - s)), bits) : a;
  }
  case K::Fshr: {
    unsigned s = unsigned(c % bits);
    return s ? maskTo((b >> s) | (a << (bits - s)), bits) : b;
  }
  case K::Bswap:
    return __builtin_bswap64(a) >> (64 - bits);
  case K::Bitreverse: {
    uint64_t r = 0;
    for (unsigned i = 0; i < bits; ++i)
      r |= ((a >> i) & 1) << (bits - 1 - i);
    return r;
  }
  case K::MulHiS:
    return maskTo(uint64_t((__int128(sa) * __int128(sb)) >> bits), bits);
  case K::MulHiU:
    return maskTo(uint64_t((unsigned __int128)a * b >> bits), bits);
  case K::Mul24S:
    return maskTo(uint64_t(sext(a & 0xffffff, 24) * sext(b & 0xffffff, 24)),
                  bits);
  case K::Mul24U:
    return maskTo((a & 0xffffff) * (b & 0xffffff), bits);
  case K::IsSpaceShared:
    return inSharedWindow(a);
  case K::IsSpaceLocal:
    return inLocalWindow(a);
  case K::IsSpaceGlobal:
    return !inSharedWindow(a) && !inLocalWindow(a);
  }
  return 0;
}

namespace {

// Float to integer as the GPU's F2I converts (PTX cvt.rzi): out-of-range
// values saturate; NaN gives 0 from f32 to a 32-bit integer and the
// integer's sign bit alone otherwise (F2I.F64, F2I.S64: 0x80000000 from
// f64, 0x8000000000000000 to 64 bits; measured on the H200 with
// tests/conformance/programs/nvvm_calls.cu, __nvvm_d2i_rz, __nvvm_f2ll_rz).
template <class T> uint64_t floatToInt(T v, unsigned bits, bool isSigned) {
  if (std::isnan(v))
    return std::is_same_v<T, float> && bits <= 32
               ? 0
               : maskTo(1ull << (bits - 1), bits);
  v = std::trunc(v);
  if (isSigned) {
    double lo = -std::ldexp(1.0, int(bits) - 1);
    double hi = std::ldexp(1.0, int(bits) - 1);
    if (double(v) < lo)
      return maskTo(1ull << (bits - 1), bits);
    if (double(v) >= hi) // 2^(bits-1) - 1, which a double cannot hold
      return (1ull << (bits - 1)) - 1;
    return maskTo(uint64_t(int64_t(v)), bits);
  }
  double hi = std::ldexp(1.0, int(bits));
  if (v <= 0)
    return 0;
  if (double(v) >= hi)
    return maskTo(~0ull, bits);
  return uint64_t(v);
}

} // namespace

uint64_t cast(const Inst &in, uint64_t a) {
  using K = bc::CastKind;
  bool srcDouble = in.bits == 64, dstDouble = in.bits2 == 64;
  switch (bc::CastKind(in.sub)) {
  case K::Trunc:
    return castIntOf<K::Trunc>(a, in.bits, in.bits2);
  case K::ZExt:
    return castIntOf<K::ZExt>(a, in.bits, in.bits2);
  case K::SExt:
    return castIntOf<K::SExt>(a, in.bits, in.bits2);
  case K::FPTrunc:
    if (in.bits2 == 16) {
      double v = in.bits == 64 ? asF64(a) : double(asF32(a));
      return in.sub2 ? bfloat16FromDouble(v) : halfFromDouble(v);
    }
    return bitsOf(float(asF64(a)));
  case K::FPExt:
    if (in.bits == 16) {
      float v =
          in.sub2 ? floatFromBfloat16(uint16_t(a)) : floatFromHalf(uint16_t(a));
      return in.bits2 == 64 ? bitsOf(double(v)) : bitsOf(v);
    }
    return bitsOf(double(asF32(a)));
  case K::FPToUI:
  case K::FPToSI: {
    bool s = bc::CastKind(in.sub) == K::FPToSI;
    return srcDouble ? floatToInt(asF64(a), in.bits2, s)
                     : floatToInt(asF32(a), in.bits2, s);
  }
  case K::UIToFP:
    return dstDouble ? bitsOf(double(a)) : bitsOf(float(a));
  case K::SIToFP: {
    int64_t s = sext(a, in.bits);
    return dstDouble ? bitsOf(double(s)) : bitsOf(float(s));
  }
  case K::PtrToInt:
    return castIntOf<K::PtrToInt>(a, in.bits, in.bits2);
  case K::IntToPtr:
    return castIntOf<K::IntToPtr>(a, in.bits, in.bits2);
  case K::AddrSpaceCast:
    return maskTo(castAddressSpace(a, in.bits, in.bits2), unsigned(in.imm));
  }
  return 0;
}

template bool fcmp<float>(unsigned, float, float);
template bool fcmp<double>(unsigned, double, double);
template float floatFn<float>(bc::FloatFnKind, float, float, float);
template double floatFn<double>(bc::FloatFnKind, double, double, double);

} // namespace kcheck::sim::alu
