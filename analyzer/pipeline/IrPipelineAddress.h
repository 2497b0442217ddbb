// Address arithmetic the IR pipeline's passes compare addresses with
// (IrPipelineMemory): two pointers computed by different instructions, e.g.
// `&buf[1][tid]` as a GEP of a GEP in one arm of an if/else and as
// `&buf[0][tid] + 1024` in the other, are the same address.
#pragma once

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <utility>

#include <cstdint>

namespace llvm {
class DataLayout;
class Value;
} // namespace llvm

namespace kcheck::analyzer {

// An address as constant + sum of coefficient * opaque value, looking
// through GEPs, casts, not (~x = -x - 1), and add/sub/or-disjoint/mul/shl by
// constants (overflow ignored, as nvcc's index arithmetic assumes; for
// shared memory, whose addresses are 32-bit in nvcc's code, exact). Opaque
// values are compared by identity.
struct LinearAddress {
  int64_t constant = 0;
  llvm::SmallMapVector<const llvm::Value *, int64_t, 4> terms;
};

LinearAddress linearAddress(const llvm::Value *pointer,
                            const llvm::DataLayout &layout);

// The form with zero terms dropped and the rest in a fixed order: equal keys,
// equal addresses.
using LinearAddressKey =
    std::pair<int64_t,
              llvm::SmallVector<std::pair<const llvm::Value *, int64_t>, 4>>;
LinearAddressKey keyOf(const LinearAddress &address);

// a - b in bytes, as their linear forms; nullopt unless every opaque term
// cancels.
std::optional<int64_t> constantDistance(const llvm::Value *a,
                                        const llvm::Value *b,
                                        const llvm::DataLayout &layout);

// Whether the two pointers are provably equal, as their linear forms.
bool sameLinearAddress(const llvm::Value *a, const llvm::Value *b,
                       const llvm::DataLayout &layout);

} // namespace kcheck::analyzer
