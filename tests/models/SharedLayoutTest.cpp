// ptxas's layout of static __shared__ variables (core/SharedLayout.h): the
// offsets the H100 reported for the probe kernels, and brute-force
// properties of the alignment raise the IR pipeline builds on it.
#include "core/SharedLayout.h"

#include <gtest/gtest.h>

#include <random>

using namespace kcheck::core;

TEST(SharedLayoutTest, MeasuredOnTheH100) {
  // Two CUB TempStorage objects of 24 bytes, alignment 4: 0 and 24.
  SharedLayout cub = layOutStaticShared({{24, 4}, {24, 4}});
  EXPECT_EQ(cub.offsets, (std::vector<uint64_t>{0, 24}));
  // char c[3]; float4 f[2]; int i[5]; double d; short s;
  SharedLayout mixed =
      layOutStaticShared({{3, 1}, {32, 16}, {20, 4}, {8, 8}, {2, 2}});
  EXPECT_EQ(mixed.offsets, (std::vector<uint64_t>{0, 16, 48, 72, 80}));
  // float big[100]; int small[3]; int mid[9];
  SharedLayout sizes = layOutStaticShared({{400, 4}, {12, 4}, {36, 4}});
  EXPECT_EQ(sizes.offsets, (std::vector<uint64_t>{0, 400, 412}));
  // int a[5], then extern shared memory at 32.
  EXPECT_EQ(layOutStaticShared({{20, 4}}).staticBytes, 32u);
  EXPECT_EQ(layOutStaticShared({}).staticBytes, 0u);
}

TEST(SharedLayoutTest, KnownAlignment) {
  EXPECT_EQ(knownAlignmentAt(0, 16), 16u);
  EXPECT_EQ(knownAlignmentAt(24, 16), 8u);
  EXPECT_EQ(knownAlignmentAt(44, 16), 4u);
  EXPECT_EQ(knownAlignmentAt(64, 16), 16u);
  EXPECT_EQ(knownAlignmentAt(3, 16), 1u);
}

// Raising each variable's alignment to what its offset proves leaves the
// layout as it was (AlignSharedGlobalsLikePtxas relies on it: the engine
// lays out the raised variables again).
TEST(SharedLayoutTest, RaisingToTheProvenAlignmentKeepsTheLayout) {
  std::mt19937 random(17);
  for (int round = 0; round < 2000; ++round) {
    std::vector<SharedVarShape> vars(1 + random() % 8);
    for (SharedVarShape &v : vars) {
      v.align = uint64_t(1) << (random() % 5);
      v.bytes = v.align * (1 + random() % 9);
    }
    SharedLayout before = layOutStaticShared(vars);
    for (size_t i = 0; i < vars.size(); ++i) {
      ASSERT_EQ(before.offsets[i] % vars[i].align, 0u);
      if (i > 0) {
        ASSERT_GE(before.offsets[i], before.offsets[i - 1] + vars[i - 1].bytes);
      }
      vars[i].align =
          std::max(vars[i].align, knownAlignmentAt(before.offsets[i], 16));
    }
    SharedLayout after = layOutStaticShared(vars);
    ASSERT_EQ(after.offsets, before.offsets) << "round " << round;
  }
}
