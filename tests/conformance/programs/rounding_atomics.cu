// Rounding-mode arithmetic and conversions (the CUDA math API's _ru/_rd/_rz
// intrinsics: llvm.nvvm.add.rp.d, i2f.rz, ...), scoped atomics
// (atomicAdd_system, atomicMax_block: llvm.nvvm.atomic.*.sys/.cta) and __ldg,
// checked against the host computing the same in the same rounding
// direction (IEEE 754: each is correctly rounded). Written from the CUDA
// Math API's and the Programming Guide's definitions.
#include <cfenv>
#include <cmath>
#include <cstdio>

constexpr int kN = 64;

__global__ void rounded(const double *a, const double *b, const int *ints,
                        const long long *wide, double *d, float *f,
                        int *counters) {
  int t = threadIdx.x;
  d[6 * t + 0] = __dadd_ru(a[t], b[t]);
  d[6 * t + 1] = __dadd_rd(a[t], b[t]);
  d[6 * t + 2] = __dmul_rz(a[t], b[t]);
  d[6 * t + 3] = __ddiv_ru(a[t], b[t]);
  d[6 * t + 4] = __dsqrt_rd(a[t] * a[t] + 1.0);
  d[6 * t + 5] = __fma_rz(a[t], b[t], 1.0);
  f[4 * t + 0] = __int2float_rz(ints[t]);
  f[4 * t + 1] = __ll2float_ru(wide[t]);
  f[4 * t + 2] = __fdiv_rd(float(a[t]), float(b[t]));
  f[4 * t + 3] = __double2float_ru(a[t] / 3.0);
  atomicAdd_system(&counters[0], __ldg(&ints[t]) & 7);
  atomicMax_block(&counters[1], ints[t]);
  atomicCAS_system(&counters[2 + t % 2], 0, t + 1);
}

// The host's operands are read (volatile) after the direction is set, so
// that no operation moves across fesetround.
static volatile double va[kN], vb[kN];
static volatile float fa[kN], fb[kN]; // as the kernel converts: nearest
static volatile int vi[kN];
static volatile long long vw[kN];

template <class T> T inDirection(int mode, T (*op)(T, T), int i) {
  std::fesetround(mode);
  volatile T r;
  if constexpr (sizeof(T) == 8)
    r = op(va[i], vb[i]);
  else
    r = op(fa[i], fb[i]);
  std::fesetround(FE_TONEAREST);
  return r;
}

int main() {
  double ha[kN], hb[kN];
  int hi[kN];
  long long hw[kN];
  for (int i = 0; i < kN; ++i) {
    ha[i] = 1.0 / (i + 3) + i * 1e-3;
    hb[i] = 3.0 + i / 7.0;
    hi[i] = (i * 2654435761u) >> 3;
    hw[i] = (long long)(i + 1) * 0x123456789abcdll;
    va[i] = ha[i], vb[i] = hb[i], vi[i] = hi[i], vw[i] = hw[i];
    fa[i] = float(ha[i]), fb[i] = float(hb[i]);
  }
  double *a, *b, *d;
  float *f;
  int *ints, *counters;
  long long *wide;
  cudaMalloc(&a, sizeof ha);
  cudaMalloc(&b, sizeof hb);
  cudaMalloc(&ints, sizeof hi);
  cudaMalloc(&wide, sizeof hw);
  cudaMalloc(&d, 6 * kN * sizeof(double));
  cudaMalloc(&f, 4 * kN * sizeof(float));
  cudaMalloc(&counters, 4 * sizeof(int));
  cudaMemcpy(a, ha, sizeof ha, cudaMemcpyHostToDevice);
  cudaMemcpy(b, hb, sizeof hb, cudaMemcpyHostToDevice);
  cudaMemcpy(ints, hi, sizeof hi, cudaMemcpyHostToDevice);
  cudaMemcpy(wide, hw, sizeof hw, cudaMemcpyHostToDevice);
  cudaMemset(counters, 0, 4 * sizeof(int));
  rounded<<<1, kN>>>(a, b, ints, wide, d, f, counters);
  double hd[6 * kN];
  float hf[4 * kN];
  int hc[4];
  cudaMemcpy(hd, d, sizeof hd, cudaMemcpyDeviceToHost);
  cudaMemcpy(hf, f, sizeof hf, cudaMemcpyDeviceToHost);
  cudaMemcpy(hc, counters, sizeof hc, cudaMemcpyDeviceToHost);

  double (*add)(double, double) = [](double x, double y) { return x + y; };
  double (*mul)(double, double) = [](double x, double y) { return x * y; };
  double (*div)(double, double) = [](double x, double y) { return x / y; };
  float (*fdiv)(float, float) = [](float x, float y) { return x / y; };
  int checks = 0, failures = 0;
  auto check = [&](bool ok, const char *what, int i) {
    ++checks;
    if (!ok && failures++ < 10)
      std::printf("mismatch: %s at %d\n", what, i);
  };
  int sum = 0, max = 0;
  for (int i = 0; i < kN; ++i) {
    check(hd[6 * i + 0] == inDirection<double>(FE_UPWARD, add, i), "__dadd_ru",
          i);
    check(hd[6 * i + 1] == inDirection<double>(FE_DOWNWARD, add, i),
          "__dadd_rd", i);
    check(hd[6 * i + 2] == inDirection<double>(FE_TOWARDZERO, mul, i),
          "__dmul_rz", i);
    check(hd[6 * i + 3] == inDirection<double>(FE_UPWARD, div, i), "__ddiv_ru",
          i);
    volatile double square = va[i] * va[i] + 1.0; // as the kernel: nearest
    volatile double third = va[i] / 3.0;
    std::fesetround(FE_DOWNWARD);
    volatile double s = std::sqrt(square);
    std::fesetround(FE_TOWARDZERO);
    volatile double fm = std::fma(va[i], vb[i], 1.0);
    volatile float i2f = (float)vi[i];
    std::fesetround(FE_UPWARD);
    volatile float ll2f = (float)vw[i];
    volatile float d2f = (float)third;
    std::fesetround(FE_TONEAREST);
    check(hd[6 * i + 4] == s, "__dsqrt_rd", i);
    check(hd[6 * i + 5] == fm, "__fma_rz", i);
    check(hf[4 * i + 0] == i2f, "__int2float_rz", i);
    check(hf[4 * i + 1] == ll2f, "__ll2float_ru", i);
    check(hf[4 * i + 2] == inDirection<float>(FE_DOWNWARD, fdiv, i),
          "__fdiv_rd", i);
    check(hf[4 * i + 3] == d2f, "__double2float_ru", i);
    sum += hi[i] & 7;
    max = hi[i] > max ? hi[i] : max;
  }
  check(hc[0] == sum, "atomicAdd_system", 0);
  check(hc[1] == max, "atomicMax_block", 0);
  check(hc[2] != 0 && hc[2] % 2 == 1 && hc[3] != 0 && hc[3] % 2 == 0,
        "atomicCAS_system", 0);
  std::printf("rounding_atomics: %d checks, %d failures\n", checks, failures);
  return failures != 0;
}
