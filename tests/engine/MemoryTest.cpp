// Memory semantics and failure reporting: faults like compute-sanitizer,
// the step budget, decode errors, shared layout, atomics, memcpy.
#include "EngineTestUtil.h"

#include <gtest/gtest.h>

#include <cstring>

namespace kcheck::sim::test {
namespace {

core::LaunchConfig blockOf(uint32_t threads, uint64_t dynamicShared = 0) {
  core::LaunchConfig cfg;
  cfg.block = {threads, 1, 1};
  cfg.dynamicSharedBytes = dynamicShared;
  return cfg;
}

TEST(EngineMemory, OutOfBoundsSharedStoreFaults) {
  const char *ir = R"IR(
@_ZZ3oobPfE4tile = internal addrspace(3) global [32 x float] undef, align 4
define ptx_kernel void @k(ptr addrspace(1) %in) !dbg !3 {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t1 = add i32 %t, 1
  %i = zext i32 %t1 to i64
  %p = getelementptr float, ptr addrspace(3) @_ZZ3oobPfE4tile, i64 %i
  store float 1.0, ptr addrspace(3) %p, align 4, !dbg !12
  ret void
}
)IR";
  ParsedKernel p = parseKernel(ir, "k");
  ASSERT_TRUE(p.kernel) << p.error;
  EXPECT_EQ(
      p.kernel->insts()[instsWithOpcode(*p.kernel, "store")[0]].objectName,
      "tile");
  DeviceMemory mem;
  BlockRunner runner(*p.kernel, blockOf(32), {{0}}, mem);
  RecordingSink sink;
  BlockResult r = runner.runBlock({3, 0, 0}, sink);
  ASSERT_EQ(r.status, BlockResult::Status::Faulted);
  ASSERT_TRUE(r.fault);
  EXPECT_EQ(r.fault->kind, "out-of-bounds shared write");
  EXPECT_EQ(r.fault->thread, (core::Dim3{31, 0, 0}));
  EXPECT_EQ(r.fault->block, (core::Dim3{3, 0, 0}));
  EXPECT_EQ(r.fault->address, 128u);
  EXPECT_EQ(r.fault->loc.line, 12u);
  const std::string &m = r.fault->message;
  EXPECT_NE(m.find("Invalid __shared__ write of size 4 bytes"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("0x80 is out of bounds"), std::string::npos) << m;
  EXPECT_NE(m.find("by thread (31,0,0) in block (3,0,0)"), std::string::npos)
      << m;
  EXPECT_NE(m.find("k.cu:12"), std::string::npos) << m;
  EXPECT_TRUE(sink.accesses.empty()); // the faulting access is not counted
}

// nvcc computes shared-space addresses in 32 bits, so an index of ~i wraps
// below the pointer (merge-path searches write `B[~Ax]`); 64-bit IR offsets
// must resolve to the same word.
TEST(EngineMemory, SharedAddressWrapsAt32Bits) {
  const char *ir = R"IR(
@_ZZ4wrapPfE4tile = internal addrspace(3) global [64 x float] undef, align 4
define ptx_kernel void @k(ptr addrspace(1) %in) !dbg !3 {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %n = xor i32 %t, -1
  %i = zext i32 %n to i64
  %base = getelementptr float, ptr addrspace(3) @_ZZ4wrapPfE4tile, i64 32
  %p = getelementptr float, ptr addrspace(3) %base, i64 %i
  store float 1.0, ptr addrspace(3) %p, align 4, !dbg !12
  ret void
}
)IR";
  ParsedKernel p = parseKernel(ir, "k");
  ASSERT_TRUE(p.kernel) << p.error;
  DeviceMemory mem;
  BlockRunner runner(*p.kernel, blockOf(32), {{0}}, mem);
  RecordingSink sink;
  BlockResult r = runner.runBlock({0, 0, 0}, sink);
  ASSERT_EQ(r.status, BlockResult::Status::Completed) << r.message;
  ASSERT_EQ(sink.accesses.size(), 1u);
  for (unsigned lane = 0; lane < 32;
       ++lane) // tile[32 + ~lane] = tile[31 - lane]
    EXPECT_EQ(sink.accesses[0].addrs[lane], 4u * (31 - lane)) << lane;
}

TEST(EngineMemory, GlobalOutOfBoundsAndMisaligned) {
  const char *ir = R"IR(
define ptx_kernel void @k(ptr addrspace(1) %in, i64 %off) !dbg !3 {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %p = getelementptr float, ptr addrspace(1) %in, i64 %i
  %q = getelementptr i8, ptr addrspace(1) %p, i64 %off
  %v = load float, ptr addrspace(1) %q, align 4, !dbg !15
  ret void
}
)IR";
  ParsedKernel p = parseKernel(ir, "k");
  ASSERT_TRUE(p.kernel) << p.error;
  DeviceMemory mem;
  uint64_t in = mem.allocate(16 * 4, "in"); // only 16 floats
  RecordingSink sink;
  BlockRunner oob(*p.kernel, blockOf(32), {{in}, {0}}, mem);
  BlockResult r = oob.runBlock({0, 0, 0}, sink);
  ASSERT_EQ(r.status, BlockResult::Status::Faulted);
  EXPECT_EQ(r.fault->kind, "out-of-bounds global read");
  EXPECT_EQ(r.fault->thread.x, 16u);
  EXPECT_EQ(r.fault->address, in + 64);

  BlockRunner misaligned(*p.kernel, blockOf(8), {{in}, {2}}, mem);
  r = misaligned.runBlock({0, 0, 0}, sink);
  ASSERT_EQ(r.status, BlockResult::Status::Faulted);
  EXPECT_EQ(r.fault->kind, "misaligned global read");
  EXPECT_EQ(r.fault->thread.x, 0u);
  EXPECT_NE(r.fault->message.find("is misaligned"), std::string::npos);
}

// GlobalOverrun::CountAndGoOn: a global access a little past an allocation
// is counted as the GPU makes it and not performed (loads give 0, stores are
// dropped), the first of each instruction is recorded, and the block goes
// on; an address outside the heap still faults.
TEST(EngineMemory, GlobalOverrunIsCountedAndTheBlockGoesOn) {
  const char *ir = R"IR(
define ptx_kernel void @k(ptr addrspace(1) %in, ptr addrspace(1) %out, i64 %off) !dbg !3 {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %p = getelementptr float, ptr addrspace(1) %in, i64 %i
  %q = getelementptr i8, ptr addrspace(1) %p, i64 %off
  %v = load float, ptr addrspace(1) %q, align 4, !dbg !15
  %w = fadd float %v, 1.0
  %o = getelementptr float, ptr addrspace(1) %out, i64 %i
  store float %w, ptr addrspace(1) %o, align 4, !dbg !16
  ret void
}
)IR";
  ParsedKernel p = parseKernel(ir, "k");
  ASSERT_TRUE(p.kernel) << p.error;
  DeviceMemory mem;
  uint64_t in = mem.allocate(16 * 4, "in");   // 16 floats: lanes 16-31 overrun
  uint64_t out = mem.allocate(24 * 4, "out"); // 24 floats: lanes 24-31 overrun
  uint64_t after = mem.allocate(8 * 4, "after");
  std::vector<float> ones(16, 2.0f), sentinel(8, 7.0f);
  ASSERT_TRUE(mem.write(in, ones.data(), 16 * 4));
  ASSERT_TRUE(mem.write(after, sentinel.data(), 8 * 4));
  RunnerOptions options;
  options.overruns = GlobalOverrun::CountAndGoOn;
  RecordingSink sink;
  BlockRunner runner(*p.kernel, blockOf(32), {{in}, {out}, {0}}, mem, {},
                     options);
  BlockResult r = runner.runBlock({0, 0, 0}, sink);
  ASSERT_EQ(r.status, BlockResult::Status::Completed) << r.message;
  ASSERT_EQ(sink.accesses.size(), 2u);
  EXPECT_EQ(sink.accesses[0].activeMask, 0xffffffffu); // all 32 counted
  EXPECT_EQ(sink.accesses[1].activeMask, 0xffffffffu);
  std::vector<float> got = readFloats(mem, out, 24);
  EXPECT_EQ(got[0], 3.0f);                        // 2 + 1
  EXPECT_EQ(got[16], 1.0f);                       // the overrun load gave 0
  EXPECT_EQ(readFloats(mem, after, 8), sentinel); // the overrun stores dropped
  std::vector<Fault> overruns = runner.overruns();
  ASSERT_EQ(overruns.size(), 2u);
  EXPECT_EQ(overruns[0].kind, "out-of-bounds global read");
  EXPECT_EQ(overruns[0].thread.x, 16u);
  EXPECT_EQ(overruns[0].address, in + 64);
  EXPECT_NE(overruns[0].problem.find("0 bytes after 'in'"), std::string::npos)
      << overruns[0].problem;
  EXPECT_EQ(overruns[1].kind, "out-of-bounds global write");
  EXPECT_EQ(overruns[1].thread.x, 24u);

  // Far outside every allocation: the GPU faults, and so does kcheck.
  BlockRunner far(*p.kernel, blockOf(32), {{in}, {out}, {uint64_t(1) << 40}},
                  mem, {}, options);
  r = far.runBlock({0, 0, 0}, sink);
  ASSERT_EQ(r.status, BlockResult::Status::Faulted);
  EXPECT_EQ(r.fault->kind, "out-of-bounds global read");
}

TEST(EngineMemory, InfiniteLoopHitsStepBudget) {
  const char *ir = R"IR(
define ptx_kernel void @k(ptr addrspace(1) %out) !dbg !3 {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %n, %loop ]
  %n = add i32 %i, 1, !dbg !17
  store volatile i32 %n, ptr addrspace(1) %out, align 4, !dbg !17
  br label %loop, !dbg !17
}
)IR";
  ParsedKernel p = parseKernel(ir, "k");
  ASSERT_TRUE(p.kernel) << p.error;
  DeviceMemory mem;
  uint64_t out = mem.allocate(4, "out");
  Limits limits;
  limits.maxWarpSteps = 10'000;
  BlockRunner runner(*p.kernel, blockOf(64), {{out}}, mem, limits);
  RecordingSink sink;
  BlockResult r = runner.runBlock({0, 0, 0}, sink);
  ASSERT_EQ(r.status, BlockResult::Status::StepLimit);
  EXPECT_NE(r.message.find("k.cu:17"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("10000"), std::string::npos) << r.message;
}

TEST(EngineMemory, UnsupportedConstructsNameThemselvesAndTheirLine) {
  const char *intrinsic = R"IR(
declare i32 @llvm.nvvm.match.any.sync.i32(i32, i32)
define ptx_kernel void @k(ptr addrspace(1) %out) !dbg !3 {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %m = call i32 @llvm.nvvm.match.any.sync.i32(i32 -1, i32 %t), !dbg !23
  ret void
}
)IR";
  ParsedKernel p = parseKernel(intrinsic, "k");
  ASSERT_FALSE(p.kernel);
  EXPECT_NE(p.error.find("llvm.nvvm.match.any.sync.i32"), std::string::npos)
      << p.error;
  EXPECT_NE(p.error.find("k.cu:23"), std::string::npos) << p.error;

  const char *call = R"IR(
define void @helper() {
  ret void
}
define ptx_kernel void @k() !dbg !3 {
  call void @helper(), !dbg !24
  ret void
}
)IR";
  ParsedKernel c = parseKernel(call, "k");
  ASSERT_FALSE(c.kernel);
  EXPECT_NE(c.error.find("non-inlined function helper"), std::string::npos)
      << c.error;
  EXPECT_NE(c.error.find("k.cu:24"), std::string::npos) << c.error;
}

// 16-bit float arithmetic runs on the 16-bit registers (SmallFloat.h):
// half and bfloat16 sums, products, fma, min, negation and comparison, each
// rounded once.
TEST(EngineMemory, SixteenBitFloatArithmetic) {
  const char *ir = R"IR(
declare half @llvm.fma.f16(half, half, half)
declare bfloat @llvm.minnum.bf16(bfloat, bfloat)
define ptx_kernel void @k(ptr addrspace(1) %p) !dbg !3 {
  %a = load half, ptr addrspace(1) %p
  %pb = getelementptr i8, ptr addrspace(1) %p, i64 2
  %b = load half, ptr addrspace(1) %pb
  %s = fadd half %a, %b
  %m = fmul half %a, %b
  %f = call half @llvm.fma.f16(half %a, half %b, half %a)
  %n = fneg half %a
  %c = fcmp olt half %a, %b
  %cz = zext i1 %c to i16
  %x = load bfloat, ptr addrspace(1) %pb
  %y = fadd bfloat %x, %x
  %z = call bfloat @llvm.minnum.bf16(bfloat %x, bfloat %y)
  %o = getelementptr i8, ptr addrspace(1) %p, i64 16
  store half %s, ptr addrspace(1) %o
  %o1 = getelementptr i8, ptr addrspace(1) %o, i64 2
  store half %m, ptr addrspace(1) %o1
  %o2 = getelementptr i8, ptr addrspace(1) %o, i64 4
  store half %f, ptr addrspace(1) %o2
  %o3 = getelementptr i8, ptr addrspace(1) %o, i64 6
  store half %n, ptr addrspace(1) %o3
  %o4 = getelementptr i8, ptr addrspace(1) %o, i64 8
  store i16 %cz, ptr addrspace(1) %o4
  %o5 = getelementptr i8, ptr addrspace(1) %o, i64 10
  store bfloat %y, ptr addrspace(1) %o5
  %o6 = getelementptr i8, ptr addrspace(1) %o, i64 12
  store bfloat %z, ptr addrspace(1) %o6
  ret void
}
)IR";
  ParsedKernel p = parseKernel(ir, "k");
  ASSERT_TRUE(p.kernel) << p.error;
  DeviceMemory mem;
  uint64_t buf = mem.allocate(32, "buf");
  // a = 1.5 (0x3e00), b = 2.0 (0x4000); as bfloat16, b's bits 0x4000 = 2.0.
  uint16_t in[2] = {0x3e00, 0x4000};
  mem.write(buf, in, 4);
  BlockRunner runner(*p.kernel, launch1d(1, 1), {{buf}}, mem);
  RecordingSink sink;
  ASSERT_TRUE(runner.runBlock({0, 0, 0}, sink).ok());
  uint16_t out[7];
  mem.read(buf + 16, out, 14);
  EXPECT_EQ(out[0], 0x4300); // 3.5
  EXPECT_EQ(out[1], 0x4200); // 3.0
  EXPECT_EQ(out[2], 0x4480); // 1.5 * 2 + 1.5 = 4.5
  EXPECT_EQ(out[3], 0xbe00); // -1.5
  EXPECT_EQ(out[4], 1);      // 1.5 < 2
  EXPECT_EQ(out[5], 0x4080); // bfloat16 2 + 2 = 4
  EXPECT_EQ(out[6], 0x4000); // min(2, 4)
}

TEST(EngineMemory, SharedLayoutDynamicSharedAndGenericPointers) {
  const char *ir = R"IR(
@a = internal addrspace(3) global [3 x i32] undef, align 4
@b = internal addrspace(3) global [2 x double] undef, align 8
@dyn = external addrspace(3) global [0 x i32], align 4
define ptx_kernel void @k(ptr addrspace(1) %out) !dbg !3 {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %gen = addrspacecast ptr addrspace(3) @dyn to ptr
  %p = getelementptr i32, ptr %gen, i64 %i
  store i32 %t, ptr %p, align 4, !dbg !30
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %j = xor i64 %i, 1
  %q = getelementptr i32, ptr %gen, i64 %j
  %v = load i32, ptr %q, align 4, !dbg !31
  store i32 %v, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @b, i64 4), align 4, !dbg !32
  %o = getelementptr i32, ptr addrspace(1) %out, i64 %i
  store i32 %v, ptr addrspace(1) %o, align 4
  store i32 %v, ptr addrspace(3) @a, align 4
  ret void
}
)IR";
  ParsedKernel p = parseKernel(ir, "k");
  ASSERT_TRUE(p.kernel) << p.error;
  // Only variables the kernel references get a place, in module order.
  const auto &vars = p.kernel->sharedVariables();
  ASSERT_EQ(vars.size(), 3u);
  EXPECT_EQ(vars[0].offset, 0u);
  EXPECT_EQ(vars[1].offset, 16u); // each static variable 16-aligned
  EXPECT_EQ(vars[2].offset, 32u);
  EXPECT_TRUE(vars[2].dynamic);
  EXPECT_EQ(p.kernel->staticSharedBytes(), 32u);

  DeviceMemory mem;
  uint64_t out = mem.allocate(64 * 4, "out");
  BlockRunner runner(*p.kernel, blockOf(64, 256), {{out}}, mem);
  EXPECT_EQ(runner.sharedBytes(), 32u + 256u);
  RecordingSink sink;
  BlockResult r = runner.runBlock({0, 0, 0}, sink);
  ASSERT_TRUE(r.ok()) << r.message;
  auto got = readInts(mem, out, 64);
  for (int t = 0; t < 64; ++t)
    EXPECT_EQ(got[t], t ^ 1);
  // The generic store resolves to shared, offset 32 + 4 * tid.
  ASSERT_GE(sink.accesses.size(), 1u);
  EXPECT_EQ(sink.accesses[0].space, MemSpace::Shared);
  EXPECT_EQ(sink.accesses[0].addrs[5], 32u + 20u);
  // A too-small dynamic allocation faults on the dynamic array.
  BlockRunner small(*p.kernel, blockOf(64, 128), {{out}}, mem);
  r = small.runBlock({0, 0, 0}, sink);
  ASSERT_EQ(r.status, BlockResult::Status::Faulted);
  EXPECT_EQ(r.fault->thread.x, 32u);
}

TEST(EngineMemory, SharedAtomicsCmpXchgAndMemcpy) {
  const char *ir = R"IR(
@s = internal addrspace(3) global [4 x i32] undef, align 4
declare void @llvm.memcpy.p1.p3.i64(ptr addrspace(1), ptr addrspace(3), i64, i1)
define ptx_kernel void @k(ptr addrspace(1) %out) !dbg !3 {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %old = atomicrmw add ptr addrspace(3) @s, i32 1 seq_cst, align 4, !dbg !40
  %mx = atomicrmw max ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @s, i64 4), i32 %t seq_cst, align 4
  %f = atomicrmw fadd ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @s, i64 8), float 0.5 seq_cst, align 4
  %cx = cmpxchg ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @s, i64 12), i32 %t, i32 100 seq_cst seq_cst, align 4
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %first = icmp eq i32 %t, 0
  br i1 %first, label %copy, label %done
copy:
  call void @llvm.memcpy.p1.p3.i64(ptr addrspace(1) %out, ptr addrspace(3) @s, i64 16, i1 false)
  br label %done
done:
  %won = extractvalue { i32, i1 } %cx, 1
  %w = zext i1 %won to i32
  %i = zext i32 %t to i64
  %o = getelementptr i32, ptr addrspace(1) %out, i64 %i
  %o4 = getelementptr i8, ptr addrspace(1) %o, i64 16
  %sum = add i32 %old, %w
  store i32 %sum, ptr addrspace(1) %o4, align 4
  ret void
}
)IR";
  ParsedKernel p = parseKernel(ir, "k");
  ASSERT_TRUE(p.kernel) << p.error;
  DeviceMemory mem;
  uint64_t out = mem.allocate(4 * 4 + 40 * 4, "out");
  BlockRunner runner(*p.kernel, blockOf(40), {{out}}, mem);
  RecordingSink sink;
  BlockResult r = runner.runBlock({0, 0, 0}, sink);
  ASSERT_TRUE(r.ok()) << r.message;
  auto got = readInts(mem, out, 4 + 40);
  // memcpy ran in warp 0 after the barrier, so it saw all 40 threads' updates.
  EXPECT_EQ(got[0], 40);
  EXPECT_EQ(got[1], 39);
  float fsum;
  std::memcpy(&fsum, &got[2], 4);
  EXPECT_EQ(fsum, 20.0f);
  EXPECT_EQ(got[3], 100); // thread 0 swapped 0 -> 100
  for (int t = 0; t < 40; ++t)
    EXPECT_EQ(got[4 + t], t + (t == 0 ? 1 : 0)) << t; // lane order
  auto atomics = sink.of(instsWithOpcode(*p.kernel, "atomicrmw")[0]);
  ASSERT_EQ(atomics.size(), 2u);
  EXPECT_EQ(atomics[0].kind, AccessKind::Atomic);
  EXPECT_EQ(atomics[1].activeMask, 0xffu);
}

} // namespace
} // namespace kcheck::sim::test
