// Conformance program for the PTX ISA's warp-level matrix instructions
// (sm_80 to sm_90): mma.sync in each form kcheck runs, ldmatrix, stmatrix
// and movmatrix, written from the ISA's "Warp-level Matrix Multiply-
// Accumulate Instructions" and its fragment layouts. Each kernel is one warp:
// it builds its fragments from row-major matrices in global memory by the
// ISA's layout (g = lane/4, t = lane%4; E elements per 32-bit register),
// runs the instruction, and writes the result back by the same layout; the
// host checks it against a product it computes itself. Small integer values
// make every sum exact, whatever order the tensor core adds in. It prints
// one line per failed form and a summary, on the GPU (nvcc) or under
// kcheck run.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

static int forms = 0, failures = 0;
static void report(const char *form, bool ok) {
  ++forms;
  if (!ok) {
    ++failures;
    std::printf("FAILED %s\n", form);
  }
}

// The bits of element (row, col) of a row-major matrix of `cols` columns,
// `w` bits per element (4-bit and 1-bit elements one to a byte).
__device__ uint32_t elementBits(const void *m, int cols, int row, int col,
                                int w) {
  const char *p = static_cast<const char *>(m);
  size_t i = size_t(row) * cols + col;
  if (w == 8)
    return uint8_t(p[i]);
  if (w < 8)
    return uint8_t(p[i]) & ((1u << w) - 1);
  if (w == 16)
    return *reinterpret_cast<const uint16_t *>(p + 2 * i);
  return *reinterpret_cast<const uint32_t *>(p + 4 * i);
}

// A's register j (M x K, row-major) and B's (K x N stored as B[k][col]).
template <int M, int E> __device__ uint32_t aReg(const void *a, int k, int j) {
  int lane = threadIdx.x, g = lane / 4, t = lane % 4, span = 4 * E;
  int h = j % (M / 8), chunk = j / (M / 8);
  uint32_t r = 0;
  for (int e = 0; e < E; ++e)
    r |= elementBits(a, k, g + 8 * h, chunk * span + t * E + e, 32 / E)
         << (e * (32 / E));
  return r;
}
template <int E> __device__ uint32_t bReg(const void *b, int j) {
  int lane = threadIdx.x, g = lane / 4, t = lane % 4, span = 4 * E;
  uint32_t r = 0;
  for (int e = 0; e < E; ++e)
    r |= elementBits(b, 8, j * span + t * E + e, g, 32 / E) << (e * (32 / E));
  return r;
}
// C/D element i of this lane: (row, col) of the M x 8 accumulator.
template <int M> __device__ int accRow(int i) {
  return threadIdx.x / 4 + (M == 16 ? 8 * (i / 2) : 0);
}
template <int M> __device__ int accCol(int i) {
  return 2 * (threadIdx.x % 4) + (M == 16 ? i % 2 : i);
}

// Operand lists of the inline PTX below: D, A, B and C registers.
#define D4 "=r"(dr[0]), "=r"(dr[1]), "=r"(dr[2]), "=r"(dr[3])
#define D2 "=r"(dr[0]), "=r"(dr[1])
#define A4 "r"(ar[0]), "r"(ar[1]), "r"(ar[2]), "r"(ar[3])
#define A2 "r"(ar[0]), "r"(ar[1])
#define A1 "r"(ar[0])
#define B2 "r"(br[0]), "r"(br[1])
#define B1 "r"(br[0])
#define C4 "r"(cr[0]), "r"(cr[1]), "r"(cr[2]), "r"(cr[3])
#define C2 "r"(cr[0]), "r"(cr[1])
#define COMMA ,

__device__ uint32_t packHalves(float lo, float hi) {
  return uint32_t(__half_as_ushort(__float2half(lo))) |
         (uint32_t(__half_as_ushort(__float2half(hi))) << 16);
}

// f16 or bf16 operands, m16n8k8 or m16n8k16; D and C both f16 (two to a
// register) or both f32 (ptxas refuses a mix for these shapes). C and D go
// through memory as floats.
template <int K, bool Bf16, bool DHalf, bool CHalf>
__global__ void mmaHalf(const void *a, const void *b, const float *c,
                        float *d) {
  uint32_t ar[4] = {}, br[2] = {}, cr[4] = {}, dr[4] = {};
  for (int j = 0; j < K / 4; ++j)
    ar[j] = aReg<16, 2>(a, K, j);
  for (int j = 0; j < K / 8; ++j)
    br[j] = bReg<2>(b, j);
  float cf[4];
  for (int i = 0; i < 4; ++i)
    cf[i] = c[accRow<16>(i) * 8 + accCol<16>(i)];
  for (int i = 0; i < 4; ++i)
    cr[i] = CHalf ? (i < 2 ? packHalves(cf[2 * i], cf[2 * i + 1]) : 0)
                  : __float_as_uint(cf[i]);
  if constexpr (Bf16 && K == 16)
    asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, "
        "{%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
        : D4
        : A4, B2, C4);
  else if constexpr (Bf16)
    asm("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, "
        "{%4,%5}, {%6}, {%7,%8,%9,%10};"
        : D4
        : A2, B1, C4);
  else if constexpr (K == 16 && !DHalf && !CHalf)
    asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, "
        "{%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
        : D4
        : A4, B2, C4);
  else if constexpr (K == 16 && DHalf && CHalf)
    asm("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, "
        "{%2,%3,%4,%5}, {%6,%7}, {%8,%9};"
        : D2
        : A4, B2, C2);
  else if constexpr (!DHalf && !CHalf)
    asm("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, "
        "{%4,%5}, {%6}, {%7,%8,%9,%10};"
        : D4
        : A2, B1, C4);
  else
    asm("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3}, "
        "{%4}, {%5,%6};"
        : D2
        : A2, B1, C2);
  for (int i = 0; i < 4; ++i)
    d[accRow<16>(i) * 8 + accCol<16>(i)] =
        DHalf ? __half2float(
                    __ushort_as_half(uint16_t(dr[i / 2] >> (16 * (i % 2)))))
              : __uint_as_float(dr[i]);
}

// fp8 (sm_89): m16n8k32, e4m3 or e5m2 each operand, f32 or f16
// accumulators.
#define F8(D, AT, BT, OPS)                                                     \
  "mma.sync.aligned.m16n8k32.row.col." D "." AT "." BT "." D " " OPS ";"
#define F8_ALL(D, OPS, OUTS, INS)                                              \
  if constexpr (!AE5 && !BE5)                                                  \
    asm(F8(D, "e4m3", "e4m3", OPS) : OUTS : INS);                              \
  else if constexpr (!AE5)                                                     \
    asm(F8(D, "e4m3", "e5m2", OPS) : OUTS : INS);                              \
  else if constexpr (!BE5)                                                     \
    asm(F8(D, "e5m2", "e4m3", OPS) : OUTS : INS);                              \
  else                                                                         \
    asm(F8(D, "e5m2", "e5m2", OPS) : OUTS : INS);
template <bool AE5, bool BE5, bool Half>
__global__ void mmaFp8(const void *a, const void *b, const float *c, float *d) {
  uint32_t ar[4], br[2], cr[4] = {}, dr[4] = {};
  for (int j = 0; j < 4; ++j)
    ar[j] = aReg<16, 4>(a, 32, j);
  for (int j = 0; j < 2; ++j)
    br[j] = bReg<4>(b, j);
  float cf[4];
  for (int i = 0; i < 4; ++i)
    cf[i] = c[accRow<16>(i) * 8 + accCol<16>(i)];
  for (int i = 0; i < 4; ++i)
    cr[i] = Half ? (i < 2 ? packHalves(cf[2 * i], cf[2 * i + 1]) : 0)
                 : __float_as_uint(cf[i]);
  if constexpr (Half) {
    F8_ALL("f16", "{%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9}", D2,
           A4 COMMA B2 COMMA C2)
  } else {
    F8_ALL("f32", "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13}",
           D4, A4 COMMA B2 COMMA C4)
  }
  for (int i = 0; i < 4; ++i)
    d[accRow<16>(i) * 8 + accCol<16>(i)] =
        Half ? __half2float(
                   __ushort_as_half(uint16_t(dr[i / 2] >> (16 * (i % 2)))))
             : __uint_as_float(dr[i]);
}

// tf32 -> f32, m16n8k4 and m16n8k8.
template <int K>
__global__ void mmaTf32(const float *a, const float *b, const float *c,
                        float *d) {
  uint32_t ar[4] = {}, br[2] = {};
  for (int j = 0; j < K / 2; ++j)
    ar[j] = aReg<16, 1>(a, K, j);
  for (int j = 0; j < K / 4; ++j)
    br[j] = bReg<1>(b, j);
  float acc[4];
  for (int i = 0; i < 4; ++i)
    acc[i] = c[accRow<16>(i) * 8 + accCol<16>(i)];
  if (K == 8)
    asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, "
        "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
        : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
        : "r"(ar[0]), "r"(ar[1]), "r"(ar[2]), "r"(ar[3]), "r"(br[0]),
          "r"(br[1]));
  else
    asm("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, "
        "{%4,%5}, {%6}, {%0,%1,%2,%3};"
        : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
        : "r"(ar[0]), "r"(ar[1]), "r"(br[0]));
  for (int i = 0; i < 4; ++i)
    d[accRow<16>(i) * 8 + accCol<16>(i)] = acc[i];
}

// 8-bit integers -> s32: m8n8k16, m16n8k16, m16n8k32, each signedness of
// A and B, with and without .satfinite.
#define IMMA(SHAPE, SAT, AT, BT, OPERANDS)                                     \
  "mma.sync.aligned." SHAPE ".row.col" SAT ".s32." AT "." BT ".s32 " OPERANDS  \
  ";"
#define IMMA_ALL(SHAPE, S, U, OPERANDS, OUTS, INS)                             \
  if constexpr (!Sat && As && Bs)                                              \
    asm(IMMA(SHAPE, "", S, S, OPERANDS) : OUTS : INS);                         \
  else if constexpr (!Sat && As)                                               \
    asm(IMMA(SHAPE, "", S, U, OPERANDS) : OUTS : INS);                         \
  else if constexpr (!Sat && Bs)                                               \
    asm(IMMA(SHAPE, "", U, S, OPERANDS) : OUTS : INS);                         \
  else if constexpr (!Sat)                                                     \
    asm(IMMA(SHAPE, "", U, U, OPERANDS) : OUTS : INS);                         \
  else if constexpr (As && Bs)                                                 \
    asm(IMMA(SHAPE, ".satfinite", S, S, OPERANDS) : OUTS : INS);               \
  else if constexpr (As)                                                       \
    asm(IMMA(SHAPE, ".satfinite", S, U, OPERANDS) : OUTS : INS);               \
  else if constexpr (Bs)                                                       \
    asm(IMMA(SHAPE, ".satfinite", U, S, OPERANDS) : OUTS : INS);               \
  else                                                                         \
    asm(IMMA(SHAPE, ".satfinite", U, U, OPERANDS) : OUTS : INS);

// Bits per element: 8 (s8/u8), 4 (s4/u4) or 1 (b1, .xor or .and, then popc:
// Xor). The three shapes of each width share their operand lists.
#define IMMA_SHAPES(S8, S4, B1)                                                \
  if constexpr (Bits == 8) {                                                   \
    IMMA_ALL(S8, "s8", "u8", OPS, OUTS, INS)                                   \
  } else if constexpr (Bits == 4) {                                            \
    IMMA_ALL(S4, "s4", "u4", OPS, OUTS, INS)                                   \
  } else if constexpr (Xor) {                                                  \
    asm("mma.sync.aligned." B1 ".row.col.s32.b1.b1.s32.xor.popc " OPS ";"      \
        : OUTS                                                                 \
        : INS);                                                                \
  } else {                                                                     \
    asm("mma.sync.aligned." B1 ".row.col.s32.b1.b1.s32.and.popc " OPS ";"      \
        : OUTS                                                                 \
        : INS);                                                                \
  }
template <int M, int Regs, int Bits, bool As, bool Bs, bool Sat, bool Xor>
__global__ void mmaInt(const void *a, const void *b, const int *c, int *d) {
  constexpr int E = 32 / Bits, K = Regs == 4 ? 8 * E : 4 * E;
  uint32_t ar[4] = {}, br[2] = {}, cr[4] = {}, dr[4] = {};
  for (int j = 0; j < M * K / 32 / E; ++j)
    ar[j] = aReg<M, E>(a, K, j);
  for (int j = 0; j < K * 8 / 32 / E; ++j)
    br[j] = bReg<E>(b, j);
  constexpr int acc = M * 8 / 32;
  for (int i = 0; i < acc; ++i)
    cr[i] = uint32_t(c[accRow<M>(i) * 8 + accCol<M>(i)]);
  if constexpr (M == 8) {
#define OPS "{%0,%1}, {%2}, {%3}, {%4,%5}"
#define OUTS D2
#define INS A1, B1, C2
    IMMA_SHAPES("m8n8k16", "m8n8k32", "m8n8k128")
#undef OPS
#undef OUTS
#undef INS
  } else if constexpr (Regs == 2) {
#define OPS "{%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10}"
#define OUTS D4
#define INS A2, B1, C4
    IMMA_SHAPES("m16n8k16", "m16n8k32", "m16n8k128")
#undef OPS
#undef OUTS
#undef INS
  } else {
#define OPS "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13}"
#define OUTS D4
#define INS A4, B2, C4
    IMMA_SHAPES("m16n8k32", "m16n8k64", "m16n8k256")
#undef OPS
#undef OUTS
#undef INS
  }
  for (int i = 0; i < acc; ++i)
    d[accRow<M>(i) * 8 + accCol<M>(i)] = int(dr[i]);
}

// f64, m16n8k4/k8/k16 (sm_90): A and B by the same rule, one double to a
// register.
template <int K>
__global__ void mmaF64M16(const double *a, const double *b, const double *c,
                          double *d) {
  int g = threadIdx.x / 4, t = threadIdx.x % 4;
  double ar[8], br[4], acc[4];
  for (int j = 0; j < K / 2; ++j)
    ar[j] = a[(g + 8 * (j % 2)) * K + (j / 2) * 4 + t];
  for (int j = 0; j < K / 4; ++j)
    br[j] = b[(j * 4 + t) * 8 + g];
  for (int i = 0; i < 4; ++i)
    acc[i] = c[accRow<16>(i) * 8 + accCol<16>(i)];
#define F64D "+d"(acc[0]), "+d"(acc[1]), "+d"(acc[2]), "+d"(acc[3])
  if constexpr (K == 4)
    asm("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, "
        "{%4,%5}, {%6}, {%0,%1,%2,%3};"
        : F64D
        : "d"(ar[0]), "d"(ar[1]), "d"(br[0]));
  else if constexpr (K == 8)
    asm("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, "
        "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
        : F64D
        : "d"(ar[0]), "d"(ar[1]), "d"(ar[2]), "d"(ar[3]), "d"(br[0]),
          "d"(br[1]));
  else
    asm("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, "
        "{%4,%5,%6,%7,%8,%9,%10,%11}, {%12,%13,%14,%15}, {%0,%1,%2,%3};"
        : F64D
        : "d"(ar[0]), "d"(ar[1]), "d"(ar[2]), "d"(ar[3]), "d"(ar[4]),
          "d"(ar[5]), "d"(ar[6]), "d"(ar[7]), "d"(br[0]), "d"(br[1]),
          "d"(br[2]), "d"(br[3]));
  for (int i = 0; i < 4; ++i)
    d[accRow<16>(i) * 8 + accCol<16>(i)] = acc[i];
}

// f64, m8n8k4: one double of A and of B per lane, two of C and D.
__global__ void mmaF64(const double *a, const double *b, const double *c,
                       double *d) {
  int g = threadIdx.x / 4, t = threadIdx.x % 4;
  double ar = a[g * 4 + t], br = b[t * 8 + g];
  double acc[2];
  for (int i = 0; i < 2; ++i)
    acc[i] = c[accRow<8>(i) * 8 + accCol<8>(i)];
  asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, "
      "{%0,%1};"
      : "+d"(acc[0]), "+d"(acc[1])
      : "d"(ar), "d"(br));
  for (int i = 0; i < 2; ++i)
    d[accRow<8>(i) * 8 + accCol<8>(i)] = acc[i];
}

// ldmatrix .x1/.x2/.x4 (and .trans) from four 8x8 matrices of 16-bit values
// in shared memory, each lane's fragments written out: lane l, matrix m,
// half h at out[(m * 32 + l) * 2 + h] (zero for matrices past Num).
template <int Num, bool Trans>
__global__ void ldmatrix(const uint16_t *in, uint16_t *out) {
  __shared__ alignas(16) uint16_t s[4 * 64];
  for (int i = threadIdx.x; i < 256; i += 32)
    s[i] = in[i];
  __syncwarp();
  int lane = threadIdx.x;
  unsigned addr = unsigned(__cvta_generic_to_shared(&s[lane * 8]));
  uint32_t r[4] = {};
  if constexpr (Num == 1 && Trans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];"
                 : "=r"(r[0])
                 : "r"(addr));
  else if constexpr (Num == 1)
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];"
                 : "=r"(r[0])
                 : "r"(addr));
  else if constexpr (Num == 2 && Trans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, "
                 "[%2];"
                 : "=r"(r[0]), "=r"(r[1])
                 : "r"(addr));
  else if constexpr (Num == 2)
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];"
                 : "=r"(r[0]), "=r"(r[1])
                 : "r"(addr));
  else if constexpr (Trans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 "
                 "{%0,%1,%2,%3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(addr));
  else
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, "
                 "[%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(addr));
  for (int m = 0; m < 4; ++m) {
    out[(m * 32 + lane) * 2] = uint16_t(r[m]);
    out[(m * 32 + lane) * 2 + 1] = uint16_t(r[m] >> 16);
  }
}

// stmatrix x1/x2/x4 (and .trans): each lane's fragments hold lane * 16 +
// matrix * 4096 + half; the matrices' rows go to shared memory, then out.
template <int Num, bool Trans> __global__ void stmatrix(uint16_t *out) {
  __shared__ alignas(16) uint16_t s[4 * 64];
  for (int i = threadIdx.x; i < 256; i += 32)
    s[i] = 0xffff;
  __syncwarp();
  int lane = threadIdx.x;
  uint32_t r[4];
  for (int m = 0; m < 4; ++m)
    r[m] = uint32_t(lane * 16 + m * 4096) |
           (uint32_t(lane * 16 + m * 4096 + 1) << 16);
  unsigned addr = unsigned(__cvta_generic_to_shared(&s[lane * 8]));
#define ST1 "r"(addr), "r"(r[0])
#define ST2 ST1, "r"(r[1])
#define ST4 ST2, "r"(r[2]), "r"(r[3])
  if constexpr (Num == 1 && !Trans)
    asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};"
                 :
                 : ST1
                 : "memory");
  else if constexpr (Num == 1)
    asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};"
                 :
                 : ST1
                 : "memory");
  else if constexpr (Num == 2 && !Trans)
    asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1,%2};"
                 :
                 : ST2
                 : "memory");
  else if constexpr (Num == 2)
    asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], "
                 "{%1,%2};"
                 :
                 : ST2
                 : "memory");
  else if constexpr (!Trans)
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], "
                 "{%1,%2,%3,%4};"
                 :
                 : ST4
                 : "memory");
  else
    asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], "
                 "{%1,%2,%3,%4};"
                 :
                 : ST4
                 : "memory");
  __syncwarp();
  for (int i = threadIdx.x; i < 256; i += 32)
    out[i] = s[i];
}

// movmatrix: lane l's fragment holds l * 2 and l * 2 + 1.
__global__ void movmatrix(uint32_t *out) {
  int lane = threadIdx.x;
  uint32_t a = uint32_t(lane * 2) | (uint32_t(lane * 2 + 1) << 16), d;
  asm("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(d) : "r"(a));
  out[lane] = d;
}

// ---------------------------------------------------------------------------
// Host side.

template <class T> T *device(const T *host, size_t n) {
  T *d = nullptr;
  cudaMalloc(&d, n * sizeof(T));
  if (host)
    cudaMemcpy(d, host, n * sizeof(T), cudaMemcpyHostToDevice);
  else
    cudaMemset(d, 0, n * sizeof(T));
  return d;
}
template <class T> void back(T *host, const T *d, size_t n) {
  cudaMemcpy(host, d, n * sizeof(T), cudaMemcpyDeviceToHost);
  cudaFree(const_cast<T *>(d));
}

// D = A * B + C for M x K times K x 8, in double (exact for these values).
static void product(int m, int k, const double *a, const double *b,
                    const double *c, double *d) {
  for (int r = 0; r < m; ++r)
    for (int col = 0; col < 8; ++col) {
      double s = c[r * 8 + col];
      for (int i = 0; i < k; ++i)
        s += a[r * k + i] * b[i * 8 + col];
      d[r * 8 + col] = s;
    }
}

// One f16/bf16 form: its name, and the kernel to run it.
struct HalfForm {
  const char *name;
  int k;
  bool bf16, dHalf, cHalf;
  void (*kernel)(const void *, const void *, const float *, float *);
};
#define HALF_FORM(K, BF, DH, CH, NAME)                                         \
  HalfForm { NAME, K, BF, DH, CH, mmaHalf<K, BF, DH, CH> }
static const HalfForm kHalfForms[] = {
    HALF_FORM(8, false, false, false, "mma.m16n8k8.f32.f16.f16.f32"),
    HALF_FORM(8, false, true, true, "mma.m16n8k8.f16.f16.f16.f16"),
    HALF_FORM(8, true, false, false, "mma.m16n8k8.f32.bf16.bf16.f32"),
    HALF_FORM(16, false, false, false, "mma.m16n8k16.f32.f16.f16.f32"),
    HALF_FORM(16, false, true, true, "mma.m16n8k16.f16.f16.f16.f16"),
    HALF_FORM(16, true, false, false, "mma.m16n8k16.f32.bf16.bf16.f32"),
};

static void floatForms() {
  for (const HalfForm &form : kHalfForms) {
    int k = form.k;
    double a[256], b[128], c[128], want[128];
    uint16_t ah[256], bh[128];
    auto bits = [&](double v) {
      return form.bf16 ? __bfloat16_as_ushort(__float2bfloat16(float(v)))
                       : __half_as_ushort(__float2half(float(v)));
    };
    for (int i = 0; i < 16 * k; ++i)
      a[i] = (i * 7 % 9) - 4, ah[i] = bits(a[i]);
    for (int i = 0; i < k * 8; ++i)
      b[i] = (i * 5 % 7) - 3, bh[i] = bits(b[i]);
    float cf[128], df[128];
    for (int i = 0; i < 128; ++i)
      c[i] = cf[i] = float(i % 11) - 5;
    product(16, k, a, b, c, want);
    uint16_t *da = device(ah, 16 * k), *db = device(bh, k * 8);
    float *dc = device(cf, 128), *dd = device<float>(nullptr, 128);
    form.kernel<<<1, 32>>>(da, db, dc, dd);
    back(df, dd, 128);
    bool ok = true;
    for (int i = 0; i < 128; ++i)
      ok = ok && df[i] == float(want[i]);
    report(form.name, ok);
    cudaFree(da), cudaFree(db), cudaFree(dc);
  }
  struct {
    const char *name;
    bool aE5, bE5, half;
    void (*kernel)(const void *, const void *, const float *, float *);
  } fp8Forms[] = {{"mma.m16n8k32.f32.e4m3.e4m3.f32", false, false, false,
                   mmaFp8<false, false, false>},
                  {"mma.m16n8k32.f32.e4m3.e5m2.f32", false, true, false,
                   mmaFp8<false, true, false>},
                  {"mma.m16n8k32.f32.e5m2.e4m3.f32", true, false, false,
                   mmaFp8<true, false, false>},
                  {"mma.m16n8k32.f32.e5m2.e5m2.f32", true, true, false,
                   mmaFp8<true, true, false>},
                  {"mma.m16n8k32.f16.e4m3.e4m3.f16", false, false, true,
                   mmaFp8<false, false, true>},
                  {"mma.m16n8k32.f16.e4m3.e5m2.f16", false, true, true,
                   mmaFp8<false, true, true>},
                  {"mma.m16n8k32.f16.e5m2.e4m3.f16", true, false, true,
                   mmaFp8<true, false, true>},
                  {"mma.m16n8k32.f16.e5m2.e5m2.f16", true, true, true,
                   mmaFp8<true, true, true>}};
  for (const auto &form : fp8Forms) {
    double a[512], b[256], c[128], want[128];
    uint8_t a8[512], b8[256];
    auto fp8 = [](double v, bool e5) {
      return uint8_t(__nv_cvt_float_to_fp8(float(v), __NV_SATFINITE,
                                           e5 ? __NV_E5M2 : __NV_E4M3));
    };
    for (int i = 0; i < 512; ++i)
      a[i] = (i * 7 % 9) - 4, a8[i] = fp8(a[i], form.aE5);
    for (int i = 0; i < 256; ++i)
      b[i] = (i * 5 % 7) - 3, b8[i] = fp8(b[i], form.bE5);
    float cf[128], df[128];
    for (int i = 0; i < 128; ++i)
      c[i] = cf[i] = float(i % 11) - 5;
    product(16, 32, a, b, c, want);
    uint8_t *da = device(a8, 512), *db = device(b8, 256);
    float *dc = device(cf, 128), *dd = device<float>(nullptr, 128);
    form.kernel<<<1, 32>>>(da, db, dc, dd);
    back(df, dd, 128);
    bool ok = true;
    for (int i = 0; i < 128; ++i)
      ok = ok && df[i] == float(want[i]);
    report(form.name, ok);
    cudaFree(da), cudaFree(db), cudaFree(dc);
  }
  for (int k : {4, 8}) {
    double a[128], b[64], c[128], want[128];
    float af[128], bf[64], cf[128], df[128];
    for (int i = 0; i < 16 * k; ++i)
      a[i] = af[i] = float((i * 3 % 7) - 3);
    for (int i = 0; i < k * 8; ++i)
      b[i] = bf[i] = float((i * 5 % 9) - 4);
    for (int i = 0; i < 128; ++i)
      c[i] = cf[i] = float(i % 5);
    product(16, k, a, b, c, want);
    float *da = device(af, 16 * k), *db = device(bf, k * 8),
          *dc = device(cf, 128), *dd = device<float>(nullptr, 128);
    if (k == 4)
      mmaTf32<4><<<1, 32>>>(da, db, dc, dd);
    else
      mmaTf32<8><<<1, 32>>>(da, db, dc, dd);
    back(df, dd, 128);
    bool ok = true;
    for (int i = 0; i < 128; ++i)
      ok = ok && df[i] == float(want[i]);
    report(k == 4 ? "mma.m16n8k4.f32.tf32.tf32.f32"
                  : "mma.m16n8k8.f32.tf32.tf32.f32",
           ok);
    cudaFree(da), cudaFree(db), cudaFree(dc);
  }
  double a[32], b[32], c[64], want[64], d[64];
  for (int i = 0; i < 32; ++i)
    a[i] = (i % 7) - 3, b[i] = (i % 5) - 2;
  for (int i = 0; i < 64; ++i)
    c[i] = i;
  product(8, 4, a, b, c, want);
  double *da = device(a, 32), *db = device(b, 32), *dc = device(c, 64),
         *dd = device<double>(nullptr, 64);
  mmaF64<<<1, 32>>>(da, db, dc, dd);
  back(d, dd, 64);
  report("mma.m8n8k4.f64.f64.f64.f64", std::memcmp(d, want, sizeof d) == 0);
  cudaFree(da), cudaFree(db), cudaFree(dc);
  for (int k : {4, 8, 16}) {
    double a16[256], b16[128], c16[128], want16[128], d16[128];
    for (int i = 0; i < 16 * k; ++i)
      a16[i] = (i * 7 % 11) - 5;
    for (int i = 0; i < k * 8; ++i)
      b16[i] = (i * 3 % 7) - 3;
    for (int i = 0; i < 128; ++i)
      c16[i] = i - 64;
    product(16, k, a16, b16, c16, want16);
    double *pa = device(a16, 16 * k), *pb = device(b16, k * 8),
           *pc = device(c16, 128), *pd = device<double>(nullptr, 128);
    if (k == 4)
      mmaF64M16<4><<<1, 32>>>(pa, pb, pc, pd);
    else if (k == 8)
      mmaF64M16<8><<<1, 32>>>(pa, pb, pc, pd);
    else
      mmaF64M16<16><<<1, 32>>>(pa, pb, pc, pd);
    back(d16, pd, 128);
    report(k == 4   ? "mma.m16n8k4.f64.f64.f64.f64"
           : k == 8 ? "mma.m16n8k8.f64.f64.f64.f64"
                    : "mma.m16n8k16.f64.f64.f64.f64",
           std::memcmp(d16, want16, sizeof d16) == 0);
    cudaFree(pa), cudaFree(pb), cudaFree(pc);
  }
}

struct IntForm {
  const char *name;
  int m, k, bits;
  bool aSigned, bSigned, sat, xorOp;
  void (*kernel)(const void *, const void *, const int *, int *);
};
#define INT_FORM(M, REGS, BITS, K, NAME, AS, BS, SAT)                          \
  IntForm {                                                                    \
    NAME, M, K, BITS, AS, BS, SAT, false,                                      \
        mmaInt<M, REGS, BITS, AS, BS, SAT, false>                              \
  }
#define INT_FORMS(M, REGS, BITS, K, SHAPE, S, U)                               \
  INT_FORM(M, REGS, BITS, K, "mma." SHAPE ".s32." S "." S ".s32", true, true,  \
           false),                                                             \
      INT_FORM(M, REGS, BITS, K, "mma." SHAPE ".s32." S "." U ".s32", true,    \
               false, false),                                                  \
      INT_FORM(M, REGS, BITS, K, "mma." SHAPE ".s32." U "." S ".s32", false,   \
               true, false),                                                   \
      INT_FORM(M, REGS, BITS, K, "mma." SHAPE ".s32." U "." U ".s32", false,   \
               false, false),                                                  \
      INT_FORM(M, REGS, BITS, K,                                               \
               "mma." SHAPE ".satfinite.s32." S "." S ".s32", true, true,      \
               true),                                                          \
      INT_FORM(M, REGS, BITS, K,                                               \
               "mma." SHAPE ".satfinite.s32." S "." U ".s32", true, false,     \
               true),                                                          \
      INT_FORM(M, REGS, BITS, K,                                               \
               "mma." SHAPE ".satfinite.s32." U "." S ".s32", false, true,     \
               true),                                                          \
      INT_FORM(M, REGS, BITS, K,                                               \
               "mma." SHAPE ".satfinite.s32." U "." U ".s32", false, false,    \
               true)
#define B1_FORMS(M, REGS, K, SHAPE)                                            \
  IntForm{"mma." SHAPE ".s32.b1.b1.s32.xor.popc",                              \
          M,                                                                   \
          K,                                                                   \
          1,                                                                   \
          false,                                                               \
          false,                                                               \
          false,                                                               \
          true,                                                                \
          mmaInt<M, REGS, 1, false, false, false, true>},                      \
      IntForm {                                                                \
    "mma." SHAPE ".s32.b1.b1.s32.and.popc", M, K, 1, false, false, false,      \
        false, mmaInt<M, REGS, 1, false, false, false, false>                  \
  }
static const IntForm kIntForms[] = {
    INT_FORMS(8, 1, 8, 16, "m8n8k16", "s8", "u8"),
    INT_FORMS(16, 2, 8, 16, "m16n8k16", "s8", "u8"),
    INT_FORMS(16, 4, 8, 32, "m16n8k32", "s8", "u8"),
    INT_FORMS(8, 1, 4, 32, "m8n8k32", "s4", "u4"),
    INT_FORMS(16, 2, 4, 32, "m16n8k32", "s4", "u4"),
    INT_FORMS(16, 4, 4, 64, "m16n8k64", "s4", "u4"),
    B1_FORMS(8, 1, 128, "m8n8k128"),
    B1_FORMS(16, 2, 128, "m16n8k128"),
    B1_FORMS(16, 4, 256, "m16n8k256")};

// Each form with C near both ends of the s32 range, so that the sums pass
// them: wrapped without .satfinite, clamped with it.
static void integerForms() {
  for (const IntForm &form : kIntForms) {
    int m = form.m, k = form.k, mask = (1 << form.bits) - 1;
    static uint8_t a[16 * 256], b[256 * 8];
    static double ad[16 * 256], bd[256 * 8];
    int c[128], d[128];
    double cd[128], want[128];
    auto value = [&](uint8_t bits, bool isSigned) {
      return isSigned && bits > mask / 2 ? double(int(bits) - mask - 1)
                                         : double(bits);
    };
    for (int i = 0; i < m * k; ++i)
      a[i] = uint8_t(i * 37 % 256) & mask, ad[i] = value(a[i], form.aSigned);
    for (int i = 0; i < k * 8; ++i)
      b[i] = uint8_t(i * 53 % 256) & mask, bd[i] = value(b[i], form.bSigned);
    for (int i = 0; i < m * 8; ++i)
      cd[i] = c[i] = i % 4 == 0   ? INT32_MAX - 50
                     : i % 4 == 1 ? INT32_MIN + 50
                                  : i * 11 - 300;
    if (form.bits == 1) { // popc of xor or and: a + b - 2ab, or ab
      for (int r = 0; r < m; ++r)
        for (int col = 0; col < 8; ++col) {
          double sum = cd[r * 8 + col];
          for (int i = 0; i < k; ++i) {
            double x = ad[r * k + i], y = bd[i * 8 + col];
            sum += form.xorOp ? x + y - 2 * x * y : x * y;
          }
          want[r * 8 + col] = sum;
        }
    } else {
      product(m, k, ad, bd, cd, want);
    }
    uint8_t *da = device(a, m * k), *db = device(b, k * 8);
    int *dc = device(c, m * 8), *dd = device<int>(nullptr, m * 8);
    form.kernel<<<1, 32>>>(da, db, dc, dd);
    back(d, dd, m * 8);
    bool ok = true;
    for (int i = 0; i < m * 8; ++i) {
      double w = want[i];
      int expected = form.sat ? int(w > INT32_MAX   ? INT32_MAX
                                    : w < INT32_MIN ? INT32_MIN
                                                    : w)
                              : int32_t(uint32_t(uint64_t(int64_t(w))));
      ok = ok && d[i] == expected;
    }
    report(form.name, ok);
    cudaFree(da), cudaFree(db), cudaFree(dc);
  }
}

static void movementForms() {
  uint16_t in[256], out[256];
  for (int i = 0; i < 256; ++i)
    in[i] = uint16_t(i * 3 + 1);
  struct {
    int num;
    bool trans;
    void (*kernel)(const uint16_t *, uint16_t *);
    const char *name;
  } ldForms[] = {{1, false, ldmatrix<1, false>, "ldmatrix.m8n8.x1.b16"},
                 {1, true, ldmatrix<1, true>, "ldmatrix.m8n8.x1.trans.b16"},
                 {2, false, ldmatrix<2, false>, "ldmatrix.m8n8.x2.b16"},
                 {2, true, ldmatrix<2, true>, "ldmatrix.m8n8.x2.trans.b16"},
                 {4, false, ldmatrix<4, false>, "ldmatrix.m8n8.x4.b16"},
                 {4, true, ldmatrix<4, true>, "ldmatrix.m8n8.x4.trans.b16"}};
  for (const auto &f : ldForms) {
    uint16_t *din = device(in, 256), *dout = device<uint16_t>(nullptr, 256);
    f.kernel<<<1, 32>>>(din, dout);
    back(out, dout, 256);
    cudaFree(din);
    // Lane l, matrix m: row l/4, columns 2(l%4) and 2(l%4)+1 of matrix m
    // (its rows at in[m*64 + row*8]); .trans: the transposed matrix's.
    bool ok = true;
    for (int m = 0; m < 4; ++m)
      for (int l = 0; l < 32; ++l)
        for (int h = 0; h < 2; ++h) {
          int row = l / 4, col = 2 * (l % 4) + h;
          int at = f.trans ? m * 64 + col * 8 + row : m * 64 + row * 8 + col;
          ok = ok && out[(m * 32 + l) * 2 + h] == (m < f.num ? in[at] : 0);
        }
    report(f.name, ok);
  }
  struct {
    int num;
    bool trans;
    const char *name;
  } stForms[] = {{1, false, "stmatrix.m8n8.x1.b16"},
                 {1, true, "stmatrix.m8n8.x1.trans.b16"},
                 {2, false, "stmatrix.m8n8.x2.b16"},
                 {2, true, "stmatrix.m8n8.x2.trans.b16"},
                 {4, false, "stmatrix.m8n8.x4.b16"},
                 {4, true, "stmatrix.m8n8.x4.trans.b16"}};
  for (const auto &f : stForms) {
    uint16_t *dout = device<uint16_t>(nullptr, 256);
    if (f.num == 1 && !f.trans)
      stmatrix<1, false><<<1, 32>>>(dout);
    else if (f.num == 1)
      stmatrix<1, true><<<1, 32>>>(dout);
    else if (f.num == 2 && !f.trans)
      stmatrix<2, false><<<1, 32>>>(dout);
    else if (f.num == 2)
      stmatrix<2, true><<<1, 32>>>(dout);
    else if (!f.trans)
      stmatrix<4, false><<<1, 32>>>(dout);
    else
      stmatrix<4, true><<<1, 32>>>(dout);
    back(out, dout, 256);
    // Matrix m's row r at s[m*64 + r*8] (lane 8m + r's address); element
    // (row, col) of the fragments' matrix is lane 4*row + col/2's half
    // col%2; .trans stores its transpose. Past the matrices: untouched.
    bool ok = true;
    for (int m = 0; m < 4; ++m)
      for (int r = 0; r < 8; ++r)
        for (int c = 0; c < 8; ++c) {
          int row = f.trans ? c : r, col = f.trans ? r : c;
          int lane = 4 * row + col / 2;
          uint16_t want =
              m < f.num ? uint16_t(lane * 16 + m * 4096 + col % 2) : 0xffff;
          ok = ok && out[m * 64 + r * 8 + c] == want;
        }
    report(f.name, ok);
  }
  uint32_t *dout = device<uint32_t>(nullptr, 32), m[32];
  movmatrix<<<1, 32>>>(dout);
  back(m, dout, 32);
  bool ok = true;
  for (int l = 0; l < 32; ++l)
    for (int h = 0; h < 2; ++h) {
      int row = l / 4, col = 2 * (l % 4) + h; // of the result
      int srcLane = 4 * col + row / 2;        // holds (col, row)
      ok = ok && uint16_t(m[l] >> (16 * h)) == uint16_t(srcLane * 2 + row % 2);
    }
  report("movmatrix.m8n8.trans.b16", ok);
}

int main() {
  floatForms();
  integerForms();
  movementForms();
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess)
    std::printf("FAILED %s\n", cudaGetErrorString(e)), ++failures;
  std::printf("ptx_matrix_forms: %d forms, %d failures\n", forms, failures);
  return failures ? 1 : 0;
}
