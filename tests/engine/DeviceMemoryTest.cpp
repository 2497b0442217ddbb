// DeviceMemory's page accounting: pages that hold only zeros are shared once
// kernel stores would pass the limit, and reads see the same bytes and the
// same input-derivation (taint) as before.
#include "simulator/engine/DeviceMemory.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

using namespace kcheck::sim;

namespace {

constexpr uint64_t kMiB = 1 << 20;

// Stores `value` as 4-byte words over [addr, addr+bytes), as a kernel would.
void fill(DeviceMemory &mem, uint64_t addr, uint64_t bytes, uint32_t value,
          bool tainted) {
  std::vector<uint32_t> words(kMiB / 4, value);
  for (uint64_t done = 0; done < bytes; done += kMiB)
    mem.store(addr + done, words.data(), std::min(kMiB, bytes - done), tainted);
}

} // namespace

TEST(DeviceMemory, ZeroPagesPastTheLimitAreSharedAndReadTheSame) {
  for (bool tainted : {false, true}) {
    DeviceMemory mem;
    uint64_t a = mem.allocate(64 * kMiB, "a");
    mem.setLimit(16 * kMiB);
    fill(mem, a, 64 * kMiB, 0, tainted);
    EXPECT_FALSE(mem.overLimit());
    EXPECT_LE(mem.backedBytes(), 16 * kMiB);
    uint32_t word = 1;
    for (uint64_t at : {a, a + 33 * kMiB + 12, a + 64 * kMiB - 4}) {
      EXPECT_EQ(mem.load(at, &word, 4), tainted) << at - a;
      EXPECT_EQ(word, 0u);
    }
    // A store into a shared page backs a copy of it; its neighbours and the
    // other pages keep reading zero.
    uint32_t seven = 7;
    mem.store(a + 40, &seven, 4, false);
    EXPECT_FALSE(mem.load(a + 40, &word, 4));
    EXPECT_EQ(word, 7u);
    EXPECT_EQ(mem.load(a + 44, &word, 4), tainted);
    EXPECT_EQ(word, 0u);
    EXPECT_EQ(mem.load(a + 4096 + 40, &word, 4), tainted);
    EXPECT_EQ(word, 0u);
  }
}

TEST(DeviceMemory, NeverWrittenStaysInputDerivedNextToSharedPages) {
  DeviceMemory mem;
  uint64_t a = mem.allocate(32 * kMiB, "a");
  mem.setLimit(8 * kMiB);
  fill(mem, a, 24 * kMiB, 0, false);
  EXPECT_FALSE(mem.overLimit());
  uint32_t word = 1;
  EXPECT_FALSE(mem.load(a + 24 * kMiB - 4, &word, 4));
  EXPECT_TRUE(mem.load(a + 24 * kMiB, &word, 4)); // never written
  EXPECT_EQ(word, 0u);
}

TEST(DeviceMemory, MarkingPartOfASharedZeroPageTaintsOnlyThatPart) {
  DeviceMemory mem;
  uint64_t a = mem.allocate(16 * kMiB, "a");
  mem.setLimit(4 * kMiB);
  fill(mem, a, 16 * kMiB, 0, false);
  ASSERT_FALSE(mem.overLimit());
  mem.markTainted(a + 8, 8);       // part of a page
  mem.markTainted(a + 8192, 4096); // a whole page
  uint32_t word = 1;
  EXPECT_FALSE(mem.load(a + 4, &word, 4));
  EXPECT_TRUE(mem.load(a + 8, &word, 4));
  EXPECT_TRUE(mem.load(a + 12, &word, 4));
  EXPECT_FALSE(mem.load(a + 16, &word, 4));
  EXPECT_FALSE(mem.load(a + 8188, &word, 4));
  EXPECT_TRUE(mem.load(a + 8192, &word, 4));
  EXPECT_TRUE(mem.load(a + 12284, &word, 4));
  EXPECT_FALSE(mem.load(a + 12288, &word, 4));
  // The shared pages themselves were not changed: a page marked in no way
  // still reads as written and not input-derived.
  EXPECT_FALSE(mem.load(a + 12 * kMiB, &word, 4));
  EXPECT_EQ(word, 0u);
}

TEST(DeviceMemory, DataPastTheLimitStillStopsTheLaunch) {
  DeviceMemory mem;
  uint64_t a = mem.allocate(64 * kMiB, "a");
  mem.setLimit(16 * kMiB);
  fill(mem, a, 64 * kMiB, 0x3f800000u, false);
  EXPECT_TRUE(mem.overLimit());
  EXPECT_LE(mem.backedBytes(), 16 * kMiB);
}

TEST(DeviceMemory, MixedPagesAreNotShared) {
  // Half zeros, half data in every page: nothing to share.
  DeviceMemory mem;
  uint64_t a = mem.allocate(32 * kMiB, "a");
  mem.setLimit(8 * kMiB);
  std::vector<uint32_t> page(1024, 0);
  for (size_t i = 512; i < 1024; ++i)
    page[i] = uint32_t(i);
  for (uint64_t at = a; at < a + 32 * kMiB && !mem.overLimit(); at += 4096)
    mem.store(at, page.data(), 4096, false);
  EXPECT_TRUE(mem.overLimit());
  uint32_t word = 0;
  mem.load(a + 4096 + 4 * 600, &word, 4);
  EXPECT_EQ(word, 600u);
}
