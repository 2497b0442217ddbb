// GlobalSectorModel for every generation: the Programming Guide's global
// memory examples per compute capability (aligned sequential, aligned
// non-sequential, misaligned, strided; 1-, 2-, 4-, 8-, 16-byte words), the
// seed slides' coalescing examples, and random warps against brute-force
// references written from each documented rule (see GlobalSectorModel.h).
#include "simulator/models/GlobalSectorModel.h"
#include "tests/models/ModelTestSupport.h"

#include <map>
#include <random>
#include <set>

using namespace kcheck;
using namespace kcheck::sim;
using kcheck::sim::test::archNamed;
using kcheck::sim::test::makeWarp;
using kcheck::sim::test::Warp;

namespace {

GlobalCost costOn(const std::string &arch, const Warp &w, int l1 = -1) {
  return GlobalSectorModel(archNamed(arch, 0, l1)).cost(w.view());
}

// Transactions and their total bytes, for terse expectations.
std::pair<uint32_t, uint32_t> txOn(const std::string &arch, const Warp &w,
                                   int l1 = -1) {
  GlobalCost c = costOn(arch, w, l1);
  return {c.sectors, c.bytesMoved};
}

using Tx = std::pair<uint32_t, uint32_t>;

// The Guide's figure: a warp of 4-byte words at address 128 + ...
Warp alignedSequential() {
  return makeWarp([](unsigned l) { return 128 + 4 * l; });
}
Warp alignedPermuted() { // neighbours swapped, all within [128, 256)
  return makeWarp([](unsigned l) { return 128 + 4 * (l ^ 1); });
}
Warp misalignedSequential() {
  return makeWarp([](unsigned l) { return 132 + 4 * l; });
}
Warp strideTwo() {
  return makeWarp([](unsigned l) { return 128 + 8 * l; });
}

// [Guide 2.x+]: per request, distinct units; ideal over the warp.
GlobalCost cachedReference(const Warp &w, unsigned lanesPerRequest,
                           unsigned unit) {
  GlobalCost c;
  std::set<uint64_t> bytes;
  for (unsigned first = 0; first < 32; first += lanesPerRequest) {
    std::set<uint64_t> units;
    for (unsigned l = first; l < first + lanesPerRequest; ++l)
      if ((w.mask >> l) & 1u)
        for (unsigned b = 0; b < w.bytes; ++b) {
          units.insert((w.addrs[l] + b) / unit);
          bytes.insert(w.addrs[l] + b);
        }
    c.requests += !units.empty();
    c.sectors += uint32_t(units.size());
  }
  c.usedBytes = uint32_t(bytes.size());
  c.ideal = uint32_t((bytes.size() + unit - 1) / unit);
  return c;
}

// [Guide 1.2/1.3] protocol, per half-warp, with explicit byte sets.
GlobalCost segmentsReference(const Warp &w) {
  GlobalCost c;
  const uint64_t segment = w.bytes == 1 ? 32 : w.bytes == 2 ? 64 : 128;
  for (unsigned half = 0; half < 32; half += 16) {
    std::map<unsigned, uint64_t> pending;
    for (unsigned l = half; l < half + 16; ++l)
      if ((w.mask >> l) & 1u)
        pending[l] = w.addrs[l];
    if (pending.empty())
      continue;
    ++c.requests;
    while (!pending.empty()) {
      uint64_t start = pending.begin()->second / segment * segment;
      std::set<uint64_t> used;
      for (auto it = pending.begin(); it != pending.end();)
        if (it->second / segment * segment == start) {
          for (unsigned b = 0; b < w.bytes; ++b)
            used.insert(it->second + b);
          it = pending.erase(it);
        } else {
          ++it;
        }
      uint64_t size = segment;
      while (size > 32) {
        bool lower = false, upper = false;
        for (uint64_t b : used)
          (b < start + size / 2 ? lower : upper) = true;
        if (lower && upper)
          break;
        start += upper ? size / 2 : 0;
        size /= 2;
      }
      ++c.sectors;
      c.bytesMoved += uint32_t(size);
    }
  }
  return c;
}

// [Guide 1.0/1.1]: coalesced iff 4/8/16-byte words and every active lane k of
// the half-warp at base + k * size with base aligned to min(16 size, 128).
GlobalCost sequentialReference(const Warp &w) {
  GlobalCost c;
  for (unsigned half = 0; half < 32; half += 16) {
    std::vector<unsigned> lanes;
    for (unsigned l = half; l < half + 16; ++l)
      if ((w.mask >> l) & 1u)
        lanes.push_back(l);
    if (lanes.empty())
      continue;
    ++c.requests;
    bool ok = w.bytes >= 4;
    const uint64_t base = w.addrs[lanes[0]] - (lanes[0] - half) * w.bytes;
    for (unsigned l : lanes)
      ok &= w.addrs[l] == base + (l - half) * w.bytes &&
            w.addrs[lanes[0]] >= (lanes[0] - half) * w.bytes;
    ok &= base % std::min(16u * w.bytes, 128u) == 0;
    if (!ok) {
      c.sectors += uint32_t(lanes.size());
      c.bytesMoved += uint32_t(32 * lanes.size());
    } else if (w.bytes < 16) {
      c.sectors += 1;
      c.bytesMoved += 16 * w.bytes;
    } else {
      bool low = false, high = false;
      for (unsigned l : lanes)
        (l - half < 8 ? low : high) = true;
      c.sectors += low + high;
      c.bytesMoved += 128 * (low + high);
    }
  }
  return c;
}

Warp randomWarp(std::mt19937_64 &rng) {
  unsigned bytes = 1u << (rng() % 5);
  uint64_t span = 1 + rng() % 4096;
  uint32_t mask = rng() % 3 == 0 ? 0xffffffffu : uint32_t(rng());
  if (rng() % 4 == 0) { // near-sequential half-warps, to hit coalescing
    uint64_t base = (rng() % 64) * 64;
    return makeWarp(
        [&](unsigned l) {
          return int64_t(base + l * bytes + (rng() % 8 == 0 ? bytes : 0));
        },
        bytes, mask);
  }
  return makeWarp(
      [&](unsigned) {
        return int64_t((1 << 20) + (rng() % span) / bytes * bytes);
      },
      bytes, mask);
}

} // namespace

TEST(GlobalGenerationsTest, GuideFigureFourByteWords) {
  // Aligned and sequential.
  EXPECT_EQ(txOn("sm_10", alignedSequential()), Tx(2, 128)); // 2 x 64B
  EXPECT_EQ(txOn("sm_12", alignedSequential()), Tx(2, 128)); // 2 x 64B
  EXPECT_EQ(txOn("sm_20", alignedSequential()), Tx(1, 128)); // 1 x 128B
  EXPECT_EQ(txOn("sm_20", alignedSequential(), 0), Tx(4, 128));
  EXPECT_EQ(txOn("sm_30", alignedSequential()), Tx(4, 128)); // 4 x 32B
  EXPECT_EQ(txOn("sm_35", alignedSequential(), 1), Tx(1, 128));
  EXPECT_EQ(txOn("sm_90", alignedSequential()), Tx(4, 128));
  // Aligned and non-sequential.
  EXPECT_EQ(txOn("sm_11", alignedPermuted()), Tx(32, 1024)); // 32 x 32B
  EXPECT_EQ(txOn("sm_13", alignedPermuted()), Tx(2, 128));
  EXPECT_EQ(txOn("sm_21", alignedPermuted()), Tx(1, 128));
  EXPECT_EQ(txOn("sm_37", alignedPermuted()), Tx(4, 128));
  // Misaligned and sequential.
  EXPECT_EQ(txOn("sm_10", misalignedSequential()), Tx(32, 1024));
  // 128B at 128, 64B at 192, 32B at 256.
  EXPECT_EQ(txOn("sm_12", misalignedSequential()), Tx(3, 224));
  EXPECT_EQ(txOn("sm_20", misalignedSequential()), Tx(2, 256));
  EXPECT_EQ(txOn("sm_20", misalignedSequential(), 0), Tx(5, 160));
  EXPECT_EQ(txOn("sm_30", misalignedSequential()), Tx(5, 160));
  EXPECT_EQ(txOn("sm_61", misalignedSequential()), Tx(5, 160));
  EXPECT_EQ(txOn("sm_90", misalignedSequential()), Tx(5, 160));
  for (const char *arch : {"sm_10", "sm_12", "sm_20", "sm_30", "sm_90"})
    EXPECT_EQ(costOn(arch, misalignedSequential()).usedBytes, 128u) << arch;
}

// Seed slides, "stride 2 halves load/store efficiency".
TEST(GlobalGenerationsTest, StridedAccess) {
  EXPECT_EQ(txOn("sm_10", strideTwo()), Tx(32, 1024));
  EXPECT_EQ(txOn("sm_12", strideTwo()), Tx(2, 256));
  EXPECT_EQ(txOn("sm_20", strideTwo()), Tx(2, 256));
  GlobalCost sectors = costOn("sm_90", strideTwo());
  EXPECT_EQ(sectors.sectors, 8u);
  EXPECT_EQ(sectors.ideal, 4u);
  EXPECT_DOUBLE_EQ(sectors.efficiency(), 0.5);
  EXPECT_DOUBLE_EQ(costOn("sm_20", strideTwo()).efficiency(), 0.5);
  EXPECT_DOUBLE_EQ(costOn("sm_30", strideTwo()).efficiency(), 0.5);
}

// [Guide 1.x, 2.x, 3.x]: 8- and 16-byte words; requests per instruction.
TEST(GlobalGenerationsTest, WideWordsAndRequests) {
  Warp doubles = makeWarp([](unsigned l) { return 256 + 8 * l; }, 8);
  Warp float4s = makeWarp([](unsigned l) { return 512 + 16 * l; }, 16);
  EXPECT_EQ(txOn("sm_10", doubles), Tx(2, 256)); // 128B per half-warp
  EXPECT_EQ(txOn("sm_10", float4s), Tx(4, 512)); // 2 x 128B per half-warp
  EXPECT_EQ(txOn("sm_13", float4s), Tx(4, 512));
  GlobalCost fermi8 = costOn("sm_20", doubles),
             fermi16 = costOn("sm_20", float4s);
  EXPECT_EQ(fermi8.requests, 2u); // one per half-warp
  EXPECT_EQ(fermi8.sectors, 2u);
  EXPECT_EQ(fermi16.requests, 4u); // one per quarter-warp
  EXPECT_EQ(fermi16.sectors, 4u);
  EXPECT_EQ(fermi16.transactionBytes, 128u);
  GlobalCost kepler16 = costOn("sm_35", float4s);
  EXPECT_EQ(kepler16.requests, 4u);
  EXPECT_EQ(kepler16.sectors, 16u);
  EXPECT_EQ(kepler16.transactionBytes, 32u);
  GlobalCost hopper16 = costOn("sm_90", float4s);
  EXPECT_EQ(hopper16.requests, 1u);
  EXPECT_EQ(hopper16.sectors, 16u);
  EXPECT_EQ(hopper16.ideal, 16u);
  EXPECT_EQ(costOn("sm_10", float4s).requests, 2u); // one per half-warp
  EXPECT_EQ(costOn("sm_90", alignedSequential()).requests, 1u);
  EXPECT_EQ(costOn("sm_52", alignedSequential()).requests, 1u);
}

// [Guide 1.x]: small words, divergent warps, broadcast.
TEST(GlobalGenerationsTest, TeslaDetails) {
  Warp bytes = makeWarp([](unsigned l) { return 128 + l; }, 1);
  Warp shorts = makeWarp([](unsigned l) { return 128 + 2 * l; }, 2);
  EXPECT_EQ(txOn("sm_10", bytes), Tx(32, 1024)); // 1.0/1.1: 4-16 bytes only
  EXPECT_EQ(txOn("sm_12", bytes), Tx(2, 64));    // 32B segment per half-warp
  EXPECT_EQ(txOn("sm_12", shorts), Tx(2, 64));   // 64B reduced to 32B
  // "Coalescing is achieved even if the warp is divergent".
  Warp divergent = alignedSequential();
  divergent.mask = 0x0f0ff0f3u;
  EXPECT_EQ(txOn("sm_10", divergent), Tx(2, 128));
  Warp firstEighth =
      makeWarp([](unsigned l) { return 512 + 16 * l; }, 16, 0x000000ffu);
  EXPECT_EQ(txOn("sm_11", firstEighth), Tx(1, 128));
  // Every lane reads one word: not the k-th word on 1.0; one 32B on 1.2.
  Warp broadcast = makeWarp([](unsigned) { return 4100; });
  EXPECT_EQ(txOn("sm_10", broadcast), Tx(32, 1024));
  EXPECT_EQ(txOn("sm_12", broadcast), Tx(2, 64));
  EXPECT_EQ(txOn("sm_90", broadcast), Tx(1, 32));
  EXPECT_EQ(costOn("sm_12", alignedSequential()).ideal, 2u);
  EXPECT_EQ(costOn("sm_12", misalignedSequential()).ideal, 2u);
}

TEST(GlobalGenerationsTest, DefaultModelIsSm90) {
  std::mt19937_64 rng(5);
  GlobalSectorModel sm90(archNamed("sm_90")), byDefault;
  for (int i = 0; i < 5000; ++i) {
    Warp w = randomWarp(rng);
    GlobalCost a = sm90.cost(w.view()), b = byDefault.cost(w.view());
    ASSERT_EQ(a.sectors, b.sectors);
    ASSERT_EQ(a.ideal, b.ideal);
  }
}

TEST(GlobalGenerationsTest, RandomWarpsMatchDocumentedRules) {
  std::mt19937_64 rng(9);
  for (int iter = 0; iter < 20000; ++iter) {
    Warp w = randomWarp(rng);
    SCOPED_TRACE(iter);
    const unsigned split = std::min(32u, 128 / std::max(4u, w.bytes));
    struct Case {
      const char *arch;
      int l1;
      unsigned lanesPerRequest, unit;
    };
    for (const Case &k :
         {Case{"sm_20", 1, split, 128}, Case{"sm_20", 0, split, 32},
          Case{"sm_35", 1, split, 128}, Case{"sm_35", 0, split, 32},
          Case{"sm_52", -1, split, 32}, Case{"sm_80", -1, 32, 32},
          Case{"sm_90", -1, 32, 32}}) {
      GlobalCost got = costOn(k.arch, w, k.l1),
                 want = cachedReference(w, k.lanesPerRequest, k.unit);
      ASSERT_EQ(got.requests, want.requests) << k.arch;
      ASSERT_EQ(got.sectors, want.sectors) << k.arch;
      ASSERT_EQ(got.ideal, want.ideal) << k.arch;
      ASSERT_EQ(got.usedBytes, want.usedBytes) << k.arch;
      ASSERT_EQ(got.bytesMoved, got.sectors * k.unit) << k.arch;
    }
    for (const char *arch : {"sm_10", "sm_12"}) {
      GlobalCost got = costOn(arch, w);
      GlobalCost want = std::string(arch) == "sm_10" ? sequentialReference(w)
                                                     : segmentsReference(w);
      ASSERT_EQ(got.requests, want.requests) << arch;
      ASSERT_EQ(got.sectors, want.sectors) << arch;
      ASSERT_EQ(got.bytesMoved, want.bytesMoved) << arch;
      ASSERT_GE(got.bytesMoved, got.usedBytes) << arch;
      ASSERT_GE(got.sectors, got.ideal) << arch;
    }
  }
}
