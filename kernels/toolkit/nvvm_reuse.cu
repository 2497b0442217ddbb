// Shared-memory values nvcc reuses instead of reading again, and a store it
// makes once for three branches (analyzer/pipeline/IrPipelineForward.h,
// IrPipelineShared.h, IrPipelineMemory.h), as HeCBench moe-align, merge and
// CUB's raking scan have them.
#include "common.h"

// Column prefix sums in place, a runtime stride apart: nvcc unrolls the loop
// by 4 and reads `t[(i - 1) * n + tid]` from memory once per 4 iterations.
// Then one thread sums the last row into `c`, at the start of the window:
// `c[i - 1]` stays in a register, its first value the 0 just stored
// (HeCBench moe-align's layout).
__global__ void prefix_columns(const int *in, int *out, int n, int steps) {
  extern __shared__ int window[];
  int *c = window, *t = window + n + 1;
  int tid = threadIdx.x;
  if (tid < n)
    for (int i = 0; i <= steps; ++i)
      t[i * n + tid] = in[(i * n + tid) % 256];
  __syncthreads();
  if (tid < n)
    for (int i = 1; i <= steps; ++i)
      t[i * n + tid] += t[(i - 1) * n + tid];
  __syncthreads();
  if (tid == 0) {
    c[0] = 0;
    for (int i = 1; i <= n; ++i)
      c[i] = c[i - 1] + t[steps * n + i - 1] % 7;
  }
  __syncthreads();
  out[tid] = c[tid % (n + 1)];
}

// The same running sum with `c` after the rows: the H100 reads c[i - 1]
// once per 4 iterations (40 LDS for 32), kcheck forwards it throughout
// (32): a known difference (README.md).
__global__ void running_sum_after_rows(const int *in, int *out, int n,
                                       int steps) {
  extern __shared__ int t[];
  int *c = t + (steps + 1) * n;
  int tid = threadIdx.x;
  if (tid < n)
    for (int i = 0; i <= steps; ++i)
      t[i * n + tid] = in[(i * n + tid) % 256];
  __syncthreads();
  if (tid == 0) {
    c[0] = 0;
    for (int i = 1; i <= n; ++i)
      c[i] = c[i - 1] + t[steps * n + i - 1] % 7;
  }
  __syncthreads();
  out[tid] = c[tid % (n + 1)];
}

// if / else if / else, each storing to s[tid]: one STS after the join.
__global__ void three_way_store(const int *in, int *out, int limit) {
  __shared__ int s[128];
  int tid = threadIdx.x;
  int x = in[tid], y = in[(tid + 5) % 128];
  if (x > limit)
    s[tid] = 0;
  else if (y > limit)
    s[tid] = 1;
  else
    s[tid] = in[(tid + 9) % 128] <= y;
  __syncthreads();
  out[tid] = s[127 - tid];
}

// A binary search that reads b[~a] (b = s + base), then reads b[...] again
// after the loop at the index written as base' - a: one address in 32-bit
// arithmetic, one LDS.
__global__ void wrapped_index_reload(const int *in, int *out) {
  __shared__ int s[256];
  int tid = threadIdx.x;
  s[tid] = in[tid] * 2;
  s[tid + 128] = in[tid] * 2 + 1;
  __syncthreads();
  int *b = s + 128 + (tid & 63);
  int lo = 0, hi = 63, a = 32;
  int va = 0, vb = 0;
  while (lo < hi) {
    va = s[a];
    vb = b[~a];
    if (va > vb)
      hi = a;
    else
      lo = a + 1;
    a = (lo + hi) / 2;
  }
  int again = s[128 + (tid & 63) - a - 1];
  out[tid] = va + vb + again;
}

// A pair read as one 8-byte load, a shuffle in inline assembly, then the
// pair's first element read again: ptxas takes it from the 8-byte load.
__global__ void element_of_vector_reload(const int *in, int *out) {
  __shared__ __align__(8) int s[256];
  int tid = threadIdx.x;
  s[2 * tid] = in[tid];
  s[2 * tid + 1] = in[(tid + 1) % 128];
  __syncthreads();
  int sum = s[2 * tid] + s[2 * tid + 1];
  int up;
  asm volatile("shfl.sync.up.b32 %0, %1, 1, 0, 0xffffffff;"
               : "=r"(up)
               : "r"(sum));
  int first = s[2 * tid];
  out[tid] = up + first;
}

int main() {
  int *in = deviceBuffer<int>(256, 1), *out;
  CHECK(cudaMalloc(&out, 256 * sizeof(int)));
  const int n = 32, steps = 32;
  const size_t window = ((steps + 1) * n + n + 1) * sizeof(int);
  prefix_columns<<<1, 64, window>>>(in, out, n, steps);
  CHECK_LAUNCH();
  running_sum_after_rows<<<1, 64, window>>>(in, out, n, steps);
  CHECK_LAUNCH();
  three_way_store<<<1, 128>>>(in, out, 6);
  CHECK_LAUNCH();
  wrapped_index_reload<<<1, 128>>>(in, out);
  CHECK_LAUNCH();
  element_of_vector_reload<<<1, 128>>>(in, out);
  CHECK_LAUNCH();
  printf("sum %.1f\n", deviceSum(out, 128));
  return 0;
}
