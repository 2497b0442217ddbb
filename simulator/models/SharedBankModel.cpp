#include "simulator/models/SharedBankModel.h"

#include <algorithm>
#include <array>

namespace kcheck::sim {

SharedCost SharedBankModel::phaseCost(const WarpAddresses &access,
                                      unsigned firstLane,
                                      unsigned lanes) const {
  // At most 32 lanes x 4 words each: a small sorted list of distinct words
  // beats any hash set here.
  std::array<uint64_t, kWarpLanes * 4> words;
  unsigned n = 0;
  const unsigned wordsPerLane = std::max(1u, access.bytesPerLane / bankWidth_);
  for (unsigned lane = firstLane; lane < firstLane + lanes; ++lane) {
    if (!access.active(lane))
      continue;
    uint64_t first = access.addrs[lane] / bankWidth_;
    for (unsigned w = 0; w < wordsPerLane; ++w)
      words[n++] = first + w;
  }
  if (n == 0)
    return {};
  std::sort(words.begin(), words.begin() + n);
  n = unsigned(std::unique(words.begin(), words.begin() + n) - words.begin());
  std::array<uint32_t, 64> perBank{};
  uint32_t worst = 0;
  for (unsigned i = 0; i < n; ++i)
    worst = std::max(worst, ++perBank[words[i] % banks_]);
  SharedCost c;
  c.wavefronts = worst;
  c.ideal = std::max<uint32_t>(1, (n + banks_ - 1) / banks_);
  return c;
}

// True when the active lanes in [firstLane, firstLane + lanes) read one
// address, or none is active.
bool SharedBankModel::singleAddress(const WarpAddresses &access,
                                    unsigned firstLane, unsigned lanes) {
  bool seen = false;
  uint64_t addr = 0;
  for (unsigned lane = firstLane; lane < firstLane + lanes; ++lane) {
    if (!access.active(lane))
      continue;
    if (seen && access.addrs[lane] != addr)
      return false;
    seen = true;
    addr = access.addrs[lane];
  }
  return true;
}

SharedCost SharedBankModel::cost(const WarpAddresses &access) const {
  if (access.bytesPerLane <= bankWidth_)
    return phaseCost(access, 0, kWarpLanes);
  const unsigned half = kWarpLanes / 2;
  const bool quarters = access.bytesPerLane > 2 * bankWidth_;
  SharedCost total;
  for (unsigned first = 0; first < kWarpLanes; first += half) {
    const unsigned quarter = half / 2;
    if (quarters && singleAddress(access, first, quarter) &&
        singleAddress(access, first + quarter, quarter)) {
      SharedCost c = phaseCost(access, first, half);
      total.wavefronts += c.wavefronts;
      total.ideal += c.ideal;
      continue;
    }
    const unsigned phase = quarters ? half / 2 : half;
    for (unsigned p = first; p < first + half; p += phase) {
      SharedCost c = phaseCost(access, p, phase);
      total.wavefronts += c.wavefronts;
      total.ideal += c.ideal;
    }
  }
  return total;
}

} // namespace kcheck::sim
