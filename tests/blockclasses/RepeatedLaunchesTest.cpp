// Launches repeated on unchanged input take the earlier result
// (simulator/RepeatedLaunches.h): the same counts as simulating them again,
// and a new simulation whenever the memory they read changed in between.
#include "../engine/EngineTestUtil.h"

#include "core/ArchSpec.h"
#include "simulator/Predictor.h"
#include "simulator/RepeatedLaunches.h"

#include <gtest/gtest.h>

namespace kcheck::sim {
namespace {

using test::launch1d;
using test::ParsedKernel;
using test::parseKernel;

// out[i] = in[i] where in[i] > 0: what it stores depends on the input.
const char *kKeepPositive = R"(
define ptx_kernel void @keep(ptr addrspace(1) %in, ptr addrspace(1) %out) !dbg !3 {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bd = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = mul i32 %bx, %bd
  %i = add i32 %base, %tx
  %idx = sext i32 %i to i64
  %src = getelementptr i32, ptr addrspace(1) %in, i64 %idx
  %v = load i32, ptr addrspace(1) %src, align 4, !dbg !10
  %pos = icmp sgt i32 %v, 0
  br i1 %pos, label %body, label %done
body:
  %dst = getelementptr i32, ptr addrspace(1) %out, i64 %idx
  store i32 %v, ptr addrspace(1) %dst, align 4, !dbg !11
  br label %done
done:
  ret void
}
)";

// a[i] += 1 while a[i] < 2: it reads what it writes, so each launch differs.
const char *kIncrementInPlace = R"(
define ptx_kernel void @inc(ptr addrspace(1) %a) !dbg !3 {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %idx = zext i32 %tx to i64
  %p = getelementptr i32, ptr addrspace(1) %a, i64 %idx
  %v = load i32, ptr addrspace(1) %p, align 4, !dbg !10
  %small = icmp slt i32 %v, 2
  br i1 %small, label %body, label %done
body:
  %w = add i32 %v, 1
  store i32 %w, ptr addrspace(1) %p, align 4, !dbg !11
  br label %done
done:
  ret void
}
)";

uint64_t stores(const LaunchResult &r) {
  return r.total[core::Metric::GlobalStInst];
}

void writeInts(DeviceMemory &mem, uint64_t addr, std::vector<int32_t> v) {
  ASSERT_TRUE(mem.write(addr, v.data(), v.size() * 4));
}

TEST(RepeatedLaunches, RepeatOnUnchangedInputTakesTheEarlierResult) {
  ParsedKernel p = parseKernel(kKeepPositive, "keep");
  ASSERT_TRUE(p.kernel) << p.error;
  core::ArchSpec arch = *core::findArch("sm_90");
  DeviceMemory mem, fresh;
  uint64_t in = mem.allocate(256 * 4, "in"), out = mem.allocate(256 * 4, "out");
  fresh.allocate(256 * 4, "in"), fresh.allocate(256 * 4, "out");
  std::vector<int32_t> half(256, 0);
  for (int i = 0; i < 128; ++i) // warps 0-3 store, warps 4-7 do not
    half[i] = i + 1;
  writeInts(mem, in, half);
  writeInts(fresh, in, half);
  core::LaunchConfig c = launch1d(2, 128);
  std::vector<KernelArg> args = {{in}, {out}};
  Predictor predictor(arch, true), every(arch, true);
  every.setReuseRepeats(false);

  LaunchResult first = predictor.run(*p.kernel, c, args, mem, {});
  LaunchResult again = predictor.run(*p.kernel, c, args, mem, {});
  LaunchResult simulated = every.run(*p.kernel, c, args, fresh, {});
  simulated = every.run(*p.kernel, c, args, fresh, {});
  EXPECT_FALSE(first.repeated);
  EXPECT_TRUE(again.repeated);
  EXPECT_EQ(again.total.v, simulated.total.v);
  // One copy of the per-instruction statistics, not one per launch.
  EXPECT_TRUE(again.perInst.sharesWith(first.perInst));
  ASSERT_EQ(again.perInst.size(), simulated.perInst.size());
  for (size_t i = 0; i < again.perInst.size(); ++i)
    EXPECT_EQ(again.perInst[i].global.sectors,
              simulated.perInst[i].global.sectors);
  EXPECT_EQ(stores(again), 4u);

  // Another argument (n/a here: the grid) is another launch.
  LaunchResult oneBlock =
      predictor.run(*p.kernel, launch1d(1, 128), args, mem, {});
  EXPECT_FALSE(oneBlock.repeated);

  // The host changes the input: simulated again, with the new counts.
  writeInts(mem, in, std::vector<int32_t>(256, 1));
  LaunchResult changed = predictor.run(*p.kernel, c, args, mem, {});
  EXPECT_FALSE(changed.repeated);
  EXPECT_EQ(stores(changed), 8u);

  // Another launch writes the input: simulated again.
  LaunchResult copyBack =
      predictor.run(*p.kernel, c, {{out}, {in}}, mem, {}); // in = out
  EXPECT_FALSE(copyBack.repeated);
  LaunchResult afterCopy = predictor.run(*p.kernel, c, args, mem, {});
  EXPECT_FALSE(afterCopy.repeated);
  EXPECT_EQ(stores(afterCopy), 8u);
}

std::vector<int32_t> readInts(const DeviceMemory &mem, uint64_t addr,
                              size_t n) {
  std::vector<int32_t> v(n);
  EXPECT_TRUE(mem.read(addr, v.data(), n * 4));
  return v;
}

TEST(RepeatedLaunches,
     ALaunchThatReadsWhatItWritesIsSimulatedWhileItsInputChanges) {
  ParsedKernel p = parseKernel(kIncrementInPlace, "inc");
  ASSERT_TRUE(p.kernel) << p.error;
  core::ArchSpec arch = *core::findArch("sm_90");
  DeviceMemory mem;
  uint64_t a = mem.allocate(32 * 4, "a");
  writeInts(mem, a, std::vector<int32_t>(32, 0));
  Predictor predictor(arch, true);
  std::vector<KernelArg> args = {{a}};
  std::vector<uint64_t> perLaunch;
  std::vector<bool> repeated;
  for (int k = 0; k < 5; ++k) {
    LaunchResult r = predictor.run(*p.kernel, launch1d(1, 32), args, mem, {});
    repeated.push_back(r.repeated);
    perLaunch.push_back(stores(r));
  }
  // 0 -> 1 -> 2, then 2 stays 2: the fourth launch starts from what the
  // third did (images taken then) and takes its result.
  EXPECT_EQ(perLaunch, (std::vector<uint64_t>{1, 1, 0, 0, 0}));
  EXPECT_EQ(repeated, (std::vector<bool>{false, false, false, true, true}));
  EXPECT_EQ(readInts(mem, a, 32), std::vector<int32_t>(32, 2));
}

TEST(RepeatedLaunches,
     ABufferClearedBeforeEachLaunchGetsTheEarlierLaunchsBytes) {
  ParsedKernel p = parseKernel(kIncrementInPlace, "inc");
  ASSERT_TRUE(p.kernel) << p.error;
  core::ArchSpec arch = *core::findArch("sm_90");
  DeviceMemory mem;
  uint64_t a = mem.allocate(32 * 4, "a");
  Predictor predictor(arch, true);
  std::vector<KernelArg> args = {{a}};
  std::vector<int32_t> start(32, 0);
  start[5] = 7; // stays: the kernel stores only below 2
  for (int k = 0; k < 4; ++k) {
    writeInts(mem, a, start); // as cudaMemset before each timed launch
    LaunchResult r = predictor.run(*p.kernel, launch1d(1, 32), args, mem, {});
    EXPECT_EQ(r.repeated, k >= 2) << k; // the second takes the images
    EXPECT_EQ(stores(r), 1u) << k;
    std::vector<int32_t> want(32, 1);
    want[5] = 7;
    EXPECT_EQ(readInts(mem, a, 32), want) << k;
  }
  // The same bytes but not written by the host (never-written bytes read as
  // input-derived): another input, simulated again.
  DeviceMemory other;
  uint64_t b = other.allocate(32 * 4, "a");
  ASSERT_EQ(a, b);
  Predictor second(arch, true);
  for (int k = 0; k < 2; ++k)
    second.run(*p.kernel, launch1d(1, 32), args, other, {});
  writeInts(other, b, std::vector<int32_t>(32, 0));
  EXPECT_FALSE(
      second.run(*p.kernel, launch1d(1, 32), args, other, {}).repeated);
}

TEST(RepeatedLaunches, AnOutputTheHostClearsBeforeEachLaunchIsWrittenAgain) {
  ParsedKernel p = parseKernel(kKeepPositive, "keep");
  ASSERT_TRUE(p.kernel) << p.error;
  core::ArchSpec arch = *core::findArch("sm_90");
  DeviceMemory mem;
  uint64_t in = mem.allocate(256 * 4, "in"), out = mem.allocate(256 * 4, "out");
  std::vector<int32_t> input(256, 0);
  for (int i = 0; i < 256; i += 3)
    input[i] = i + 1;
  writeInts(mem, in, input);
  Predictor predictor(arch, true);
  std::vector<KernelArg> args = {{in}, {out}};
  for (int k = 0; k < 3; ++k) {
    writeInts(mem, out, std::vector<int32_t>(256, -1)); // cleared each time
    LaunchResult r = predictor.run(*p.kernel, launch1d(2, 128), args, mem, {});
    EXPECT_EQ(r.repeated, k == 2) << k;
    std::vector<int32_t> want(256, -1);
    for (int i = 0; i < 256; i += 3)
      want[i] = i + 1;
    EXPECT_EQ(readInts(mem, out, 256), want) << k;
  }
}

// An input too large to image (past kMaxImageBytesPerLaunch), uploaded again
// before each launch, and an output cleared each time (a graph of memcpy,
// memset, kernel): the input is known unchanged by the change clock, the
// output by its image.
TEST(RepeatedLaunches, AnInputTooLargeToImageIsKnownUnchangedByItsClock) {
  ParsedKernel p = parseKernel(kKeepPositive, "keep");
  ASSERT_TRUE(p.kernel) << p.error;
  core::ArchSpec arch = *core::findArch("sm_90");
  DeviceMemory mem;
  const size_t n = RepeatedLaunches::kMaxImageBytesPerLaunch / 4 + 4096;
  uint64_t in = mem.allocate(n * 4, "in"), out = mem.allocate(256 * 4, "out");
  std::vector<int32_t> input(n, 0);
  for (size_t i = 0; i < 256; i += 3)
    input[i] = int32_t(i + 1);
  Predictor predictor(arch, true);
  std::vector<KernelArg> args = {{in}, {out}};
  for (int k = 0; k < 4; ++k) {
    if (k == 3)
      input[n - 1] = 5; // a byte it does not read: still another input
    writeInts(mem, in, input);
    writeInts(mem, out, std::vector<int32_t>(256, -1));
    LaunchResult r = predictor.run(*p.kernel, launch1d(2, 128), args, mem, {});
    EXPECT_EQ(r.repeated, k == 2) << k;
    std::vector<int32_t> want(256, -1);
    for (int i = 0; i < 256; i += 3)
      want[i] = i + 1;
    EXPECT_EQ(readInts(mem, out, 256), want) << k;
  }
}

} // namespace
} // namespace kcheck::sim
