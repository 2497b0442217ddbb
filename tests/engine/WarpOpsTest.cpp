// Warp-level operations: shuffles with PTX clamp semantics, votes, vector
// loads, device printf.
#include "ClangKernels.h"
#include "EngineTestUtil.h"

#include <gtest/gtest.h>

#include <sstream>

namespace kcheck::sim::test {
namespace {

core::LaunchConfig oneWarp(uint32_t threads = 32) {
  core::LaunchConfig cfg;
  cfg.block = {threads, 1, 1};
  return cfg;
}

TEST(EngineWarpOps, ShuffleDownAndXorReductions) {
  ParsedKernel p = parseModule(kClangKernels, "_Z7warpsumPfPi");
  ASSERT_TRUE(p.kernel) << p.error;
  DeviceMemory mem;
  uint64_t outF = mem.allocate(32 * 4, "out");
  uint64_t outI = mem.allocate(32 * 4, "outi");
  BlockRunner runner(*p.kernel, oneWarp(), {{outF}, {outI}}, mem);
  RecordingSink sink;
  ASSERT_TRUE(runner.runBlock({0, 0, 0}, sink).ok());

  // Reference: shfl.down with clamp 31 reads lane + delta, or its own value
  // past lane 31.
  float v[32];
  for (int l = 0; l < 32; ++l)
    v[l] = float(l);
  for (int delta = 16; delta > 0; delta /= 2) {
    float next[32];
    for (int l = 0; l < 32; ++l)
      next[l] = v[l] + (l + delta <= 31 ? v[l + delta] : v[l]);
    std::copy(next, next + 32, v);
  }
  auto gotF = readFloats(mem, outF, 32);
  auto gotI = readInts(mem, outI, 32);
  EXPECT_EQ(gotF[0], 496.0f);
  for (int l = 0; l < 32; ++l) {
    EXPECT_EQ(gotF[l], v[l]) << l;
    EXPECT_EQ(gotI[l], 496) << l; // xor butterfly: every lane gets the sum
  }
}

TEST(EngineWarpOps, ShuffleWidthAndUp) {
  // width 8: c = ((32 - 8) << 8) | 7 for down/idx, (32 - 8) << 8 for up.
  const char *ir = R"IR(
declare i32 @llvm.nvvm.shfl.sync.up.i32(i32, i32, i32, i32)
declare i32 @llvm.nvvm.shfl.sync.idx.i32(i32, i32, i32, i32)
define ptx_kernel void @k(ptr addrspace(1) %out) !dbg !3 {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %up = call i32 @llvm.nvvm.shfl.sync.up.i32(i32 -1, i32 %t, i32 2, i32 6144)
  %idx = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 %t, i32 3, i32 6151)
  %i = zext i32 %t to i64
  %p = getelementptr i32, ptr addrspace(1) %out, i64 %i
  store i32 %up, ptr addrspace(1) %p
  %q = getelementptr i8, ptr addrspace(1) %p, i64 128
  store i32 %idx, ptr addrspace(1) %q
  ret void
}
)IR";
  ParsedKernel p = parseKernel(ir, "k");
  ASSERT_TRUE(p.kernel) << p.error;
  DeviceMemory mem;
  uint64_t out = mem.allocate(64 * 4, "out");
  BlockRunner runner(*p.kernel, oneWarp(), {{out}}, mem);
  RecordingSink sink;
  ASSERT_TRUE(runner.runBlock({0, 0, 0}, sink).ok());
  auto got = readInts(mem, out, 64);
  for (int l = 0; l < 32; ++l) {
    int segment = l & ~7;
    EXPECT_EQ(got[l], (l - segment) >= 2 ? l - 2 : l) << "up " << l;
    EXPECT_EQ(got[32 + l], segment + 3) << "idx " << l;
  }
}

TEST(EngineWarpOps, BallotAndActiveMaskInDivergentCode) {
  const char *ir = R"IR(
declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1)
declare i32 @llvm.nvvm.activemask()
define ptx_kernel void @k(ptr addrspace(1) %out) !dbg !3 {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %odd = and i32 %t, 1
  %isOdd = icmp ne i32 %odd, 0
  %ballot = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %isOdd)
  %low = icmp ult i32 %t, 8
  br i1 %low, label %then, label %join, !dbg !12
then:
  %am = call i32 @llvm.nvvm.activemask()
  br label %join
join:
  %r = phi i32 [ %am, %then ], [ %ballot, %entry ]
  %i = zext i32 %t to i64
  %p = getelementptr i32, ptr addrspace(1) %out, i64 %i
  store i32 %r, ptr addrspace(1) %p
  ret void
}
)IR";
  ParsedKernel p = parseKernel(ir, "k");
  ASSERT_TRUE(p.kernel) << p.error;
  DeviceMemory mem;
  uint64_t out = mem.allocate(32 * 4, "out");
  BlockRunner runner(*p.kernel, oneWarp(), {{out}}, mem);
  RecordingSink sink;
  ASSERT_TRUE(runner.runBlock({0, 0, 0}, sink).ok());
  auto got = readInts(mem, out, 32);
  for (int l = 0; l < 32; ++l)
    EXPECT_EQ(uint32_t(got[l]), l < 8 ? 0xffu : 0xaaaaaaaau) << l;
}

// A runtime member mask must name the calling lane (the H100 stops the
// kernel with an illegal instruction); a constant one is not checked (no
// WARPSYNC on the H100), nor are lanes that exited before the call.
TEST(EngineWarpOps, MemberMaskLeavingOutTheCallerFaults) {
  const char *ir = R"IR(
declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1)
declare i32 @llvm.nvvm.shfl.sync.idx.i32(i32, i32, i32, i32)
declare void @llvm.nvvm.bar.warp.sync(i32)
define ptx_kernel void @k(ptr addrspace(1) %out, i32 %which) !dbg !3 {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bit = shl i32 1, %t
  %below = sub i32 %bit, 1
  %notMe = xor i32 %bit, -1
  %high = icmp uge i32 %t, 16
  switch i32 %which, label %done [ i32 0, label %below.vote
                                   i32 1, label %const.vote
                                   i32 2, label %own.vote
                                   i32 3, label %shfl
                                   i32 4, label %exited ], !dbg !12
below.vote:
  %a = call i32 @llvm.nvvm.vote.ballot.sync(i32 %below, i1 true)
  br label %done
const.vote:
  %b = call i32 @llvm.nvvm.vote.ballot.sync(i32 -2, i1 true)
  br label %done
own.vote:
  %c = call i32 @llvm.nvvm.vote.ballot.sync(i32 %bit, i1 true)
  br label %done
shfl:
  %d = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 %notMe, i32 %t, i32 0, i32 31)
  br label %done
exited:
  br i1 %high, label %done, label %sync
sync:
  %full = or i32 %bit, -1 ; a runtime mask naming every lane
  call void @llvm.nvvm.bar.warp.sync(i32 %full)
  br label %done
done:
  %r = phi i32 [ %a, %below.vote ], [ %b, %const.vote ], [ %c, %own.vote ], [ %d, %shfl ], [ 0, %exited ], [ 1, %sync ], [ 2, %entry ]
  %i = zext i32 %t to i64
  %p = getelementptr i32, ptr addrspace(1) %out, i64 %i
  store i32 %r, ptr addrspace(1) %p
  ret void
}
)IR";
  ParsedKernel p = parseKernel(ir, "k");
  ASSERT_TRUE(p.kernel) << p.error;
  for (uint32_t which = 0; which < 5; ++which) {
    DeviceMemory mem;
    uint64_t out = mem.allocate(32 * 4, "out");
    BlockRunner runner(*p.kernel, oneWarp(), {{out}, {which}}, mem);
    RecordingSink sink;
    BlockResult r = runner.runBlock({0, 0, 0}, sink);
    bool faults = which == 0 || which == 3;
    EXPECT_EQ(r.ok(), !faults) << which;
    if (!faults)
      continue;
    ASSERT_TRUE(r.fault) << which;
    EXPECT_EQ(r.fault->cause, FaultCause::WarpMemberMask);
    EXPECT_EQ(r.fault->thread, (core::Dim3{0, 0, 0}));
    EXPECT_EQ(r.fault->address, which == 0 ? 0u : 0xfffffffeu);
  }
}

TEST(EngineWarpOps, Float4LoadIsOneSixteenByteAccess) {
  const char *ir = R"IR(
define ptx_kernel void @k(ptr addrspace(1) %in, ptr addrspace(1) %out) !dbg !3 {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %p = getelementptr <4 x float>, ptr addrspace(1) %in, i64 %i
  %v = load <4 x float>, ptr addrspace(1) %p, align 16, !dbg !20
  %x = extractelement <4 x float> %v, i32 0
  %w = extractelement <4 x float> %v, i64 3
  %s = fadd float %x, %w
  %sh = shufflevector <4 x float> %v, <4 x float> poison, <2 x i32> <i32 1, i32 2>
  %pair = bitcast <2 x float> %sh to i64
  %q = getelementptr float, ptr addrspace(1) %out, i64 %i
  store float %s, ptr addrspace(1) %q, !dbg !21
  %r = getelementptr i64, ptr addrspace(1) %out, i64 %i
  %r2 = getelementptr i8, ptr addrspace(1) %r, i64 128
  store i64 %pair, ptr addrspace(1) %r2, !dbg !22
  ret void
}
)IR";
  ParsedKernel p = parseKernel(ir, "k");
  ASSERT_TRUE(p.kernel) << p.error;
  auto loads = instsWithOpcode(*p.kernel, "load");
  ASSERT_EQ(loads.size(), 1u);
  EXPECT_EQ(p.kernel->insts()[loads[0]].bytesPerLane, 16u);
  DeviceMemory mem;
  uint64_t in = mem.allocate(32 * 16, "in");
  uint64_t out = mem.allocate(32 * 4 + 32 * 8, "out");
  std::vector<float> data(128);
  for (int i = 0; i < 128; ++i)
    data[i] = float(i);
  mem.write(in, data.data(), 128 * 4);
  BlockRunner runner(*p.kernel, oneWarp(), {{in}, {out}}, mem);
  RecordingSink sink;
  ASSERT_TRUE(runner.runBlock({0, 0, 0}, sink).ok());
  auto ev = sink.of(loads[0]);
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].bytesPerLane, 16u);
  EXPECT_EQ(ev[0].addrs[2], in + 32);
  auto got = readFloats(mem, out, 32 + 64);
  for (int l = 0; l < 32; ++l) {
    EXPECT_EQ(got[l], float(4 * l + 4 * l + 3));
    EXPECT_EQ(got[32 + 2 * l], float(4 * l + 1));
    EXPECT_EQ(got[32 + 2 * l + 1], float(4 * l + 2));
  }
}

TEST(EngineWarpOps, DevicePrintfPerLane) {
  const char *ir = R"IR(
@.str = private unnamed_addr constant [18 x i8] c"t=%d x=%.1f s=%s\0A\00", align 1
@.name = private unnamed_addr constant [3 x i8] c"ok\00", align 1
declare i32 @vprintf(ptr, ptr)
define ptx_kernel void @k() !dbg !3 {
  %buf = alloca { i32, double, ptr }, align 8
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  store i32 %t, ptr %buf, align 8
  %f = uitofp i32 %t to double
  %h = fmul double %f, 5.000000e-01
  %p1 = getelementptr i8, ptr %buf, i64 8
  store double %h, ptr %p1, align 8
  %p2 = getelementptr i8, ptr %buf, i64 16
  store ptr @.name, ptr %p2, align 8
  %r = call i32 @vprintf(ptr @.str, ptr %buf), !dbg !30
  ret void
}
)IR";
  ParsedKernel p = parseKernel(ir, "k");
  ASSERT_TRUE(p.kernel) << p.error;
  DeviceMemory mem;
  std::ostringstream printed;
  RunnerOptions options;
  options.printfOut = &printed;
  BlockRunner runner(*p.kernel, oneWarp(3), {}, mem, {}, options);
  RecordingSink sink;
  ASSERT_TRUE(runner.runBlock({0, 0, 0}, sink).ok());
  EXPECT_EQ(printed.str(), "t=0 x=0.0 s=ok\nt=1 x=0.5 s=ok\nt=2 x=1.0 s=ok\n");
  // The alloca stores are local accesses, reported with their space.
  ASSERT_FALSE(sink.accesses.empty());
  EXPECT_EQ(sink.accesses[0].space, MemSpace::Local);
  EXPECT_EQ(sink.accesses[0].activeMask, 0x7u);
}

} // namespace
} // namespace kcheck::sim::test
