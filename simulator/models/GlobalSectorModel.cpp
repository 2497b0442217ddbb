#include "simulator/models/GlobalSectorModel.h"

#include <algorithm>
#include <array>
#include <bit>

namespace kcheck::sim {

namespace {

// Distinct values of x / unit. Lanes usually access ascending addresses, so
// the keys are usually sorted already and one pass counts them.
// `unit` is a power of two (sector and access sizes), so a shift divides.
uint32_t countDistinct(const uint64_t *xs, unsigned n, uint64_t unit) {
  std::array<uint64_t, kWarpLanes * 2> keys;
  const int shift = std::countr_zero(unit);
  bool sorted = true;
  for (unsigned i = 0; i < n; ++i) {
    keys[i] = xs[i] >> shift;
    sorted &= i == 0 || keys[i] >= keys[i - 1];
  }
  if (!sorted)
    std::sort(keys.begin(), keys.begin() + n);
  uint32_t c = 1;
  for (unsigned i = 1; i < n; ++i)
    c += keys[i] != keys[i - 1];
  return c;
}

} // namespace

GlobalCost GlobalSectorModel::cost(const WarpAddresses &access) const {
  // A lane's access of up to 16 aligned bytes lies in one sector; the engine
  // faults misaligned ones. Each lane's first and last byte are both listed so
  // that wider-than-aligned spans still count every sector they touch.
  std::array<uint64_t, kWarpLanes * 2> ends;
  std::array<uint64_t, kWarpLanes> starts;
  unsigned n = 0;
  for (unsigned lane = 0; lane < kWarpLanes; ++lane) {
    if (!access.active(lane))
      continue;
    uint64_t a = access.addrs[lane];
    starts[n] = a;
    ends[2 * n] = a;
    ends[2 * n + 1] = a + access.bytesPerLane - 1;
    ++n;
  }
  if (n == 0)
    return {};
  GlobalCost c;
  c.sectors = countDistinct(ends.data(), 2 * n, sectorBytes_);
  // Useful bytes: lanes reading the same element count once (accesses are
  // aligned to their size, so equal starts are the only overlap).
  uint64_t bytes =
      uint64_t(countDistinct(starts.data(), n, access.bytesPerLane)) *
      access.bytesPerLane;
  c.ideal = uint32_t((bytes + sectorBytes_ - 1) / sectorBytes_);
  return c;
}

} // namespace kcheck::sim
