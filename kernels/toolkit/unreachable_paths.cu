// Branches whose other side ends in `unreachable` (simulator/engine/
// Reconvergence.h): the lanes reconverge where the returning paths meet.
// A switch over `len & 3` lists every value, so its default is unreachable
// (HeCBench murmurhash3's and jenkins-hash's tails); an assert's failing
// side calls __assertfail and ends in unreachable.
#include "common.h"
#include <cassert>

__global__ void fallthrough_tail(const unsigned char *data, const int *len,
                                 unsigned *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned char *p = data + 4 * i;
  unsigned h = 0;
  switch (len[i] & 3) {
  case 3:
    h ^= p[2] << 16;
  case 2:
    h ^= p[1] << 8;
  case 1:
    h ^= p[0];
    h *= 0x5bd1e995u;
  case 0:
    break;
  }
  out[i] = h;
}

__global__ void after_assert(const int *len, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = len[i];
  if (v & 1) {
    assert(v < 1000);
    v *= 3;
  }
  out[i] = v;
}

int main() {
  const int n = 32 * 256;
  unsigned char *data = deviceBuffer<unsigned char>(4 * n, 1);
  int *len = deviceBuffer<int>(n, 3); // (7i + 3) % 13: every residue mod 4
  unsigned *out;
  int *outi;
  CHECK(cudaMalloc(&out, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&outi, n * sizeof(int)));
  fallthrough_tail<<<32, 256>>>(data, len, out);
  CHECK_LAUNCH();
  printf("fallthrough_tail %.0f\n", deviceSum(out, n));
  after_assert<<<32, 256>>>(len, outi);
  CHECK_LAUNCH();
  printf("after_assert %.0f\n", deviceSum(outi, n));
  return 0;
}
