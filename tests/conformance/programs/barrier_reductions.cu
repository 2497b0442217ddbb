// __syncthreads_count, __syncthreads_and and __syncthreads_or (the
// Programming Guide's "Synchronization Functions": each thread gets the
// count, AND or OR of every thread's predicate in its block), over blocks of
// three warps and one partial warp, checked against the host.
#include <cstdio>

constexpr int kBlocks = 3, kThreads = 112;

__global__ void reduce(const int *in, int *out) {
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  int v = in[i];
  int count = __syncthreads_count(v & 1);
  int all = __syncthreads_and(v >= 0);
  int any = __syncthreads_or(v > 1000);
  out[3 * i + 0] = count;
  out[3 * i + 1] = all;
  out[3 * i + 2] = any;
}

int main() {
  const int n = kBlocks * kThreads;
  int h[n], r[3 * n];
  for (int i = 0; i < n; ++i)
    h[i] = int((i * 2654435761u) % 997) - (i / kThreads == 1 ? 0 : 5) +
           (i == 2 * kThreads + 77 ? 5000 : 0);
  int *in, *out;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof r);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  reduce<<<kBlocks, kThreads>>>(in, out);
  cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
  int checks = 0, failures = 0;
  for (int b = 0; b < kBlocks; ++b) {
    int count = 0, all = 1, any = 0;
    for (int t = 0; t < kThreads; ++t) {
      int v = h[b * kThreads + t];
      count += v & 1;
      all &= v >= 0;
      any |= v > 1000;
    }
    for (int t = 0; t < kThreads; ++t) {
      const int *got = r + 3 * (b * kThreads + t);
      checks += 3;
      bool ok = got[0] == count && (got[1] != 0) == (all != 0) &&
                (got[2] != 0) == (any != 0);
      if (!ok && failures++ < 5)
        std::printf("mismatch in block %d thread %d: %d %d %d, want %d %d %d\n",
                    b, t, got[0], got[1], got[2], count, all, any);
    }
  }
  std::printf("barrier_reductions: %d checks, %d failures\n", checks, failures);
  return failures != 0;
}
