#include "simulator/models/GlobalSectorModel.h"

#include <algorithm>
#include <array>
#include <bit>

namespace kcheck::sim {

using core::GlobalRequests;
using core::GlobalRules;

namespace {

// Distinct values of x / unit. Lanes usually access ascending addresses, so
// the keys are usually sorted already and one pass counts them.
// `unit` is a power of two (sector and access sizes), so a shift divides.
uint32_t countDistinct(const uint64_t *xs, unsigned n, uint64_t unit) {
  if (n == 0)
    return 0;
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

uint32_t ceilDiv(uint64_t a, uint64_t b) { return uint32_t((a + b - 1) / b); }

// cc1.x segment size by word size [Guide 1.x]: 32 bytes for 1-byte words, 64
// for 2-byte words, 128 for 4-, 8- and 16-byte words.
unsigned teslaSegmentBytes(unsigned bytesPerLane) {
  return bytesPerLane == 1 ? 32 : bytesPerLane == 2 ? 64 : 128;
}

struct Transactions {
  uint32_t count = 0, bytes = 0, largest = 0;
  void add(uint32_t size) {
    ++count;
    bytes += size;
    largest = std::max(largest, size);
  }
};

// cc1.0/1.1: the k-th active lane of the half-warp reads the k-th word of an
// aligned segment, or one transaction per lane.
void addSequentialHalfWarp(const WarpAddresses &a, unsigned first,
                           Transactions &t) {
  const unsigned size = a.bytesPerLane;
  bool coalesced = size == 4 || size == 8 || size == 16;
  const uint64_t align = std::min(16u * size, 128u);
  uint64_t base = 0;
  bool haveBase = false;
  for (unsigned lane = first; lane < first + 16 && coalesced; ++lane) {
    if (!a.active(lane))
      continue;
    uint64_t offset = uint64_t(lane - first) * size;
    if (!haveBase) {
      coalesced =
          a.addrs[lane] >= offset && (a.addrs[lane] - offset) % align == 0;
      base = a.addrs[lane] - offset;
      haveBase = true;
    } else {
      coalesced = a.addrs[lane] == base + offset;
    }
  }
  if (!coalesced) {
    for (unsigned lane = first; lane < first + 16; ++lane)
      if (a.active(lane))
        t.add(32);
    return;
  }
  if (size < 16) {
    t.add(16 * size); // 64 bytes for 4-byte words, 128 for 8-byte words
    return;
  }
  for (unsigned half = first; half < first + 16; half += 8)
    if ((a.activeMask >> half) & 0xffu)
      t.add(128);
}

// cc1.2/1.3: the Guide's protocol, segment by segment.
void addSegmentedHalfWarp(const WarpAddresses &a, unsigned first,
                          Transactions &t) {
  const uint64_t segment = teslaSegmentBytes(a.bytesPerLane);
  uint32_t pending = 0;
  for (unsigned lane = first; lane < first + 16; ++lane)
    if (a.active(lane))
      pending |= 1u << lane;
  while (pending) {
    const unsigned leader = unsigned(std::countr_zero(pending));
    uint64_t start = a.addrs[leader] / segment * segment;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (unsigned lane = leader; lane < first + 16; ++lane) {
      if (!((pending >> lane) & 1u) ||
          a.addrs[lane] / segment * segment != start)
        continue;
      lo = std::min(lo, a.addrs[lane]);
      hi = std::max(hi, a.addrs[lane] + a.bytesPerLane - 1);
      pending &= ~(1u << lane);
    }
    uint64_t size = segment;
    while (size > 32) {
      const uint64_t half = size / 2;
      if (hi < start + half) {
        size = half;
      } else if (lo >= start + half) {
        start += half;
        size = half;
      } else {
        break;
      }
    }
    t.add(uint32_t(size));
  }
}

} // namespace

uint32_t usedBytesOf(const WarpAddresses &access, unsigned firstLane,
                     unsigned lanes) {
  // Accesses are aligned to their size, so equal starts are the only overlap.
  std::array<uint64_t, kWarpLanes> starts;
  unsigned n = 0;
  for (unsigned lane = firstLane; lane < firstLane + lanes; ++lane)
    if (access.active(lane))
      starts[n++] = access.addrs[lane];
  return countDistinct(starts.data(), n, access.bytesPerLane) *
         access.bytesPerLane;
}

GlobalCost GlobalSectorModel::cachedCost(const WarpAddresses &access) const {
  const unsigned lanesPerRequest =
      spec_.requests == GlobalRequests::Per128Bytes
          ? std::min(kWarpLanes, 128 / std::max(4u, access.bytesPerLane))
          : kWarpLanes;
  const unsigned unit = unitBytes();
  GlobalCost c;
  for (unsigned first = 0; first < kWarpLanes; first += lanesPerRequest) {
    // Each lane's first and last byte are both listed so that
    // wider-than-aligned spans still count every unit they touch.
    std::array<uint64_t, kWarpLanes * 2> ends;
    unsigned n = 0;
    for (unsigned lane = first; lane < first + lanesPerRequest; ++lane) {
      if (!access.active(lane))
        continue;
      ends[n++] = access.addrs[lane];
      ends[n++] = access.addrs[lane] + access.bytesPerLane - 1;
    }
    if (n == 0)
      continue;
    ++c.requests;
    c.sectors += countDistinct(ends.data(), n, unit);
  }
  if (c.requests == 0)
    return {};
  c.usedBytes = usedBytesOf(access);
  c.ideal = ceilDiv(c.usedBytes, unit);
  c.transactionBytes = unit;
  c.bytesMoved = c.sectors * unit;
  return c;
}

GlobalCost GlobalSectorModel::halfWarpCost(const WarpAddresses &access) const {
  GlobalCost c;
  Transactions t;
  const unsigned segment = teslaSegmentBytes(access.bytesPerLane);
  for (unsigned first = 0; first < kWarpLanes; first += 16) {
    if (((access.activeMask >> first) & 0xffffu) == 0)
      continue;
    ++c.requests;
    c.ideal += std::max(1u, ceilDiv(usedBytesOf(access, first, 16), segment));
    if (spec_.rules == GlobalRules::HalfWarpSequential)
      addSequentialHalfWarp(access, first, t);
    else
      addSegmentedHalfWarp(access, first, t);
  }
  if (c.requests == 0)
    return {};
  c.sectors = t.count;
  c.bytesMoved = t.bytes;
  c.transactionBytes = t.largest;
  c.usedBytes = usedBytesOf(access);
  return c;
}

GlobalCost GlobalSectorModel::cost(const WarpAddresses &access) const {
  return spec_.rules == GlobalRules::CachedTransactions ? cachedCost(access)
                                                        : halfWarpCost(access);
}

} // namespace kcheck::sim
