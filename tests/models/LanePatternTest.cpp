// LanePattern against warps built to have each shape, over random bases,
// element sizes and masks; and its invariants on random warps.
#include "simulator/models/LanePattern.h"

#include <gtest/gtest.h>

#include <bit>
#include <random>
#include <set>

using namespace kcheck::sim;
using Kind = LanePattern::Kind;

namespace {

constexpr unsigned kSector = 32;

std::array<uint64_t, 32> laneAddresses(uint64_t base, int64_t step) {
  std::array<uint64_t, 32> a{};
  for (unsigned l = 0; l < 32; ++l)
    a[l] = base + uint64_t(int64_t(l) * step);
  return a;
}

} // namespace

TEST(LanePattern, ContiguousWithItsMisalignment) {
  std::mt19937_64 rng(1);
  for (unsigned B : {1u, 2u, 4u, 8u, 16u})
    for (int k = 0; k < 50; ++k) {
      uint64_t base = (rng() % (1u << 20)) * B;
      LanePattern p = classifyLanes(laneAddresses(base, B), ~0u, B, kSector);
      ASSERT_EQ(p.kind, Kind::Contiguous);
      EXPECT_EQ(p.stride, int64_t(B));
      EXPECT_EQ(p.misalignment, base % kSector);
      EXPECT_EQ(p.lanesPerAddress, 1u);
    }
}

TEST(LanePattern, ConstantStrideOfWholeElements) {
  for (unsigned B : {4u, 8u})
    for (int64_t k : {2, 3, 8, 33, -1, -4}) {
      LanePattern p =
          classifyLanes(laneAddresses(1 << 20, k * B), ~0u, B, kSector);
      ASSERT_EQ(p.kind, Kind::Strided) << B << " " << k;
      EXPECT_EQ(p.stride, k * int64_t(B));
    }
}

TEST(LanePattern, BroadcastWhenFewAddresses) {
  std::array<uint64_t, 32> a{};
  for (unsigned l = 0; l < 32; ++l)
    a[l] = 4096 + 4 * (l / 8); // 4 addresses, 8 lanes each
  LanePattern p = classifyLanes(a, ~0u, 4, kSector);
  EXPECT_EQ(p.kind, Kind::Broadcast);
  EXPECT_EQ(p.lanesPerAddress, 8u);
  EXPECT_EQ(classifyLanes(laneAddresses(64, 0), ~0u, 4, kSector).kind,
            Kind::Broadcast);
}

TEST(LanePattern, RowsOfABlockAreRuns) {
  for (unsigned rows : {2u, 4u, 8u})
    for (uint64_t pitch : {1024ull, 4100ull}) {
      unsigned width = 32 / rows;
      std::array<uint64_t, 32> a{};
      for (unsigned l = 0; l < 32; ++l)
        a[l] = 8192 + (l / width) * pitch + (l % width) * 4;
      LanePattern p = classifyLanes(a, ~0u, 4, kSector);
      ASSERT_EQ(p.kind, Kind::Runs) << rows << " " << pitch;
      ASSERT_EQ(p.runs.size(), rows);
      for (unsigned r = 0; r < rows; ++r) {
        EXPECT_EQ(p.runs[r].length, width);
        EXPECT_EQ(p.runs[r].first, 8192 + r * pitch);
        EXPECT_EQ(p.runs[r].misalignment, (8192 + r * pitch) % kSector);
      }
    }
}

TEST(LanePattern, APermutationIsScattered) {
  std::array<uint64_t, 32> a = laneAddresses(0, 4);
  std::mt19937 rng(7);
  std::shuffle(a.begin(), a.end(), rng);
  EXPECT_EQ(classifyLanes(a, ~0u, 4, kSector).kind, Kind::Scattered);
}

TEST(LanePattern, InvariantsOnRandomWarps) {
  std::mt19937_64 rng(3);
  for (int k = 0; k < 2000; ++k) {
    std::array<uint64_t, 32> a{};
    for (uint64_t &x : a)
      x = (rng() % 64) * 4;
    uint32_t mask = uint32_t(rng());
    LanePattern p = classifyLanes(a, mask, 4, kSector);
    ASSERT_EQ(p.lanes.size(), size_t(std::popcount(mask)));
    std::set<uint64_t> distinct;
    for (unsigned l : p.lanes) {
      ASSERT_TRUE((mask >> l) & 1u);
      distinct.insert(a[l]);
    }
    ASSERT_EQ(p.addresses.size(), distinct.size());
    if (p.lanesPerAddress) {
      EXPECT_EQ(p.lanesPerAddress * p.addresses.size(), p.lanes.size());
    }
    if (mask == 0) {
      EXPECT_EQ(p.kind, Kind::None);
    }
    if (std::popcount(mask) == 1) {
      EXPECT_EQ(p.kind, Kind::Single);
    }
  }
}
