// StoreBuffer: what lets several threads run blocks against one DeviceMemory.
// A block reads its own buffered stores, never an earlier block's, and commit
// applies them in store order (the last block wins), taint included.
#include "simulator/engine/StoreBuffer.h"

#include <gtest/gtest.h>

#include <cstring>

namespace kcheck::sim {
namespace {

TEST(StoreBuffer, BlockReadsOwnStoresNotOthers) {
  DeviceMemory memory;
  uint64_t base = memory.allocate(256, "buf");
  uint32_t init[64];
  for (uint32_t i = 0; i < 64; ++i)
    init[i] = i;
  ASSERT_TRUE(memory.write(base, init, sizeof init));

  StoreBuffer buffer;
  DeviceMemory::ReadCursor cursor;
  uint32_t v = 1000;
  buffer.store(base + 4 * 30, &v, 4, false); // straddles no granule
  uint64_t got[2] = {};
  // An unaligned 8-byte read across the buffered word and a memory word.
  EXPECT_FALSE(buffer.load(memory, base + 4 * 30, got, 8, cursor));
  uint32_t words[2];
  std::memcpy(words, got, 8);
  EXPECT_EQ(words[0], 1000u);
  EXPECT_EQ(words[1], 31u);

  buffer.endBlock(); // the next block sees memory, not the buffer
  uint32_t w = 0;
  buffer.load(memory, base + 4 * 30, &w, 4, cursor);
  EXPECT_EQ(w, 30u);
  uint32_t unchanged = 0;
  memory.read(base + 4 * 30, &unchanged, 4);
  EXPECT_EQ(unchanged, 30u); // nothing reaches memory before commit
}

TEST(StoreBuffer, CommitAppliesInOrderWithTaint) {
  DeviceMemory memory;
  uint64_t base = memory.allocate(256, "buf");
  uint32_t zeros[64] = {};
  ASSERT_TRUE(memory.write(base, zeros, sizeof zeros));
  StoreBuffer buffer;
  uint32_t first = 1, second = 2, other = 7;
  buffer.store(base, &first, 4, false);
  buffer.endBlock();
  buffer.store(base, &second, 4, true); // a later block overwrites, tainted
  buffer.store(base + 60, &other, 4, false);
  buffer.commit(memory);
  EXPECT_TRUE(buffer.empty());
  uint32_t got = 0;
  EXPECT_TRUE(memory.load(base, &got, 4));
  EXPECT_EQ(got, 2u);
  EXPECT_FALSE(memory.load(base + 60, &got, 4));
  EXPECT_EQ(got, 7u);
}

} // namespace
} // namespace kcheck::sim
