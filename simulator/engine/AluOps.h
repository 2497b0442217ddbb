// The scalar operations of the ALU, one lane's value at a time, for the
// lane loops of ExecAlu.cpp. Values are canonical register bits: integers
// zero-extended and masked to their width, floats as IEEE bits in the low 32
// bits, doubles as 64 bits. Every operation is total (division by zero gives
// 0, shifts past the width give 0, float-to-int saturates), so inactive or
// garbage lanes never trap.
#pragma once

#include "simulator/engine/Bytecode.h"

#include <bit>
#include <cstdint>

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

uint64_t intBin(bc::IntBinOp op, uint64_t a, uint64_t b, unsigned bits);
/// `pred` is an llvm::CmpInst::Predicate.
bool icmp(unsigned pred, uint64_t a, uint64_t b, unsigned bits);
template <class T> bool fcmp(unsigned pred, T a, T b);
template <class T> T floatBin(bc::FloatBinOp op, T a, T b);
template <class T> T floatFn(bc::FloatFnKind k, T a, T b, T c);
uint64_t intFn(bc::IntFnKind k, uint64_t a, uint64_t b, uint64_t c,
               unsigned bits);
uint64_t cast(const bc::Inst &in, uint64_t a);

} // namespace kcheck::sim::alu
