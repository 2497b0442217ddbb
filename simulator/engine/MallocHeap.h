// The device heap of in-kernel malloc/free (and of new/delete, which Clang's
// CUDA wrappers implement with them): blocks of one address range, the
// "device malloc heap" allocation of DeviceMemory, whose size is
// cudaLimitMallocHeapSize (8 MB unless the program sets it before its first
// launch that allocates). Assumptions, from the CUDA C++ Programming Guide's
// "Dynamic Global Memory Allocation": a block is 16-byte aligned, lives until
// freed (across launches), and malloc returns NULL when the heap has no room;
// free(NULL) does nothing. Which address a call gets is the allocator's
// choice on the GPU, and it depends on the schedule; here it is the lowest
// free one that fits (first fit), in the order the lanes and blocks call,
// each block after a 16-byte header. The header stands for what the H200
// shows (a probe of 2 x 64 threads calling malloc twice for sizes 1 to 4096:
// every address 16-byte aligned, no two blocks closer than size + 16 bytes),
// so that the lanes' small blocks fall in sectors of their own, as the
// H200's counters have them (docs/validation/conformance-h200.md,
// device_heap.cu). Thread-safe: blocks run on several threads.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>

namespace kcheck::sim {

class MallocHeap {
public:
  static constexpr uint64_t kAlignment = 16;
  static constexpr uint64_t kHeaderBytes = 16;

  MallocHeap(uint64_t base, uint64_t bytes);

  /// The address of a new block of `bytes`, or nullopt when none fits.
  std::optional<uint64_t> allocate(uint64_t bytes);
  /// Releases the block at `addr`; false if no block starts there.
  bool release(uint64_t addr);
  /// Bytes of the blocks not yet freed.
  uint64_t usedBytes() const;
  uint64_t base() const { return base_; }
  uint64_t bytes() const { return bytes_; }

private:
  uint64_t base_, bytes_;
  mutable std::mutex mutex_;
  std::map<uint64_t, uint64_t> free_; // address -> size, coalesced
  // Returned address -> the bytes it holds from its header on.
  std::map<uint64_t, uint64_t> used_;
};

} // namespace kcheck::sim
