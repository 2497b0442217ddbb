// The block-equivalence analysis and driver on small hand-written kernels:
// which launches are provably class-simulable, how many classes, and that the
// counts equal simulating every block.
#include "../engine/EngineTestUtil.h"

#include "core/ArchSpec.h"
#include "simulator/BlockClasses.h"
#include "simulator/Predictor.h"

#include <gtest/gtest.h>

namespace kcheck::sim {
namespace {

using test::launch1d;
using test::ParsedKernel;
using test::parseKernel;

// out[i] = in[i] for i = blockIdx.x * blockDim.x + threadIdx.x, when i < n.
const char *kBoundedCopy = R"(
define ptx_kernel void @copy(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %n) !dbg !3 {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bd = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = mul i32 %bx, %bd
  %i = add i32 %base, %tx
  %ok = icmp slt i32 %i, %n
  br i1 %ok, label %body, label %done
body:
  %idx = sext i32 %i to i64
  %src = getelementptr float, ptr addrspace(1) %in, i64 %idx
  %v = load float, ptr addrspace(1) %src, align 4, !dbg !10
  %dst = getelementptr float, ptr addrspace(1) %out, i64 %idx
  store float %v, ptr addrspace(1) %dst, align 4, !dbg !11
  br label %done
done:
  ret void
}
)";

// Odd blocks take another path: a branch on blockIdx itself.
const char *kOddBlocks = R"(
define ptx_kernel void @odd(ptr addrspace(1) %out) !dbg !3 {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bit = and i32 %bx, 1
  %odd = icmp ne i32 %bit, 0
  br i1 %odd, label %body, label %done
body:
  %idx = zext i32 %tx to i64
  %dst = getelementptr i32, ptr addrspace(1) %out, i64 %idx
  store i32 1, ptr addrspace(1) %dst, align 4, !dbg !10
  br label %done
done:
  ret void
}
)";

// out[blockIdx.x * 4 + threadIdx.x * 8]: 16-byte shifts per block, so
// sector alignment alternates (two classes), and each warp spans sectors.
const char *kMisalignedShift = R"(
define ptx_kernel void @shift(ptr addrspace(1) %out) !dbg !3 {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b4 = shl i32 %bx, 2
  %t8 = shl i32 %tx, 3
  %i = add i32 %b4, %t8
  %idx = zext i32 %i to i64
  %dst = getelementptr i32, ptr addrspace(1) %out, i64 %idx
  store i32 1, ptr addrspace(1) %dst, align 4, !dbg !10
  ret void
}
)";

// out[i] = in[i]; thread 0 of block 0 also checks in[0] (an assert on
// data): a data-dependent branch that only block 0 reaches.
const char *kCheckInFirstBlock = R"(
define ptx_kernel void @guarded(ptr addrspace(1) %in, ptr addrspace(1) %out) !dbg !3 {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bd = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = mul i32 %bx, %bd
  %i = add i32 %base, %tx
  %idx = zext i32 %i to i64
  %src = getelementptr float, ptr addrspace(1) %in, i64 %idx
  %v = load float, ptr addrspace(1) %src, align 4, !dbg !10
  %first = icmp eq i32 %i, 0
  br i1 %first, label %check, label %done
check:
  %z = load float, ptr addrspace(1) %in, align 4, !dbg !11
  %bad = fcmp une float %z, 0.0
  br i1 %bad, label %flag, label %done
flag:
  %last = getelementptr float, ptr addrspace(1) %out, i64 4095
  store float 1.0, ptr addrspace(1) %last, align 4, !dbg !12
  br label %done
done:
  %dst = getelementptr float, ptr addrspace(1) %out, i64 %idx
  store float %v, ptr addrspace(1) %dst, align 4, !dbg !13
  ret void
}
)";

// The same check in the 2-D corner `row == 0 && col == 0`, which clang
// compiles to `(row | col) == 0`: an or of two blockIdx-dependent values.
const char *kCheckInCorner = R"(
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
define ptx_kernel void @corner(ptr addrspace(1) %in, ptr addrspace(1) %out) !dbg !3 {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %bx16 = shl i32 %bx, 4
  %col = add i32 %bx16, %tx
  %by16 = shl i32 %by, 4
  %row = add i32 %by16, %ty
  %either = or i32 %row, %col
  %corner = icmp eq i32 %either, 0
  br i1 %corner, label %check, label %done
check:
  %z = load float, ptr addrspace(1) %in, align 4, !dbg !11
  %bad = fcmp une float %z, 0.0
  br i1 %bad, label %flag, label %done
flag:
  store float 1.0, ptr addrspace(1) %in, align 4, !dbg !12
  br label %done
done:
  %r64 = shl i32 %row, 6
  %i = add i32 %r64, %col
  %idx = zext i32 %i to i64
  %dst = getelementptr float, ptr addrspace(1) %out, i64 %idx
  store float 2.0, ptr addrspace(1) %dst, align 4, !dbg !13
  ret void
}
)";

// Every thread branches on its own element: every block reaches the
// data-dependent branch. `atomic` adds a global atomicAdd (blocks talk).
std::string branchOnEveryElement(bool atomic) {
  return std::string(R"(
define ptx_kernel void @every(ptr addrspace(1) %in, ptr addrspace(1) %out) !dbg !3 {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bd = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = mul i32 %bx, %bd
  %i = add i32 %base, %tx
  %idx = zext i32 %i to i64
  %src = getelementptr i32, ptr addrspace(1) %in, i64 %idx
  %v = load i32, ptr addrspace(1) %src, align 4, !dbg !10
  %odd = and i32 %v, 1
  %isOdd = icmp ne i32 %odd, 0
  br i1 %isOdd, label %flag, label %done
flag:
  %dst = getelementptr i32, ptr addrspace(1) %out, i64 %idx
  store i32 1, ptr addrspace(1) %dst, align 4, !dbg !11
  br label %done
done:
)") +
         (atomic ? "  %old = atomicrmw add ptr addrspace(1) %out, i32 1 "
                   "monotonic, align 4, !dbg !12\n"
                 : "") +
         "  ret void\n}\n";
}

class NullCounter : public BlockCounter {
public:
  EventSink &begin(LaunchResult &, core::Dim3, bool) override { return sink_; }

private:
  test::RecordingSink sink_;
};

BlockClassReport classify(const ParsedKernel &p, const core::LaunchConfig &c,
                          const std::vector<KernelArg> &args,
                          DeviceMemory &memory) {
  NullCounter counter;
  BlockClassReport report;
  LaunchResult r =
      runBlockClasses(*p.kernel, c, args, memory, {}, {}, counter, &report);
  EXPECT_EQ(r.error, "");
  return report;
}

/// Predictor results with and without --exhaustive, counter by counter.
void expectSameCounts(const ParsedKernel &p, const core::LaunchConfig &c,
                      const std::vector<KernelArg> &args, DeviceMemory &a,
                      DeviceMemory &b) {
  core::ArchSpec arch = *core::findArch("sm_90");
  LaunchResult fast = Predictor(arch).run(*p.kernel, c, args, a, {});
  LaunchResult all = Predictor(arch, true).run(*p.kernel, c, args, b, {});
  EXPECT_EQ(fast.error, all.error);
  EXPECT_EQ(fast.total.v, all.total.v);
  ASSERT_EQ(fast.perInst.size(), all.perInst.size());
  for (size_t i = 0; i < fast.perInst.size(); ++i) {
    const GlobalAccessStats &f = fast.perInst[i].global,
                            &e = all.perInst[i].global;
    EXPECT_EQ(f.executions, e.executions) << i;
    EXPECT_EQ(f.sectors, e.sectors) << i;
    EXPECT_EQ(f.ideal, e.ideal) << i;
    EXPECT_EQ(f.activeLanes, e.activeLanes) << i;
  }
}

TEST(BlockClasses, BoundCheckOnBlockIndexMakesATailClass) {
  ParsedKernel p = parseKernel(kBoundedCopy, "copy");
  ASSERT_TRUE(p.kernel) << p.error;
  DeviceMemory mem;
  uint64_t in = mem.allocate(640 * 4, "in"), out = mem.allocate(640 * 4, "out");
  // 10 blocks of 64 threads, n = 600: blocks 0-8 all in, block 9 partly.
  core::LaunchConfig c = launch1d(10, 64);
  std::vector<KernelArg> args = {{in}, {out}, {600}};
  BlockClassReport report = classify(p, c, args, mem);
  EXPECT_TRUE(report.provable) << report.reason;
  EXPECT_EQ(report.classes, 2u);
  // n = 640: every block in bounds, one class.
  args[2] = {640};
  EXPECT_EQ(classify(p, c, args, mem).classes, 1u);

  DeviceMemory a, b;
  for (DeviceMemory *m : {&a, &b}) {
    m->allocate(640 * 4, "in");
    m->allocate(640 * 4, "out");
  }
  expectSameCounts(p, c, {{in}, {out}, {600}}, a, b);
}

TEST(BlockClasses, OutOfBoundsBlockIsSimulated) {
  ParsedKernel p = parseKernel(kBoundedCopy, "copy");
  ASSERT_TRUE(p.kernel) << p.error;
  DeviceMemory mem;
  uint64_t in = mem.allocate(600 * 4, "in"), out = mem.allocate(640 * 4, "out");
  NullCounter counter;
  BlockClassReport report;
  // n = 640 but `in` holds 600 floats: block 9 must fault, not be skipped.
  LaunchResult r =
      runBlockClasses(*p.kernel, launch1d(10, 64), {{in}, {out}, {640}}, mem,
                      {}, {}, counter, &report);
  EXPECT_NE(r.error.find("out of bounds"), std::string::npos) << r.error;
  EXPECT_EQ(r.blocksSimulated, 2u); // block 0, then block 9
}

TEST(BlockClasses, BranchOnBlockIndexInEveryBlockMakesAClassOfEach) {
  // Every block executes the branch on blockIdx & 1: none may join another.
  ParsedKernel p = parseKernel(kOddBlocks, "odd");
  ASSERT_TRUE(p.kernel) << p.error;
  DeviceMemory mem;
  uint64_t out = mem.allocate(64 * 4, "out");
  BlockClassReport report = classify(p, launch1d(6, 64), {{out}}, mem);
  EXPECT_EQ(report.classes, 6u);

  DeviceMemory a, b;
  a.allocate(64 * 4, "out");
  b.allocate(64 * 4, "out");
  expectSameCounts(p, launch1d(6, 64), {{out}}, a, b);
}

TEST(BlockClasses, DataBranchOnlyBlockZeroReachesKeepsTheOthersInClasses) {
  ParsedKernel p = parseKernel(kCheckInFirstBlock, "guarded");
  ASSERT_TRUE(p.kernel) << p.error;
  for (float first : {0.f, 1.f}) { // the check passes, then fails
    DeviceMemory mem, a, b;
    uint64_t in = 0, out = 0;
    for (DeviceMemory *m : {&mem, &a, &b}) {
      in = m->allocate(4096 * 4, "in");
      out = m->allocate(4096 * 4, "out");
      m->store(in, &first, 4, false);
    }
    BlockClassReport report = classify(p, launch1d(40, 64), {{in}, {out}}, mem);
    EXPECT_TRUE(report.provable) << report.reason;
    EXPECT_EQ(report.classes, 2u); // block 0, and blocks 1-39
    expectSameCounts(p, launch1d(40, 64), {{in}, {out}}, a, b);
  }
}

TEST(BlockClasses, ZeroTestOfAnOrOfTwoBlockIndices) {
  ParsedKernel p = parseKernel(kCheckInCorner, "corner");
  ASSERT_TRUE(p.kernel) << p.error;
  core::LaunchConfig c = launch1d(1, 256);
  c.grid = {4, 3, 1};
  c.block = {16, 16, 1};
  DeviceMemory mem, a, b;
  uint64_t in = 0, out = 0;
  float one = 1.f;
  for (DeviceMemory *m : {&mem, &a, &b}) {
    in = m->allocate(64, "in");
    out = m->allocate(64 * 48 * 4, "out");
    m->store(in, &one, 4, false);
  }
  BlockClassReport report = classify(p, c, {{in}, {out}}, mem);
  EXPECT_TRUE(report.provable) << report.reason;
  // (0,0) holds the corner; (1,0) never has col == 0, (0,1) never row == 0:
  // every other block is (1,0) shifted with one side non-zero.
  EXPECT_EQ(report.classes, 2u);
  expectSameCounts(p, c, {{in}, {out}}, a, b);
}

TEST(BlockClasses, DataBranchInEveryBlockRunsTheRestAsEveryBlock) {
  ParsedKernel p = parseKernel(branchOnEveryElement(false), "every");
  ASSERT_TRUE(p.kernel) << p.error;
  DeviceMemory mem, a, b;
  uint64_t in = 0, out = 0;
  for (DeviceMemory *m : {&mem, &a, &b}) {
    in = m->allocate(100 * 32 * 4, "in");
    out = m->allocate(100 * 32 * 4, "out");
    for (int32_t i = 0; i < 100 * 32; i += 3)
      m->store(in + 4 * uint64_t(i), &i, 4, false);
  }
  NullCounter counter;
  BlockClassReport report;
  LaunchResult r = runBlockClasses(*p.kernel, launch1d(100, 32), {{in}, {out}},
                                   mem, {}, {}, counter, &report);
  EXPECT_EQ(r.error, "");
  EXPECT_EQ(r.blocksSimulated, 100u);
  EXPECT_EQ(report.classes, 100u);
  EXPECT_NE(report.reason.find("reached by most blocks"), std::string::npos)
      << report.reason;
  expectSameCounts(p, launch1d(100, 32), {{in}, {out}}, a, b);
}

TEST(BlockClasses, DataBranchWhereBlocksTalkIsNotProvable) {
  ParsedKernel p = parseKernel(branchOnEveryElement(true), "every");
  ASSERT_TRUE(p.kernel) << p.error;
  DeviceMemory mem;
  uint64_t in = mem.allocate(4 * 32 * 4, "in");
  uint64_t out = mem.allocate(4 * 32 * 4, "out");
  BlockClassReport report = classify(p, launch1d(4, 32), {{in}, {out}}, mem);
  EXPECT_FALSE(report.provable);
  EXPECT_NE(report.reason.find("atomics"), std::string::npos) << report.reason;
}

TEST(BlockClasses, SectorAlignmentChangesMakeClasses) {
  ParsedKernel p = parseKernel(kMisalignedShift, "shift");
  ASSERT_TRUE(p.kernel) << p.error;
  DeviceMemory mem;
  uint64_t out = mem.allocate(4096, "out");
  BlockClassReport report = classify(p, launch1d(8, 32), {{out}}, mem);
  EXPECT_TRUE(report.provable) << report.reason;
  EXPECT_EQ(report.classes, 2u); // shifts of 0 and 16 bytes modulo 32

  DeviceMemory a, b;
  a.allocate(4096, "out");
  b.allocate(4096, "out");
  expectSameCounts(p, launch1d(8, 32), {{out}}, a, b);
}

} // namespace
} // namespace kcheck::sim
