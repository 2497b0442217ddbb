// Global stores of the blocks one thread runs, held back so several threads
// can run blocks against a DeviceMemory nobody writes meanwhile. A block
// reads its own buffered stores (read-your-writes) but never another block's;
// commit() applies the buffered stores to memory in the order they were made
// (blocks in launch order when each thread runs a contiguous slice and slices
// are committed in order), so the final bytes equal "last block in launch
// order wins" whatever the thread count.
#pragma once

#include "simulator/engine/DeviceMemory.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace kcheck::sim {

class StoreBuffer {
public:
  static constexpr uint64_t kGranuleBytes = 32;

  /// Buffers a store (the range was checked against memory's allocations).
  void store(uint64_t addr, const void *src, uint64_t n, bool tainted);
  /// Reads [addr, addr+n): the current block's buffered bytes over memory's.
  /// Returns true if any byte read is input-derived.
  bool load(const DeviceMemory &memory, uint64_t addr, void *dst, uint64_t n,
            DeviceMemory::ReadCursor &cursor) const;
  /// The current block ended: its stores stay buffered but later blocks no
  /// longer read them.
  void endBlock();
  /// Applies every buffered store to `memory`, oldest first, and empties the
  /// buffer (keeping its capacity).
  void commit(DeviceMemory &memory);
  /// Drops every buffered store.
  void discard() {
    granules_.clear();
    endBlock();
  }
  bool empty() const { return granules_.empty(); }

private:
  struct Granule {
    uint64_t addr;                     // kGranuleBytes-aligned
    uint32_t written = 0, tainted = 0; // one bit per byte
    uint8_t data[kGranuleBytes];
  };
  static_assert(kGranuleBytes == 32, "written/tainted hold 32 bits");

  std::vector<Granule> granules_; // every buffered block's, in store order
  // The current block's granules: address -> index into granules_.
  std::unordered_map<uint64_t, uint32_t> current_;
  uint64_t lo_ = ~0ull, hi_ = 0; // bounds of the current block's stores
};

} // namespace kcheck::sim
