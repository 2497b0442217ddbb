// Conformance program for mma.sync.aligned.m8n8k4 with f16 operands (the
// sm_70 form, which later GPUs still run): each of the 12 forms (A and B
// row or column major; D and C f16, f32 or f32 and f16: ptxas refuses an
// f16 D with an f32 C), written from the PTX ISA's
// "Matrix Fragments for mma.m8n8k4 with .f16 floating point type". A warp
// computes four products, one per quad pair (QP q: lanes 4q..4q+3 and
// 4q+16..4q+19), each of its own matrices. The kernel builds each lane's
// fragments from row-major matrices in global memory by the ISA's layout
// (t = lane%4, h = 1 for lanes 16..31), runs the instruction and writes D
// back by D's layout; the host checks every element of the four products.
// Small integers make every sum exact. It prints one line per failed form
// and a summary, on the GPU (nvcc) or under kcheck run.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>

static int forms = 0, failures = 0;

__device__ uint32_t pack(float lo, float hi) {
  return uint32_t(__half_as_ushort(__float2half(lo))) |
         (uint32_t(__half_as_ushort(__float2half(hi))) << 16);
}
__device__ float unpack(uint32_t reg, int odd) {
  return __half2float(__ushort_as_half(uint16_t(reg >> (16 * odd))));
}

// Element i of this lane's C/D fragment: (row, col) of its 8x8 matrix.
__device__ void accPlace(bool half, int i, int &row, int &col) {
  int lane = threadIdx.x, t = lane % 4, h = lane / 16;
  if (half)
    row = t + 4 * h, col = i;
  else
    row = (t & 1) + (i & 2) + 4 * h, col = (i & 4) + (t & 2) + (i & 1);
}

#define MMA_ASM(AL, BL, DT, CT, DOUT, ...)                                     \
  asm volatile("mma.sync.aligned.m8n8k4." AL "." BL "." DT ".f16.f16." CT " "  \
               DOUT:DREGS                                                      \
               : "r"(ar[0]), "r"(ar[1]), "r"(br[0]), "r"(br[1]), __VA_ARGS__)
#define LAYOUTS(DT, CT, DOUT, ...)                                             \
  if constexpr (ARow && BRow)                                                  \
    MMA_ASM("row", "row", DT, CT, DOUT, __VA_ARGS__);                          \
  else if constexpr (ARow)                                                     \
    MMA_ASM("row", "col", DT, CT, DOUT, __VA_ARGS__);                          \
  else if constexpr (BRow)                                                     \
    MMA_ASM("col", "row", DT, CT, DOUT, __VA_ARGS__);                          \
  else                                                                         \
    MMA_ASM("col", "col", DT, CT, DOUT, __VA_ARGS__);

#define C4 "r"(cr[0]), "r"(cr[1]), "r"(cr[2]), "r"(cr[3])
#define C8 C4, "r"(cr[4]), "r"(cr[5]), "r"(cr[6]), "r"(cr[7])

// a: 4 matrices 8x4, b: 4 of 4x8, c and d: 4 of 8x8, each row-major, the
// matrices of quad pair q at q * their size.
template <bool ARow, bool BRow, bool DHalf, bool CHalf>
__global__ void mma(const float *a, const float *b, const float *c, float *d) {
  int lane = threadIdx.x, q = (lane / 4) % 4, t = lane % 4, h = lane / 16;
  const float *aq = a + 32 * q, *bq = b + 32 * q, *cq = c + 64 * q;
  float *dq = d + 64 * q;
  float ae[4], be[4];
  for (int i = 0; i < 4; ++i) {
    ae[i] = ARow ? aq[(t + 4 * h) * 4 + i] : aq[(i + 4 * h) * 4 + t];
    be[i] = BRow ? bq[t * 8 + i + 4 * h] : bq[i * 8 + t + 4 * h];
  }
  uint32_t ar[2] = {pack(ae[0], ae[1]), pack(ae[2], ae[3])};
  uint32_t br[2] = {pack(be[0], be[1]), pack(be[2], be[3])};
  uint32_t cr[8] = {}, dr[8] = {};
  float ce[8];
  for (int i = 0; i < 8; ++i) {
    int row, col;
    accPlace(CHalf, i, row, col);
    ce[i] = cq[row * 8 + col];
  }
  for (int i = 0; i < 8; ++i)
    cr[i] = CHalf ? (i < 4 ? pack(ce[2 * i], ce[2 * i + 1]) : 0)
                  : __float_as_uint(ce[i]);
  if constexpr (DHalf) {
#define DREGS "=r"(dr[0]), "=r"(dr[1]), "=r"(dr[2]), "=r"(dr[3])
    if constexpr (CHalf) {
      LAYOUTS("f16", "f16", "{%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%8,%9,%10,%11};",
              C4)
    } else {
      LAYOUTS("f16", "f32",
              "{%0,%1,%2,%3}, {%4,%5}, {%6,%7}, "
              "{%8,%9,%10,%11,%12,%13,%14,%15};",
              C8)
    }
#undef DREGS
  } else {
#define DREGS                                                                  \
  "=r"(dr[0]), "=r"(dr[1]), "=r"(dr[2]), "=r"(dr[3]), "=r"(dr[4]),             \
      "=r"(dr[5]), "=r"(dr[6]), "=r"(dr[7])
    if constexpr (CHalf) {
      LAYOUTS("f32", "f16",
              "{%0,%1,%2,%3,%4,%5,%6,%7}, {%8,%9}, {%10,%11}, "
              "{%12,%13,%14,%15};",
              C4)
    } else {
      LAYOUTS("f32", "f32",
              "{%0,%1,%2,%3,%4,%5,%6,%7}, {%8,%9}, {%10,%11}, "
              "{%12,%13,%14,%15,%16,%17,%18,%19};",
              C8)
    }
#undef DREGS
  }
  for (int i = 0; i < 8; ++i) {
    int row, col;
    accPlace(DHalf, i, row, col);
    dq[row * 8 + col] =
        DHalf ? unpack(dr[i / 2], i % 2) : __uint_as_float(dr[i]);
  }
}

template <bool ARow, bool BRow, bool DHalf, bool CHalf> static void check() {
  float a[128], b[128], c[256], want[256], got[256];
  for (int i = 0; i < 128; ++i) {
    a[i] = float((i * 7 + 3) % 7 - 3);
    b[i] = float((i * 5 + 1) % 7 - 3);
  }
  for (int i = 0; i < 256; ++i)
    c[i] = float((i * 3) % 17 - 8);
  for (int q = 0; q < 4; ++q)
    for (int r = 0; r < 8; ++r)
      for (int col = 0; col < 8; ++col) {
        float s = c[64 * q + r * 8 + col];
        for (int k = 0; k < 4; ++k)
          s += a[32 * q + r * 4 + k] * b[32 * q + k * 8 + col];
        want[64 * q + r * 8 + col] = s;
      }
  float *ad, *bd, *cd, *dd;
  cudaMalloc(&ad, sizeof a);
  cudaMalloc(&bd, sizeof b);
  cudaMalloc(&cd, sizeof c);
  cudaMalloc(&dd, sizeof got);
  cudaMemcpy(ad, a, sizeof a, cudaMemcpyHostToDevice);
  cudaMemcpy(bd, b, sizeof b, cudaMemcpyHostToDevice);
  cudaMemcpy(cd, c, sizeof c, cudaMemcpyHostToDevice);
  cudaMemset(dd, 0xff, sizeof got); // NaN: an element never written fails
  mma<ARow, BRow, DHalf, CHalf><<<1, 32>>>(ad, bd, cd, dd);
  cudaError_t e = cudaMemcpy(got, dd, sizeof got, cudaMemcpyDeviceToHost);
  bool ok = e == cudaSuccess;
  for (int i = 0; i < 256 && ok; ++i)
    ok = got[i] == want[i];
  ++forms;
  if (!ok) {
    ++failures;
    std::printf("FAILED mma.sync.aligned.m8n8k4.%s.%s.%s.f16.f16.%s (%s)\n",
                ARow ? "row" : "col", BRow ? "row" : "col",
                DHalf ? "f16" : "f32", CHalf ? "f16" : "f32",
                cudaGetErrorName(e));
  }
  cudaFree(ad);
  cudaFree(bd);
  cudaFree(cd);
  cudaFree(dd);
}

template <bool ARow, bool BRow> static void layouts() {
  check<ARow, BRow, true, true>();
  check<ARow, BRow, false, true>();
  check<ARow, BRow, false, false>();
}

int main() {
  layouts<true, true>();
  layouts<true, false>();
  layouts<false, true>();
  layouts<false, false>();
  std::printf("mma_m8n8k4: %d forms, %d failures\n", forms, failures);
  return failures != 0;
}
