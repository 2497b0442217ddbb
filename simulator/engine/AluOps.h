// The scalar operations of the ALU, one lane's value at a time, for the
// lane loops of ExecAlu.cpp. Values are canonical register bits: integers
// zero-extended and masked to their width, floats as IEEE bits in the low 32
// bits, doubles as 64 bits. Every operation is total (division by zero gives
// 0, shifts past the width give 0, float-to-int saturates), so inactive or
// garbage lanes never trap.
#pragma once

#include "simulator/engine/Bytecode.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <type_traits>

namespace kcheck::sim::alu {

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

// Integer arithmetic, integer comparisons and float arithmetic, each
// operation written once as a template on the operation: withIntBinOp and
// its kin call `f` with the instruction's operation as a compile-time
// constant, so that ExecAlu.cpp's lane loops choose the operation once per
// instruction and run a loop of its own per operation.

template <bc::IntBinOp Op>
inline uint64_t intBinOf(uint64_t a, uint64_t b, unsigned bits) {
  using O = bc::IntBinOp;
  if constexpr (Op == O::Add) {
    return maskTo(a + b, bits);
  } else if constexpr (Op == O::Sub) {
    return maskTo(a - b, bits);
  } else if constexpr (Op == O::Mul) {
    return maskTo(a * b, bits);
  } else if constexpr (Op == O::UDiv) {
    return b ? a / b : 0;
  } else if constexpr (Op == O::URem) {
    return b ? a % b : 0;
  } else if constexpr (Op == O::SDiv) {
    int64_t sa = sext(a, bits), sb = sext(b, bits);
    if (sb == 0)
      return 0;
    if (sb == -1)
      return maskTo(0 - uint64_t(sa), bits);
    return maskTo(uint64_t(sa / sb), bits);
  } else if constexpr (Op == O::SRem) {
    int64_t sa = sext(a, bits), sb = sext(b, bits);
    if (sb == 0 || sb == -1)
      return 0;
    return maskTo(uint64_t(sa % sb), bits);
  } else if constexpr (Op == O::Shl) {
    return b >= bits ? 0 : maskTo(a << b, bits);
  } else if constexpr (Op == O::LShr) {
    return b >= bits ? 0 : a >> b;
  } else if constexpr (Op == O::AShr) {
    return maskTo(uint64_t(sext(a, bits) >> (b >= bits ? bits - 1 : b)), bits);
  } else if constexpr (Op == O::And) {
    return a & b;
  } else if constexpr (Op == O::Or) {
    return a | b;
  } else {
    static_assert(Op == O::Xor);
    return a ^ b;
  }
}

template <class F> decltype(auto) withIntBinOp(bc::IntBinOp op, F &&f) {
  using O = bc::IntBinOp;
  switch (op) {
#define KCHECK_ALU_CASE(name)                                                  \
  case O::name:                                                                \
    return f(std::integral_constant<O, O::name>{});
    KCHECK_ALU_CASE(Add)
    KCHECK_ALU_CASE(Sub)
    KCHECK_ALU_CASE(Mul)
    KCHECK_ALU_CASE(UDiv)
    KCHECK_ALU_CASE(SDiv)
    KCHECK_ALU_CASE(URem)
    KCHECK_ALU_CASE(SRem)
    KCHECK_ALU_CASE(Shl)
    KCHECK_ALU_CASE(LShr)
    KCHECK_ALU_CASE(AShr)
    KCHECK_ALU_CASE(And)
    KCHECK_ALU_CASE(Or)
    KCHECK_ALU_CASE(Xor)
#undef KCHECK_ALU_CASE
  }
  __builtin_unreachable(); // every IntBinOp is a case above
}

/// Integer comparisons, numbered as llvm::CmpInst::Predicate numbers them
/// (the decoder stores that number; Decoder.cpp checks they agree, so the
/// executor needs no LLVM header).
enum class IcmpPred : unsigned {
  Eq = 32,
  Ne,
  Ugt,
  Uge,
  Ult,
  Ule,
  Sgt,
  Sge,
  Slt,
  Sle
};

/// Floating-point comparisons, numbered as llvm::CmpInst::Predicate numbers
/// them (checked in Decoder.cpp): O = ordered (false on a NaN), U =
/// unordered (true on a NaN).
enum class FcmpPred : unsigned {
  False = 0,
  Oeq,
  Ogt,
  Oge,
  Olt,
  Ole,
  One,
  Ord,
  Uno,
  Ueq,
  Ugt,
  Uge,
  Ult,
  Ule,
  Une,
  True,
};

/// Whether the integer predicate `p` (IcmpPred's numbering) compares as
/// signed, and whether it tests equality.
inline bool isSignedIcmp(unsigned p) {
  return p >= unsigned(IcmpPred::Sgt) && p <= unsigned(IcmpPred::Sle);
}
inline bool isEqualityIcmp(unsigned p) {
  return p == unsigned(IcmpPred::Eq) || p == unsigned(IcmpPred::Ne);
}

template <IcmpPred P>
inline bool icmpOf(uint64_t a, uint64_t b, unsigned bits) {
  using enum IcmpPred;
  if constexpr (P == Eq)
    return a == b;
  else if constexpr (P == Ne)
    return a != b;
  else if constexpr (P == Ugt)
    return a > b;
  else if constexpr (P == Uge)
    return a >= b;
  else if constexpr (P == Ult)
    return a < b;
  else if constexpr (P == Ule)
    return a <= b;
  else if constexpr (P == Sgt)
    return sext(a, bits) > sext(b, bits);
  else if constexpr (P == Sge)
    return sext(a, bits) >= sext(b, bits);
  else if constexpr (P == Slt)
    return sext(a, bits) < sext(b, bits);
  else {
    static_assert(P == Sle);
    return sext(a, bits) <= sext(b, bits);
  }
}

/// Calls `f` with the predicate as a constant; `fallback()` for a number that
/// is no integer predicate.
template <class F, class G>
decltype(auto) withIcmpPred(unsigned pred, F &&f, G &&fallback) {
  using P = IcmpPred;
  switch (P(pred)) {
#define KCHECK_ALU_CASE(name)                                                  \
  case P::name:                                                                \
    return f(std::integral_constant<P, P::name>{});
    KCHECK_ALU_CASE(Eq)
    KCHECK_ALU_CASE(Ne)
    KCHECK_ALU_CASE(Ugt)
    KCHECK_ALU_CASE(Uge)
    KCHECK_ALU_CASE(Ult)
    KCHECK_ALU_CASE(Ule)
    KCHECK_ALU_CASE(Sgt)
    KCHECK_ALU_CASE(Sge)
    KCHECK_ALU_CASE(Slt)
    KCHECK_ALU_CASE(Sle)
#undef KCHECK_ALU_CASE
  }
  return fallback();
}

template <bc::FloatBinOp Op, class T> inline T floatBinOf(T a, T b) {
  using O = bc::FloatBinOp;
  if constexpr (Op == O::Add) {
    return a + b;
  } else if constexpr (Op == O::Sub) {
    return a - b;
  } else if constexpr (Op == O::Mul) {
    return a * b;
  } else if constexpr (Op == O::Div) {
    return a / b;
  } else {
    static_assert(Op == O::Rem);
    return std::fmod(a, b);
  }
}

template <class F> decltype(auto) withFloatBinOp(bc::FloatBinOp op, F &&f) {
  using O = bc::FloatBinOp;
  switch (op) {
  case O::Add:
    return f(std::integral_constant<O, O::Add>{});
  case O::Sub:
    return f(std::integral_constant<O, O::Sub>{});
  case O::Mul:
    return f(std::integral_constant<O, O::Mul>{});
  case O::Div:
    return f(std::integral_constant<O, O::Div>{});
  case O::Rem:
    return f(std::integral_constant<O, O::Rem>{});
  }
  __builtin_unreachable(); // every FloatBinOp is a case above
}

/// The float functions and integer casts that lane loops run most, for
/// their loops of their own (floatFn and cast take every kind, these
/// among them).
template <bc::FloatFnKind K, class T> inline T floatFnOf(T a, T b, T c) {
  using enum bc::FloatFnKind;
  if constexpr (K == Sqrt) {
    return std::sqrt(a);
  } else if constexpr (K == Fabs) {
    return std::fabs(a);
  } else {
    static_assert(K == Fma);
    return std::fma(a, b, c);
  }
}
/// An integer cast from `from` to `to` bits.
template <bc::CastKind K>
inline uint64_t castIntOf(uint64_t a, unsigned from, unsigned to) {
  using enum bc::CastKind;
  if constexpr (K == ZExt) {
    return a;
  } else if constexpr (K == SExt) {
    return maskTo(uint64_t(sext(a, from)), to);
  } else {
    static_assert(K == Trunc || K == PtrToInt || K == IntToPtr);
    return maskTo(a, to);
  }
}

/// `pred` is an FcmpPred.
template <class T> bool fcmp(unsigned pred, T a, T b);
template <class T> T floatFn(bc::FloatFnKind k, T a, T b, T c);
uint64_t intFn(bc::IntFnKind k, uint64_t a, uint64_t b, uint64_t c,
               unsigned bits);
uint64_t cast(const bc::Inst &in, uint64_t a);

} // namespace kcheck::sim::alu
