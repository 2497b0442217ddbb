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

// 16-byte accesses: bandwidth with sharing only inside quads, or the bank
// conflicts of the half-warp's words, whichever costs more.
SharedCost SharedBankModel::wideHalfWarpCost(const WarpAddresses &access,
                                             unsigned firstLane) const {
  SharedCost c = phaseCost(access, firstLane, kWarpLanes / 2);
  if (c.wavefronts == 0)
    return c;
  uint64_t bytes = 0;
  for (unsigned quad = firstLane; quad < firstLane + kWarpLanes / 2;
       quad += 4) {
    std::array<uint64_t, 4> chunks;
    unsigned n = 0;
    for (unsigned lane = quad; lane < quad + 4; ++lane)
      if (access.active(lane) &&
          std::find(chunks.begin(), chunks.begin() + n, access.addrs[lane]) ==
              chunks.begin() + n)
        chunks[n++] = access.addrs[lane];
    bytes += uint64_t(n) * access.bytesPerLane;
  }
  const uint64_t wavefrontBytes = uint64_t(banks_) * bankWidth_;
  c.ideal = uint32_t((bytes + wavefrontBytes - 1) / wavefrontBytes);
  c.wavefronts = std::max(c.wavefronts, c.ideal);
  return c;
}

SharedCost SharedBankModel::cost(const WarpAddresses &access) const {
  if (access.bytesPerLane <= bankWidth_)
    return phaseCost(access, 0, kWarpLanes);
  SharedCost total;
  for (unsigned first = 0; first < kWarpLanes; first += kWarpLanes / 2) {
    SharedCost c = access.bytesPerLane > 2 * bankWidth_
                       ? wideHalfWarpCost(access, first)
                       : phaseCost(access, first, kWarpLanes / 2);
    total.wavefronts += c.wavefronts;
    total.ideal += c.ideal;
  }
  return total;
}

} // namespace kcheck::sim
