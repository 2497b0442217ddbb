// The sanitizer's shadow state on hand-written IR: what orders two shared
// accesses (barrier, __syncwarp, same thread, one instruction, volatile,
// atomics), uninitialized reads, and the memcheck fault it records.
#include "../engine/EngineTestUtil.h"

#include "simulator/engine/Sanitizer.h"

#include <gtest/gtest.h>

namespace kcheck::sim::test {
namespace {

core::LaunchConfig blockOf(uint32_t threads) {
  core::LaunchConfig cfg;
  cfg.block = {threads, 1, 1};
  return cfg;
}

/// Runs block (0,0,0) of `name` in `ir` with every check on.
SanitizerReport sanitize(const std::string &ir, uint32_t threads,
                         std::vector<KernelArg> args = {}) {
  ParsedKernel p = parseKernel(ir, "k");
  EXPECT_TRUE(p.kernel) << p.error;
  if (!p.kernel)
    return {};
  DeviceMemory mem;
  core::LaunchConfig cfg = blockOf(threads);
  BlockRunner runner(*p.kernel, cfg, std::move(args), mem);
  Sanitizer sanitizer(*p.kernel, cfg, {true, true, true});
  RecordingSink inner;
  runner.runBlock({0, 0, 0}, sanitizer.begin({0, 0, 0}, inner));
  return sanitizer.report();
}

unsigned count(const SanitizerReport &r, SanitizerFinding::Check check) {
  unsigned n = 0;
  for (const SanitizerFinding &f : r.findings)
    n += f.check == check;
  return n;
}

// s[t] = t; [sync]; x = s[(t + shift) % threads]: threads read others'
// slots (threads: 32 or 64).
std::string exchange(unsigned shift, unsigned threads, const std::string &sync,
                     const std::string &loadFlags = "") {
  return R"IR(
@_ZZ1kvE1s = internal addrspace(3) global [64 x i32] undef, align 4
declare void @llvm.nvvm.bar.warp.sync(i32)
define ptx_kernel void @k() !dbg !3 {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %p = getelementptr i32, ptr addrspace(3) @_ZZ1kvE1s, i64 %i
  store )IR" +
         loadFlags +
         R"IR( i32 %t, ptr addrspace(3) %p, align 4, !dbg !12
  )IR" + sync +
         R"IR(
  %u = add i32 %t, )IR" +
         std::to_string(shift) + R"IR(
  %w = and i32 %u, )IR" +
         std::to_string(threads - 1) + R"IR(
  %j = zext i32 %w to i64
  %q = getelementptr i32, ptr addrspace(3) @_ZZ1kvE1s, i64 %j
  %v = load )IR" +
         loadFlags +
         R"IR( i32, ptr addrspace(3) %q, align 4, !dbg !14
  ret void
}
)IR";
}

TEST(Sanitizer, ReadOfAnotherWarpsWriteWithoutBarrierRaces) {
  SanitizerReport r = sanitize(exchange(32, 64, ""), 64);
  ASSERT_EQ(count(r, SanitizerFinding::Check::Racecheck), 2u);
  // Warp 0 reads s[32..63] before warp 1 writes them (write-after-read),
  // warp 1 reads s[0..31] after warp 0 wrote them (read-after-write).
  bool war = false, raw = false;
  for (const SanitizerFinding &f : r.findings) {
    if (f.check != SanitizerFinding::Check::Racecheck)
      continue;
    EXPECT_FALSE(f.withinWarp);
    EXPECT_EQ(f.count, 32u);
    if (f.hazard == Hazard::WriteAfterRead) {
      war = true;
      EXPECT_EQ(f.thread, (core::Dim3{32, 0, 0}));
      EXPECT_EQ(f.otherThread, (core::Dim3{0, 0, 0}));
    }
    if (f.hazard == Hazard::ReadAfterWrite) {
      raw = true;
      EXPECT_EQ(f.thread, (core::Dim3{32, 0, 0}));
      EXPECT_EQ(f.otherThread, (core::Dim3{0, 0, 0}));
      EXPECT_EQ(f.address, 0u);
    }
  }
  EXPECT_TRUE(war && raw);
  // Warp 0's reads of s[32..63] come before any write there.
  EXPECT_EQ(count(r, SanitizerFinding::Check::Initcheck), 1u);
}

TEST(Sanitizer, BarrierOrdersWarps) {
  SanitizerReport r = sanitize(
      exchange(32, 64,
               "call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)"),
      64);
  EXPECT_TRUE(r.findings.empty());
}

TEST(Sanitizer, LanesOfOneWarpNeedSyncwarpOrVolatile) {
  SanitizerReport racy = sanitize(exchange(1, 32, ""), 32);
  ASSERT_EQ(racy.findings.size(), 1u);
  EXPECT_TRUE(racy.findings[0].withinWarp);
  EXPECT_EQ(racy.findings[0].hazard, Hazard::ReadAfterWrite);
  EXPECT_EQ(racy.findings[0].thread, (core::Dim3{0, 0, 0}));
  EXPECT_EQ(racy.findings[0].otherThread, (core::Dim3{1, 0, 0}));

  EXPECT_TRUE(
      sanitize(exchange(1, 32, "call void @llvm.nvvm.bar.warp.sync(i32 -1)"),
               32)
          .findings.empty());
  EXPECT_TRUE(sanitize(exchange(1, 32, "", "volatile"), 32).findings.empty());
  // A thread's own slot (shift 0, 64 lanes) is program order: no hazard.
  EXPECT_TRUE(sanitize(exchange(0, 64, ""), 64).findings.empty());
}

TEST(Sanitizer, AtomicsDoNotRaceAndOneInstructionIsNotARace) {
  const char *ir = R"IR(
@_ZZ1kvE1c = internal addrspace(3) global i32 undef, align 4
define ptx_kernel void @k() !dbg !3 {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %z = icmp eq i32 %t, 0
  br i1 %z, label %init, label %go
init:
  store i32 0, ptr addrspace(3) @_ZZ1kvE1c, align 4, !dbg !12
  br label %go
go:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %old = atomicrmw add ptr addrspace(3) @_ZZ1kvE1c, i32 1 monotonic, !dbg !13
  ret void
}
)IR";
  EXPECT_TRUE(sanitize(ir, 128).findings.empty());
}

TEST(Sanitizer, UninitializedSharedReadOncePerInstruction) {
  const char *ir = R"IR(
@_ZZ1kvE1s = internal addrspace(3) global [64 x i32] undef, align 4
define ptx_kernel void @k() !dbg !3 {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %p = getelementptr i32, ptr addrspace(3) @_ZZ1kvE1s, i64 %i
  %lo = icmp ult i32 %t, 48
  br i1 %lo, label %fill, label %go
fill:
  store i32 %t, ptr addrspace(3) %p, align 4, !dbg !12
  br label %go
go:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %v = load i32, ptr addrspace(3) %p, align 4, !dbg !14
  ret void
}
)IR";
  SanitizerReport r = sanitize(ir, 64);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].check, SanitizerFinding::Check::Initcheck);
  EXPECT_EQ(r.findings[0].thread, (core::Dim3{48, 0, 0}));
  EXPECT_EQ(r.findings[0].address, 192u);
  EXPECT_EQ(r.findings[0].count, 16u);
}

TEST(Sanitizer, LocalArrayPastItsEndFaultsInsideTheFrame) {
  const char *ir = R"IR(
define ptx_kernel void @k(i32 %n) !dbg !3 {
  %a = alloca [4 x float], align 4, addrspace(5)
  %b = alloca [4 x float], align 4, addrspace(5)
  %i = zext i32 %n to i64
  %p = getelementptr float, ptr addrspace(5) %a, i64 %i
  store float 1.0, ptr addrspace(5) %p, align 4, !dbg !12
  store float 2.0, ptr addrspace(5) %b, align 4, !dbg !13
  ret void
}
)IR";
  SanitizerReport r = sanitize(ir, 32, {{4}});
  ASSERT_EQ(r.findings.size(), 1u);
  const SanitizerFinding &f = r.findings[0];
  ASSERT_TRUE(f.fault);
  EXPECT_EQ(f.fault->access, "__local__ write of size 4 bytes");
  EXPECT_EQ(f.fault->problem, "address 0x10 is out of bounds, 0 bytes after "
                              "local 'a' [0x0, 0x10)");
  EXPECT_EQ(f.thread, (core::Dim3{0, 0, 0}));
  EXPECT_TRUE(sanitize(ir, 32, {{3}}).findings.empty());
}

} // namespace
} // namespace kcheck::sim::test
