// Host code with OpenMP, as nvcc -Xcompiler -fopenmp builds it: the input
// filled and the result checked in parallel loops, timed with omp_get_wtime.
// Without -fopenmp the pragmas are ignored (as by nvcc) and the omp_*
// calls still resolve (libomp).
#include <cstdio>
#include <omp.h>

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 2.0f;
}

int main() {
  const int n = 1 << 12;
  static float h[1 << 12];
  double t0 = omp_get_wtime();
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    h[i] = float(i % 100);
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  scale<<<n / 256, 256>>>(d, n);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  double sum = 0;
#pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < n; ++i)
    sum += h[i];
  bool ok = sum == 2.0 * 40 * 4950 + 2.0 * (95 * 96 / 2) &&
            omp_get_max_threads() > 0 && omp_get_wtime() >= t0;
  std::printf("sum %.0f %s\n", sum, ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
