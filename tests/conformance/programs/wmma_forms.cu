// Conformance program for the wmma API of mma.h (docs/conformance.md):
// every shape, type and layout of the CUDA C++ Programming Guide's "Warp
// Matrix Functions" table, D = A * B + C on small integers (exact in every
// type, whatever the order of the sums), checked against a product on the
// host. Each form is one warp's launch; the program prints one line per
// failed form and a summary, on the GPU (nvcc) and under kcheck run alike.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

#include <cstdio>
#include <vector>

using namespace nvcuda;

static int forms = 0, failures = 0;

template <class T> __host__ __device__ T fromInt(int v);
template <> __host__ __device__ half fromInt<half>(int v) { return __int2half_rn(v); }
template <> __host__ __device__ __nv_bfloat16 fromInt<__nv_bfloat16>(int v) {
  return __int2bfloat16_rn(v);
}
template <> __host__ __device__ float fromInt<float>(int v) { return float(v); }
template <> __host__ __device__ double fromInt<double>(int v) { return double(v); }
template <> __host__ __device__ signed char fromInt<signed char>(int v) {
  return (signed char)v;
}
template <> __host__ __device__ unsigned char fromInt<unsigned char>(int v) {
  return (unsigned char)v;
}
template <> __host__ __device__ int fromInt<int>(int v) { return v; }

template <class T> double toDouble(T v) { return double(v); }
template <> double toDouble<half>(half v) { return double(__half2float(v)); }

// One form: A (M x K) and B (K x N) in the layouts LA and LB, C and D
// (M x N) row- or column-major.
template <int M, int N, int K, class TA, class TAB, class TC, class LA,
          class LB>
__global__ void product(const TA *a, const TA *b, const TC *c, TC *d,
                        bool cRowMajor) {
  wmma::fragment<wmma::matrix_a, M, N, K, TAB, LA> fa;
  wmma::fragment<wmma::matrix_b, M, N, K, TAB, LB> fb;
  wmma::fragment<wmma::accumulator, M, N, K, TC> fc;
  bool aRow = std::is_same<LA, wmma::row_major>::value;
  bool bRow = std::is_same<LB, wmma::row_major>::value;
  wmma::load_matrix_sync(fa, a, aRow ? K : M);
  wmma::load_matrix_sync(fb, b, bRow ? N : K);
  wmma::load_matrix_sync(fc, c, cRowMajor ? N : M,
                         cRowMajor ? wmma::mem_row_major : wmma::mem_col_major);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d, fc, cRowMajor ? N : M,
                          cRowMajor ? wmma::mem_row_major : wmma::mem_col_major);
}

template <int M, int N, int K, class TA, class TAB, class TC, class LA,
          class LB>
void check(const char *name, int range) {
  bool aRow = std::is_same<LA, wmma::row_major>::value;
  bool bRow = std::is_same<LB, wmma::row_major>::value;
  for (bool cRow : {true, false}) {
    ++forms;
    std::vector<TA> ha(M * K), hb(K * N);
    std::vector<TC> hc(M * N), hd(M * N);
    std::vector<int> ia(M * K), ib(K * N), ic(M * N);
    for (int i = 0; i < M; ++i)
      for (int k = 0; k < K; ++k) {
        int v = (i * 7 + k * 3) % range - range / 2;
        if (std::is_unsigned<TA>::value)
          v += range / 2;
        ia[i * K + k] = v;
        ha[aRow ? i * K + k : k * M + i] = fromInt<TA>(v);
      }
    for (int k = 0; k < K; ++k)
      for (int j = 0; j < N; ++j) {
        int v = (k * 5 + j * 11) % range - range / 2;
        if (std::is_unsigned<TA>::value)
          v += range / 2;
        ib[k * N + j] = v;
        hb[bRow ? k * N + j : j * K + k] = fromInt<TA>(v);
      }
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        ic[i * N + j] = (i + 2 * j) % 9 - 4;
        hc[cRow ? i * N + j : j * M + i] = fromInt<TC>(ic[i * N + j]);
      }
    TA *da, *db;
    TC *dc, *dd;
    cudaMalloc(&da, ha.size() * sizeof(TA));
    cudaMalloc(&db, hb.size() * sizeof(TA));
    cudaMalloc(&dc, hc.size() * sizeof(TC));
    cudaMalloc(&dd, hd.size() * sizeof(TC));
    cudaMemcpy(da, ha.data(), ha.size() * sizeof(TA), cudaMemcpyHostToDevice);
    cudaMemcpy(db, hb.data(), hb.size() * sizeof(TA), cudaMemcpyHostToDevice);
    cudaMemcpy(dc, hc.data(), hc.size() * sizeof(TC), cudaMemcpyHostToDevice);
    product<M, N, K, TA, TAB, TC, LA, LB><<<1, 32>>>(da, db, dc, dd, cRow);
    cudaError_t e = cudaMemcpy(hd.data(), dd, hd.size() * sizeof(TC),
                               cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        long want = ic[i * N + j];
        for (int k = 0; k < K; ++k)
          want += long(ia[i * K + k]) * ib[k * N + j];
        double got = toDouble(hd[cRow ? i * N + j : j * M + i]);
        if (got != double(want))
          ++wrong;
      }
    if (e != cudaSuccess || wrong) {
      ++failures;
      std::printf("FAILED %s, C %s-major: %d of %d elements wrong (%s)\n",
                  name, cRow ? "row" : "col", wrong, M * N,
                  cudaGetErrorName(e));
    }
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    cudaFree(dd);
  }
}

template <int M, int N, int K, class TA, class TAB, class TC>
void layouts(const char *name, int range) {
  using R = wmma::row_major;
  using C = wmma::col_major;
  check<M, N, K, TA, TAB, TC, R, R>(name, range);
  check<M, N, K, TA, TAB, TC, R, C>(name, range);
  check<M, N, K, TA, TAB, TC, C, R>(name, range);
  check<M, N, K, TA, TAB, TC, C, C>(name, range);
}

int main() {
  // Half precision: f16 products into f32 or f16 accumulators.
  layouts<16, 16, 16, half, half, float>("m16n16k16 f16 -> f32", 8);
  layouts<32, 8, 16, half, half, float>("m32n8k16 f16 -> f32", 8);
  layouts<8, 32, 16, half, half, float>("m8n32k16 f16 -> f32", 8);
  layouts<16, 16, 16, half, half, half>("m16n16k16 f16 -> f16", 4);
  layouts<32, 8, 16, half, half, half>("m32n8k16 f16 -> f16", 4);
  layouts<8, 32, 16, half, half, half>("m8n32k16 f16 -> f16", 4);
  // bfloat16 into f32.
  layouts<16, 16, 16, __nv_bfloat16, __nv_bfloat16, float>("m16n16k16 bf16", 8);
  layouts<32, 8, 16, __nv_bfloat16, __nv_bfloat16, float>("m32n8k16 bf16", 8);
  layouts<8, 32, 16, __nv_bfloat16, __nv_bfloat16, float>("m8n32k16 bf16", 8);
  // tf32 (loaded from float) into f32.
  layouts<16, 16, 8, float, wmma::precision::tf32, float>("m16n16k8 tf32", 8);
  // Doubles.
  layouts<8, 8, 4, double, double, double>("m8n8k4 f64", 16);
  // 8-bit integers into s32.
  layouts<16, 16, 16, signed char, signed char, int>("m16n16k16 s8", 64);
  layouts<32, 8, 16, signed char, signed char, int>("m32n8k16 s8", 64);
  layouts<8, 32, 16, signed char, signed char, int>("m8n32k16 s8", 64);
  layouts<16, 16, 16, unsigned char, unsigned char, int>("m16n16k16 u8", 64);
  layouts<32, 8, 16, unsigned char, unsigned char, int>("m32n8k16 u8", 64);
  layouts<8, 32, 16, unsigned char, unsigned char, int>("m8n32k16 u8", 64);
  std::printf("wmma_forms: %d forms, %d failures\n", forms, failures);
  return failures ? 1 : 0;
}
