#include "simulator/models/GlobalSectorModel.h"

#include <algorithm>
#include <array>

namespace kcheck::sim {

GlobalCost GlobalSectorModel::cost(const WarpAddresses &access) const {
  // A lane's access of up to 16 aligned bytes spans at most 2 sectors (1 when
  // aligned); misaligned ones are faults caught by the engine before this.
  std::array<uint64_t, kWarpLanes * 2> sectors;
  std::array<uint64_t, kWarpLanes> starts;
  unsigned ns = 0, nl = 0;
  for (unsigned lane = 0; lane < kWarpLanes; ++lane) {
    if (!access.active(lane))
      continue;
    uint64_t a = access.addrs[lane];
    uint64_t last = a + access.bytesPerLane - 1;
    sectors[ns++] = a / sectorBytes_;
    if (last / sectorBytes_ != a / sectorBytes_)
      sectors[ns++] = last / sectorBytes_;
    starts[nl++] = a;
  }
  if (ns == 0)
    return {};
  std::sort(sectors.begin(), sectors.begin() + ns);
  GlobalCost c;
  c.sectors = uint32_t(std::unique(sectors.begin(), sectors.begin() + ns) -
                       sectors.begin());
  std::sort(starts.begin(), starts.begin() + nl);
  // Distinct bytes: lanes reading the same element count once.
  uint64_t bytes = 0, coveredTo = 0;
  for (unsigned i = 0; i < nl; ++i) {
    uint64_t b = std::max(starts[i], coveredTo);
    uint64_t e = starts[i] + access.bytesPerLane;
    if (e > b)
      bytes += e - b;
    coveredTo = std::max(coveredTo, e);
  }
  c.ideal = uint32_t((bytes + sectorBytes_ - 1) / sectorBytes_);
  return c;
}

} // namespace kcheck::sim
