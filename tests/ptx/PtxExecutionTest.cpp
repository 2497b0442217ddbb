// Inline PTX through the whole device pipeline: compiled by Clang (against
// the CUDA toolkit and against the bundled headers), lowered to IR by
// analyzer/ptx, decoded and run by the engine for one warp, and the results
// compared with a host reference of the PTX semantics.
#include "tests/ptx/PtxTestSupport.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

#include <cmath>
#include <cstring>

namespace kcheck {
namespace {

using namespace ptxtest;

class PtxExecution : public ::testing::TestWithParam<bool> {};

TEST_P(PtxExecution, HalfAndBfloat16Conversions) {
  // cuda_fp16.hpp's and cuda_bf16.hpp's templates.
  const char *source = R"(
__global__ void conv(const float *in, unsigned short *h, unsigned short *b,
                     float *back) {
  int i = threadIdx.x;
  unsigned short x, y;
  asm("{  cvt.rn.f16.f32 %0, %1;}\n" : "=h"(x) : "f"(in[i]));
  asm("{  cvt.rn.bf16.f32 %0, %1;}\n" : "=h"(y) : "f"(in[i]));
  h[i] = x;
  b[i] = y;
  float f;
  asm("{  cvt.f32.f16 %0, %1;}\n" : "=f"(f) : "h"(x));
  unsigned short sum;
  asm("{add.f16 %0,%1,%2;\n}" : "=h"(sum) : "h"(x), "h"(x));
  float g;
  asm("{  cvt.f32.f16 %0, %1;}\n" : "=f"(g) : "h"(sum));
  back[i] = f + g;
})";
  std::vector<float> in(32);
  for (int i = 0; i < 32; ++i)
    in[i] = i == 0 ? 65520.f : i == 1 ? 1e-8f : 0.1f * float(i) - 1.3f;
  KernelRun run;
  RUN_OR_SKIP(run, source, "conv",
              {bytesOf(in), std::vector<uint8_t>(64), std::vector<uint8_t>(64),
               std::vector<uint8_t>(128)});
  auto h = run.values<uint16_t>(1, 32), b = run.values<uint16_t>(2, 32);
  auto back = run.values<float>(3, 32);
  for (int i = 0; i < 32; ++i) {
    EXPECT_EQ(h[i], halfFromDouble(in[i])) << i;
    EXPECT_EQ(b[i], bfloat16FromDouble(in[i])) << i;
    float f = floatFromHalf(h[i]);
    float twice = floatFromHalf(halfFromDouble(double(f) * 2));
    if (!std::isinf(f)) {
      EXPECT_EQ(back[i], f + twice) << i;
    }
  }
}

TEST_P(PtxExecution, WarpShufflesVotesAndLaneId) {
  const char *source = R"(
__global__ void warp(int *out) {
  int lane, v = threadIdx.x * 3, d, ok, ballot;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  asm volatile("{ .reg .pred p; shfl.sync.down.b32 %0|p, %2, 5, 0x1f, 0xffffffff;"
               " selp.s32 %1, 1, 0, p; }" : "=r"(d), "=r"(ok) : "r"(v));
  asm volatile("{ .reg .pred q; setp.lt.s32 q, %1, 7;"
               " vote.sync.ballot.b32 %0, q, 0xffffffff; }"
               : "=r"(ballot) : "r"(lane));
  out[threadIdx.x] = lane;
  out[32 + threadIdx.x] = d;
  out[64 + threadIdx.x] = ok;
  out[96 + threadIdx.x] = ballot;
})";
  KernelRun run;
  RUN_OR_SKIP(run, source, "warp", {std::vector<uint8_t>(512)});
  auto out = run.values<int32_t>(0, 128);
  for (int l = 0; l < 32; ++l) {
    EXPECT_EQ(out[l], l);
    EXPECT_EQ(out[32 + l], l + 5 <= 31 ? (l + 5) * 3 : l * 3) << l;
    EXPECT_EQ(out[64 + l], l + 5 <= 31) << l;
    EXPECT_EQ(out[96 + l], 0x7f) << l;
  }
}

TEST_P(PtxExecution, LdmatrixDistributesRowsLikeTheHardware) {
  // Four 8x8 matrices of 16-bit elements in shared memory, element (m, r, c)
  // = m*64 + r*8 + c; lane l gives the address of row l%8 of matrix l/8.
  const char *source = R"(
__global__ void lds(unsigned *out) {
  __shared__ unsigned short tile[4 * 64];
  for (int i = threadIdx.x; i < 256; i += 32)
    tile[i] = i;
  __syncthreads();
  unsigned a = (unsigned)__cvta_generic_to_shared(&tile[threadIdx.x * 8]);
  unsigned r0, r1, r2, r3, t0, t1, t2, t3;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
               : "=r"(t0), "=r"(t1), "=r"(t2), "=r"(t3) : "r"(a));
  unsigned *o = out + threadIdx.x * 8;
  o[0] = r0, o[1] = r1, o[2] = r2, o[3] = r3;
  o[4] = t0, o[5] = t1, o[6] = t2, o[7] = t3;
})";
  KernelRun run;
  RUN_OR_SKIP(run, source, "lds", {std::vector<uint8_t>(32 * 8 * 4)});
  auto out = run.values<uint32_t>(0, 256);
  auto element = [](unsigned m, unsigned r, unsigned c) {
    return m * 64 + r * 8 + c;
  };
  for (unsigned l = 0; l < 32; ++l)
    for (unsigned m = 0; m < 4; ++m) {
      // PTX ISA, ldmatrix: lane l holds row l/4, columns 2(l%4), 2(l%4)+1;
      // with .trans, column l/4, rows 2(l%4), 2(l%4)+1.
      unsigned r = l / 4, c = 2 * (l % 4);
      EXPECT_EQ(out[l * 8 + m], element(m, r, c) | element(m, r, c + 1) << 16)
          << "lane " << l << " matrix " << m;
      EXPECT_EQ(out[l * 8 + 4 + m], element(m, c, r) | element(m, c + 1, r)
                                                           << 16)
          << "trans lane " << l << " matrix " << m;
    }
  // One 16-byte shared load per lane for each ldmatrix.
  unsigned sixteen = 0;
  for (const sim::WarpAccess &a : run.accesses)
    sixteen += a.space == sim::MemSpace::Shared && a.bytesPerLane == 16;
  EXPECT_EQ(sixteen, 2u);
}

TEST_P(PtxExecution, CacheHintedVectorLoadsAndCpAsyncZeroFill) {
  const char *source = R"(
__global__ void mem(const float *in, float *out) {
  __shared__ float s[32 * 4];
  float4 v;
  asm volatile("ld.global.nc.v4.f32 {%0,%1,%2,%3}, [%4];"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
               : "l"(in + 4 * threadIdx.x));
  unsigned d = (unsigned)__cvta_generic_to_shared(&s[4 * threadIdx.x]);
  int bytes = threadIdx.x % 5 * 4; // 0..16 of the 16 copied, rest zero
  asm volatile("cp.async.ca.shared.global [%0], [%1], 16, %2;"
               :: "r"(d), "l"(in + 4 * threadIdx.x), "r"(bytes));
  asm volatile("cp.async.commit_group;\ncp.async.wait_group 0;" ::: "memory");
  __syncwarp();
  out[threadIdx.x] = v.x + v.y + v.z + v.w;
  for (int k = 0; k < 4; ++k)
    out[32 + 4 * threadIdx.x + k] = s[4 * threadIdx.x + k];
})";
  std::vector<float> in(128);
  for (int i = 0; i < 128; ++i)
    in[i] = float(i + 1);
  KernelRun run;
  RUN_OR_SKIP(run, source, "mem", {bytesOf(in), std::vector<uint8_t>(160 * 4)});
  auto out = run.values<float>(1, 160);
  for (int l = 0; l < 32; ++l) {
    EXPECT_EQ(out[l],
              in[4 * l] + in[4 * l + 1] + in[4 * l + 2] + in[4 * l + 3]);
    for (int k = 0; k < 4; ++k)
      EXPECT_EQ(out[32 + 4 * l + k], k < l % 5 ? in[4 * l + k] : 0.f)
          << l << " " << k;
  }
  // The asm load is one 16-byte global load per lane.
  bool vectorLoad = false;
  for (const sim::WarpAccess &a : run.accesses)
    vectorLoad |= a.space == sim::MemSpace::Global && a.bytesPerLane == 16 &&
                  a.kind == sim::AccessKind::Load;
  EXPECT_TRUE(vectorLoad);
}

TEST_P(PtxExecution, BitManipulationAndAtomics) {
  const char *source = R"(
__global__ void bits(unsigned *out, int *counter) {
  unsigned l = threadIdx.x, p, m, x, old;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(p) : "r"(0x33221100u + l), "r"(0x77665544u), "r"(0x5140u + l));
  asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(m) : "r"(l), "r"(5u));
  asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(x) : "r"(l), "r"(0xf0f0u), "r"(0xff00u));
  asm volatile("atom.global.add.u32 %0, [%1], %2;" : "=r"(old) : "l"(counter), "r"(1u));
  unsigned f, fs, dp, st;
  asm("bfind.u32 %0, %1;" : "=r"(f) : "r"(l << 3));
  asm("bfind.shiftamt.u32 %0, %1;" : "=r"(fs) : "r"(l << 3));
  asm("dp4a.s32.u32 %0, %1, %2, %3;" : "=r"(dp) : "r"(0x01ff02fdu + l), "r"(0x04030201u), "r"(100u));
  asm("set.gt.u32.s32 %0, %1, %2;" : "=r"(st) : "r"(l), "r"(15u));
  unsigned lo, hi, mlo, mhi;
  asm("add.cc.u32 %0, %2, %3;\n\taddc.u32 %1, %4, %5;"
      : "=r"(lo), "=r"(hi) : "r"(0xffffffffu - l), "r"(l + 1), "r"(l), "r"(2u));
  asm("mad.lo.cc.u32 %0, %2, %3, %4;\n\tmadc.hi.u32 %1, %2, %3, 0;"
      : "=r"(mlo), "=r"(mhi) : "r"(0x80000001u + l), "r"(6u), "r"(0xfffffff0u));
  out[256 + l] = lo;
  out[288 + l] = hi;
  out[320 + l] = mlo;
  out[352 + l] = mhi;
  out[128 + l] = f;
  out[160 + l] = fs;
  out[192 + l] = dp;
  out[224 + l] = st;
  out[l] = p;
  out[32 + l] = m;
  out[64 + l] = x;
  out[96 + l] = old;
})";
  KernelRun run;
  RUN_OR_SKIP(run, source, "bits",
              {std::vector<uint8_t>(1536), std::vector<uint8_t>(4)});
  auto out = run.values<uint32_t>(0, 384);
  std::vector<bool> seen(32);
  for (uint32_t l = 0; l < 32; ++l) {
    // prmt (default mode): selector nibbles pick bytes of {b, a}.
    uint64_t both = uint64_t(0x33221100u + l) | uint64_t(0x77665544u) << 32;
    uint32_t c = 0x5140u + l, ref = 0;
    for (int i = 0; i < 4; ++i) {
      uint32_t nib = (c >> (4 * i)) & 0xf;
      uint8_t byte = uint8_t(both >> (8 * (nib & 7)));
      if (nib & 8)
        byte = (byte & 0x80) ? 0xff : 0;
      ref |= uint32_t(byte) << (8 * i);
    }
    EXPECT_EQ(out[l], ref) << l;
    uint64_t end = std::min<uint64_t>(32, l + 5);
    EXPECT_EQ(out[32 + l], uint32_t((1ull << end) - (1ull << l))) << l;
    EXPECT_EQ(out[64 + l], l ^ 0xf0f0u ^ 0xff00u) << l; // 0x96: a^b^c
    uint32_t x = l << 3;
    EXPECT_EQ(out[128 + l], x ? 31u - uint32_t(__builtin_clz(x)) : ~0u) << l;
    EXPECT_EQ(out[160 + l], x ? uint32_t(__builtin_clz(x)) : ~0u) << l;
    // dp4a.s32.u32: a's bytes signed, b's unsigned.
    uint32_t av = 0x01ff02fdu + l, bv = 0x04030201u;
    int32_t dot = 100;
    for (int i = 0; i < 4; ++i)
      dot += int32_t(int8_t(av >> (8 * i))) * int32_t(uint8_t(bv >> (8 * i)));
    EXPECT_EQ(int32_t(out[192 + l]), dot) << l;
    EXPECT_EQ(out[224 + l], int32_t(l) > 15 ? ~0u : 0u) << l;
    // add.cc/addc: (0xffffffff - l) + (l + 1) carries into the high word.
    EXPECT_EQ(out[256 + l], 0u) << l;
    EXPECT_EQ(out[288 + l], l + 3) << l;
    uint64_t m = uint64_t(0x80000001u + l) * 6u;
    uint64_t lowSum = (m & 0xffffffffu) + 0xfffffff0u;
    EXPECT_EQ(out[320 + l], uint32_t(lowSum)) << l;
    EXPECT_EQ(out[352 + l], uint32_t((m >> 32) + (lowSum >> 32))) << l;
    ASSERT_LT(out[96 + l], 32u);
    seen[out[96 + l]] = true;
  }
  EXPECT_EQ(std::count(seen.begin(), seen.end(), true), 32);
  EXPECT_EQ(run.values<int32_t>(1, 1)[0], 32);
}

TEST_P(PtxExecution, MmaSyncM16n8k16MultipliesTheFragments) {
  // A 16x16 (row major), B 16x8 (column major: B[k][n] at n*16 + k), C 16x8,
  // all small integers as halves (exact); each lane loads its fragments in
  // the PTX ISA's layout and the result is checked against A*B + C.
  const char *source = R"(
__device__ unsigned pack(const unsigned short *m, int i0, int i1) {
  return m[i0] | unsigned(m[i1]) << 16;
}
__global__ void mma(const unsigned short *A, const unsigned short *B,
                    const float *C, float *D) {
  int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
  unsigned a0 = pack(A, g * 16 + 2 * t, g * 16 + 2 * t + 1);
  unsigned a1 = pack(A, (g + 8) * 16 + 2 * t, (g + 8) * 16 + 2 * t + 1);
  unsigned a2 = pack(A, g * 16 + 2 * t + 8, g * 16 + 2 * t + 9);
  unsigned a3 = pack(A, (g + 8) * 16 + 2 * t + 8, (g + 8) * 16 + 2 * t + 9);
  unsigned b0 = pack(B, g * 16 + 2 * t, g * 16 + 2 * t + 1);
  unsigned b1 = pack(B, g * 16 + 2 * t + 8, g * 16 + 2 * t + 9);
  float c[4], d[4];
  for (int i = 0; i < 4; ++i)
    c[i] = C[(g + 8 * (i / 2)) * 8 + 2 * t + i % 2];
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
               "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
               : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
               : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1),
                 "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
  for (int i = 0; i < 4; ++i)
    D[(g + 8 * (i / 2)) * 8 + 2 * t + i % 2] = d[i];
})";
  std::vector<uint16_t> A(256), B(128);
  std::vector<float> C(128);
  for (int i = 0; i < 256; ++i)
    A[i] = halfFromDouble(double((i * 7) % 5) - 2);
  for (int i = 0; i < 128; ++i) {
    B[i] = halfFromDouble(double((i * 3) % 7) - 3);
    C[i] = float(i % 11);
  }
  KernelRun run;
  RUN_OR_SKIP(run, source, "mma",
              {bytesOf(A), bytesOf(B), bytesOf(C), std::vector<uint8_t>(512)});
  auto D = run.values<float>(3, 128);
  for (int m = 0; m < 16; ++m)
    for (int n = 0; n < 8; ++n) {
      float ref = C[m * 8 + n];
      for (int k = 0; k < 16; ++k)
        ref += floatFromHalf(A[m * 16 + k]) * floatFromHalf(B[n * 16 + k]);
      EXPECT_EQ(D[m * 8 + n], ref) << m << "," << n;
    }
}

TEST_P(PtxExecution, WmmaM16n16k16FromGlobalAndShared) {
  if (!GetParam())
    GTEST_SKIP() << "mma.h is the toolkit's";
  // D = A*B + C with A 16x16 row major, B column major, C 16x16 row major;
  // once from global memory, once through shared memory (LDSM on the GPU).
  const char *source = R"(
#include <mma.h>
using namespace nvcuda;
__global__ void wmma(const half *A, const half *B, const float *C, float *D) {
  __shared__ half As[256], Bs[256];
  for (int i = threadIdx.x; i < 256; i += 32) { As[i] = A[i]; Bs[i] = B[i]; }
  __syncthreads();
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa, sa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb, sb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc, sc;
  wmma::load_matrix_sync(fa, A, 16);
  wmma::load_matrix_sync(fb, B, 16);
  wmma::load_matrix_sync(fc, C, 16, wmma::mem_row_major);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(D, fc, 16, wmma::mem_row_major);
  wmma::load_matrix_sync(sa, As, 16);
  wmma::load_matrix_sync(sb, Bs, 16);
  wmma::fill_fragment(sc, 1.0f);
  wmma::mma_sync(sc, sa, sb, sc);
  wmma::store_matrix_sync(D + 256, sc, 16, wmma::mem_row_major);
})";
  std::vector<uint16_t> A(256), B(256);
  std::vector<float> C(256);
  for (int i = 0; i < 256; ++i) {
    A[i] = halfFromDouble(double((i * 5) % 7) - 3);
    B[i] = halfFromDouble(double((i * 3) % 5) - 2);
    C[i] = float(i % 9);
  }
  KernelRun run;
  RUN_OR_SKIP(run, source, "wmma",
              {bytesOf(A), bytesOf(B), bytesOf(C), std::vector<uint8_t>(2048)});
  auto D = run.values<float>(3, 512);
  for (int m = 0; m < 16; ++m)
    for (int n = 0; n < 16; ++n) {
      float dot = 0;
      for (int k = 0; k < 16; ++k)
        dot += floatFromHalf(A[m * 16 + k]) * floatFromHalf(B[n * 16 + k]);
      EXPECT_EQ(D[m * 16 + n], dot + C[m * 16 + n]) << m << "," << n;
      EXPECT_EQ(D[256 + m * 16 + n], dot + 1.0f) << m << "," << n;
    }
}

TEST_P(PtxExecution, UnknownInstructionIsNamed) {
  const char *source = R"(
__global__ void unknown(unsigned *out) {
  unsigned r;
  asm("vabsdiff.u32.u32.u32 %0, %1, %2;" : "=r"(r) : "r"(threadIdx.x), "r"(7u));
  out[threadIdx.x] = r;
})";
  KernelRun run;
  runKernel(run, source, "unknown", {std::vector<uint8_t>(128)}, GetParam());
  if (run.error.rfind("SKIP", 0) == 0)
    GTEST_SKIP() << run.error;
  EXPECT_NE(run.error.find("inline assembly: 'vabsdiff.u32.u32.u32 %0, %1, "
                           "%2': instruction vabsdiff.u32.u32.u32"),
            std::string::npos)
      << run.error;
  EXPECT_NE(run.error.find("unknown.cu:4"), std::string::npos) << run.error;
}

INSTANTIATE_TEST_SUITE_P(Headers, PtxExecution, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool> &info) {
                           return info.param ? "Toolkit" : "Bundled";
                         });

} // namespace
} // namespace kcheck
