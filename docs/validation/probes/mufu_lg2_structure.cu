// Probe: MUFU.LG2 structure. L[m] = lg2.approx(1 + m 2^-23); is lg2(2^e 1.m)
// a conversion of e + L[m]? Which fixed-point precision has L? Edge cases of
// ex2.approx/lg2.approx.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "mufu.cuh"
static float cvt(double v, int mode) { // 0 RN 1 RZ 2 RD 3 RU
  float f = (float)v;
  if (mode == 0 || (double)f == v)
    return f;
  bool up = (double)f > v;
  if (mode == 1)
    return (fabs((double)f) > fabs(v)) ? nextafterf(f, 0.f) : f;
  if (mode == 2)
    return up ? nextafterf(f, -INFINITY) : f;
  return up ? f : nextafterf(f, INFINITY);
}
int main(int argc, char **argv) {
  size_t n = 1u << 23;
  uint32_t *din;
  float *dout;
  cudaMalloc(&din, n * 4);
  cudaMalloc(&dout, n * 4);
  std::vector<uint32_t> in(n);
  std::vector<float> L(n), out(n);
  auto run = [&](uint32_t first, bool lg, int ftz, std::vector<float> &o) {
    for (size_t i = 0; i < n; ++i)
      in[i] = first + (uint32_t)i;
    cudaMemcpy(din, in.data(), n * 4, cudaMemcpyHostToDevice);
    if (lg)
      mufuOf<Mufu::Lg2><<<n / 256, 256>>>(din, dout, n, ftz);
    else
      mufuOf<Mufu::Ex2><<<n / 256, 256>>>(din, dout, n, ftz);
    cudaMemcpy(o.data(), dout, n * 4, cudaMemcpyDeviceToHost);
  };
  run(0x3f800000u, true, 1, L);
  for (int F = 20; F <= 32; ++F) {
    long integral = 0;
    for (size_t m = 0; m < n; ++m) {
      double v = ldexp((double)L[m], F);
      if (v == floor(v))
        ++integral;
    }
    printf("L*2^%d integral: %ld of %zu\n", F, integral, n);
  }
  int es[] = {1, 2, 3, 10, 20, 100, 127, -1, -2, -3, -10, -20, -100, -126};
  for (int e : es) {
    uint32_t first = (uint32_t)(127 + e) << 23;
    run(first, true, 1, out);
    long match[4] = {0};
    for (size_t m = 0; m < n; ++m) {
      double v = (double)e + (double)L[m];
      for (int md = 0; md < 4; ++md)
        if (out[m] == cvt(v, md))
          ++match[md];
    }
    printf("lg2 e=%d: e+L[m] RN %ld RZ %ld RD %ld RU %ld of %zu\n", e, match[0],
           match[1], match[2], match[3], n);
  }
  // L against log2 in units of 2^-32 (int8 after subtracting the rounded exact
  // value)
  FILE *f = fopen(argc > 1 ? argv[1] : "lg2-L.bin", "wb");
  fwrite(L.data(), 4, n, f);
  fclose(f);
  // edge cases
  float xs[] = {
      0.f,     -0.f,       1e-45f,  1e-40f,   1.1754944e-38f, 1e-30f, 0.5f,
      1.f,     2.f,        3.4e38f, INFINITY, -INFINITY,      NAN,    -1.f,
      127.f,   127.99999f, 128.f,   200.f,    -125.f,         -126.f, -126.5f,
      -127.f,  -130.f,     -149.f,  -150.f,   -151.f,         -200.f, 1e-10f,
      -1e-10f, 1e-7f,      1.1e-7f, 1.2e-7f,  -1.2e-7f,       -6e-8f};
  int k = sizeof(xs) / 4;
  std::vector<uint32_t> b(k);
  memcpy(b.data(), xs, k * 4);
  cudaMemcpy(din, b.data(), k * 4, cudaMemcpyHostToDevice);
  std::vector<float> r(k);
  for (int lg = 0; lg < 2; ++lg)
    for (int ftz = 1; ftz >= 0; --ftz) {
      if (lg)
        mufuOf<Mufu::Lg2><<<1, 64>>>(din, dout, k, ftz);
      else
        mufuOf<Mufu::Ex2><<<1, 64>>>(din, dout, k, ftz);
      cudaMemcpy(r.data(), dout, k * 4, cudaMemcpyDeviceToHost);
      for (int i = 0; i < k; ++i) {
        uint32_t rb;
        memcpy(&rb, &r[i], 4);
        printf("%s ftz=%d x=%a -> %a (0x%08x)\n", lg ? "lg2" : "ex2", ftz,
               xs[i], r[i], rb);
      }
    }
  return 0;
}
