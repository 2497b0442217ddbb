// Probe: MUFU.EX2 / MUFU.LG2 (ex2.approx.ftz.f32, lg2.approx.ftz.f32) against
// correctly rounded results, over every float of chosen binades.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "mufu.cuh"
__global__ void fastk(const float *in, float *e, float *l, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  e[i] = __expf(in[i]);
  l[i] = __logf(in[i]);
}
static int32_t ulpdiff(float a, float b) {
  int32_t ia, ib;
  memcpy(&ia, &a, 4);
  memcpy(&ib, &b, 4);
  return ia - ib;
}
int main(int argc, char **argv) {
  // binades given as the first bit pattern and count.
  struct R {
    const char *what;
    uint32_t first;
    uint32_t count;
    int fn;
  };
  std::vector<R> rs = {
      {"ex2 [1,2)", 0x3f800000u, 1u << 23, 0},
      {"ex2 [0.5,1)", 0x3f000000u, 1u << 23, 0},
      {"ex2 [-1,-0.5)", 0xbf000000u, 1u << 23, 0},
      {"ex2 [-2,-1)", 0xbf800000u, 1u << 23, 0},
      {"ex2 [4,8)", 0x40800000u, 1u << 23, 0},
      {"ex2 [-8,-4)", 0xc0800000u, 1u << 23, 0},
      {"ex2 [2^-10,2^-9)", 0x3a800000u, 1u << 23, 0},
      {"lg2 [1,2)", 0x3f800000u, 1u << 23, 1},
      {"lg2 [2,4)", 0x40000000u, 1u << 23, 1},
      {"lg2 [0.5,1)", 0x3f000000u, 1u << 23, 1},
      {"lg2 [1024,2048)", 0x44800000u, 1u << 23, 1},
  };
  uint32_t *din;
  float *dout;
  size_t n = 1u << 23;
  cudaMalloc(&din, n * 4);
  cudaMalloc(&dout, n * 4);
  std::vector<uint32_t> in(n);
  std::vector<float> out(n);
  FILE *raw = fopen(argc > 1 ? argv[1] : "mufu.raw", "wb");
  for (auto &r : rs) {
    for (size_t i = 0; i < n; ++i)
      in[i] = r.first + (uint32_t)i;
    cudaMemcpy(din, in.data(), n * 4, cudaMemcpyHostToDevice);
    for (int ftz = 1; ftz >= 0; --ftz) {
      if (r.fn == 0)
        mufuOf<Mufu::Ex2><<<n / 256, 256>>>(din, dout, n, ftz);
      else
        mufuOf<Mufu::Lg2><<<n / 256, 256>>>(din, dout, n, ftz);
      cudaMemcpy(out.data(), dout, n * 4, cudaMemcpyDeviceToHost);
      long hist[9] = {0};
      long vsTrunc = 0;
      int32_t mn = 0, mx = 0;
      std::vector<int8_t> d8(n);
      for (size_t i = 0; i < n; ++i) {
        float x;
        memcpy(&x, &in[i], 4);
        double exact = r.fn == 0 ? exp2((double)x) : log2((double)x);
        float rn = (float)exact;
        float rz = rn;
        if (fabs((double)rn) > fabs(exact))
          rz = nextafterf(rn, 0.f);
        int32_t d = ulpdiff(out[i], rn);
        if (d < mn)
          mn = d;
        if (d > mx)
          mx = d;
        hist[d < -4 ? 0 : d > 4 ? 8 : d + 4]++;
        d8[i] = (int8_t)(d < -127 ? -127 : d > 127 ? 127 : d);
        if (out[i] == rz)
          ++vsTrunc;
      }
      printf("%-18s ftz=%d ulp vs RN: min %d max %d  hist[-4..4]:", r.what, ftz,
             mn, mx);
      for (long h : hist)
        printf(" %ld", h);
      printf("  ==RZ %ld of %zu\n", vsTrunc, n);
      if (ftz)
        fwrite(d8.data(), 1, n, raw);
    }
  }
  fclose(raw);
  // __expf/__logf as compiled from the CUDA headers, on a spread of inputs.
  int m = 1 << 20;
  std::vector<float> xs(m), e(m), l(m);
  for (int i = 0; i < m; ++i)
    xs[i] = -20.f + 40.f * i / m;
  float *dx, *de, *dl;
  cudaMalloc(&dx, m * 4);
  cudaMalloc(&de, m * 4);
  cudaMalloc(&dl, m * 4);
  cudaMemcpy(dx, xs.data(), m * 4, cudaMemcpyHostToDevice);
  fastk<<<m / 256, 256>>>(dx, de, dl, m);
  cudaMemcpy(e.data(), de, m * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(l.data(), dl, m * 4, cudaMemcpyDeviceToHost);
  long eq[2] = {0}, eqrn[2] = {0};
  for (int i = 0; i < m; ++i) {
    float y = xs[i] * 1.44269502f; // libdevice's constant, rounded product
    float h = (float)exp2((double)y);
    if (e[i] == h)
      ++eq[0];
    if (e[i] == (float)exp((double)xs[i]))
      ++eqrn[0];
    if (xs[i] > 0) {
      float lh = (float)log2((double)xs[i]) * 0.693147182f;
      if (l[i] == lh)
        ++eq[1];
      if (l[i] == (float)log((double)xs[i]))
        ++eqrn[1];
    }
  }
  printf("__expf == RN(exp2(RN(x*log2e))): %ld of %d; == RN(exp(x)): %ld\n",
         eq[0], m, eqrn[0]);
  printf("__logf == RN(log2 x)*ln2: %ld of %d positive; == RN(log(x)): %ld\n",
         eq[1], m / 2, eqrn[1]);
  return 0;
}
