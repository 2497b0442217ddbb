// Matching blocks against a class's representative (the block-choosing
// drivers' shared part): what a representative was observed to use at each
// BlockSymmetry check (Observed, recorded by ProbeSink), and whether another
// block provably behaves like it (ClassMatcher::matches). Used by the
// class driver (BlockClasses.cpp) and by every-block runs that skip idle
// blocks (IdleBlocks.h).
#pragma once

#include "simulator/BlockClasses.h"
#include "simulator/engine/AddressWindows.h"

#include "llvm/IR/InstrTypes.h"

#include <algorithm>
#include <limits>
#include <vector>

namespace kcheck::sim::classes {

using Int = __int128;
using Check = SymmetryCheck;

/// What a representative was observed to use at one check, over every lane
/// and execution.
struct Observed {
  bool seen = false;
  Int lo = 0, hi = 0;   // NoWrap, Guard (operand A): interpreted value
  Int bLo = 0, bHi = 0; // Guard: operand B
  // Guard: A - B over the lanes where the predicate held, and where not.
  Int tLo = 0, tHi = 0, fLo = 0, fHi = 0;
  bool anyTrue = false, anyFalse = false;
  uint64_t addrLo = 0, addrHi = 0; // Address: raw pointer
  bool nonGlobal = false;          // Address: a generic pointer to shared/local
  unsigned maxLanes = 0;           // Address: most active lanes in one warp
  uint64_t bitsOr = 0;             // LowBits: every bit operand B had set
  Int deltaLo = 0, deltaHi = 0;    // Address writes: members' shifts
};

inline Int interpret(uint64_t v, unsigned bits, bool isSigned) {
  if (bits < 64)
    v &= (1ull << bits) - 1;
  if (!isSigned)
    return Int(v);
  if (bits >= 64)
    return Int(int64_t(v));
  return Int(int64_t(v << (64 - bits)) >> (64 - bits));
}

inline Int domainMin(unsigned bits, bool isSigned) {
  return isSigned ? -(Int(1) << (bits - 1)) : Int(0);
}
inline Int domainMax(unsigned bits, bool isSigned) {
  return isSigned ? (Int(1) << (bits - 1)) - 1 : (Int(1) << bits) - 1;
}

/// The predicate applied to x - y (x, y interpreted in its domain).
inline bool holds(uint8_t predicate, Int d) {
  using P = llvm::CmpInst::Predicate;
  switch (P(predicate)) {
  case P::ICMP_EQ:
    return d == 0;
  case P::ICMP_NE:
    return d != 0;
  case P::ICMP_SLT:
  case P::ICMP_ULT:
    return d < 0;
  case P::ICMP_SLE:
  case P::ICMP_ULE:
    return d <= 0;
  case P::ICMP_SGT:
  case P::ICMP_UGT:
    return d > 0;
  default: // SGE, UGE
    return d >= 0;
  }
}

inline bool isEquality(uint8_t predicate) {
  using P = llvm::CmpInst::Predicate;
  return P(predicate) == P::ICMP_EQ || P(predicate) == P::ICMP_NE;
}

inline void widen(Int &lo, Int &hi, Int v, bool first) {
  if (first || v < lo)
    lo = v;
  if (first || v > hi)
    hi = v;
}

/// One class: its representative's counts and observations.
struct OpenClass {
  core::Dim3 rep;
  uint64_t members = 1; // the representative included
  LaunchResult part;
  std::vector<Observed> observed; // per check
};

/// Forwards events to the counting sink and records probes into a class.
class ProbeSink : public EventSink {
public:
  ProbeSink(EventSink &inner, const std::vector<Check> &checks,
            const std::vector<std::vector<uint32_t>> &checksAt,
            std::vector<Observed> &observed)
      : inner_(inner), checks_(checks), checksAt_(checksAt),
        observed_(observed) {}

  void onAccess(const WarpAccess &a) override { inner_.onAccess(a); }
  void onBranch(const BranchEvent &b) override { inner_.onBranch(b); }
  void onBarrier(const BarrierEvent &b) override { inner_.onBarrier(b); }
  void onFault(const Fault &f) override { inner_.onFault(f); }
  void onInstruction(uint32_t id, uint32_t mask) override {
    inner_.onInstruction(id, mask);
  }
  void onProbe(uint32_t pc, uint32_t mask, const uint64_t *regs) override {
    for (uint32_t i : checksAt_[pc])
      record(checks_[i], observed_[i], mask, regs);
  }

private:
  static void record(const Check &c, Observed &o, uint32_t mask,
                     const uint64_t *regs) {
    const uint64_t *a = regs + size_t(c.slotA) * kWarpSize;
    const uint64_t *b = regs + size_t(c.slotB) * kWarpSize;
    if (c.kind == Check::Kind::Address)
      o.maxLanes = std::max(o.maxLanes, unsigned(__builtin_popcount(mask)));
    for (uint32_t m = mask; m; m &= m - 1) {
      unsigned lane = unsigned(__builtin_ctz(m));
      bool first = !o.seen;
      o.seen = true;
      switch (c.kind) {
      case Check::Kind::NoWrap:
        widen(o.lo, o.hi, interpret(a[lane], c.bits, c.isSigned), first);
        break;
      case Check::Kind::Guard: {
        Int x = interpret(a[lane], c.bits, c.isSigned);
        Int y = interpret(b[lane], c.bits, c.isSigned);
        widen(o.lo, o.hi, x, first);
        widen(o.bLo, o.bHi, y, first);
        if (holds(c.predicate, x - y)) {
          widen(o.tLo, o.tHi, x - y, !o.anyTrue);
          o.anyTrue = true;
        } else {
          widen(o.fLo, o.fHi, x - y, !o.anyFalse);
          o.anyFalse = true;
        }
        break;
      }
      case Check::Kind::LowBits:
        o.bitsOr |= b[lane];
        break;
      case Check::Kind::Unreached: // `seen` is all it records
        break;
      case Check::Kind::ZeroOr: {
        Int x = interpret(a[lane], c.bits, false);
        Int y = interpret(b[lane], c.bits, false);
        widen(o.lo, o.hi, x, first);
        widen(o.bLo, o.bHi, y, first);
        // An or computed from earlier values of its operands (a loop exit
        // after they moved on) is not what was observed: take it as a zero,
        // so that only blocks with the same values join.
        Int orValue =
            interpret(regs[size_t(c.slotC) * kWarpSize + lane], c.bits, false);
        o.anyTrue |= (x == 0 && y == 0) || (x | y) != orValue;
        break;
      }
      case Check::Kind::Address: {
        uint64_t p = a[lane];
        o.nonGlobal |= inSharedWindow(p) || inLocalWindow(p);
        if (first || p < o.addrLo)
          o.addrLo = p;
        if (first || p > o.addrHi)
          o.addrHi = p;
        break;
      }
      }
    }
  }

  EventSink &inner_;
  const std::vector<Check> &checks_;
  const std::vector<std::vector<uint32_t>> &checksAt_;
  std::vector<Observed> &observed_;
};

inline bool fitsDomain(Int lo, Int hi, unsigned bits, bool isSigned) {
  return lo >= domainMin(bits, isSigned) && hi <= domainMax(bits, isSigned);
}

class ClassMatcher {
public:
  ClassMatcher(const DecodedKernel &kernel, DeviceMemory &memory,
               const BlockClassOptions &options, BlockSymmetry symmetry)
      : memory_(memory), options_(options) {
    checks_ = std::move(symmetry.checks);
    checks_.insert(checks_.end(), symmetry.uniformStores.begin(),
                   symmetry.uniformStores.end());
    checksAt_.resize(kernel.code().size());
    for (uint32_t i = 0; i < checks_.size(); ++i)
      checksAt_[checks_[i].pc].push_back(i);
  }

  /// Whether `block` behaves like `cls`'s representative.
  bool matches(const OpenClass &cls, const core::Dim3 &block) const {
    for (size_t i = 0; i < checks_.size(); ++i)
      if (!holdsFor(checks_[i], cls.observed[i], cls.rep, block))
        return false;
    return true;
  }

  void join(OpenClass &cls, const core::Dim3 &block) const {
    cls.members++;
    for (size_t i = 0; i < checks_.size(); ++i) {
      const Check &c = checks_[i];
      if (c.kind != Check::Kind::Address || !c.isWrite)
        continue;
      Int d = c.formA.delta(block, cls.rep);
      Observed &o = cls.observed[i];
      o.deltaLo = std::min(o.deltaLo, d);
      o.deltaHi = std::max(o.deltaHi, d);
    }
  }

  /// The skipped members' global stores did not happen: mark what they could
  /// have written as input-derived.
  void taintSkippedStores(const OpenClass &cls) const {
    if (cls.members < 2)
      return;
    for (size_t i = 0; i < checks_.size(); ++i) {
      const Check &c = checks_[i];
      const Observed &o = cls.observed[i];
      if (c.kind != Check::Kind::Address || !c.isWrite || !o.seen)
        continue;
      Int lo = Int(o.addrLo) + o.deltaLo;
      Int hi = Int(o.addrHi) + o.deltaHi + c.accessBytes;
      if (lo < 0 || hi > Int(std::numeric_limits<uint64_t>::max()))
        continue; // members are verified in bounds: cannot happen
      memory_.markTainted(uint64_t(lo), uint64_t(hi - lo));
    }
  }

  /// The first Unreached check `cls`'s representative executed, if any.
  const Check *reachedUnreached(const OpenClass &cls) const {
    for (size_t i = 0; i < checks_.size(); ++i)
      if (checks_[i].kind == Check::Kind::Unreached && cls.observed[i].seen)
        return &checks_[i];
    return nullptr;
  }

  std::vector<uint32_t> probePcs() const {
    std::vector<uint32_t> pcs;
    for (const Check &c : checks_)
      pcs.push_back(c.pc);
    std::sort(pcs.begin(), pcs.end());
    pcs.erase(std::unique(pcs.begin(), pcs.end()), pcs.end());
    return pcs;
  }

  const std::vector<Check> &checks() const { return checks_; }
  const std::vector<std::vector<uint32_t>> &checksAt() const {
    return checksAt_;
  }

private:
  bool holdsFor(const Check &c, const Observed &o, const core::Dim3 &rep,
                const core::Dim3 &block) const {
    if (!o.seen) // never executed by the representative, nor by the block
      return true;
    switch (c.kind) {
    case Check::Kind::NoWrap: {
      Int d = c.formA.delta(block, rep);
      return fitsDomain(o.lo + d, o.hi + d, c.bits, c.isSigned);
    }
    case Check::Kind::Guard: {
      Int da = c.formA.delta(block, rep), db = c.formB.delta(block, rep);
      Int shift = da - db;
      if (isEquality(c.predicate) && c.bits <= 64 &&
          (shift & ((Int(1) << c.bits) - 1)) == 0)
        return true; // x + s == y + s modulo 2^bits iff x == y
      if (!fitsDomain(o.lo + da, o.hi + da, c.bits, c.isSigned) ||
          !fitsDomain(o.bLo + db, o.bHi + db, c.bits, c.isSigned))
        return false;
      if (shift == 0)
        return true; // both sides moved alike, no wrap: same order
      // Every observed difference must stay on its side of the predicate:
      // the true ones and the false ones, as two intervals (a loop exit
      // `i < n` keeps its trip count while no value crosses n).
      Int tLo = o.tLo + shift, tHi = o.tHi + shift;
      Int fLo = o.fLo + shift, fHi = o.fHi + shift;
      auto spansZero = [](Int lo, Int hi) { return lo <= 0 && 0 <= hi; };
      auto isZero = [](Int lo, Int hi) { return lo == 0 && hi == 0; };
      using P = llvm::CmpInst::Predicate;
      bool trueOk, falseOk;
      if (P(c.predicate) == P::ICMP_EQ) {
        trueOk = isZero(tLo, tHi), falseOk = !spansZero(fLo, fHi);
      } else if (P(c.predicate) == P::ICMP_NE) {
        trueOk = !spansZero(tLo, tHi), falseOk = isZero(fLo, fHi);
      } else { // monotone in the difference: the ends decide
        trueOk = holds(c.predicate, tLo) && holds(c.predicate, tHi);
        falseOk = !holds(c.predicate, fLo) && !holds(c.predicate, fHi);
      }
      return (!o.anyTrue || trueOk) && (!o.anyFalse || falseOk);
    }
    case Check::Kind::LowBits: {
      Int d = c.formA.delta(block, rep);
      uint64_t shift =
          uint64_t(d) & (c.bits >= 64 ? ~0ull : (1ull << c.bits) - 1);
      if (shift == 0)
        return true;
      // The shift leaves the bits below its lowest set bit alone, and the
      // carry of x + shift never reaches below it: (x + s) | y = (x | y) + s.
      return (o.bitsOr >> __builtin_ctzll(shift)) == 0;
    }
    case Check::Kind::Address: {
      if (c.formA.isZero())
        return true; // same addresses as the representative
      if (o.nonGlobal)
        return false;
      Int d = c.formA.delta(block, rep);
      Int granule = options_.granuleBytes;
      uint32_t bytes = c.accessBytes;
      bool pow2 = bytes && (bytes & (bytes - 1)) == 0;
      // Masks, not %: a 128-bit division per check dominated 1M-block grids.
      if (pow2 && (d & (bytes - 1)) != 0)
        return false; // alignment (and misaligned faults) would change
      // One lane per execution: an aligned access within one granule costs
      // one sector wherever it lands.
      bool singleLane = o.maxLanes <= 1 && pow2 && bytes <= granule;
      bool granulePow2 = (granule & (granule - 1)) == 0;
      if (!singleLane &&
          (granulePow2 ? (d & (granule - 1)) != 0 : d % granule != 0))
        return false;
      Int lo = Int(o.addrLo) + d, hi = Int(o.addrHi) + d + bytes;
      if (lo < 0 || hi > Int(std::numeric_limits<uint64_t>::max()))
        return false;
      return memory_.find(uint64_t(lo), uint64_t(hi - lo)) != nullptr;
    }
    case Check::Kind::Unreached: // the representative executed it
      return false;
    case Check::Kind::ZeroOr: {
      Int da = c.formA.delta(block, rep), db = c.formB.delta(block, rep);
      Int mask = (Int(1) << c.bits) - 1;
      if ((da & mask) == 0 && (db & mask) == 0)
        return true; // the same values
      if (o.anyTrue)
        return false;
      // No lane had both zero: none does if one side stays non-zero
      // everywhere (shifted without wrapping past zero).
      auto nonZero = [&](Int lo, Int hi, Int d) {
        return lo + d >= 1 && hi + d <= domainMax(c.bits, false);
      };
      return nonZero(o.lo, o.hi, da) || nonZero(o.bLo, o.bHi, db);
    }
    }
    return false;
  }

  DeviceMemory &memory_;
  const BlockClassOptions &options_;
  std::vector<Check> checks_;
  std::vector<std::vector<uint32_t>> checksAt_;
};

} // namespace kcheck::sim::classes
