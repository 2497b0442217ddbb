// Adjacent shared accesses that nvcc leaves apart (the arrays' declared
// alignment is 8 or 4) and ptxas merges only when they follow each other:
// `a = o[-2]; b = o[-1]; o[0] = a; o[1] = b;` is one 16-byte (8-byte for
// int) load and store, `o[0] = o[-2]; o[1] = o[-1];` two of each (HeCBench
// langford's search loop). The row index comes from shared memory, as
// langford's depth comes from its stack.
#include <cstdint>
#include <cstdio>

template <class T, bool kGrouped>
__global__ void copyUp(T *out, const int8_t *depths, int steps) {
  __shared__ int pad[60];
  __shared__ T rows[4][32];
  __shared__ int8_t depth[4][8];
  int t = threadIdx.x;
  pad[t] = t;
  // Rolled: LLVM's GVN would otherwise carry the stored values to the sum
  // below along the path where the steps loop does not run, and load part of
  // the row in that loop's exit (nvcc's optimizer does not).
#pragma unroll 1
  for (int i = 0; i < 32; ++i)
    rows[t][i] = T(i + t);
  for (int i = 0; i < 8; ++i)
    depth[t][i] = depths[(blockIdx.x * 4 + t) * 8 + i];
  T *row = rows[t];
  for (int s = 0; s < steps; ++s) {
    int k = depth[t][s & 7];
    T *o = row + 2 * k + 2;
    if (kGrouped) {
      T a = o[-2];
      T b = o[-1];
      o[0] = a + 1;
      o[1] = b + 1;
    } else {
      o[0] = o[-2] + 1;
      o[1] = o[-1] + 1;
    }
  }
  T sum = 0;
  for (int i = 0; i < 32; ++i)
    sum += row[i];
  out[blockIdx.x * 4 + t] = sum + pad[t ^ 1];
}

template <class T, bool kGrouped>
long long run(const int8_t *depths, int blocks) {
  T *out;
  cudaMalloc(&out, blocks * 4 * sizeof(T));
  copyUp<T, kGrouped><<<blocks, 4>>>(out, depths, 40);
  T h[64];
  cudaMemcpy(h, out, blocks * 4 * sizeof(T), cudaMemcpyDeviceToHost);
  cudaFree(out);
  long long sum = 0;
  for (int i = 0; i < blocks * 4; ++i)
    sum += (long long)h[i];
  return sum;
}

int main() {
  const int blocks = 16;
  int8_t h[blocks * 4 * 8], *depths;
  for (int i = 0; i < blocks * 4 * 8; ++i)
    h[i] = int8_t((i * 7) % 14);
  cudaMalloc(&depths, sizeof h);
  cudaMemcpy(depths, h, sizeof h, cudaMemcpyHostToDevice);
  printf("int64 interleaved %lld\n", run<int64_t, false>(depths, blocks));
  printf("int64 grouped %lld\n", run<int64_t, true>(depths, blocks));
  printf("int interleaved %lld\n", run<int, false>(depths, blocks));
  printf("int grouped %lld\n", run<int, true>(depths, blocks));
  cudaFree(depths);
  return 0;
}
