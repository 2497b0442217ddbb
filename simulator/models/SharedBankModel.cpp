#include "simulator/models/SharedBankModel.h"

#include <algorithm>
#include <bit>
#include <optional>

namespace kcheck::sim {

using core::SharedBroadcast;
using core::SharedIssue;
using core::SharedWideAccess;

// The bank rule with multicast: distinct words per bank. In Kepler's 32-bit
// mode words i and i + 32 of one 64-word segment are one 64-bit bank access,
// so they count as one word.
SharedCost SharedBankModel::wordsCost(const WarpAddresses &access,
                                      unsigned firstLane,
                                      unsigned lanes) const {
  // At most 32 lanes x 4 words each: a small sorted list of distinct words
  // beats any hash set here. Bank widths and counts are powers of two
  // (ArchSpec), so shifts and masks divide.
  std::array<uint64_t, kWarpLanes * 4> words;
  unsigned n = 0;
  const unsigned wordsPerLane = std::max(1u, access.bytesPerLane / bankBytes_);
  const bool pairWords =
      spec_.wide == SharedWideAccess::KeplerWholeWarp && bankBytes_ == 4;
  const uint64_t banks = spec_.banks;
  const int wordShift = std::countr_zero(bankBytes_),
            bankShift = std::countr_zero(spec_.banks);
  bool sorted = true;
  uint64_t previous = ~0ull;
  for (unsigned lane = firstLane; lane < firstLane + lanes; ++lane) {
    // A lane at the previous active lane's address adds no word (a
    // broadcast of a wide element would otherwise leave them unsorted).
    if (!access.active(lane) || access.addrs[lane] == previous)
      continue;
    previous = access.addrs[lane];
    uint64_t first = access.addrs[lane] >> wordShift;
    for (unsigned w = 0; w < wordsPerLane; ++w) {
      uint64_t word = first + w;
      if (pairWords)
        word = (word >> (bankShift + 1) << bankShift) + (word & (banks - 1));
      sorted &= n == 0 || word >= words[n - 1];
      words[n++] = word;
    }
  }
  if (n == 0)
    return {};
  if (!sorted)
    std::sort(words.begin(), words.begin() + n);
  n = unsigned(std::unique(words.begin(), words.begin() + n) - words.begin());
  std::array<uint32_t, 64> perBank{};
  uint32_t worst = 0;
  for (unsigned i = 0; i < n; ++i)
    worst = std::max(worst, ++perBank[words[i] & (banks - 1)]);
  SharedCost c;
  c.wavefronts = worst;
  c.ideal = std::max<uint32_t>(1, uint32_t((n + banks - 1) / banks));
  c.phases = 1;
  return c;
}

// H100 128-bit accesses: bandwidth with sharing only inside quads, or the
// bank conflicts of the half-warp's words, whichever costs more.
SharedCost SharedBankModel::quadSharingHalfWarpCost(const WarpAddresses &access,
                                                    unsigned firstLane) const {
  SharedCost c = wordsCost(access, firstLane, kWarpLanes / 2);
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
  const uint64_t wavefrontBytes = uint64_t(spec_.banks) * bankBytes_;
  c.ideal = uint32_t((bytes + wavefrontBytes - 1) / wavefrontBytes);
  c.wavefronts = std::max(c.wavefronts, c.ideal);
  return c;
}

// cc2.x 128-bit accesses: 1 + the most distinct addresses of the quarter-warp
// that touch one bank.
SharedCost SharedBankModel::fermiQuarterWarpCost(const WarpAddresses &access,
                                                 unsigned firstLane) const {
  std::array<uint64_t, 4> chunks;
  unsigned n = 0;
  for (unsigned lane = firstLane; lane < firstLane + 4; ++lane)
    if (access.active(lane) &&
        std::find(chunks.begin(), chunks.begin() + n, access.addrs[lane]) ==
            chunks.begin() + n)
      chunks[n++] = access.addrs[lane];
  if (n == 0)
    return {};
  std::array<uint32_t, 64> perBank{};
  const unsigned wordsPerLane = access.bytesPerLane / bankBytes_;
  for (unsigned i = 0; i < n; ++i) {
    // A lane's words lie in distinct banks (4 consecutive words of 32).
    for (unsigned w = 0; w < wordsPerLane; ++w)
      ++perBank[bankOf(chunks[i] + uint64_t(w) * bankBytes_)];
  }
  SharedCost c;
  c.wavefronts = 1 + *std::max_element(perBank.begin(), perBank.end());
  c.ideal = 1;
  c.phases = 1;
  return c;
}

// cc1.x: one 32-bit request (word `wordIndex` of each lane's access) of one
// half-warp. Reads: one broadcast word per step plus one address per other
// bank; writes: one address per bank per step.
SharedCost SharedBankModel::teslaRequestCost(const WarpAddresses &access,
                                             unsigned firstLane,
                                             unsigned wordIndex) const {
  const unsigned lanes =
      spec_.issue == SharedIssue::HalfWarp ? kWarpLanes / 2 : kWarpLanes;
  std::array<uint64_t, kWarpLanes> addr{};
  uint32_t pending = 0;
  for (unsigned lane = firstLane; lane < firstLane + lanes; ++lane)
    if (access.active(lane)) {
      addr[lane] = access.addrs[lane] + uint64_t(wordIndex) * bankBytes_;
      pending |= 1u << lane;
    }
  if (pending == 0)
    return {};
  SharedCost c;
  c.ideal = 1;
  c.phases = 1;
  if (access.store) {
    // Lanes writing one address are served once: distinct addresses per bank.
    std::array<uint64_t, kWarpLanes> sorted;
    unsigned n = 0;
    for (unsigned lane = firstLane; lane < firstLane + lanes; ++lane)
      if ((pending >> lane) & 1u)
        sorted[n++] = addr[lane];
    std::sort(sorted.begin(), sorted.begin() + n);
    n = unsigned(std::unique(sorted.begin(), sorted.begin() + n) -
                 sorted.begin());
    std::array<uint32_t, 64> perBank{};
    for (unsigned i = 0; i < n; ++i)
      c.wavefronts = std::max(c.wavefronts, ++perBank[bankOf(sorted[i])]);
    return c;
  }
  while (pending) {
    ++c.wavefronts;
    const unsigned leader = unsigned(__builtin_ctz(pending));
    const uint64_t broadcastWord = addr[leader] / bankBytes_;
    std::array<bool, 64> bankServed{};
    bankServed[bankOf(addr[leader])] = true;
    uint32_t served = 0;
    for (unsigned lane = leader; lane < firstLane + lanes; ++lane) {
      if (!((pending >> lane) & 1u))
        continue;
      unsigned bank = bankOf(addr[lane]);
      if (addr[lane] / bankBytes_ == broadcastWord) {
        served |= 1u << lane;
      } else if (!bankServed[bank]) {
        bankServed[bank] = true;
        served |= 1u << lane;
      }
    }
    pending &= ~served;
  }
  return c;
}

SharedCost SharedBankModel::teslaCost(const WarpAddresses &access) const {
  const unsigned lanes =
      spec_.issue == SharedIssue::HalfWarp ? kWarpLanes / 2 : kWarpLanes;
  const unsigned requests = std::max(1u, access.bytesPerLane / bankBytes_);
  SharedCost total;
  for (unsigned first = 0; first < kWarpLanes; first += lanes)
    for (unsigned word = 0; word < requests; ++word) {
      SharedCost c = teslaRequestCost(access, first, word);
      total.wavefronts += c.wavefronts;
      total.ideal += c.ideal;
      total.phases += c.phases;
    }
  return total;
}

SharedCost SharedBankModel::perPhase(
    const WarpAddresses &access, unsigned lanesPerPhase,
    SharedCost (SharedBankModel::*phase)(const WarpAddresses &, unsigned)
        const) const {
  SharedCost total;
  for (unsigned first = 0; first < kWarpLanes; first += lanesPerPhase) {
    SharedCost c = (this->*phase)(access, first);
    total.wavefronts += c.wavefronts;
    total.ideal += c.ideal;
    total.phases += c.phases;
  }
  return total;
}

SharedCost SharedBankModel::cost(const WarpAddresses &access) const {
  if (spec_.broadcast == SharedBroadcast::OneWordPerStep)
    return teslaCost(access);
  if (access.bytesPerLane <= bankBytes_ ||
      spec_.wide == SharedWideAccess::KeplerWholeWarp)
    return spec_.issue == SharedIssue::HalfWarp
               ? perPhase(access, kWarpLanes / 2,
                          &SharedBankModel::halfWarpWordsCost)
               : wordsCost(access, 0, kWarpLanes);
  switch (spec_.wide) {
  case SharedWideAccess::FermiHalfQuarter:
    if (access.bytesPerLane > 2 * bankBytes_)
      return perPhase(access, kWarpLanes / 8,
                      &SharedBankModel::fermiQuarterWarpCost);
    return perPhase(access, kWarpLanes / 2,
                    &SharedBankModel::halfWarpWordsCost);
  case SharedWideAccess::Split32Bit: // handled by teslaCost
  case SharedWideAccess::KeplerWholeWarp:
  case SharedWideAccess::HalfWarpPhasesH100:
    break;
  }
  if (access.bytesPerLane > 2 * bankBytes_) {
    if (!access.store)
      if (std::optional<SharedCost> c = oneAddressLoadCost(access))
        return *c;
    return perPhase(access, kWarpLanes / 2,
                    &SharedBankModel::quadSharingHalfWarpCost);
  }
  if (!access.store && lanesInEqualPairs(access))
    return wordsCost(access, 0, kWarpLanes);
  return perPhase(access, kWarpLanes / 2, &SharedBankModel::halfWarpWordsCost);
}

// A 128-bit load of one address by every active lane: one wavefront per 16
// active lanes (SharedBankModel.h); nullopt for any other load.
std::optional<SharedCost>
SharedBankModel::oneAddressLoadCost(const WarpAddresses &access) {
  if (access.activeMask == 0)
    return std::nullopt;
  const uint64_t address =
      access.addrs[unsigned(__builtin_ctz(access.activeMask))];
  for (unsigned lane = 0; lane < kWarpLanes; ++lane)
    if (access.active(lane) && access.addrs[lane] != address)
      return std::nullopt;
  SharedCost c;
  c.wavefronts = (unsigned(__builtin_popcount(access.activeMask)) + 15) / 16;
  c.ideal = c.wavefronts;
  c.phases = c.wavefronts;
  return c;
}

// Every active lane n reads what lane n ^ 1 reads where that partner is
// active (an inactive partner does not break the pairs), or every active
// lane what lane n ^ 2 reads, that partner active too.
bool SharedBankModel::lanesInEqualPairs(const WarpAddresses &access) {
  auto pairedWith = [&](unsigned bit) {
    for (unsigned lane = 0; lane < kWarpLanes; ++lane)
      if (access.active(lane) &&
          (access.active(lane ^ bit)
               ? access.addrs[lane] != access.addrs[lane ^ bit]
               : bit != 1))
        return false;
    return true;
  };
  return access.activeMask != 0 && (pairedWith(1) || pairedWith(2));
}

std::array<uint32_t, kWarpLanes>
SharedBankModel::lanesPerBank(const WarpAddresses &access) const {
  std::array<uint32_t, kWarpLanes> counts{};
  for (unsigned lane = 0; lane < kWarpLanes; ++lane)
    if (access.active(lane))
      ++counts[bankOf(access.addrs[lane])];
  return counts;
}

} // namespace kcheck::sim
