// SIMT control flow: reconvergence at post-dominators, phis across a loop
// with a lane-dependent trip count, barriers, switch, taint notes.
#include "ClangKernels.h"
#include "EngineTestUtil.h"

#include <gtest/gtest.h>

namespace kcheck::sim::test {
namespace {

TEST(EngineControlFlow, ReduceV1EventsAndResult) {
  ParsedKernel p = parseModule(kClangKernels, "_Z9reduce_v1PfS_");
  ASSERT_TRUE(p.kernel) << p.error;
  const DecodedKernel &k = *p.kernel;
  EXPECT_EQ(k.staticSharedBytes(), 1024u);
  ASSERT_EQ(k.sharedVariables().size(), 1u);
  EXPECT_EQ(k.sharedVariables()[0].sourceName, "sdata");

  DeviceMemory mem;
  uint64_t in = mem.allocate(512 * 4, "g_idata");
  uint64_t out = mem.allocate(2 * 4, "g_odata");
  std::vector<float> data(512);
  for (int i = 0; i < 512; ++i)
    data[i] = float(i % 7);
  ASSERT_TRUE(mem.write(in, data.data(), data.size() * 4));

  BlockRunner runner(k, launch1d(2, 256), {{in}, {out}}, mem);
  RecordingSink sink;
  for (uint32_t b = 0; b < 2; ++b) {
    BlockResult r = runner.runBlock({b, 1, 1}, sink);
    ASSERT_TRUE(r.ok()) << r.message;
  }
  auto result = readFloats(mem, out, 2);
  float expect0 = 0, expect1 = 0;
  for (int i = 0; i < 256; ++i)
    expect0 += data[i], expect1 += data[256 + i];
  EXPECT_EQ(result[0], expect0);
  EXPECT_EQ(result[1], expect1);
  EXPECT_TRUE(runner.notes().empty());

  auto loads = instsWithOpcode(k, "load");
  auto stores = instsWithOpcode(k, "store");
  ASSERT_EQ(loads.size(), 4u);
  ASSERT_EQ(stores.size(), 3u);
  // Line 9: sdata[tid] = g_idata[i]: one full-warp event per warp and block.
  EXPECT_EQ(k.insts()[loads[0]].space, MemSpace::Global);
  EXPECT_EQ(k.insts()[stores[0]].space, MemSpace::Shared);
  EXPECT_EQ(k.insts()[stores[0]].objectName, "sdata");
  EXPECT_EQ(k.insts()[stores[0]].inlineChain.at(0).line, 9u);
  auto globalLoads = sink.of(loads[0]);
  ASSERT_EQ(globalLoads.size(), 16u);
  EXPECT_EQ(globalLoads[9].addrs[5], in + 4 * (256 + 32 + 5)); // block 1 warp 1
  for (const auto &a : globalLoads)
    EXPECT_EQ(a.activeMask, kFullMask);
  auto sharedStores = sink.of(stores[0]);
  ASSERT_EQ(sharedStores.size(), 16u);
  EXPECT_EQ(sharedStores[3].space, MemSpace::Shared);
  EXPECT_EQ(sharedStores[3].addrs[7], 4u * (96 + 7));

  // Line 13, per block: s=1: 4 warps, s=2: 2, s=4..128: warp 0 only.
  auto partial = sink.of(loads[1]);
  ASSERT_EQ(partial.size(), 2u * 12u);
  const uint32_t masks[12] = {kFullMask, kFullMask, kFullMask, kFullMask,
                              kFullMask, kFullMask, kFullMask, 0xffff,
                              0xff,      0xf,       0x3,       0x1};
  for (int i = 0; i < 12; ++i) {
    EXPECT_EQ(partial[i].activeMask, masks[i]) << i;
    EXPECT_EQ(partial[i].space, MemSpace::Shared);
  }
  // s = 8 (event 7): index = 16 * tid, load of sdata[index + 8].
  EXPECT_EQ(partial[7].addrs[3], 4u * (16 * 3 + 8));
  EXPECT_EQ(sink.of(loads[3]).size(), 2u); // tid == 0 only
  EXPECT_EQ(sink.of(loads[3])[0].activeMask, 1u);

  // The if at line 13 runs 8 iterations x 8 warps per block.
  uint32_t ifBranch = 0;
  for (uint32_t i = 0; i < k.insts().size(); ++i)
    if (k.insts()[i].isConditionalBranch &&
        k.insts()[i].inlineChain.at(0).line == 13)
      ifBranch = i;
  unsigned executions = 0, divergent = 0;
  for (const BranchEvent &b : sink.branches)
    if (b.instId == ifBranch) {
      ++executions;
      divergent += b.takenMask != 0 && b.takenMask != b.activeMask;
    }
  EXPECT_EQ(executions, 2u * 64u);
  EXPECT_EQ(divergent, 2u * 5u); // s = 8..128 in warp 0
}

TEST(EngineControlFlow, LaneDependentTripCountReconverges) {
  ParsedKernel p = parseModule(kClangKernels, "_Z9tripcountPi");
  ASSERT_TRUE(p.kernel) << p.error;
  DeviceMemory mem;
  uint64_t out = mem.allocate(80 * 4, "out");
  int32_t weights[5] = {1, 2, 3, 4, 5};
  ASSERT_TRUE(mem.write(out + 64 * 4, weights, sizeof weights));
  BlockRunner runner(*p.kernel, launch1d(1, 40), {{out}}, mem);
  RecordingSink sink;
  BlockResult r = runner.runBlock({0, 0, 0}, sink);
  ASSERT_TRUE(r.ok()) << r.message;

  auto got = readInts(mem, out, 40);
  for (int t = 0; t < 40; ++t) {
    int sum = 0;
    for (int i = 0; i < t % 5; ++i)
      sum += (i + 1) * weights[i];
    int expect = (t & 1) ? sum * 3 : sum + 100;
    EXPECT_EQ(got[t], expect) << "thread " << t;
  }
  auto loads = instsWithOpcode(*p.kernel, "load");
  ASSERT_EQ(loads.size(), 1u);
  auto loopLoads = sink.of(loads[0]);
  // Warp 0: 4 iterations; lanes with t%5 > i stay. Warp 1 (8 lanes): same.
  // (The warps take turns at global loads: their events interleave.)
  ASSERT_EQ(loopLoads.size(), 8u);
  std::vector<RecordedAccess> warp0;
  for (const RecordedAccess &a : loopLoads)
    if (a.warp == 0)
      warp0.push_back(a);
  ASSERT_EQ(warp0.size(), 4u);
  uint32_t expectMask = 0;
  for (int t = 0; t < 32; ++t)
    if (t % 5 > 2)
      expectMask |= 1u << t;
  EXPECT_EQ(warp0[2].activeMask, expectMask);
  // After the loop every lane is back: one full store per warp.
  auto stores = sink.of(instsWithOpcode(*p.kernel, "store")[0]);
  ASSERT_EQ(stores.size(), 2u);
  EXPECT_EQ(stores[0].activeMask, kFullMask);
  EXPECT_EQ(stores[1].activeMask, 0xffu); // partial last warp
}

// Nested divergence with a switch and a loop whose exit differs per lane;
// each lane's result checks the phis at reconvergence points.
TEST(EngineControlFlow, SwitchAndNestedDivergence) {
  const char *ir = R"IR(
define ptx_kernel void @k(ptr addrspace(1) %out) !dbg !3 {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %sel = and i32 %t, 3
  switch i32 %sel, label %other [ i32 0, label %zero
                                  i32 1, label %one ], !dbg !12
zero:
  br label %join
one:
  %odd = and i32 %t, 4
  %c = icmp eq i32 %odd, 0
  br i1 %c, label %join, label %deep, !dbg !14
deep:
  br label %join
other:
  br label %join
join:
  %v = phi i32 [ 10, %zero ], [ 20, %one ], [ 30, %deep ], [ %t, %other ]
  %idx = zext i32 %t to i64
  %p = getelementptr i32, ptr addrspace(1) %out, i64 %idx
  store i32 %v, ptr addrspace(1) %p, !dbg !16
  ret void
}
)IR";
  ParsedKernel p = parseKernel(ir, "k");
  ASSERT_TRUE(p.kernel) << p.error;
  DeviceMemory mem;
  uint64_t out = mem.allocate(32 * 4, "out");
  BlockRunner runner(*p.kernel, launch1d(1, 32), {{out}}, mem);
  RecordingSink sink;
  ASSERT_TRUE(runner.runBlock({0, 0, 0}, sink).ok());
  auto got = readInts(mem, out, 32);
  for (int t = 0; t < 32; ++t) {
    int expect = (t & 3) == 0 ? 10 : (t & 3) == 1 ? ((t & 4) ? 30 : 20) : t;
    EXPECT_EQ(got[t], expect) << t;
  }
  ASSERT_EQ(sink.accesses.size(), 1u);
  EXPECT_EQ(sink.accesses[0].activeMask, kFullMask);
  ASSERT_EQ(sink.branches.size(), 2u);
  EXPECT_EQ(sink.branches[0].takenMask, 0xccccccccu); // default: t&3 in {2,3}
  EXPECT_EQ(sink.branches[1].activeMask, 0x22222222u);
}

// Half of each warp reaches the barrier; the other half waits to
// reconverge at `done`, where both store: barrier divergence.
TEST(EngineControlFlow, BarrierInDivergentCodeIsNoted) {
  const char *ir = R"IR(
define ptx_kernel void @k(ptr addrspace(1) %out) !dbg !3 {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = icmp ult i32 %t, 16
  br i1 %c, label %sync, label %done, !dbg !11
sync:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !12
  br label %done
done:
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 1, ptr addrspace(1) %p
  ret void
}
)IR";
  ParsedKernel p = parseKernel(ir, "k");
  ASSERT_TRUE(p.kernel) << p.error;
  DeviceMemory mem;
  uint64_t out = mem.allocate(64 * 4, "out");
  BlockRunner runner(*p.kernel, launch1d(1, 64), {{out}}, mem);
  RecordingSink sink;
  ASSERT_TRUE(runner.runBlock({0, 0, 0}, sink).ok());
  auto notes = runner.notes();
  ASSERT_FALSE(notes.empty());
  EXPECT_NE(notes[0].find("k.cu:12"), std::string::npos) << notes[0];
}

// Threads that exit are not waited for (sm_70 and later): the lanes that
// skip the barrier only return, whole warps exit early, or lanes take their
// own path to the exit (run before the barrier, though the lanes that stay
// come first). No note, the block completes, and every barrier arrival
// holds the warp's live lanes.
TEST(EngineControlFlow, ExitedThreadsAreNotWaitedFor) {
  const char *ir = R"IR(
define ptx_kernel void @k(ptr addrspace(1) %out, i32 %n) !dbg !3 {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %lane = and i32 %t, 31
  %early = icmp uge i32 %t, %n
  br i1 %early, label %done, label %work, !dbg !11
work:
  %stay = icmp ult i32 %lane, 24
  br i1 %stay, label %sync, label %leave
leave:
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 2, ptr addrspace(1) %q
  ret void
sync:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !12
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 1, ptr addrspace(1) %p
  br label %done
done:
  ret void
}
)IR";
  ParsedKernel p = parseKernel(ir, "k");
  ASSERT_TRUE(p.kernel) << p.error;
  DeviceMemory mem;
  uint64_t out = mem.allocate(128 * 4, "out");
  // Threads 0-69 work: warp 2 is partial, warp 3 exits whole.
  BlockRunner runner(*p.kernel, launch1d(1, 128), {{out}, {70}}, mem);
  RecordingSink sink;
  ASSERT_TRUE(runner.runBlock({0, 0, 0}, sink).ok());
  EXPECT_TRUE(runner.notes().empty()) << runner.notes()[0];
  ASSERT_EQ(sink.barriers.size(), 3u);
  for (const BarrierEvent &b : sink.barriers)
    EXPECT_EQ(b.activeMask, b.liveMask) << "warp " << b.warp;
  std::vector<int32_t> host = readInts(mem, out, 128);
  for (int t = 0; t < 128; ++t)
    EXPECT_EQ(host[t], t >= 70 ? 0 : t % 32 >= 24 ? 2 : 1) << t;
}

TEST(EngineControlFlow, BranchOnUnseenInputIsNoted) {
  ParsedKernel p = parseModule(kClangKernels, "_Z5histoPiS_");
  ASSERT_TRUE(p.kernel) << p.error;
  DeviceMemory mem;
  uint64_t in = mem.allocate(32 * 4, "in");
  uint64_t bins = mem.allocate(8 * 4, "bins");
  int32_t zeros[8] = {};
  mem.write(bins, zeros, sizeof zeros);
  BlockRunner runner(*p.kernel, launch1d(1, 32), {{in}, {bins}}, mem);
  RecordingSink sink;
  ASSERT_TRUE(runner.runBlock({0, 0, 0}, sink).ok());
  auto notes = runner.notes();
  ASSERT_EQ(notes.size(), 1u);
  // The IR names t.cu in /tmp/eng: printed with its directory, a path
  // that opens (core/SourcePath.h).
  EXPECT_NE(notes[0].find("branch at /tmp/eng/t.cu:37 depends on input data"),
            std::string::npos)
      << notes[0];

  // Once the host has written the input, the branch is not input-derived.
  DeviceMemory mem2;
  uint64_t in2 = mem2.allocate(32 * 4, "in");
  uint64_t bins2 = mem2.allocate(8 * 4, "bins");
  std::vector<int32_t> values(32);
  for (int t = 0; t < 32; ++t)
    values[t] = t % 8;
  mem2.write(in2, values.data(), 32 * 4);
  mem2.write(bins2, zeros, sizeof zeros);
  BlockRunner runner2(*p.kernel, launch1d(1, 32), {{in2}, {bins2}}, mem2);
  RecordingSink sink2;
  ASSERT_TRUE(runner2.runBlock({0, 0, 0}, sink2).ok());
  EXPECT_TRUE(runner2.notes().empty());
  auto got = readInts(mem2, bins2, 5);
  EXPECT_EQ(got, (std::vector<int32_t>{16, 8, 8, 8, 8}));
  ASSERT_EQ(sink2.accesses.size(), 3u);
  EXPECT_EQ(sink2.accesses[1].kind, AccessKind::Atomic);
  EXPECT_EQ(sink2.accesses[1].activeMask, 0xf0f0f0f0u);
}

} // namespace
} // namespace kcheck::sim::test

namespace kcheck::sim::test {
namespace {

// Many blocks through one runner: results stay right when register files and
// shared memory are reused across blocks.
TEST(EngineControlFlow, ReduceV1ManyBlocksReuseRunner) {
  ParsedKernel p = parseModule(kClangKernels, "_Z9reduce_v1PfS_");
  ASSERT_TRUE(p.kernel) << p.error;
  const uint32_t blocks = 2048;
  DeviceMemory mem;
  uint64_t in = mem.allocate(blocks * 256 * 4, "in");
  uint64_t out = mem.allocate(blocks * 4, "out");
  std::vector<float> data(blocks * 256);
  for (size_t i = 0; i < data.size(); ++i)
    data[i] = float(i % 3);
  mem.write(in, data.data(), data.size() * 4);
  core::LaunchConfig cfg;
  cfg.grid = {blocks, 1, 1};
  cfg.block = {256, 1, 1};
  BlockRunner runner(*p.kernel, cfg, {{in}, {out}}, mem);
  struct CountingSink : EventSink {
    uint64_t accesses = 0;
    void onAccess(const WarpAccess &) override { ++accesses; }
  } sink;
  uint64_t steps = 0;
  for (uint32_t b = 0; b < blocks; ++b) {
    BlockResult r = runner.runBlock({b, 0, 0}, sink);
    ASSERT_TRUE(r.ok()) << r.message;
    steps += r.warpSteps;
  }
  auto got = readFloats(mem, out, blocks);
  for (uint32_t b = 0; b < blocks; ++b) {
    float expect = 0;
    for (int i = 0; i < 256; ++i)
      expect += data[b * 256 + i];
    ASSERT_EQ(got[b], expect) << b;
  }
  // Per block: 8 + 8 global/shared, 24 + 12 in the loop, 1 + 1 at the end.
  EXPECT_EQ(sink.accesses, uint64_t(blocks) * 54);
  RecordProperty("warp_steps", std::to_string(steps));
}

} // namespace
} // namespace kcheck::sim::test
