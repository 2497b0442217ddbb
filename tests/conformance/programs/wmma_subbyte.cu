// Conformance program for mma.h's experimental sub-byte warp matrix
// functions (docs/conformance.md), written from the CUDA C++ Programming
// Guide's "Sub-byte Operations": m8n8k32 with 4-bit signed and unsigned
// elements (mma_sync, with and without satf), m8n8k128 with single bits
// (bmma_sync, XOR and AND with POPC accumulation), C and D row- and
// column-major. A is row-major and B column-major, the only layouts these
// forms have; elements are packed eight (s4, u4) or thirty-two (b1) to a
// 32-bit word, the first in the lowest bits. Each form is one warp's launch,
// D = A * B + C checked against the host; the program prints one line per
// failed form and a summary, on the GPU (nvcc) and under kcheck run alike.
#include <mma.h>

#include <climits>
#include <cstdio>
#include <cstring>
#include <vector>

using namespace nvcuda;
namespace ex = nvcuda::wmma::experimental;

static int forms = 0, failures = 0;

enum class Op { S4, S4Satf, U4, Xor, And };

template <int K, class T, Op op>
__global__ void product(const unsigned *a, const unsigned *b, const int *c,
                        int *d, bool cRowMajor) {
  wmma::fragment<wmma::matrix_a, 8, 8, K, T, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 8, 8, K, T, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 8, 8, K, int> fc;
  wmma::load_matrix_sync(fa, a, K);
  wmma::load_matrix_sync(fb, b, K);
  wmma::load_matrix_sync(fc, c, 8,
                         cRowMajor ? wmma::mem_row_major : wmma::mem_col_major);
  if constexpr (op == Op::Xor)
    wmma::bmma_sync(fc, fa, fb, fc, ex::bmmaBitOpXOR, ex::bmmaAccumulateOpPOPC);
  else if constexpr (op == Op::And)
    wmma::bmma_sync(fc, fa, fb, fc, ex::bmmaBitOpAND, ex::bmmaAccumulateOpPOPC);
  else
    wmma::mma_sync(fc, fa, fb, fc, op == Op::S4Satf);
  wmma::store_matrix_sync(
      d, fc, 8, cRowMajor ? wmma::mem_row_major : wmma::mem_col_major);
}

// Element k of a packed row (A) or column (B) of `bits`-bit elements.
int element(const std::vector<unsigned> &m, int start, int k, int bits,
            bool isSigned) {
  int perWord = 32 / bits;
  unsigned word = m[(start + k) / perWord];
  unsigned v = (word >> ((start + k) % perWord * bits)) & ((1u << bits) - 1);
  if (isSigned && (v >> (bits - 1)))
    return int(v) - (1 << bits);
  return int(v);
}

template <int K, class T, Op op> void check(const char *name, long cBase) {
  const int bits = K == 32 ? 4 : 1;
  const bool isSigned = op == Op::S4 || op == Op::S4Satf;
  for (bool cRow : {true, false}) {
    ++forms;
    // A is 8 x K row-major, B is K x 8 column-major: each 8 rows of K
    // packed elements, K * bits / 32 words a row.
    const int words = K * bits / 32;
    std::vector<unsigned> ha(8 * words), hb(8 * words);
    for (int i = 0; i < 8 * words; ++i) {
      ha[i] = 0x9e3779b9u * unsigned(i + 1) ^ 0x7f4a7c15u;
      hb[i] = 0x85ebca6bu * unsigned(i + 3) ^ 0xc2b2ae35u;
    }
    std::vector<int> hc(64), hd(64), want(64);
    for (int i = 0; i < 8; ++i)
      for (int j = 0; j < 8; ++j) {
        long cv = cBase + (i * 3 + j * 5) % 17;
        hc[cRow ? i * 8 + j : j * 8 + i] = int(cv);
        long sum = cv;
        for (int k = 0; k < K; ++k) {
          int x = element(ha, i * K, k, bits, isSigned);
          int y = element(hb, j * K, k, bits, isSigned);
          sum += op == Op::Xor ? (x ^ y) : op == Op::And ? (x & y) : x * y;
        }
        if (op == Op::S4Satf)
          sum = sum > INT_MAX ? INT_MAX : sum < INT_MIN ? INT_MIN : sum;
        want[i * 8 + j] = int((unsigned long)sum); // wraps without satf
      }
    unsigned *da, *db;
    int *dc, *dd;
    cudaMalloc(&da, ha.size() * 4);
    cudaMalloc(&db, hb.size() * 4);
    cudaMalloc(&dc, 64 * 4);
    cudaMalloc(&dd, 64 * 4);
    cudaMemcpy(da, ha.data(), ha.size() * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(db, hb.data(), hb.size() * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dc, hc.data(), 64 * 4, cudaMemcpyHostToDevice);
    product<K, T, op><<<1, 32>>>(da, db, dc, dd, cRow);
    cudaError_t e = cudaMemcpy(hd.data(), dd, 64 * 4, cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int i = 0; i < 8; ++i)
      for (int j = 0; j < 8; ++j)
        if (hd[cRow ? i * 8 + j : j * 8 + i] != want[i * 8 + j])
          ++wrong;
    if (e != cudaSuccess || wrong) {
      ++failures;
      std::printf("FAILED %s, C %s-major: %d of 64 elements wrong (%s)\n", name,
                  cRow ? "row" : "col", wrong, cudaGetErrorName(e));
    }
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    cudaFree(dd);
  }
}

int main() {
  check<32, ex::precision::s4, Op::S4>("m8n8k32 s4", -40);
  check<32, ex::precision::u4, Op::U4>("m8n8k32 u4", 1000);
  // Near INT_MAX: .satfinite clamps the sum, the plain form wraps it.
  check<32, ex::precision::s4, Op::S4Satf>("m8n8k32 s4 satf", INT_MAX - 100);
  check<32, ex::precision::s4, Op::S4>("m8n8k32 s4 wrapping", INT_MAX - 100);
  check<32, ex::precision::u4, Op::U4>("m8n8k32 u4 wrapping", INT_MAX - 100);
  check<128, ex::precision::b1, Op::Xor>("m8n8k128 b1 xor", 7);
  check<128, ex::precision::b1, Op::And>("m8n8k128 b1 and", -3);
  std::printf("wmma_subbyte: %d forms, %d failures\n", forms, failures);
  return failures ? 1 : 0;
}
