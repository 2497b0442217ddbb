// Tensor-core code as GEMM tutorials write it: ldmatrix (.x1/.x2/.x4, .trans)
// from a 128-byte-pitch tile (conflicting rows) and from an XOR-swizzled one,
// mma.sync m16n8k16 (f16 in, f32 accumulate) fed by ldmatrix, and the wmma
// API on global and on shared memory.
#include "common.h"
#include <cuda_fp16.h>
#include <mma.h>

__device__ unsigned smem(const void *p) {
  return (unsigned)__cvta_generic_to_shared(p);
}

// A 64x64 half tile; lane l addresses row l%8 of matrix l/8 (x4), columns
// 0..7 of rows 8*(l/8)+l%8: 128-byte rows, so the 8 rows of a matrix share
// one group of 4 banks (8-way) unless swizzled.
template <bool swizzle>
__global__ void ldmatrix_variants(unsigned *out, const half *in) {
  __shared__ half tile[64 * 64];
  for (int i = threadIdx.x; i < 64 * 64; i += blockDim.x)
    tile[i] = in[blockIdx.x * 64 * 64 + i];
  __syncthreads();
  int lane = threadIdx.x & 31, row = lane, chunk = 0;
  if (swizzle)
    chunk ^= row & 7;
  const half *p = &tile[row * 64 + chunk * 8];
  unsigned a0, a1, a2, a3, b0, b1, c0, t0, t1, t2, t3;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
               : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3)
               : "r"(smem(p)));
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];"
               : "=r"(b0), "=r"(b1)
               : "r"(smem(p)));
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];"
               : "=r"(c0)
               : "r"(smem(p)));
  asm volatile(
      "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
      : "=r"(t0), "=r"(t1), "=r"(t2), "=r"(t3)
      : "r"(smem(p)));
  out[blockIdx.x * 32 + lane] = a0 ^ a1 ^ a2 ^ a3 ^ b0 ^ b1 ^ c0 ^ t0 ^ t1 ^
                                t2 ^ t3;
}

// C (64x64, f32) = A (64x64 row major) * B (64x64, column major), one warp
// per 16x8 output tile, K in steps of 16: fragments by ldmatrix.x4 (A) and
// .x2 (B) from shared tiles with a 16-byte padded pitch (72 halves).
__global__ void mma_gemm(float *C, const half *A, const half *B) {
  __shared__ half As[64 * 72], Bs[64 * 72];
  for (int i = threadIdx.x; i < 64 * 64; i += blockDim.x) {
    As[(i / 64) * 72 + i % 64] = A[i];
    Bs[(i / 64) * 72 + i % 64] = B[i];
  }
  __syncthreads();
  int warp = threadIdx.x / 32, lane = threadIdx.x & 31;
  for (int tile = warp; tile < 4 * 8; tile += blockDim.x / 32) {
    int m0 = (tile / 8) * 16, n0 = (tile % 8) * 8;
    float d[4] = {0, 0, 0, 0};
    for (int k0 = 0; k0 < 64; k0 += 16) {
      unsigned a[4], b[2];
      const half *pa = &As[(m0 + lane % 16) * 72 + k0 + (lane / 16) * 8];
      const half *pb = &Bs[(n0 + lane % 8) * 72 + k0 + ((lane / 8) % 2) * 8];
      asm volatile(
          "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
          : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3])
          : "r"(smem(pa)));
      asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];"
                   : "=r"(b[0]), "=r"(b[1])
                   : "r"(smem(pb)));
      asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                   "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                   "{%0,%1,%2,%3};"
                   : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                   : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]),
                     "r"(b[1]));
    }
    int g = lane / 4, t = lane % 4;
    for (int i = 0; i < 4; ++i)
      C[(m0 + g + 8 * (i / 2)) * 64 + n0 + 2 * t + i % 2] = d[i];
  }
}

using namespace nvcuda;

__global__ void wmma_global(float *C, const half *A, const half *B) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int m0 = (warp / 4) * 16, n0 = (warp % 4) * 16;
  for (int k0 = 0; k0 < 64; k0 += 16) {
    wmma::load_matrix_sync(fa, A + m0 * 64 + k0, 64);
    wmma::load_matrix_sync(fb, B + n0 * 64 + k0, 64);
    wmma::mma_sync(fc, fa, fb, fc);
  }
  wmma::store_matrix_sync(C + m0 * 64 + n0, fc, 64, wmma::mem_row_major);
}

__global__ void wmma_shared(float *C, const half *A, const half *B) {
  __shared__ half As[16 * 64], Bs[16 * 64];
  __shared__ float Cs[16 * 16];
  for (int i = threadIdx.x; i < 16 * 64; i += 32) {
    As[i] = A[blockIdx.x * 16 * 64 + i];
    Bs[i] = B[i];
  }
  __syncthreads();
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  for (int k0 = 0; k0 < 64; k0 += 16) {
    wmma::load_matrix_sync(fa, As + k0, 64);
    wmma::load_matrix_sync(fb, Bs + k0, 64);
    wmma::mma_sync(fc, fa, fb, fc);
  }
  wmma::store_matrix_sync(Cs, fc, 16, wmma::mem_row_major);
  __syncthreads();
  for (int i = threadIdx.x; i < 256; i += 32)
    C[blockIdx.x * 256 + i] = Cs[i];
}

int main() {
  half *A = deviceBuffer<half>(8 * 64 * 64, 1);
  half *B = deviceBuffer<half>(64 * 64, 2);
  unsigned *bits;
  float *C;
  CHECK(cudaMalloc(&bits, 8 * 32 * sizeof(unsigned)));
  CHECK(cudaMalloc(&C, 8 * 64 * 64 * sizeof(float)));
  ldmatrix_variants<false><<<8, 32>>>(bits, A);
  CHECK_LAUNCH();
  ldmatrix_variants<true><<<8, 32>>>(bits, A);
  CHECK_LAUNCH();
  mma_gemm<<<1, 128>>>(C, A, B);
  CHECK_LAUNCH();
  printf("mma %.0f\n", deviceSum(C, 64 * 64));
  wmma_global<<<4, 128>>>(C, A, B);
  CHECK_LAUNCH();
  printf("wmma %.0f\n", deviceSum(C, 64 * 64));
  wmma_shared<<<4, 32>>>(C, A, B);
  CHECK_LAUNCH();
  printf("wmma shared %.0f\n", deviceSum(C, 4 * 256));
  return 0;
}
