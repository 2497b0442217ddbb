// What can differ between the blocks of one launch, proven from the decoded
// IR: a flow-insensitive abstract interpretation of the kernel's slots with
// the launch's arguments and geometry known. Every integer value is
//   - Free: the same in every block for the same thread at the same point of
//     its execution (depends on threadIdx, arguments, constants, and on data
//     the block itself wrote to shared/local memory from Free values), or
//   - Affine: Free + sum_d coef[d] * blockIdx[d], exact modulo 2^bits, or
//   - Dependent: anything else (global memory data, atomics, clock, ...).
// Conditions of comparisons that involve Affine values are treated as Free
// *provided* a Guard check holds for the block; sign/zero extensions of
// Affine values as Affine provided a NoWrap check holds; Affine global
// addresses yield Address checks (bounds, sector alignment). The checks need
// the values a representative block observed (probes at their pcs): the
// driver verifies them per block (simulator/BlockClasses). A data- or
// blockIdx-dependent branch, a data-dependent address, a blockIdx-dependent
// shared or local address, device printf, ... yields an Unreached check: a
// block may join a representative that never executed it. The argument: a
// member takes the representative's path as long as every branch on that
// path has the same outcome, which the other checks prove for every branch
// the representative executed; a path without an Unreached pc is therefore
// the member's path too (an assert on data inside `if (tid == 0 &&
// blockIdx.x == 0)` leaves every other block in classes).
//
// Assumes the bytecode invariants of Bytecode.h (slot 0 is constant zero,
// values canonical: zero-extended to their width).
#pragma once

#include "core/Launch.h"
#include "simulator/engine/BlockRunner.h"
#include "simulator/engine/DecodedKernel.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace kcheck::sim {

/// The blockIdx-dependent part of a value: sum_d coef[d] * blockIdx[d], as
/// mathematical integers (each coef the signed representative modulo 2^bits
/// of the value it belongs to).
struct BlockAffine {
  std::array<int64_t, 3> coef{};
  bool isZero() const { return !coef[0] && !coef[1] && !coef[2]; }
  /// The part's value for `block` minus its value for `rep`, exactly.
  __int128 delta(const core::Dim3 &block, const core::Dim3 &rep) const {
    return __int128(coef[0]) * (int64_t(block.x) - int64_t(rep.x)) +
           __int128(coef[1]) * (int64_t(block.y) - int64_t(rep.y)) +
           __int128(coef[2]) * (int64_t(block.z) - int64_t(rep.z));
  }
};

struct SymmetryCheck {
  enum class Kind : uint8_t {
    NoWrap,    // slotA + delta stays in the `bits`-wide (un)signed range
    Guard,     // icmp `predicate` of slotA, slotB: same outcome per lane
    Address,   // global/generic/constant pointer slotA: in bounds, aligned
    LowBits,   // or/xor of Affine slotA with Free slotB: slotB's bits all
               // below the lowest bit the block's shift changes
    Unreached, // pc differs between blocks (see above): the representative
               // never executed it
    ZeroOr,    // icmp eq/ne (slotA | slotB), 0 of two Affine values (`row
               // == 0 && col == 0`): same outcome per lane
  };
  Kind kind = Kind::NoWrap;
  uint32_t pc = 0;
  uint32_t slotA = 0, slotB = 0;
  uint32_t slotC = 0; // ZeroOr: the or itself (its operands may have moved on)
  BlockAffine formA, formB; // formB: Guard and ZeroOr only
  unsigned bits = 64;
  bool isSigned = false;
  uint8_t predicate = 0;    // alu::IcmpPred (Guard)
  uint32_t accessBytes = 0; // Address: bytes per lane
  bool isWrite = false;     // Address: store or atomic (taints skipped data)
  /// Unreached: what differs may be loaded data (not only blockIdx); sound
  /// only where blocks do not talk through global memory (skipped members'
  /// atomics would change what a later representative loads).
  bool onData = false;
  std::string what; // Unreached: "file:line: what differs", for reports
};

struct BlockSymmetry {
  std::vector<SymmetryCheck> checks;
  /// Global/generic stores and atomics whose address is Free: skipped blocks
  /// write the same bytes as their representative (Address kind, zero form).
  std::vector<SymmetryCheck> uniformStores;
  std::vector<uint32_t> probePcs; // sorted, unique: every check's pc
  /// Stores, atomics, copies and sets whose address may be global (global
  /// or generic): what a block leaves behind besides its counts. A block
  /// that executes none of them, nor an Unreached pc (device printf, the
  /// heap, the device runtime, surface writes are such pcs), is idle.
  std::vector<uint32_t> effectPcs; // ascending
};

/// Analyzes `kernel` for one launch (its grid, block and argument values).
BlockSymmetry analyzeBlockSymmetry(const DecodedKernel &kernel,
                                   const core::LaunchConfig &launch,
                                   const std::vector<KernelArg> &args);

} // namespace kcheck::sim
