// GlobalSectorModel against the programming guide's and the slides' examples,
// and against a brute-force byte-set reference for random warps.
#include "simulator/models/GlobalSectorModel.h"

#include <gtest/gtest.h>

#include <array>
#include <random>
#include <set>

using namespace kcheck::sim;

namespace {
GlobalCost costOf(std::function<uint64_t(unsigned)> addr, unsigned bytes = 4,
                  uint32_t mask = 0xffffffffu) {
  std::array<uint64_t, 32> a{};
  for (unsigned l = 0; l < 32; ++l)
    a[l] = addr(l);
  return GlobalSectorModel().cost({bytes, mask, a.data()});
}
} // namespace

TEST(GlobalSectorModelTest, AlignedSequentialWords) {
  GlobalCost c = costOf([](unsigned l) { return 4096 + 4 * l; });
  EXPECT_EQ(c.sectors, 4u);
  EXPECT_EQ(c.ideal, 4u);
}

TEST(GlobalSectorModelTest, OffsetByOneElementTouchesFiveSectors) {
  GlobalCost c = costOf([](unsigned l) { return 4096 + 4 * (l + 1); });
  EXPECT_EQ(c.sectors, 5u);
  EXPECT_EQ(c.ideal, 4u);
}

TEST(GlobalSectorModelTest, StrideTwoDoublesTheSectors) {
  GlobalCost c = costOf([](unsigned l) { return 4096 + 8 * l; });
  EXPECT_EQ(c.sectors, 8u);
  EXPECT_EQ(c.ideal, 4u);
}

TEST(GlobalSectorModelTest, WideAccesses) {
  EXPECT_EQ(costOf([](unsigned l) { return 4096 + 8 * l; }, 8).sectors, 8u);
  EXPECT_EQ(costOf([](unsigned l) { return 4096 + 16 * l; }, 16).sectors, 16u);
}

TEST(GlobalSectorModelTest, BroadcastIsOneSector) {
  GlobalCost c = costOf([](unsigned) { return 4100; });
  EXPECT_EQ(c.sectors, 1u);
  EXPECT_EQ(c.ideal, 1u);
}

TEST(GlobalSectorModelTest, RandomWarpsMatchBruteForce) {
  std::mt19937_64 rng(7);
  for (int iter = 0; iter < 20000; ++iter) {
    unsigned bytes = 1u << (rng() % 5);
    uint64_t span = 1 + rng() % 4096;
    uint32_t mask = uint32_t(rng());
    std::array<uint64_t, 32> a{};
    for (auto &x : a)
      x = (1 << 20) + (rng() % span) / bytes * bytes;
    GlobalCost got = GlobalSectorModel().cost({bytes, mask, a.data()});
    std::set<uint64_t> secs, byteSet;
    for (unsigned l = 0; l < 32; ++l)
      if ((mask >> l) & 1u)
        for (unsigned b = 0; b < bytes; ++b) {
          secs.insert((a[l] + b) / 32);
          byteSet.insert(a[l] + b);
        }
    ASSERT_EQ(got.sectors, secs.size());
    ASSERT_EQ(got.ideal, (byteSet.size() + 31) / 32);
    ASSERT_GE(got.sectors, got.ideal);
  }
}
