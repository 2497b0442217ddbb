// The input of every hardware model: what one warp's memory instruction
// touched. Plain data, no LLVM: models are pure functions over it.
#pragma once

#include <cstdint>

namespace kcheck::sim {

inline constexpr unsigned kWarpLanes = 32;

struct WarpAddresses {
  unsigned bytesPerLane = 4;       // 1, 2, 4, 8 or 16
  uint32_t activeMask = 0;         // bit i: lane i executed the access
  const uint64_t *addrs = nullptr; // 32 entries; byte address per lane
  /// A store. Only cc1.x shared memory tells stores from loads (its broadcast
  /// serves reads only); every other rule treats both alike.
  bool store = false;
  bool active(unsigned lane) const { return (activeMask >> lane) & 1u; }
};

} // namespace kcheck::sim
