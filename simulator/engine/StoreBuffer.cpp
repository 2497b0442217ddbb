#include "simulator/engine/StoreBuffer.h"

#include <algorithm>
#include <cstring>

namespace kcheck::sim {

void StoreBuffer::store(uint64_t addr, const void *src, uint64_t n,
                        bool tainted) {
  auto *in = static_cast<const uint8_t *>(src);
  lo_ = std::min(lo_, addr);
  hi_ = std::max(hi_, addr + n);
  while (n) {
    uint64_t base = addr & ~(kGranuleBytes - 1), off = addr - base;
    uint64_t chunk = std::min(n, kGranuleBytes - off);
    auto [it, fresh] = current_.try_emplace(base, uint32_t(granules_.size()));
    if (fresh)
      granules_.push_back({base, 0, 0, {}});
    Granule &g = granules_[it->second];
    std::memcpy(g.data + off, in, chunk);
    uint32_t bits = uint32_t(((1ull << chunk) - 1) << off);
    g.written |= bits;
    g.tainted = tainted ? g.tainted | bits : g.tainted & ~bits;
    addr += chunk, in += chunk, n -= chunk;
  }
}

bool StoreBuffer::load(const DeviceMemory &memory, uint64_t addr, void *dst,
                       uint64_t n, DeviceMemory::ReadCursor &cursor) const {
  if (addr >= hi_ || addr + n <= lo_) // the common case: not written here
    return memory.load(addr, dst, n, cursor);
  auto *out = static_cast<uint8_t *>(dst);
  bool tainted = false;
  // Byte by byte: a block reading back its own global stores is rare.
  for (uint64_t i = 0; i < n; ++i) {
    uint64_t a = addr + i, base = a & ~(kGranuleBytes - 1);
    auto it = current_.find(base);
    uint32_t bit = 1u << (a - base);
    if (it != current_.end() && (granules_[it->second].written & bit)) {
      const Granule &g = granules_[it->second];
      out[i] = g.data[a - base];
      tainted |= (g.tainted & bit) != 0;
    } else {
      tainted |= memory.load(a, out + i, 1);
    }
  }
  return tainted;
}

void StoreBuffer::endBlock() {
  current_.clear();
  lo_ = ~0ull, hi_ = 0;
}

void StoreBuffer::commit(DeviceMemory &memory) {
  for (const Granule &g : granules_) {
    // Runs of written bytes with one taint state.
    for (unsigned b = 0; b < kGranuleBytes;) {
      if (!((g.written >> b) & 1)) {
        ++b;
        continue;
      }
      bool t = (g.tainted >> b) & 1;
      unsigned e = b + 1;
      while (e < kGranuleBytes && ((g.written >> e) & 1) &&
             bool((g.tainted >> e) & 1) == t)
        ++e;
      memory.store(g.addr + b, g.data + b, e - b, t);
      b = e;
    }
  }
  granules_.clear();
  endBlock();
}

} // namespace kcheck::sim
