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

// Managed, mapped and registered host memory: the allocation is the host's
// bytes at the host's address, found among device allocations on either side
// of it; kernel stores are seen by the host at once and never input-derived.
TEST(DeviceMemory, HostBackedAllocationsAreTheHostsBytes) {
  DeviceMemory mem;
  uint64_t before = mem.allocate(4096, "before");
  alignas(256) static uint32_t host[1024] = {};
  for (uint32_t i = 0; i < 1024; ++i)
    host[i] = i;
  uint64_t at = mem.allocateHostBacked(host, sizeof host, "managed");
  uint64_t after = mem.allocate(4096, "after");
  EXPECT_EQ(at, reinterpret_cast<uint64_t>(host));
  EXPECT_TRUE(mem.hostBacked(at + 100));
  EXPECT_FALSE(mem.hostBacked(before));
  ASSERT_NE(mem.find(at + 4092, 4), nullptr);
  EXPECT_EQ(mem.find(at + 4092, 4)->label, "managed");
  EXPECT_EQ(mem.find(before, 4)->label, "before");
  EXPECT_EQ(mem.find(after, 4)->label, "after");
  EXPECT_EQ(mem.find(at + 4096, 4), nullptr);

  uint32_t v = 0;
  EXPECT_FALSE(mem.load(at + 40, &v, 4)); // written by the host: not tainted
  EXPECT_EQ(v, 10u);
  uint32_t stored = 77;
  mem.store(at + 8, &stored, 4, /*tainted=*/true);
  EXPECT_EQ(host[2], 77u);
  mem.markTainted(at, sizeof host);
  EXPECT_FALSE(mem.load(at + 8, &v, 4));
  EXPECT_EQ(v, 77u);
  EXPECT_EQ(mem.backedBytes(), 0u); // no pages of its own

  // Host code changes the bytes unseen: a launch reading them is never
  // taken as repeated on unchanged input.
  int index = int(mem.allocations().size()) - 2;
  EXPECT_EQ(mem.allocations()[size_t(index)].label, "managed");
  EXPECT_EQ(mem.lastChange(index), ~0ull);
}

// A host copy of the bytes an allocation already holds (a program that
// uploads its input again before each launch) is no change: launches that
// read it are still repeats on unchanged input. Any other byte, or bytes a
// kernel wrote from input-derived values, is one.
TEST(DeviceMemory, AHostCopyOfTheSameBytesChangesNothing) {
  DeviceMemory mem;
  const uint64_t n = 3 * DeviceMemory::kPageBytes + 100;
  uint64_t a = mem.allocate(n, "input");
  std::vector<uint8_t> bytes(n);
  for (uint64_t i = 0; i < n; ++i)
    bytes[i] = uint8_t(i * 7);
  ASSERT_TRUE(mem.write(a, bytes.data(), n));
  uint64_t clock = mem.lastChange(0);
  ASSERT_TRUE(mem.write(a, bytes.data(), n));
  ASSERT_TRUE(mem.write(a + 5000, bytes.data() + 5000, 64));
  EXPECT_EQ(mem.lastChange(0), clock);
  bytes[n - 1] ^= 1; // the last page's last byte
  ASSERT_TRUE(mem.write(a, bytes.data(), n));
  EXPECT_GT(mem.lastChange(0), clock);
  clock = mem.lastChange(0);
  uint8_t value = bytes[10];
  mem.store(a + 10, &value, 1, /*tainted=*/true); // same value, input-derived
  ASSERT_TRUE(mem.write(a, bytes.data(), n));
  EXPECT_GT(mem.lastChange(0), clock);
  std::vector<uint8_t> back(n);
  ASSERT_TRUE(mem.read(a, back.data(), n));
  EXPECT_EQ(back, bytes);
  EXPECT_FALSE(mem.load(a, back.data(), n)); // nothing input-derived now
  // Zeros copied where nothing was written are a change (the bytes were
  // input-derived).
  uint64_t b = mem.allocate(64, "fresh");
  uint64_t before = mem.lastChange(1);
  std::vector<uint8_t> zeros(64);
  ASSERT_TRUE(mem.write(b, zeros.data(), 64));
  EXPECT_GT(mem.lastChange(1), before);
}

// Freed or unregistered host memory is gone for kernels: an access faults
// as outside every allocation, as on the GPU, instead of reading bytes that
// may no longer be mapped.
TEST(DeviceMemory, ReleasedHostBackedAllocationsAreNotFound) {
  DeviceMemory mem;
  alignas(256) static uint8_t host[512] = {};
  uint64_t at = mem.allocateHostBacked(host, sizeof host, "registered");
  uint64_t device = mem.allocate(64, "device");
  EXPECT_FALSE(mem.releaseHostBacked(device)); // not host-backed
  EXPECT_TRUE(mem.releaseHostBacked(at));
  EXPECT_FALSE(mem.releaseHostBacked(at)); // only once
  EXPECT_EQ(mem.find(at, 4), nullptr);
  EXPECT_FALSE(mem.hostBacked(at));
  EXPECT_NE(mem.find(device, 4), nullptr);
  EXPECT_EQ(mem.allocations().size(), 2u);
}

// A read cursor gives what a plain load gives, byte for byte and taint for
// taint, through the changes that move pages: a store that backs a page,
// the sharing of zero pages past the limit, marking, host-backed bytes.
TEST(DeviceMemory, ReadsThroughACursorEqualPlainReads) {
  DeviceMemory mem;
  uint64_t a = mem.allocate(64 * 1024, "a");
  alignas(256) static uint8_t host[256] = {};
  uint64_t h = mem.allocateHostBacked(host, sizeof host, "managed");
  DeviceMemory::ReadCursor cursor;
  auto same = [&](uint64_t at, unsigned n) {
    uint64_t plain = 0, viaCursor = 0;
    bool t1 = mem.load(at, &plain, n), t2 = mem.load(at, &viaCursor, n, cursor);
    EXPECT_EQ(plain, viaCursor) << at - a;
    EXPECT_EQ(t1, t2) << at - a;
    return viaCursor;
  };
  same(a + 8, 4); // never written: zeros, input-derived
  uint32_t five = 5;
  mem.store(a + 8, &five, 4, false); // backs the page the cursor noted
  EXPECT_EQ(same(a + 8, 4), 5u);
  same(a + 12, 4);
  mem.store(a + 16, &five, 4, true); // the same page, tainted
  EXPECT_EQ(same(a + 16, 4), 5u);
  same(a + 4096 * 3, 8);
  mem.markTainted(a, 12);
  same(a + 8, 4);
  host[4] = 9;
  EXPECT_EQ(same(h + 4, 1), 9u);
  mem.setLimit(4096); // zero pages shared from now on
  uint32_t zeros[1024] = {};
  mem.store(a + 8192, zeros, sizeof zeros, false);
  mem.store(a + 12288, zeros, sizeof zeros, false);
  same(a + 8192, 4);
  same(a + 12288, 4);
  same(a + 8, 4);
}
