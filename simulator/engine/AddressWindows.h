// Disjoint windows of the simulated generic (flat) address space. Assumes
// that no global allocation lies below kGlobalHeapBase, so a generic address
// can be resolved to shared, local or global memory by range alone.
#pragma once

#include "simulator/engine/Events.h"

#include <cstdint>

namespace kcheck::sim {

inline constexpr uint64_t kSharedWindowBase = 0x0000'1000'0000'0000ull;
inline constexpr uint64_t kLocalWindowBase = 0x0000'2000'0000'0000ull;
inline constexpr uint64_t kWindowBytes = 1ull << 32;
inline constexpr uint64_t kGlobalHeapBase = 0x0000'7000'0000'0000ull;

inline bool inSharedWindow(uint64_t generic) {
  return generic - kSharedWindowBase < kWindowBytes;
}
inline bool inLocalWindow(uint64_t generic) {
  return generic - kLocalWindowBase < kWindowBytes;
}
/// A generic address's space and its offset there, by window.
inline void resolveGeneric(uint64_t generic, MemSpace &space, uint64_t &addr) {
  if (inSharedWindow(generic))
    space = MemSpace::Shared, addr = generic - kSharedWindowBase;
  else if (inLocalWindow(generic))
    space = MemSpace::Local, addr = generic - kLocalWindowBase;
  else
    space = MemSpace::Global, addr = generic;
}

/// Converts a pointer between NVPTX address spaces (0 generic, 1 global,
/// 3 shared, 4 constant, 5 local, 7 shared::cluster): shared and local offsets
/// map into their generic windows; global and constant addresses are already
/// generic.
inline uint64_t castAddressSpace(uint64_t v, unsigned from, unsigned to) {
  uint64_t generic = v;
  if (from == 3 || from == 7) // shared::cta, shared::cluster (Cluster.h)
    generic = kSharedWindowBase + (v & 0xffffffffull);
  else if (from == 5)
    generic = kLocalWindowBase + (v & 0xffffffffull);
  if (to == 3 || to == 7)
    return inSharedWindow(generic) ? generic - kSharedWindowBase : generic;
  if (to == 5)
    return inLocalWindow(generic) ? generic - kLocalWindowBase : generic;
  return generic;
}

} // namespace kcheck::sim
