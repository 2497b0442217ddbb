// The device heap's allocator (simulator/engine/MallocHeap.h) against a
// brute-force model: random mallocs and frees, every live block checked
// against every other and against the heap's bounds.
#include "simulator/engine/MallocHeap.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <vector>

namespace kcheck::sim {
namespace {

constexpr uint64_t kBase = 0x10000, kBytes = 64 << 10;

TEST(MallocHeap, BlocksAreAlignedApartAndInsideTheHeap) {
  MallocHeap heap(kBase, kBytes);
  std::mt19937_64 random(40);
  std::map<uint64_t, uint64_t> live; // address -> bytes asked
  for (int step = 0; step < 20000; ++step) {
    if (live.empty() || random() % 3) {
      uint64_t bytes = 1 + random() % 700;
      std::optional<uint64_t> a = heap.allocate(bytes);
      if (!a)
        continue;
      EXPECT_EQ(*a % MallocHeap::kAlignment, 0u);
      EXPECT_GE(*a, kBase + MallocHeap::kHeaderBytes);
      EXPECT_LE(*a + bytes, kBase + kBytes);
      // No live block within this one's bytes or its header.
      for (const auto &[b, n] : live)
        EXPECT_TRUE(*a + bytes + MallocHeap::kHeaderBytes <= b ||
                    b + n + MallocHeap::kHeaderBytes <= *a)
            << *a << " " << bytes << " vs " << b << " " << n;
      live[*a] = bytes;
    } else {
      auto it = live.begin();
      std::advance(it, random() % live.size());
      EXPECT_TRUE(heap.release(it->first));
      EXPECT_FALSE(heap.release(it->first)); // not twice
      live.erase(it);
    }
  }
  for (const auto &[a, n] : live)
    EXPECT_TRUE(heap.release(a));
  // Everything freed coalesces back into one block.
  EXPECT_EQ(heap.usedBytes(), 0u);
  EXPECT_TRUE(heap.allocate(kBytes - MallocHeap::kHeaderBytes).has_value());
}

TEST(MallocHeap, FullHeapAndOddRequests) {
  MallocHeap heap(kBase, 4096);
  EXPECT_FALSE(heap.allocate(0).has_value());
  EXPECT_FALSE(heap.allocate(4096).has_value()); // its header does not fit
  EXPECT_FALSE(heap.release(kBase + 16));        // never allocated
  std::vector<uint64_t> blocks;
  while (std::optional<uint64_t> a = heap.allocate(48))
    blocks.push_back(*a);
  EXPECT_EQ(blocks.size(), 4096u / 64); // 48 bytes + the header each
  EXPECT_FALSE(heap.allocate(1).has_value());
  EXPECT_TRUE(heap.release(blocks[3]));
  EXPECT_EQ(heap.allocate(40), blocks[3]); // first fit: the freed hole
}

} // namespace
} // namespace kcheck::sim
