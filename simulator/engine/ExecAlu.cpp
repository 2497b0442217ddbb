// Element-wise execution of ALU instructions over the active lanes of a
// warp. Assumes canonical register values: integers zero-extended and masked
// to their width, floats as IEEE bits in the low 32 bits, doubles as 64 bits.
// Every operation is total (division by zero gives 0, shifts past the width
// give 0, float-to-int saturates) so inactive or garbage lanes never trap.
#include "simulator/engine/RunnerImpl.h"

#include "core/Float16.h"
#include "simulator/engine/AddressWindows.h"

#include "llvm/IR/InstrTypes.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

namespace kcheck::sim {

using bc::Inst;
using bc::Op;
using Pred = llvm::CmpInst::Predicate;

namespace {

inline uint64_t maskTo(uint64_t v, unsigned bits) {
  return bits >= 64 ? v : v & ((1ull << bits) - 1);
}
inline int64_t sext(uint64_t v, unsigned bits) {
  if (bits >= 64)
    return int64_t(v);
  unsigned shift = 64 - bits;
  return int64_t(v << shift) >> shift;
}
inline float asF32(uint64_t v) { return std::bit_cast<float>(uint32_t(v)); }
inline double asF64(uint64_t v) { return std::bit_cast<double>(v); }
inline uint64_t bitsOf(float f) { return std::bit_cast<uint32_t>(f); }
inline uint64_t bitsOf(double d) { return std::bit_cast<uint64_t>(d); }
template <class T> inline T asFloat(uint64_t v) {
  if constexpr (std::is_same_v<T, float>)
    return asF32(v);
  else
    return asF64(v);
}

// Calls f(lane) for each active lane, writing its result to d[lane].
template <class F> inline void forLanes(uint64_t *d, uint32_t mask, F f) {
  if (mask == kFullMask) {
    for (unsigned lane = 0; lane < kWarpSize; ++lane)
      d[lane] = f(lane);
  } else {
    for (uint32_t m = mask; m; m &= m - 1) {
      unsigned lane = std::countr_zero(m);
      d[lane] = f(lane);
    }
  }
}

uint64_t intBin(bc::IntBinOp op, uint64_t a, uint64_t b, unsigned bits) {
  using O = bc::IntBinOp;
  switch (op) {
  case O::Add:
    return maskTo(a + b, bits);
  case O::Sub:
    return maskTo(a - b, bits);
  case O::Mul:
    return maskTo(a * b, bits);
  case O::UDiv:
    return b ? a / b : 0;
  case O::URem:
    return b ? a % b : 0;
  case O::SDiv: {
    int64_t sa = sext(a, bits), sb = sext(b, bits);
    if (sb == 0)
      return 0;
    if (sb == -1)
      return maskTo(0 - uint64_t(sa), bits);
    return maskTo(uint64_t(sa / sb), bits);
  }
  case O::SRem: {
    int64_t sa = sext(a, bits), sb = sext(b, bits);
    if (sb == 0 || sb == -1)
      return 0;
    return maskTo(uint64_t(sa % sb), bits);
  }
  case O::Shl:
    return b >= bits ? 0 : maskTo(a << b, bits);
  case O::LShr:
    return b >= bits ? 0 : a >> b;
  case O::AShr:
    return maskTo(uint64_t(sext(a, bits) >> (b >= bits ? bits - 1 : b)), bits);
  case O::And:
    return a & b;
  case O::Or:
    return a | b;
  case O::Xor:
    return a ^ b;
  }
  return 0;
}

bool icmp(unsigned pred, uint64_t a, uint64_t b, unsigned bits) {
  int64_t sa = sext(a, bits), sb = sext(b, bits);
  switch (Pred(pred)) {
  case Pred::ICMP_EQ:
    return a == b;
  case Pred::ICMP_NE:
    return a != b;
  case Pred::ICMP_UGT:
    return a > b;
  case Pred::ICMP_UGE:
    return a >= b;
  case Pred::ICMP_ULT:
    return a < b;
  case Pred::ICMP_ULE:
    return a <= b;
  case Pred::ICMP_SGT:
    return sa > sb;
  case Pred::ICMP_SGE:
    return sa >= sb;
  case Pred::ICMP_SLT:
    return sa < sb;
  case Pred::ICMP_SLE:
    return sa <= sb;
  default:
    return false;
  }
}

template <class T> bool fcmp(unsigned pred, T a, T b) {
  bool unordered = std::isnan(a) || std::isnan(b);
  switch (Pred(pred)) {
  case Pred::FCMP_FALSE:
    return false;
  case Pred::FCMP_OEQ:
    return !unordered && a == b;
  case Pred::FCMP_OGT:
    return !unordered && a > b;
  case Pred::FCMP_OGE:
    return !unordered && a >= b;
  case Pred::FCMP_OLT:
    return !unordered && a < b;
  case Pred::FCMP_OLE:
    return !unordered && a <= b;
  case Pred::FCMP_ONE:
    return !unordered && a != b;
  case Pred::FCMP_ORD:
    return !unordered;
  case Pred::FCMP_UNO:
    return unordered;
  case Pred::FCMP_UEQ:
    return unordered || a == b;
  case Pred::FCMP_UGT:
    return unordered || a > b;
  case Pred::FCMP_UGE:
    return unordered || a >= b;
  case Pred::FCMP_ULT:
    return unordered || a < b;
  case Pred::FCMP_ULE:
    return unordered || a <= b;
  case Pred::FCMP_UNE:
    return unordered || a != b;
  case Pred::FCMP_TRUE:
    return true;
  default:
    return false;
  }
}

template <class T> T floatBin(bc::FloatBinOp op, T a, T b) {
  switch (op) {
  case bc::FloatBinOp::Add:
    return a + b;
  case bc::FloatBinOp::Sub:
    return a - b;
  case bc::FloatBinOp::Mul:
    return a * b;
  case bc::FloatBinOp::Div:
    return a / b;
  case bc::FloatBinOp::Rem:
    return std::fmod(a, b);
  }
  return 0;
}

template <class T> T floatFn(bc::FloatFnKind k, T a, T b, T c) {
  using K = bc::FloatFnKind;
  switch (k) {
  case K::Sqrt:
    return std::sqrt(a);
  case K::Fabs:
    return std::fabs(a);
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
    return std::fma(a, b, c);
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

// Float to integer like PTX cvt.rzi: NaN gives 0, out-of-range saturates.
template <class T> uint64_t floatToInt(T v, unsigned bits, bool isSigned) {
  if (std::isnan(v))
    return 0;
  v = std::trunc(v);
  if (isSigned) {
    double lo = -std::ldexp(1.0, int(bits) - 1);
    double hi = std::ldexp(1.0, int(bits) - 1);
    if (double(v) < lo)
      return maskTo(uint64_t(int64_t(lo)), bits);
    if (double(v) >= hi)
      return maskTo(uint64_t(int64_t(hi - 1)), bits);
    return maskTo(uint64_t(int64_t(v)), bits);
  }
  double hi = std::ldexp(1.0, int(bits));
  if (v <= 0)
    return 0;
  if (double(v) >= hi)
    return maskTo(~0ull, bits);
  return uint64_t(v);
}

uint64_t cast(const Inst &in, uint64_t a) {
  using K = bc::CastKind;
  bool srcDouble = in.bits == 64, dstDouble = in.bits2 == 64;
  switch (bc::CastKind(in.sub)) {
  case K::Trunc:
    return maskTo(a, in.bits2);
  case K::ZExt:
    return a;
  case K::SExt:
    return maskTo(uint64_t(sext(a, in.bits)), in.bits2);
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
  case K::IntToPtr:
    return maskTo(a, in.bits2);
  case K::AddrSpaceCast:
    return maskTo(castAddressSpace(a, in.bits, in.bits2), unsigned(in.imm));
  }
  return 0;
}

} // namespace

void execAlu(const Inst &in, const DecodedKernel &kernel, WarpState &w,
             uint32_t mask) {
  switch (in.op) {
  case Op::IntBin:
    for (unsigned e = 0; e < in.n; ++e) {
      const uint64_t *a = w.slot(in.a + e), *b = w.slot(in.b + e);
      auto op = bc::IntBinOp(in.sub);
      unsigned bits = in.bits;
      if (op == bc::IntBinOp::Add && bits == 32) // the hot case, vectorizable
        forLanes(w.slot(in.dst + e), mask,
                 [&](unsigned l) { return uint64_t(uint32_t(a[l] + b[l])); });
      else
        forLanes(w.slot(in.dst + e), mask,
                 [&](unsigned l) { return intBin(op, a[l], b[l], bits); });
    }
    return;
  case Op::FloatBin:
    for (unsigned e = 0; e < in.n; ++e) {
      const uint64_t *a = w.slot(in.a + e), *b = w.slot(in.b + e);
      auto op = bc::FloatBinOp(in.sub);
      if (in.bits == 32)
        forLanes(w.slot(in.dst + e), mask, [&](unsigned l) {
          return bitsOf(floatBin(op, asF32(a[l]), asF32(b[l])));
        });
      else
        forLanes(w.slot(in.dst + e), mask, [&](unsigned l) {
          return bitsOf(floatBin(op, asF64(a[l]), asF64(b[l])));
        });
    }
    return;
  case Op::FNeg:
    for (unsigned e = 0; e < in.n; ++e) {
      const uint64_t *a = w.slot(in.a + e);
      uint64_t sign = in.bits == 32 ? 0x80000000ull : 0x8000000000000000ull;
      forLanes(w.slot(in.dst + e), mask,
               [&](unsigned l) { return a[l] ^ sign; });
    }
    return;
  case Op::ICmp:
    for (unsigned e = 0; e < in.n; ++e) {
      const uint64_t *a = w.slot(in.a + e), *b = w.slot(in.b + e);
      forLanes(w.slot(in.dst + e), mask, [&](unsigned l) {
        return uint64_t(icmp(in.sub, a[l], b[l], in.bits));
      });
    }
    return;
  case Op::FCmp:
    for (unsigned e = 0; e < in.n; ++e) {
      const uint64_t *a = w.slot(in.a + e), *b = w.slot(in.b + e);
      forLanes(w.slot(in.dst + e), mask, [&](unsigned l) {
        return uint64_t(in.bits == 32 ? fcmp(in.sub, asF32(a[l]), asF32(b[l]))
                                      : fcmp(in.sub, asF64(a[l]), asF64(b[l])));
      });
    }
    return;
  case Op::Select:
    for (unsigned e = 0; e < in.n; ++e) {
      const uint64_t *c = w.slot(in.a + ((in.flags & 1) ? e : 0));
      const uint64_t *t = w.slot(in.b + e), *f = w.slot(in.c + e);
      forLanes(w.slot(in.dst + e), mask,
               [&](unsigned l) { return (c[l] & 1) ? t[l] : f[l]; });
    }
    return;
  case Op::Cast:
    for (unsigned e = 0; e < in.n; ++e) {
      const uint64_t *a = w.slot(in.a + e);
      forLanes(w.slot(in.dst + e), mask,
               [&](unsigned l) { return cast(in, a[l]); });
    }
    return;
  case Op::Copy:
    for (unsigned e = 0; e < in.n; ++e) {
      const uint64_t *a = w.slot(in.a + e);
      forLanes(w.slot(in.dst + e), mask, [&](unsigned l) { return a[l]; });
    }
    return;
  case Op::InsertValue:
    for (unsigned e = 0; e < in.n; ++e) {
      bool fromValue = e >= in.aux && e < in.aux + in.c;
      const uint64_t *a =
          fromValue ? w.slot(in.b + e - in.aux) : w.slot(in.a + e);
      forLanes(w.slot(in.dst + e), mask, [&](unsigned l) { return a[l]; });
    }
    return;
  case Op::Repack: {
    const bc::RepackInfo &r = kernel.repacks()[in.aux];
    for (uint32_t m = mask; m; m &= m - 1) {
      unsigned lane = std::countr_zero(m);
      uint64_t buffer[16] = {}; // up to 1024 bits
      for (unsigned e = 0; e < r.srcCount; ++e) {
        uint64_t v = maskTo(w.slot(in.a + e)[lane], r.srcElemBits);
        unsigned bit = e * r.srcElemBits;
        buffer[bit / 64] |= v << (bit % 64);
        if (bit % 64 + r.srcElemBits > 64)
          buffer[bit / 64 + 1] |= v >> (64 - bit % 64);
      }
      for (unsigned e = 0; e < r.dstCount; ++e) {
        unsigned bit = e * r.dstElemBits;
        uint64_t v = buffer[bit / 64] >> (bit % 64);
        if (bit % 64 + r.dstElemBits > 64)
          v |= buffer[bit / 64 + 1] << (64 - bit % 64);
        w.slot(in.dst + e)[lane] = maskTo(v, r.dstElemBits);
      }
    }
    return;
  }
  case Op::ExtractElt: {
    const uint64_t *idx = w.slot(in.b);
    uint64_t *d = w.slot(in.dst);
    forLanes(d, mask, [&](unsigned l) {
      uint64_t i = maskTo(idx[l], in.bits);
      return i < in.n ? w.slot(in.a + uint32_t(i))[l] : 0;
    });
    return;
  }
  case Op::InsertElt: {
    const uint64_t *idx = w.slot(in.c), *v = w.slot(in.b);
    for (unsigned e = 0; e < in.n; ++e) {
      const uint64_t *a = w.slot(in.a + e);
      forLanes(w.slot(in.dst + e), mask, [&](unsigned l) {
        return maskTo(idx[l], in.bits) == e ? v[l] : a[l];
      });
    }
    return;
  }
  case Op::Shuffle:
    for (unsigned e = 0; e < in.n; ++e) {
      uint32_t m = uint32_t(kernel.shuffleMasks()[in.aux + e]);
      const uint64_t *src =
          m < in.c ? w.slot(in.a + m) : w.slot(in.b + m - in.c);
      forLanes(w.slot(in.dst + e), mask, [&](unsigned l) { return src[l]; });
    }
    return;
  case Op::Gep: {
    const uint64_t *base = w.slot(in.a);
    const bc::GepTerm *terms = kernel.gepTerms().data() + in.aux;
    uint64_t *d = w.slot(in.dst);
    forLanes(d, mask, [&](unsigned l) {
      uint64_t addr = base[l] + in.imm;
      for (uint32_t t = 0; t < in.c; ++t)
        addr += uint64_t(sext(w.slot(terms[t].slot)[l], terms[t].bits) *
                         terms[t].scale);
      return maskTo(addr, in.bits);
    });
    return;
  }
  case Op::IntFn:
    for (unsigned e = 0; e < in.n; ++e) {
      const uint64_t *a = w.slot(in.a + (in.a ? e : 0));
      const uint64_t *b = w.slot(in.b + (in.b ? e : 0));
      const uint64_t *c = w.slot(in.c + (in.c ? e : 0));
      forLanes(w.slot(in.dst + e), mask, [&](unsigned l) {
        return intFn(bc::IntFnKind(in.sub), a[l], b[l], c[l], in.bits);
      });
    }
    return;
  case Op::FloatFn:
    for (unsigned e = 0; e < in.n; ++e) {
      const uint64_t *a = w.slot(in.a + (in.a ? e : 0));
      const uint64_t *b = w.slot(in.b + (in.b ? e : 0));
      const uint64_t *c = w.slot(in.c + (in.c ? e : 0));
      auto k = bc::FloatFnKind(in.sub);
      if (in.bits == 32)
        forLanes(w.slot(in.dst + e), mask, [&](unsigned l) {
          return bitsOf(floatFn(k, asF32(a[l]), asF32(b[l]), asF32(c[l])));
        });
      else
        forLanes(w.slot(in.dst + e), mask, [&](unsigned l) {
          return bitsOf(floatFn(k, asF64(a[l]), asF64(b[l]), asF64(c[l])));
        });
    }
    return;
  default:
    return;
  }
}

unsigned resultSlots(const Inst &in, const DecodedKernel &kernel) {
  switch (in.op) {
  case Op::ExtractElt:
  case Op::Gep:
    return 1;
  case Op::Repack:
    return kernel.repacks()[in.aux].dstCount;
  default:
    return in.n;
  }
}

bool operandTaint(const Inst &in, const DecodedKernel &kernel,
                  const WarpState &w) {
  uint8_t t = 0;
  auto run = [&](uint32_t slot, unsigned n) {
    if (slot)
      for (unsigned e = 0; e < n; ++e)
        t |= w.taint[slot + e];
  };
  switch (in.op) {
  case Op::ExtractElt:
    run(in.a, in.n), run(in.b, 1);
    break;
  case Op::InsertElt:
    run(in.a, in.n), run(in.b, 1), run(in.c, 1);
    break;
  case Op::Shuffle:
    run(in.a, in.c), run(in.b, in.c);
    break;
  case Op::Repack:
    run(in.a, kernel.repacks()[in.aux].srcCount);
    break;
  case Op::InsertValue:
    run(in.a, in.n), run(in.b, in.c);
    break;
  case Op::Select:
    run(in.a, (in.flags & 1) ? in.n : 1), run(in.b, in.n), run(in.c, in.n);
    break;
  case Op::Gep: {
    run(in.a, 1);
    const bc::GepTerm *terms = kernel.gepTerms().data() + in.aux;
    for (uint32_t i = 0; i < in.c; ++i)
      run(terms[i].slot, 1);
    break;
  }
  case Op::IntFn:
  case Op::FloatFn: // scalar operands of vector calls are rare: check one
    run(in.a, in.n), run(in.b, in.b ? in.n : 0), run(in.c, in.c ? in.n : 0);
    break;
  default:
    run(in.a, in.n), run(in.b, in.n), run(in.c, in.n);
    break;
  }
  return t != 0;
}

} // namespace kcheck::sim
