// Element-wise execution of ALU instructions over the active lanes of a
// warp: the lane loops, over the scalar operations of AluOps.h.
#include "simulator/engine/RunnerImpl.h"

#include "simulator/engine/AluOps.h"
#include "simulator/engine/RoundedFloat.h"
#include "simulator/engine/SmallFloat.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

namespace kcheck::sim {

using bc::Inst;
using bc::Op;
using namespace alu;

namespace {

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
// The lane loops below choose the operation once per instruction, not once
// per lane: the common operations get a loop of their own (vectorizable),
// the rest the per-lane switch.
template <class F>
inline void lanes2(uint64_t *d, const uint64_t *a, const uint64_t *b,
                   uint32_t mask, F f) {
  forLanes(d, mask, [&](unsigned l) { return f(a[l], b[l]); });
}

void intBinLanes(bc::IntBinOp op, unsigned bits, uint64_t *d, const uint64_t *a,
                 const uint64_t *b, uint32_t mask) {
  withIntBinOp(op, [&](auto k) {
    lanes2(d, a, b, mask, [bits](uint64_t x, uint64_t y) {
      return intBinOf<decltype(k)::value>(x, y, bits);
    });
  });
}

template <class T>
void floatBinLanes(bc::FloatBinOp op, uint64_t *d, const uint64_t *a,
                   const uint64_t *b, uint32_t mask) {
  withFloatBinOp(op, [&](auto k) {
    lanes2(d, a, b, mask, [](uint64_t x, uint64_t y) {
      return bitsOf(
          floatBinOf<decltype(k)::value>(asFloat<T>(x), asFloat<T>(y)));
    });
  });
}

// Fused multiply-adds over the lanes, with the CPU's FMA instruction where it
// has one (chosen once, when kcheck loads), else libm's fma: both round
// once, exactly, so the results are the same bits. (Clang takes
// target_clones on plain functions only, not on templates.)
__attribute__((target_clones("fma", "default"))) void
fmaLanesF32(uint64_t *d, const uint64_t *a, const uint64_t *b,
            const uint64_t *c, uint32_t mask) {
  forLanes(d, mask, [&](unsigned l) {
    return bitsOf(
        floatFnOf<bc::FloatFnKind::Fma>(asF32(a[l]), asF32(b[l]), asF32(c[l])));
  });
}

__attribute__((target_clones("fma", "default"))) void
fmaLanesF64(uint64_t *d, const uint64_t *a, const uint64_t *b,
            const uint64_t *c, uint32_t mask) {
  forLanes(d, mask, [&](unsigned l) {
    return bitsOf(
        floatFnOf<bc::FloatFnKind::Fma>(asF64(a[l]), asF64(b[l]), asF64(c[l])));
  });
}

template <class T, bc::FloatFnKind K>
void unaryLanes(uint64_t *d, const uint64_t *a, uint32_t mask) {
  forLanes(d, mask, [&](unsigned l) {
    T x = asFloat<T>(a[l]);
    return bitsOf(floatFnOf<K>(x, x, x));
  });
}

template <class T>
void floatFnLanes(bc::FloatFnKind k, uint64_t *d, const uint64_t *a,
                  const uint64_t *b, const uint64_t *c, uint32_t mask) {
  using K = bc::FloatFnKind;
  switch (k) {
  case K::Fma:
    if constexpr (std::is_same_v<T, float>)
      return fmaLanesF32(d, a, b, c, mask);
    else
      return fmaLanesF64(d, a, b, c, mask);
  case K::Sqrt:
    return unaryLanes<T, K::Sqrt>(d, a, mask);
  case K::Fabs:
    return unaryLanes<T, K::Fabs>(d, a, mask);
  default:
    return forLanes(d, mask, [&](unsigned l) {
      return bitsOf(
          floatFn(k, asFloat<T>(a[l]), asFloat<T>(b[l]), asFloat<T>(c[l])));
    });
  }
}

void icmpLanes(unsigned pred, unsigned bits, uint64_t *d, const uint64_t *a,
               const uint64_t *b, uint32_t mask) {
  withIcmpPred(
      pred,
      [&](auto k) {
        lanes2(d, a, b, mask, [bits](uint64_t x, uint64_t y) {
          return uint64_t(icmpOf<decltype(k)::value>(x, y, bits));
        });
      },
      [&] { forLanes(d, mask, [](unsigned) { return uint64_t(0); }); });
}

template <bc::CastKind K>
void castIntLanes(const Inst &in, uint64_t *d, const uint64_t *a,
                  uint32_t mask) {
  const unsigned from = in.bits, to = in.bits2;
  forLanes(d, mask, [&](unsigned l) { return castIntOf<K>(a[l], from, to); });
}

void castLanes(const Inst &in, uint64_t *d, const uint64_t *a, uint32_t mask) {
  using K = bc::CastKind;
  switch (K(in.sub)) {
  case K::ZExt:
    return castIntLanes<K::ZExt>(in, d, a, mask);
  case K::Trunc:
    return castIntLanes<K::Trunc>(in, d, a, mask);
  case K::PtrToInt:
    return castIntLanes<K::PtrToInt>(in, d, a, mask);
  case K::IntToPtr:
    return castIntLanes<K::IntToPtr>(in, d, a, mask);
  case K::SExt:
    return castIntLanes<K::SExt>(in, d, a, mask);
  default:
    return forLanes(d, mask, [&in, a](unsigned l) { return cast(in, a[l]); });
  }
}

// The data-flow ops of execAlu, element by element over the active lanes.
// The GPU's f32 NaN: every f32 arithmetic instruction (FADD, FMUL, FFMA,
// FMNMX, FRND, MUFU, and abs.f32, which is an FADD) gives the canonical
// 0x7fffffff whatever the operands' payloads, where the host's SSE
// propagates a payload or gives 0xffc00000 (measured on the H200:
// tests/conformance/programs/nvvm_calls.cu, __nvvm_fabs_f, __nvvm_add_rn_f,
// __nvvm_ceil_f). f64 results keep the host's NaN, which is the H200's
// (__nvvm_sqrt_rz_d of a negative number: 0xfff8000000000000 on both).
void canonicalizeF32NaNs(uint64_t *d, uint32_t mask) {
  for (uint32_t m = mask; m; m &= m - 1) {
    uint64_t &v = d[__builtin_ctz(m)];
    if ((v & 0x7f800000u) == 0x7f800000u && (v & 0x007fffffu))
      v = 0x7fffffffu;
  }
}

// 16-bit floats: in double, rounded once (SmallFloat.h).
void floatBinLanes16(bc::FloatBinOp op, bool bf, uint64_t *d, const uint64_t *a,
                     const uint64_t *b, uint32_t mask) {
  withFloatBinOp(op, [&](auto k) {
    forLanes(d, mask, [&](unsigned l) {
      return smallFromDouble(
          floatBinOf<decltype(k)::value>(smallToDouble(a[l], bf),
                                         smallToDouble(b[l], bf)),
          bf);
    });
  });
}

void execFloatBin(const Inst &in, WarpState &w, uint32_t mask) {
  for (unsigned e = 0; e < in.n; ++e) {
    const uint64_t *a = w.slot(in.a + e), *b = w.slot(in.b + e);
    auto op = bc::FloatBinOp(in.sub);
    if (in.bits == 16) {
      floatBinLanes16(op, in.sub2, w.slot(in.dst + e), a, b, mask);
    } else if (in.bits == 32) {
      floatBinLanes<float>(op, w.slot(in.dst + e), a, b, mask);
      canonicalizeF32NaNs(w.slot(in.dst + e), mask);
    } else {
      floatBinLanes<double>(op, w.slot(in.dst + e), a, b, mask);
    }
  }
}

void execFNeg(const Inst &in, WarpState &w, uint32_t mask) {
  for (unsigned e = 0; e < in.n; ++e) {
    const uint64_t *a = w.slot(in.a + e);
    uint64_t sign = in.bits == 16   ? 0x8000ull
                    : in.bits == 32 ? 0x80000000ull
                                    : 0x8000000000000000ull;
    if (in.flags & bc::kNegCanonicalNaN) // 16-bit only
      forLanes(w.slot(in.dst + e), mask, [&](unsigned l) {
        return std::isnan(smallToDouble(a[l], in.sub2)) ? 0x7fffull
                                                        : a[l] ^ sign;
      });
    else
      forLanes(w.slot(in.dst + e), mask,
               [&](unsigned l) { return a[l] ^ sign; });
  }
}

void execFCmp(const Inst &in, WarpState &w, uint32_t mask) {
  for (unsigned e = 0; e < in.n; ++e) {
    const uint64_t *a = w.slot(in.a + e), *b = w.slot(in.b + e);
    forLanes(w.slot(in.dst + e), mask, [&](unsigned l) {
      if (in.bits == 16)
        return uint64_t(fcmp(in.sub, smallToDouble(a[l], in.sub2),
                             smallToDouble(b[l], in.sub2)));
      return uint64_t(in.bits == 32 ? fcmp(in.sub, asF32(a[l]), asF32(b[l]))
                                    : fcmp(in.sub, asF64(a[l]), asF64(b[l])));
    });
  }
}

void execSelect(const Inst &in, WarpState &w, uint32_t mask) {
  for (unsigned e = 0; e < in.n; ++e) {
    const uint64_t *c = w.slot(in.a + ((in.flags & 1) ? e : 0));
    const uint64_t *t = w.slot(in.b + e), *f = w.slot(in.c + e);
    forLanes(w.slot(in.dst + e), mask,
             [&](unsigned l) { return (c[l] & 1) ? t[l] : f[l]; });
  }
}

void execCopy(const Inst &in, WarpState &w, uint32_t mask) {
  for (unsigned e = 0; e < in.n; ++e) {
    const uint64_t *a = w.slot(in.a + e);
    forLanes(w.slot(in.dst + e), mask, [&](unsigned l) { return a[l]; });
  }
}

void execInsertValue(const Inst &in, WarpState &w, uint32_t mask) {
  for (unsigned e = 0; e < in.n; ++e) {
    bool fromValue = e >= in.aux && e < in.aux + in.c;
    const uint64_t *a =
        fromValue ? w.slot(in.b + e - in.aux) : w.slot(in.a + e);
    forLanes(w.slot(in.dst + e), mask, [&](unsigned l) { return a[l]; });
  }
}

void execRepack(const Inst &in, const DecodedKernel &kernel, WarpState &w,
                uint32_t mask) {
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
}

void execExtractElt(const Inst &in, WarpState &w, uint32_t mask) {
  const uint64_t *idx = w.slot(in.b);
  uint64_t *d = w.slot(in.dst);
  forLanes(d, mask, [&](unsigned l) {
    uint64_t i = maskTo(idx[l], in.bits);
    return i < in.n ? w.slot(in.a + uint32_t(i))[l] : 0;
  });
}

void execInsertElt(const Inst &in, WarpState &w, uint32_t mask) {
  const uint64_t *idx = w.slot(in.c), *v = w.slot(in.b);
  for (unsigned e = 0; e < in.n; ++e) {
    const uint64_t *a = w.slot(in.a + e);
    forLanes(w.slot(in.dst + e), mask, [&](unsigned l) {
      return maskTo(idx[l], in.bits) == e ? v[l] : a[l];
    });
  }
}

void execShuffle(const Inst &in, const DecodedKernel &kernel, WarpState &w,
                 uint32_t mask) {
  for (unsigned e = 0; e < in.n; ++e) {
    uint32_t m = uint32_t(kernel.shuffleMasks()[in.aux + e]);
    const uint64_t *src = m < in.c ? w.slot(in.a + m) : w.slot(in.b + m - in.c);
    forLanes(w.slot(in.dst + e), mask, [&](unsigned l) { return src[l]; });
  }
}

void execGep(const Inst &in, const DecodedKernel &kernel, WarpState &w,
             uint32_t mask) {
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
}

void execIntFn(const Inst &in, WarpState &w, uint32_t mask) {
  for (unsigned e = 0; e < in.n; ++e) {
    const uint64_t *a = w.slot(in.a + (in.a ? e : 0));
    const uint64_t *b = w.slot(in.b + (in.b ? e : 0));
    const uint64_t *c = w.slot(in.c + (in.c ? e : 0));
    forLanes(w.slot(in.dst + e), mask, [&](unsigned l) {
      return intFn(bc::IntFnKind(in.sub), a[l], b[l], c[l], in.bits);
    });
  }
}

// min and max of every width, with PTX's modifiers (SmallFloat.h).
bool isMinMax(bc::FloatFnKind k) {
  using K = bc::FloatFnKind;
  return k == K::MinNum || k == K::MaxNum || k == K::Minimum || k == K::Maximum;
}
void minMaxLanes(const Inst &in, uint64_t *d, const uint64_t *a,
                 const uint64_t *b, uint32_t mask) {
  using K = bc::FloatFnKind;
  auto k = K(in.sub);
  MinMaxMode mode;
  mode.max = k == K::MaxNum || k == K::Maximum;
  mode.nan = k == K::Minimum || k == K::Maximum || (in.flags & bc::kFnNaN);
  mode.xorSignAbs = in.flags & bc::kFnXorSignAbs;
  mode.ftz = in.flags & bc::kFnFtz;
  forLanes(d, mask, [&](unsigned l) {
    return ptxMinMax(mode, in.bits, in.sub2, a[l], b[l]);
  });
}

// A 16-bit float function: fma rounded once (with .ftz, .sat, .relu),
// fabs (NaN canonical) and copysign on the bits, the others in double,
// rounded once.
uint64_t floatFn16(const Inst &in, uint64_t a, uint64_t b, uint64_t c) {
  using K = bc::FloatFnKind;
  bool bf = in.sub2;
  auto k = K(in.sub);
  if (k == K::CopySign)
    return (a & 0x7fff) | (b & 0x8000);
  auto flush = [&](uint64_t v) {
    double x = smallToDouble(v, bf);
    bool tiny = std::fabs(x) < (bf ? 0x1p-126 : 0x1p-14);
    return (in.flags & bc::kFnFtz) && tiny ? v & 0x8000 : v;
  };
  uint64_t r;
  if (k == K::Fabs) // an arithmetic instruction: a NaN is canonical
    r = std::isnan(smallToDouble(a, bf)) ? smallFromDouble(NAN, bf)
                                         : flush(a) & 0x7fff;
  else if (k == K::Fma)
    r = smallFma(flush(a), flush(b), flush(c), bf);
  else
    r = smallFromDouble(floatFn(k, smallToDouble(a, bf), smallToDouble(b, bf),
                                smallToDouble(c, bf)),
                        bf);
  r = flush(r);
  double x = smallToDouble(r, bf);
  if ((in.flags & bc::kFnSat) && !(x > 0)) // 0 or below, or NaN: +0
    return 0;
  if ((in.flags & bc::kFnSat) && x > 1)
    return smallFromDouble(1.0, bf);
  if ((in.flags & bc::kFnRelu) && x <= 0) // -0 too
    return 0;
  return r;
}

// An f32 register with a subnormal value flushed to a zero of its sign.
uint64_t flushF32(uint64_t v) {
  return (v & 0x7f800000u) == 0 ? v & 0x80000000u : v;
}

void execFloatFn(const Inst &in, WarpState &w, uint32_t mask) {
  for (unsigned e = 0; e < in.n; ++e) {
    const uint64_t *a = w.slot(in.a + (in.a ? e : 0));
    const uint64_t *b = w.slot(in.b + (in.b ? e : 0));
    const uint64_t *c = w.slot(in.c + (in.c ? e : 0));
    auto k = bc::FloatFnKind(in.sub);
    if (isMinMax(k)) {
      minMaxLanes(in, w.slot(in.dst + e), a, b, mask);
    } else if (in.bits == 16) {
      forLanes(w.slot(in.dst + e), mask,
               [&](unsigned l) { return floatFn16(in, a[l], b[l], c[l]); });
    } else if (in.bits == 32) {
      // .ftz: subnormal operands and results are sign-preserving zeros.
      uint64_t fa[kWarpSize], fb[kWarpSize], fc[kWarpSize];
      if (in.flags & bc::kFnFtz) {
        for (unsigned l = 0; l < kWarpSize; ++l)
          fa[l] = flushF32(a[l]), fb[l] = flushF32(b[l]),
          fc[l] = flushF32(c[l]);
        a = fa, b = fb, c = fc;
      }
      uint64_t *d = w.slot(in.dst + e);
      floatFnLanes<float>(k, d, a, b, c, mask);
      if (k != bc::FloatFnKind::CopySign) // a bit operation (LOP3)
        canonicalizeF32NaNs(d, mask);
      if (in.flags & bc::kFnFtz)
        forLanes(d, mask, [&](unsigned l) { return flushF32(d[l]); });
    } else
      floatFnLanes<double>(k, w.slot(in.dst + e), a, b, c, mask);
  }
}

void execRoundedFloat(const Inst &in, WarpState &w, uint32_t mask) {
  const uint64_t *a = w.slot(in.a);
  const uint64_t *b = w.slot(in.b ? in.b : in.a);
  const uint64_t *c = w.slot(in.c ? in.c : in.a);
  auto op = bc::RoundedOp(in.sub);
  using R = bc::RoundedOp;
  bool relu = in.flags & bc::kRoundRelu;
  if (op == R::ToE4m3 || op == R::ToE5m2) {
    // Two f32 (a high, b low) or an f16x2 (element 0 low) to a byte pair.
    bool e5m2 = op == R::ToE5m2, fromHalf = in.bits2 == 16;
    const uint64_t *hiSrc = fromHalf ? w.slot(in.a + 1) : a;
    const uint64_t *loSrc = fromHalf ? a : b;
    auto value = [&](uint64_t v) {
      return fromHalf ? smallToDouble(v, false) : double(asF32(v));
    };
    forLanes(w.slot(in.dst), mask, [&](unsigned l) {
      return uint64_t(fp8FromDouble(value(loSrc[l]), e5m2, relu)) |
             uint64_t(fp8FromDouble(value(hiSrc[l]), e5m2, relu)) << 8;
    });
    return;
  }
  if (op == R::FromE4m3 || op == R::FromE5m2) {
    // A byte pair to f16x2, element 0 from the low byte (exact).
    bool e5m2 = op == R::FromE5m2;
    for (unsigned e = 0; e < 2; ++e)
      forLanes(w.slot(in.dst + e), mask, [&](unsigned l) {
        double v = fp8ToDouble(uint8_t(a[l] >> (8 * e)), e5m2);
        if (relu && (v < 0 || std::signbit(v)))
          v = 0;
        return smallFromDouble(v, false);
      });
    return;
  }
  if (in.n == 2) { // a pair of 16-bit conversions: element 0 from b
    for (unsigned e = 0; e < 2; ++e) {
      const uint64_t *src = e == 0 ? b : a;
      forLanes(w.slot(in.dst + e), mask, [&](unsigned l) {
        return roundedFloat(op, bc::Rounding(in.sub2), in.flags, in.bits,
                            src[l], 0, 0);
      });
    }
    return;
  }
  forLanes(w.slot(in.dst), mask, [&](unsigned l) {
    return roundedFloat(op, bc::Rounding(in.sub2), in.flags, in.bits, a[l],
                        b[l], c[l]);
  });
}

} // namespace

void execAlu(const Inst &in, const DecodedKernel &kernel, WarpState &w,
             uint32_t mask) {
  switch (in.op) {
  case Op::IntBin:
    for (unsigned e = 0; e < in.n; ++e)
      intBinLanes(bc::IntBinOp(in.sub), in.bits, w.slot(in.dst + e),
                  w.slot(in.a + e), w.slot(in.b + e), mask);
    return;
  case Op::FloatBin:
    return execFloatBin(in, w, mask);
  case Op::FNeg:
    return execFNeg(in, w, mask);
  case Op::ICmp:
    for (unsigned e = 0; e < in.n; ++e)
      icmpLanes(in.sub, in.bits, w.slot(in.dst + e), w.slot(in.a + e),
                w.slot(in.b + e), mask);
    return;
  case Op::FCmp:
    return execFCmp(in, w, mask);
  case Op::Select:
    return execSelect(in, w, mask);
  case Op::Cast:
    for (unsigned e = 0; e < in.n; ++e)
      castLanes(in, w.slot(in.dst + e), w.slot(in.a + e), mask);
    return;
  case Op::Copy:
    return execCopy(in, w, mask);
  case Op::InsertValue:
    return execInsertValue(in, w, mask);
  case Op::Repack:
    return execRepack(in, kernel, w, mask);
  case Op::ExtractElt:
    return execExtractElt(in, w, mask);
  case Op::InsertElt:
    return execInsertElt(in, w, mask);
  case Op::Shuffle:
    return execShuffle(in, kernel, w, mask);
  case Op::Gep:
    return execGep(in, kernel, w, mask);
  case Op::IntFn:
    return execIntFn(in, w, mask);
  case Op::FloatFn:
    return execFloatFn(in, w, mask);
  case Op::RoundedFloat:
    return execRoundedFloat(in, w, mask);
  // BlockRunner::Impl::runStraightLine executes these itself and sends
  // only the data-flow ops above here; listed so that -Wswitch names a new
  // op.
  case Op::Nop:
  case Op::Load:
  case Op::Store:
  case Op::AtomicRmw:
  case Op::CmpXchg:
  case Op::MemCpy:
  case Op::MemSet:
  case Op::Br:
  case Op::CondBr:
  case Op::Switch:
  case Op::Ret:
  case Op::Unreachable:
  case Op::Trap:
  case Op::Sreg:
  case Op::Barrier:
  case Op::WarpSync:
  case Op::Shfl:
  case Op::Vote:
  case Op::ActiveMask:
  case Op::Printf:
  case Op::DeviceHeap:
  case Op::DeviceRuntime:
  case Op::Texture:
  case Op::Cluster:
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
  case Op::RoundedFloat:
    run(in.a, in.n), run(in.b, in.b ? in.n : 0), run(in.c, in.c ? in.n : 0);
    break;
  default:
    run(in.a, in.n), run(in.b, in.n), run(in.c, in.n);
    break;
  }
  return t != 0;
}

} // namespace kcheck::sim
