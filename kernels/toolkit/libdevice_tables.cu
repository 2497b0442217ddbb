// Math functions whose libdevice code reads tables from global memory, and
// so issue LDGs that nvcc's SASS counts (analyzer/toolchain/Libdevice.cpp): double
// sin and cos read __cudart_sin_cos_coeffs (two 16-byte rows per quadrant
// parity) on every call; float sinf reads __cudart_i2opi_f only for
// arguments too large for its fast reduction. HeCBench gabor's cos line.
#include "common.h"

__global__ void cos_double(const double *x, double *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = cos(x[i]);
}

__global__ void sin_double_scaled(double *y, double scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = sin(scale * i);
}

__global__ void sinf_small(float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = sinf(0.01f * i);
}

__global__ void sinf_large(float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // Half of each warp beyond the fast path's range (|x| >= 105615).
  y[i] = sinf((i & 1) ? 2.0e5f + i : 0.5f * i);
}

__global__ void tan_double(double *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = tan(0.25 * i);
}

int main() {
  const int n = 64 * 256;
  double *x, *y;
  float *yf;
  double *h = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    h[i] = 0.37 * (i % 97);
  CHECK(cudaMalloc(&x, n * sizeof(double)));
  CHECK(cudaMalloc(&y, n * sizeof(double)));
  CHECK(cudaMalloc(&yf, n * sizeof(float)));
  CHECK(cudaMemcpy(x, h, n * sizeof(double), cudaMemcpyHostToDevice));
  cos_double<<<64, 256>>>(x, y, n - 100);
  CHECK_LAUNCH();
  printf("cos_double %.6f\n", deviceSum(y, n));
  sin_double_scaled<<<64, 256>>>(y, 0.7);
  CHECK_LAUNCH();
  printf("sin_double_scaled %.6f\n", deviceSum(y, n));
  sinf_small<<<64, 256>>>(yf);
  CHECK_LAUNCH();
  printf("sinf_small %.4f\n", deviceSum(yf, n));
  sinf_large<<<64, 256>>>(yf);
  CHECK_LAUNCH();
  printf("sinf_large %.4f\n", deviceSum(yf, n));
  tan_double<<<64, 256>>>(y);
  CHECK_LAUNCH();
  printf("tan_double %.6f\n", deviceSum(y, n));
  free(h);
  return 0;
}
