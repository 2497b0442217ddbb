// SharedBankModel against hand-worked examples (the seed slides, the H100
// observations in DESIGN.md) and, for random warps, against a brute-force
// reference written straight from the documented rule.
#include "simulator/models/SharedBankModel.h"

#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <functional>
#include <numeric>
#include <random>
#include <set>

using namespace kcheck::sim;

namespace {

struct Warp {
  std::array<uint64_t, 32> addrs{};
  uint32_t mask = 0;
  unsigned bytes = 4;
  WarpAddresses view() const { return {bytes, mask, addrs.data()}; }
};

Warp make(std::function<int64_t(unsigned)> addrOfLane, unsigned bytes = 4,
          uint32_t mask = 0xffffffffu) {
  Warp w;
  w.bytes = bytes;
  for (unsigned l = 0; l < 32; ++l) {
    int64_t a = addrOfLane(l);
    if (a < 0)
      continue;
    w.addrs[l] = uint64_t(a);
    if ((mask >> l) & 1u)
      w.mask |= 1u << l;
  }
  return w;
}

// Brute force: for each phase, for each bank, count distinct words by
// comparing every pair of touched words.
SharedCost reference(const Warp &w) {
  SharedCost total;
  auto phase = [&](unsigned first, unsigned lanes) {
    std::vector<uint64_t> words;
    for (unsigned l = first; l < first + lanes; ++l)
      if ((w.mask >> l) & 1u)
        for (unsigned k = 0; k < std::max(1u, w.bytes / 4); ++k)
          words.push_back(w.addrs[l] / 4 + k);
    if (words.empty())
      return;
    std::set<uint64_t> distinct(words.begin(), words.end());
    uint32_t worst = 0;
    for (unsigned bank = 0; bank < 32; ++bank) {
      uint32_t n = 0;
      for (uint64_t word : distinct)
        n += (word % 32 == bank);
      worst = std::max(worst, n);
    }
    total.wavefronts += worst;
    total.ideal += std::max<uint32_t>(1, (uint32_t(distinct.size()) + 31) / 32);
  };
  if (w.bytes <= 4) {
    phase(0, 32);
  } else if (w.bytes == 8) {
    // Loads whose active lanes pair up (n with n ^ 1 where both are
    // active, or n with n ^ 2, both active) at one address are one 32-lane
    // phase.
    auto pairs = [&](unsigned bit) {
      for (unsigned l = 0; l < 32; ++l) {
        if (!(w.mask >> l & 1u))
          continue;
        bool partner = w.mask >> (l ^ bit) & 1u;
        if ((partner && w.addrs[l] != w.addrs[l ^ bit]) ||
            (!partner && bit == 2))
          return false;
      }
      return w.mask != 0;
    };
    if (pairs(1) || pairs(2)) {
      phase(0, 32);
    } else {
      phase(0, 16);
      phase(16, 16);
    }
  } else if (std::set<int64_t> one =
                 [&] {
                   std::set<int64_t> a;
                   for (unsigned l = 0; l < 32; ++l)
                     if (w.mask >> l & 1u)
                       a.insert(w.addrs[l]);
                   return a;
                 }();
             one.size() == 1) {
    // Every active lane at one address: a wavefront per 16 lanes.
    total.wavefronts = total.ideal =
        (unsigned(std::popcount(w.mask)) + 15) / 16;
  } else {
    for (unsigned half = 0; half < 32; half += 16) {
      SharedCost before = total;
      phase(half, 16);
      if (total.wavefronts == before.wavefronts)
        continue; // no active lane
      std::set<std::pair<unsigned, uint64_t>> quadChunks;
      for (unsigned l = half; l < half + 16; ++l)
        if ((w.mask >> l) & 1u)
          quadChunks.insert({l / 4, w.addrs[l]});
      uint32_t ideal = uint32_t((quadChunks.size() * 16 + 127) / 128);
      uint32_t conflicts = total.wavefronts - before.wavefronts;
      total.wavefronts = before.wavefronts + std::max(conflicts, ideal);
      total.ideal = before.ideal + ideal;
    }
  }
  return total;
}

} // namespace

TEST(SharedBankModelTest, LinearAccessIsConflictFree) {
  SharedBankModel m;
  EXPECT_EQ(m.cost(make([](unsigned l) { return 4 * l; }).view()).wavefronts,
            1u);
}

TEST(SharedBankModelTest, SlidesExamples) {
  SharedBankModel m;
  // Random permutation of words within 32 banks: no conflict.
  std::array<unsigned, 32> perm;
  for (unsigned i = 0; i < 32; ++i)
    perm[i] = (i * 7 + 3) % 32;
  EXPECT_EQ(
      m.cost(make([&](unsigned l) { return 4 * perm[l]; }).view()).degree(),
      1u);
  // Stride 2 words: 2-way; stride 8: 8-way; stride 32 (a column of 32x32):
  // 32-way.
  EXPECT_EQ(m.cost(make([](unsigned l) { return 8 * l; }).view()).degree(), 2u);
  EXPECT_EQ(m.cost(make([](unsigned l) { return 32 * l; }).view()).degree(),
            8u);
  EXPECT_EQ(m.cost(make([](unsigned l) { return 128 * l; }).view()).degree(),
            32u);
  // A column of a 32x33 tile: conflict-free.
  EXPECT_EQ(m.cost(make([](unsigned l) { return 4 * 33 * l; }).view()).degree(),
            1u);
  // Every lane reads one word: multicast, one wavefront.
  EXPECT_EQ(m.cost(make([](unsigned) { return 64; }).view()).wavefronts, 1u);
}

TEST(SharedBankModelTest, StrideTableFor32Banks) {
  // Degree of a stride-s word access over a full warp = gcd(s, 32).
  SharedBankModel m;
  for (unsigned s = 1; s <= 64; ++s) {
    unsigned g = std::gcd(s, 32u);
    EXPECT_EQ(
        m.cost(make([&](unsigned l) { return 4 * s * l; }).view()).degree(), g)
        << "stride " << s;
  }
}

TEST(SharedBankModelTest, ReduceV1InterleavedAddressing) {
  // index = 2*s*tid, active while index < 256: 2,4,8,8,8,4,2-way (warp 0).
  SharedBankModel m;
  std::vector<unsigned> degrees;
  for (unsigned s = 1; s < 256; s *= 2) {
    uint32_t mask = 0;
    for (unsigned l = 0; l < 32; ++l)
      if (2 * s * l < 256)
        mask |= 1u << l;
    degrees.push_back(
        m.cost(make([&](unsigned l) { return 4 * 2 * s * l; }, 4, mask).view())
            .degree());
  }
  EXPECT_EQ(degrees, (std::vector<unsigned>{2, 4, 8, 8, 8, 4, 2, 1}));
}

TEST(SharedBankModelTest, WideAccessesUseHalfWarpPhases) {
  SharedBankModel m;
  SharedCost c64 = m.cost(make([](unsigned l) { return 8 * l; }, 8).view());
  EXPECT_EQ(c64.wavefronts, 2u);
  EXPECT_EQ(c64.ideal, 2u);
  SharedCost c128 = m.cost(make([](unsigned l) { return 16 * l; }, 16).view());
  EXPECT_EQ(c128.wavefronts, 4u);
  EXPECT_EQ(c128.ideal, 4u);
  // MatMulTiled Mds[ty][k..k+3], 16x16 block: half-warp h reads row ty+h.
  SharedCost mds =
      m.cost(make([](unsigned l) { return 64 * (l / 16) + 16; }, 16).view());
  EXPECT_EQ(mds.wavefronts, 2u);
  EXPECT_EQ(mds.ideal, 2u);
  // sgemm_warp_tiling reg_b: lane l reads chunk l % 4 (H100: 4, ideal 4).
  SharedCost tiling =
      m.cost(make([](unsigned l) { return 16 * (l % 4); }, 16).view());
  EXPECT_EQ(tiling.wavefronts, 4u);
  EXPECT_EQ(tiling.ideal, 4u);
  // seed sgemm_warp_tiling reg_a: chunk 2 * (lane / 4), rows 4 apart share
  // banks (H100: 2, ideal 2).
  SharedCost rows =
      m.cost(make([](unsigned l) { return 32 * (l / 4); }, 16).view());
  EXPECT_EQ(rows.wavefronts, 2u);
  EXPECT_EQ(rows.ideal, 2u);
  // kernels/sgemm_warp_tiling reg_a: lanes 8q..8q+7 read chunk q (H100: 2).
  SharedCost quarterRows =
      m.cost(make([](unsigned l) { return 16 * (l / 8); }, 16).view());
  EXPECT_EQ(quarterRows.wavefronts, 2u);
  EXPECT_EQ(quarterRows.ideal, 2u);
  // sgemm_vectorize reg_b: lane l reads words 8 * (l % 16) (H100: 8, ideal 4).
  SharedCost vec =
      m.cost(make([](unsigned l) { return 32 * (l % 16); }, 16).view());
  EXPECT_EQ(vec.wavefronts, 8u);
  EXPECT_EQ(vec.ideal, 4u);
}

// ../shared/docs/research/sm90-shared-rules.md rule 3 (measured on the
// H100): a 64-bit load whose lanes pair up is one 32-lane phase; stores
// never.
TEST(SharedBankModelTest, PairedLanesOfA64BitLoadAreOnePhase) {
  SharedBankModel m;
  EXPECT_EQ(m.cost(make([](unsigned) { return 64; }, 8).view()).wavefronts, 1u);
  EXPECT_EQ(
      m.cost(make([](unsigned l) { return 8 * (l / 2); }, 8).view()).wavefronts,
      1u);
  EXPECT_EQ(m.cost(make([](unsigned l) { return 16 * (l / 2); }, 8).view())
                .wavefronts,
            2u);
  // Even lanes on line 0, odd lanes on line 1: no pairs, 4.
  EXPECT_EQ(
      m.cost(make([](unsigned l) { return 128 * (l % 2) + 8 * (l / 2); }, 8)
                 .view())
          .wavefronts,
      4u);
  // An inactive partner does not break the pairs (H100,
  // kernels/toolkit/partial_warp_shared.cu): lanes 0 and 31 at 0 and 248,
  // and every odd lane at 8 * lane, one phase.
  EXPECT_EQ(
      m.cost(make([](unsigned l) { return 8 * l; }, 8, 0x80000001u).view())
          .wavefronts,
      1u);
  EXPECT_EQ(
      m.cost(make([](unsigned l) { return 8 * l; }, 8, 0xaaaaaaaau).view())
          .wavefronts,
      2u);
  Warp store = make([](unsigned) { return 64; }, 8);
  WarpAddresses view = store.view();
  view.store = true;
  EXPECT_EQ(m.cost(view).wavefronts, 2u);
}

// A 128-bit load of one address: a wavefront per 16 active lanes, wherever
// they are (H100, partial_warp_shared.cu).
TEST(SharedBankModelTest, OneAddress128BitLoadCostsAWavefrontPer16Lanes) {
  SharedBankModel m;
  auto at64 = [](unsigned) { return 64; };
  EXPECT_EQ(m.cost(make(at64, 16, 0x01010101u).view()).wavefronts, 1u);
  EXPECT_EQ(m.cost(make(at64, 16, 0x00ff00ffu).view()).wavefronts, 1u);
  EXPECT_EQ(m.cost(make(at64, 16, 0x00ffffffu).view()).wavefronts, 2u);
  EXPECT_EQ(m.cost(make(at64, 16).view()).wavefronts, 2u);
  // Distinct addresses in different half-warps stay two phases.
  EXPECT_EQ(
      m.cost(make([](unsigned l) { return 16 * l; }, 16, 0x80000001u).view())
          .wavefronts,
      2u);
}

TEST(SharedBankModelTest, InactiveWarpCostsNothing) {
  SharedBankModel m;
  EXPECT_EQ(
      m.cost(make([](unsigned l) { return 4 * l; }, 4, 0).view()).wavefronts,
      0u);
}

TEST(SharedBankModelTest, RandomWarpsMatchBruteForce) {
  SharedBankModel m;
  std::mt19937_64 rng(42);
  for (int iter = 0; iter < 20000; ++iter) {
    unsigned bytes = 1u << (rng() % 5); // 1..16
    unsigned spanWords = 1u + unsigned(rng() % 512);
    uint32_t mask = uint32_t(rng());
    if (iter % 3 == 0)
      mask = 0xffffffffu;
    Warp w = make(
        [&](unsigned) {
          return int64_t((rng() % spanWords) * 4 / bytes * bytes);
        },
        bytes, mask);
    SharedCost got = m.cost(w.view()), want = reference(w);
    ASSERT_EQ(got.wavefronts, want.wavefronts) << "iteration " << iter;
    ASSERT_EQ(got.ideal, want.ideal) << "iteration " << iter;
    // Invariants: never cheaper than ideal; at least one wavefront per
    // active phase; never more than one per distinct word.
    ASSERT_GE(got.wavefronts, got.ideal);
    if (w.mask) {
      ASSERT_GE(got.wavefronts, 1u);
    }
    ASSERT_LE(got.wavefronts, 32u * std::max(1u, bytes / 4));
  }
}
