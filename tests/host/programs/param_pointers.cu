// A kernel's by-value struct parameter holds its pointers: nvcc loads
// through them as global memory, so the shared stores between those loads
// merge into st.shared.v4 (HeCBench ssm's B and C tiles).
#include <cstdio>

struct Params {
  const float *b;
  const float *c;
  float *out;
};

__global__ void tiles(Params p) {
  extern __shared__ char raw[];
  float *bt = reinterpret_cast<float *>(raw);
  float *ct = bt + 8 * 512;
  int t = threadIdx.x;
  for (int n = 0; n < 8; ++n) {
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      bt[n * 512 + t * 4 + i] = p.b[blockIdx.x * 4096 + n * 512 + t * 4 + i];
      ct[n * 512 + t * 4 + i] = p.c[blockIdx.x * 4096 + n * 512 + t * 4 + i];
    }
  }
  __syncthreads();
  float acc = 0;
  for (int n = 0; n < 8; ++n)
    acc += bt[n * 512 + (t + 1) % 128] * ct[n * 512 + t];
  p.out[blockIdx.x * 128 + t] = acc;
}

int main() {
  const int blocks = 4;
  float *b, *c, *out, h[blocks * 128];
  static float hb[blocks * 4096];
  cudaMalloc(&b, sizeof hb);
  cudaMalloc(&c, sizeof hb);
  cudaMalloc(&out, sizeof h);
  for (int i = 0; i < blocks * 4096; ++i)
    hb[i] = i % 7;
  cudaMemcpy(b, hb, sizeof hb, cudaMemcpyHostToDevice);
  cudaMemcpy(c, hb, sizeof hb, cudaMemcpyHostToDevice);
  tiles<<<blocks, 128, 2 * 8 * 512 * 4>>>(Params{b, c, out});
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  double sum = 0;
  for (float v : h)
    sum += v;
  printf("sum %.1f\n", sum);
  cudaFree(b);
  cudaFree(c);
  cudaFree(out);
  return 0;
}
