#include "simulator/models/GlobalSectorModel.h"

#include <algorithm>
#include <array>
#include <bit>

namespace kcheck::sim {

using core::GlobalRequests;
using core::GlobalRules;

namespace {

// Lanes usually access ascending addresses, so the starts are usually sorted
// already and one pass sees it.
void sortStarts(uint64_t *starts, unsigned n) {
  for (unsigned i = 1; i < n; ++i)
    if (starts[i] < starts[i - 1]) {
      std::sort(starts, starts + n);
      return;
    }
}

// Units of 2^shift bytes that accesses of `bytes` bytes at the sorted
// `starts` touch, each counted once: the union of the lanes' unit ranges.
uint32_t unitsTouched(const uint64_t *starts, unsigned n, unsigned bytes,
                      int shift) {
  uint32_t count = 0;
  uint64_t covered = 0; // the last unit counted so far
  for (unsigned i = 0; i < n; ++i) {
    uint64_t lo = starts[i] >> shift, hi = (starts[i] + bytes - 1) >> shift;
    if (i == 0 || lo > covered)
      count += uint32_t(hi - lo + 1), covered = hi;
    else if (hi > covered)
      count += uint32_t(hi - covered), covered = hi;
  }
  return count;
}

// The active lanes' starts among [first, first + lanes), sorted: the
// addresses themselves when every lane is active and they ascend (the usual
// case), else a sorted copy in `buffer`.
unsigned sortedStarts(const WarpAddresses &a, unsigned first, unsigned lanes,
                      uint64_t *buffer, const uint64_t *&starts) {
  const uint32_t group = (lanes >= 32 ? ~0u : (1u << lanes) - 1)
                         << (first % 32);
  if ((a.activeMask & group) == group) {
    const uint64_t *x = a.addrs + first;
    bool ascending = true;
    for (unsigned i = 1; i < lanes; ++i)
      ascending &= x[i] >= x[i - 1];
    if (ascending) {
      starts = x;
      return lanes;
    }
  }
  unsigned n = 0;
  for (unsigned lane = first; lane < first + lanes; ++lane)
    if (a.active(lane))
      buffer[n++] = a.addrs[lane];
  sortStarts(buffer, n);
  starts = buffer;
  return n;
}

// Distinct accesses among sorted starts: accesses are aligned to their size,
// so equal starts are the only overlap.
uint32_t usedBytesSorted(const uint64_t *starts, unsigned n, unsigned bytes) {
  uint32_t distinct = n ? 1 : 0;
  for (unsigned i = 1; i < n; ++i)
    distinct += starts[i] != starts[i - 1];
  return distinct * bytes;
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
  std::array<uint64_t, kWarpLanes> buffer;
  const uint64_t *starts;
  unsigned n = sortedStarts(access, firstLane, lanes, buffer.data(), starts);
  return usedBytesSorted(starts, n, access.bytesPerLane);
}

GlobalCost GlobalSectorModel::cachedCost(const WarpAddresses &access) const {
  const unsigned lanesPerRequest =
      spec_.requests == GlobalRequests::Per128Bytes
          ? std::min(kWarpLanes, 128 / std::max(4u, access.bytesPerLane))
          : kWarpLanes;
  const unsigned unit = unitBytes();
  const int shift = std::countr_zero(unit);
  GlobalCost c;
  std::array<uint64_t, kWarpLanes> buffer;
  for (unsigned first = 0; first < kWarpLanes; first += lanesPerRequest) {
    // Every unit a lane's bytes touch counts (wider-than-aligned spans too).
    const uint64_t *starts;
    unsigned n =
        sortedStarts(access, first, lanesPerRequest, buffer.data(), starts);
    if (n == 0)
      continue;
    ++c.requests;
    c.sectors += unitsTouched(starts, n, access.bytesPerLane, shift);
    if (lanesPerRequest == kWarpLanes)
      c.usedBytes = usedBytesSorted(starts, n, access.bytesPerLane);
  }
  if (c.requests == 0)
    return {};
  if (lanesPerRequest != kWarpLanes)
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
