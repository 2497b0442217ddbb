// SharedBankModel for every generation: the seed slides' bank examples and
// stride tables (16 and 32 banks), the Programming Guide's examples per
// compute capability, Kepler's bank modes, the 32x32 vs 32x33 tile, and
// random warps against brute-force references written from each documented
// rule (see SharedBankModel.h).
#include "simulator/models/SharedBankModel.h"
#include "tests/models/ModelTestSupport.h"

#include <map>
#include <numeric>
#include <random>
#include <set>

using namespace kcheck;
using namespace kcheck::sim;
using kcheck::sim::test::archNamed;
using kcheck::sim::test::makeWarp;
using kcheck::sim::test::Warp;

namespace {

SharedCost costOn(const std::string &arch, const Warp &w, int bankMode = 0) {
  return SharedBankModel(archNamed(arch, bankMode)).cost(w.view());
}

uint32_t degreeOn(const std::string &arch, const Warp &w, int bankMode = 0) {
  return costOn(arch, w, bankMode).degree();
}

// Most distinct keys any bank holds, over a set of (bank, key) pairs.
uint32_t mostPerBank(const std::set<std::pair<unsigned, uint64_t>> &keys) {
  std::map<unsigned, uint32_t> perBank;
  uint32_t worst = 0;
  for (const auto &[bank, key] : keys)
    worst = std::max(worst, ++perBank[bank]);
  return worst;
}

// [Guide 1.x], literally: per half-warp, per 32-bit request; reads: each step
// one broadcast word (the lowest pending lane's) plus the lowest pending lane
// of every other bank; writes: distinct addresses per bank.
SharedCost teslaReference(const Warp &w) {
  SharedCost total;
  for (unsigned half = 0; half < 32; half += 16)
    for (unsigned k = 0; k < std::max(1u, w.bytes / 4); ++k) {
      std::map<unsigned, uint64_t> pending; // lane -> address
      for (unsigned l = half; l < half + 16; ++l)
        if ((w.mask >> l) & 1u)
          pending[l] = w.addrs[l] + 4 * k;
      if (pending.empty())
        continue;
      total.ideal += 1;
      total.phases += 1;
      if (w.store) {
        std::set<std::pair<unsigned, uint64_t>> addrs;
        for (const auto &[lane, a] : pending)
          addrs.insert({unsigned(a / 4 % 16), a});
        total.wavefronts += mostPerBank(addrs);
        continue;
      }
      while (!pending.empty()) {
        ++total.wavefronts;
        const uint64_t word = pending.begin()->second / 4;
        std::set<unsigned> banksServed{unsigned(word % 16)};
        std::vector<unsigned> served;
        for (const auto &[lane, a] : pending)
          if (a / 4 == word || banksServed.insert(unsigned(a / 4 % 16)).second)
            served.push_back(lane);
        for (unsigned lane : served)
          pending.erase(lane);
      }
    }
  return total;
}

// Distinct words per bank over lanes [first, first + n) (multicast rule).
SharedCost multicastReference(const Warp &w, unsigned first, unsigned n) {
  std::set<std::pair<unsigned, uint64_t>> words;
  for (unsigned l = first; l < first + n; ++l)
    if ((w.mask >> l) & 1u)
      for (unsigned k = 0; k < std::max(1u, w.bytes / 4); ++k)
        words.insert({unsigned((w.addrs[l] / 4 + k) % 32), w.addrs[l] / 4 + k});
  if (words.empty())
    return {};
  return {mostPerBank(words),
          std::max<uint32_t>(1, uint32_t(words.size() + 31) / 32), 1};
}

// [Guide 2.x]: whole warp up to 32 bits; 64-bit per half-warp; 128-bit per
// quarter-warp, 1 + the most distinct addresses touching one bank.
SharedCost fermiReference(const Warp &w) {
  if (w.bytes <= 4)
    return multicastReference(w, 0, 32);
  SharedCost total;
  const unsigned lanes = w.bytes == 8 ? 16 : 4;
  for (unsigned first = 0; first < 32; first += lanes) {
    SharedCost c;
    if (w.bytes == 8) {
      c = multicastReference(w, first, lanes);
    } else {
      std::set<uint64_t> chunks;
      for (unsigned l = first; l < first + lanes; ++l)
        if ((w.mask >> l) & 1u)
          chunks.insert(w.addrs[l]);
      if (chunks.empty())
        continue;
      std::set<std::pair<unsigned, uint64_t>> touches;
      for (uint64_t chunk : chunks)
        for (unsigned k = 0; k < 4; ++k)
          touches.insert({unsigned((chunk / 4 + k) % 32), chunk});
      c = {1 + mostPerBank(touches), 1, 1};
    }
    total.wavefronts += c.wavefronts;
    total.ideal += c.ideal;
    total.phases += c.phases;
  }
  return total;
}

// [Guide 3.x]: 64-bit mode: distinct 8-byte words per bank; 32-bit mode:
// words i and i + 32 of one 64-word segment are one; whole warp.
SharedCost keplerReference(const Warp &w, unsigned mode) {
  std::set<std::pair<unsigned, uint64_t>> keys;
  for (unsigned l = 0; l < 32; ++l)
    if ((w.mask >> l) & 1u)
      for (unsigned k = 0; k < std::max(1u, w.bytes / mode); ++k) {
        uint64_t word = w.addrs[l] / mode + k;
        uint64_t key = mode == 8 ? word : (word / 64) * 1000 + word % 32;
        keys.insert({unsigned(word % 32), key});
      }
  if (keys.empty())
    return {};
  return {mostPerBank(keys),
          std::max<uint32_t>(1, uint32_t(keys.size() + 31) / 32), 1};
}

Warp randomWarp(std::mt19937_64 &rng) {
  unsigned bytes = 1u << (rng() % 5);
  unsigned spanWords = 1u + unsigned(rng() % 512);
  uint32_t mask = rng() % 3 == 0 ? 0xffffffffu : uint32_t(rng());
  Warp w = makeWarp(
      [&](unsigned) {
        return int64_t((rng() % spanWords) * 4 / bytes * bytes);
      },
      bytes, mask);
  w.store = rng() % 2;
  return w;
}

void checkInvariants(const SharedBankModel &m, const Warp &w, SharedCost c) {
  auto perBank = m.lanesPerBank(w.view());
  ASSERT_EQ(std::accumulate(perBank.begin(), perBank.end(), 0u),
            unsigned(__builtin_popcount(w.mask)));
  ASSERT_GE(c.wavefronts, c.phases);
  ASSERT_GE(c.wavefronts, c.ideal);
  ASSERT_EQ(c.phases == 0, w.mask == 0);
}

} // namespace

// Seed slides, "Bank conflicts" examples 1-4, on 16 banks (cc1.x: per
// half-warp) and 32 banks (cc2.x, 5.x, 7.x).
TEST(SharedBankGenerationsTest, SlidesExamples16And32Banks) {
  std::array<unsigned, 32> perm;
  for (unsigned i = 0; i < 32; ++i)
    perm[i] = (i * 7 + 3) % 32;
  for (const char *arch : {"sm_10", "sm_13", "sm_20", "sm_50", "sm_70"}) {
    Warp linear = makeWarp([](unsigned l) { return 4 * l; });
    EXPECT_EQ(degreeOn(arch, linear), 1u) << arch;
    // Permutation within the half-warp (16 banks) or warp (32 banks).
    Warp random = makeWarp([&](unsigned l) {
      return 4 * (std::string(arch) < "sm_2" ? 16 * (l / 16) + perm[l] % 16
                                             : perm[l]);
    });
    EXPECT_EQ(degreeOn(arch, random), 1u) << arch;
    EXPECT_EQ(degreeOn(arch, makeWarp([](unsigned l) { return 8 * l; })), 2u)
        << arch;
    EXPECT_EQ(degreeOn(arch, makeWarp([](unsigned l) { return 32 * l; })), 8u)
        << arch;
  }
  // 16 banks: a linear warp is two conflict-free half-warp requests.
  SharedCost c = costOn("sm_10", makeWarp([](unsigned l) { return 4 * l; }));
  EXPECT_EQ(c.wavefronts, 2u);
  EXPECT_EQ(c.ideal, 2u);
  EXPECT_EQ(c.phases, 2u);
}

// Slides' stride table: a stride of s 32-bit words is gcd(s, banks)-way.
TEST(SharedBankGenerationsTest, StrideToDegreeTables) {
  for (unsigned s = 1; s <= 64; ++s) {
    Warp w = makeWarp([&](unsigned l) { return 4 * s * l; });
    EXPECT_EQ(degreeOn("sm_10", w), std::gcd(s, 16u)) << "stride " << s;
    EXPECT_EQ(degreeOn("sm_20", w), std::gcd(s, 32u)) << "stride " << s;
    EXPECT_EQ(degreeOn("sm_52", w), std::gcd(s, 32u)) << "stride " << s;
    EXPECT_EQ(degreeOn("sm_90", w), std::gcd(s, 32u)) << "stride " << s;
  }
}

// Slides: a column of a 32x32 float tile conflicts on every bank; 32x33 not.
TEST(SharedBankGenerationsTest, Tile32x32Versus32x33) {
  Warp column32 = makeWarp([](unsigned l) { return 4 * (32 * l + 5); });
  Warp column33 = makeWarp([](unsigned l) { return 4 * (33 * l + 5); });
  EXPECT_EQ(degreeOn("sm_10", column32), 16u); // 16 lanes per request
  EXPECT_EQ(degreeOn("sm_20", column32), 32u);
  EXPECT_EQ(degreeOn("sm_50", column32), 32u);
  EXPECT_EQ(degreeOn("sm_90", column32), 32u);
  // Kepler: rows 2k and 2k+1 pair up (32-bit mode) or share an 8-byte bank
  // word position (64-bit mode): 16-way.
  EXPECT_EQ(degreeOn("sm_35", column32, 4), 16u);
  EXPECT_EQ(degreeOn("sm_35", column32, 8), 16u);
  for (const char *arch : {"sm_10", "sm_20", "sm_35", "sm_50", "sm_90"})
    EXPECT_EQ(degreeOn(arch, column33), 1u) << arch;
}

// [Guide 1.x]: no conflict between half-warps; one broadcast word per step.
TEST(SharedBankGenerationsTest, Tesla16BanksPerHalfWarp) {
  // Lanes l and l + 16 read different words of one bank: other half-warp.
  Warp halves = makeWarp([](unsigned l) { return 4 * l; });
  EXPECT_EQ(costOn("sm_11", halves).wavefronts, 2u);
  // All lanes of a half-warp read one word: "common conflict-free case".
  Warp one = makeWarp([](unsigned l) { return 64 * (l / 16) + 8; });
  EXPECT_EQ(costOn("sm_10", one).wavefronts, 2u);
  EXPECT_EQ(costOn("sm_10", one).degree(), 1u);
  // Two words in two banks, 8 lanes each: one broadcast per step (2 steps);
  // cc2.x multicasts both at once.
  Warp two = makeWarp([](unsigned l) { return 4 * ((l / 8) % 2); });
  EXPECT_EQ(costOn("sm_10", two).wavefronts, 4u);
  EXPECT_EQ(costOn("sm_20", two).wavefronts, 1u);
  // Stores of one word by every lane: one lane writes, no conflict.
  Warp store = two;
  store.store = true;
  EXPECT_EQ(costOn("sm_10", store).wavefronts, 2u);
}

// [Guide 1.x] "8-Bit and 16-Bit Access", "Larger Than 32-Bit Access".
TEST(SharedBankGenerationsTest, TeslaGuideExamples) {
  // char shared[BaseIndex + tid]: bank conflicts; shared[4 * tid]: none.
  Warp chars = makeWarp([](unsigned l) { return 100 + l; }, 1);
  EXPECT_GT(degreeOn("sm_10", makeWarp([](unsigned l) { return l; }, 1)), 1u);
  EXPECT_EQ(
      costOn("sm_10", makeWarp([](unsigned l) { return l; }, 1)).wavefronts,
      8u); // 4 lanes per word, 4 steps per half-warp
  EXPECT_EQ(degreeOn("sm_10", makeWarp([](unsigned l) { return 4 * l; }, 1)),
            1u);
  EXPECT_EQ(degreeOn("sm_20", chars), 1u); // any address in one word: none
  // double shared[BaseIndex + tid]: two 32-bit requests of stride 2: 2-way.
  SharedCost doubles =
      costOn("sm_10", makeWarp([](unsigned l) { return 8 * l; }, 8));
  EXPECT_EQ(doubles.phases, 4u);
  EXPECT_EQ(doubles.degree(), 2u);
  // struct {float x, y, z;}: stride 3 words, conflict-free; {float x, y;}:
  // stride 2 words, 2-way.
  EXPECT_EQ(degreeOn("sm_10", makeWarp([](unsigned l) { return 12 * l; })), 1u);
  EXPECT_EQ(degreeOn("sm_10", makeWarp([](unsigned l) { return 8 * l + 4; })),
            2u);
}

// [Guide 2.x] "64-Bit Accesses" and "128-Bit Accesses".
TEST(SharedBankGenerationsTest, FermiWideAccesses) {
  // double shared[BaseIndex + tid]: no conflict, unlike cc1.x.
  SharedCost doubles =
      costOn("sm_20", makeWarp([](unsigned l) { return 8 * l; }, 8));
  EXPECT_EQ(doubles.wavefronts, 2u);
  EXPECT_EQ(doubles.degree(), 1u);
  // Half-warps never conflict with each other: lanes l, l + 16 same banks.
  EXPECT_EQ(degreeOn("sm_21", makeWarp([](unsigned l) { return 8 * l; }, 8)),
            1u);
  // 128-bit: "the majority ... cause 2-way bank conflicts".
  SharedCost float4s =
      costOn("sm_20", makeWarp([](unsigned l) { return 16 * l; }, 16));
  EXPECT_EQ(float4s.phases, 8u);
  EXPECT_EQ(float4s.wavefronts, 16u);
  EXPECT_EQ(float4s.degree(), 2u);
  // Two lanes of a quarter-warp on different chunks of the same banks: 3.
  Warp clash =
      makeWarp([](unsigned l) { return l == 1 ? 128 : 16 * l; }, 16, 0xfu);
  EXPECT_EQ(costOn("sm_20", clash).wavefronts, 3u);
}

// [Guide 3.x]; seed slides "cc3.x: 32-bit mode 4 bytes, 64-bit mode 8 bytes".
TEST(SharedBankGenerationsTest, KeplerBankModes) {
  core::ArchSpec kepler = archNamed("sm_35");
  EXPECT_EQ(kepler.options.bankModeBytes, 4u); // the default mode
  EXPECT_EQ(SharedBankModel(archNamed("sm_35", 8)).bankOf(8 * 33), 1u);
  // 64-bit mode: 32-bit accesses to the two halves of one 64-bit word.
  Warp halves = makeWarp([](unsigned l) { return 4 * l; });
  EXPECT_EQ(costOn("sm_35", halves, 8).wavefronts, 1u);
  // Halves of two different 64-bit words of one bank do conflict.
  Warp otherWord =
      makeWarp([](unsigned l) { return 8 * 32 * (l % 2) + 4 * (l / 2 * 2); });
  EXPECT_EQ(degreeOn("sm_30", otherWord, 8), 2u);
  Warp sameWord =
      makeWarp([](unsigned l) { return 8 * (l / 2) + 4 * (l % 2); });
  EXPECT_EQ(costOn("sm_30", sameWord, 8).degree(), 1u);
  // 64-bit mode: a 32-bit stride of 2 words is conflict-free (2-way on cc2.x).
  Warp stride2 = makeWarp([](unsigned l) { return 8 * l; });
  EXPECT_EQ(degreeOn("sm_35", stride2, 8), 1u);
  EXPECT_EQ(degreeOn("sm_20", stride2), 2u);
  // 64-bit mode: contiguous doubles in one wavefront.
  EXPECT_EQ(costOn("sm_35", makeWarp([](unsigned l) { return 8 * l; }, 8), 8)
                .wavefronts,
            1u);
  // 32-bit mode: words i and i + 32 of one 64-word segment do not conflict;
  // i and i + 64 do.
  Warp plus32 =
      makeWarp([](unsigned l) { return 4 * (l % 16 + 32 * (l / 16)); });
  Warp plus64 =
      makeWarp([](unsigned l) { return 4 * (l % 16 + 64 * (l / 16)); });
  EXPECT_EQ(costOn("sm_35", plus32, 4).wavefronts, 1u);
  EXPECT_EQ(costOn("sm_35", plus64, 4).wavefronts, 2u);
  EXPECT_EQ(costOn("sm_50", plus32).wavefronts, 2u);
  // 32-bit mode: contiguous doubles also in one wavefront.
  EXPECT_EQ(costOn("sm_35", makeWarp([](unsigned l) { return 8 * l; }, 8), 4)
                .wavefronts,
            1u);
}

TEST(SharedBankGenerationsTest, DefaultModelIsSm90) {
  std::mt19937_64 rng(3);
  SharedBankModel sm90(archNamed("sm_90")), byDefault;
  for (int i = 0; i < 5000; ++i) {
    Warp w = randomWarp(rng);
    SharedCost a = sm90.cost(w.view()), b = byDefault.cost(w.view());
    ASSERT_EQ(a.wavefronts, b.wavefronts);
    ASSERT_EQ(a.ideal, b.ideal);
  }
}

TEST(SharedBankGenerationsTest, RandomWarpsMatchDocumentedRules) {
  std::mt19937_64 rng(11);
  SharedBankModel tesla(archNamed("sm_12")), fermi(archNamed("sm_20")),
      kepler4(archNamed("sm_35", 4)), kepler8(archNamed("sm_35", 8)),
      volta(archNamed("sm_70"));
  for (int iter = 0; iter < 20000; ++iter) {
    Warp w = randomWarp(rng);
    SCOPED_TRACE(iter);
    struct Case {
      const SharedBankModel &model;
      SharedCost want;
    };
    for (const Case &c :
         {Case{tesla, teslaReference(w)}, Case{fermi, fermiReference(w)},
          Case{kepler4, keplerReference(w, 4)},
          Case{kepler8, keplerReference(w, 8)}}) {
      SharedCost got = c.model.cost(w.view());
      ASSERT_EQ(got.wavefronts, c.want.wavefronts);
      ASSERT_EQ(got.ideal, c.want.ideal);
      ASSERT_EQ(got.phases, c.want.phases);
      checkInvariants(c.model, w, got);
    }
    checkInvariants(volta, w, volta.cost(w.view()));
    // cc1.x reads: never fewer steps than distinct words in one bank of a
    // request, never more than its lanes in one bank.
    if (!w.store && w.bytes <= 4) {
      uint32_t lower = 0, upper = 0;
      for (unsigned half = 0; half < 32; half += 16) {
        std::set<std::pair<unsigned, uint64_t>> words;
        std::map<unsigned, uint32_t> lanes;
        for (unsigned l = half; l < half + 16; ++l)
          if ((w.mask >> l) & 1u) {
            words.insert({unsigned(w.addrs[l] / 4 % 16), w.addrs[l] / 4});
            ++lanes[unsigned(w.addrs[l] / 4 % 16)];
          }
        lower += words.empty() ? 0 : mostPerBank(words);
        uint32_t most = 0;
        for (const auto &[bank, n] : lanes)
          most = std::max(most, n);
        upper += most;
      }
      SharedCost got = tesla.cost(w.view());
      ASSERT_GE(got.wavefronts, lower);
      ASSERT_LE(got.wavefronts, upper);
    }
  }
}
