// Probe: cvt.{rn,rz,rna}{.relu}.tf32.f32 on 4096 inputs (64 chosen, the rest
// xorshift bits); prints input and the five results per line. Output on the
// H200: docs/validation/data/h200-tf32-probe.txt (every result equals
// simulator/engine/SmallFloat.cpp tf32FromFloat).
#include <cstdint>
#include <cstdio>
#include <cstring>
__global__ void k(const float *in, uint32_t *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = in[i];
  uint32_t a, b, c, d, e;
  asm("cvt.rn.tf32.f32 %0, %1;" : "=r"(a) : "f"(v));
  asm("cvt.rz.tf32.f32 %0, %1;" : "=r"(b) : "f"(v));
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(c) : "f"(v));
  asm("cvt.rn.relu.tf32.f32 %0, %1;" : "=r"(d) : "f"(v));
  asm("cvt.rz.relu.tf32.f32 %0, %1;" : "=r"(e) : "f"(v));
  out[5 * i] = a, out[5 * i + 1] = b, out[5 * i + 2] = c, out[5 * i + 3] = d,
          out[5 * i + 4] = e;
}
int main() {
  const int n = 4096;
  static float h[n];
  static uint32_t o[5 * n];
  uint64_t s = 0x9E3779B97F4A7C15ull;
  for (int i = 0; i < n; ++i) {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    uint32_t u = uint32_t(s);
    if (i < 64)
      u = (i % 2 ? 0x80000000u : 0) | (uint32_t(i / 2) << 8) |
          0x3f800fffu * (i % 3 == 0);
    memcpy(&h[i], &u, 4);
  }
  float *din;
  uint32_t *dout;
  cudaMalloc(&din, sizeof h);
  cudaMalloc(&dout, sizeof o);
  cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice);
  k<<<n / 128, 128>>>(din, dout, n);
  cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) {
    uint32_t u;
    memcpy(&u, &h[i], 4);
    printf("%08x %08x %08x %08x %08x %08x\n", u, o[5 * i], o[5 * i + 1],
           o[5 * i + 2], o[5 * i + 3], o[5 * i + 4]);
  }
}
