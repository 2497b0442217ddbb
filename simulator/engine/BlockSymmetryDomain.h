// The abstract domain of the block-symmetry analysis (BlockSymmetry.cpp):
// what one integer slot is across the blocks of a launch (Unset, Const, Free,
// Affine in blockIdx, Dependent), its join, and constant folding.
#pragma once

#include "simulator/engine/BlockSymmetry.h"
#include "simulator/engine/Bytecode.h"

#include <cstdint>
#include <optional>

namespace kcheck::sim::symmetry {

inline uint64_t maskBits(uint64_t v, unsigned bits) {
  return bits >= 64 ? v : v & ((1ull << bits) - 1);
}

/// The signed representative of v modulo 2^bits.
inline int64_t signedMod(uint64_t v, unsigned bits) {
  if (bits >= 64)
    return int64_t(v);
  return int64_t(v << (64 - bits)) >> (64 - bits);
}

struct AbsValue {
  enum class Kind : uint8_t { Unset, Const, Free, Affine, Dependent };
  Kind kind = Kind::Unset;
  uint64_t value = 0; // Const
  BlockAffine form;   // Affine

  static AbsValue constant(uint64_t v) { return {Kind::Const, v, {}}; }
  static AbsValue free() { return {Kind::Free, 0, {}}; }
  static AbsValue dependent() { return {Kind::Dependent, 0, {}}; }
  static AbsValue affine(BlockAffine f, unsigned bits) {
    for (int64_t &c : f.coef)
      c = signedMod(uint64_t(c), bits);
    if (f.isZero())
      return free();
    return {Kind::Affine, 0, f};
  }
  bool isUnset() const { return kind == Kind::Unset; }
  bool isDep() const { return kind == Kind::Dependent; }
  bool isAffine() const { return kind == Kind::Affine; }
  /// Same in every block (Const or Free).
  bool isUniform() const { return kind == Kind::Const || kind == Kind::Free; }
  BlockAffine formOrZero() const { return isAffine() ? form : BlockAffine{}; }
};

/// Least upper bound; Free and Affine do not mix (the blockIdx part would
/// not be one fixed function of the block).
inline AbsValue join(const AbsValue &a, const AbsValue &b) {
  using K = AbsValue::Kind;
  if (a.isUnset())
    return b;
  if (b.isUnset())
    return a;
  if (a.isDep() || b.isDep())
    return AbsValue::dependent();
  if (a.isAffine() || b.isAffine()) {
    if (a.isAffine() && b.isAffine() && a.form.coef == b.form.coef)
      return a;
    return AbsValue::dependent();
  }
  if (a.kind == K::Const && b.kind == K::Const && a.value == b.value)
    return a;
  return AbsValue::free();
}

inline bool same(const AbsValue &a, const AbsValue &b) {
  return a.kind == b.kind && a.value == b.value && a.form.coef == b.form.coef;
}

inline std::optional<uint64_t> foldInt(bc::IntBinOp op, uint64_t x, uint64_t y,
                                       unsigned bits) {
  using O = bc::IntBinOp;
  switch (op) {
  case O::Add:
    return maskBits(x + y, bits);
  case O::Sub:
    return maskBits(x - y, bits);
  case O::Mul:
    return maskBits(x * y, bits);
  case O::Shl:
    return y < bits ? std::optional(maskBits(x << y, bits)) : std::nullopt;
  case O::LShr:
    return y < bits ? std::optional(x >> y) : std::nullopt;
  case O::And:
    return x & y;
  case O::Or:
    return x | y;
  case O::Xor:
    return x ^ y;
  case O::UDiv:
    return y ? std::optional(x / y) : std::nullopt;
  case O::URem:
    return y ? std::optional(x % y) : std::nullopt;
  default:
    return std::nullopt;
  }
}

} // namespace kcheck::sim::symmetry
