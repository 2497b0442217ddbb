// Which multiply-adds the GPU fuses (FFMA: one rounding) and which it rounds
// twice, seen in the results: inputs chosen so that the two differ in the
// last bits, printed exactly (%a). kcheck must compute what the H100 printed.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void patterns(float *all, const float *in) {
  const float *a = in + 6 * threadIdx.x;
  float *o = all + 10 * threadIdx.x;
  float x = a[0], y = a[1], z = a[2], w = a[3], v = a[4], u = a[5];
  o[0] = x * y - z;     // fsub, the product first
  o[1] = z - w * v;     // fsub, the product second
  o[2] = x * u - y * w; // fsub of two products
  o[3] = x * v + 1.0f;  // fadd of a constant
  o[4] = x * z + y * w; // fadd of two products
  float m = u * v;
  o[5] = m + x; // a product with two uses, both adds
  o[6] = m + y;
  float n = w * u;
  o[7] = n + z; // a product with an add and a store
  o[8] = n;
  o[9] = x * (y + z * (w + v * u)); // Horner
}

__global__ void patternsDouble(double *all, const double *in) {
  const double *a = in + 4 * threadIdx.x;
  double *o = all + 3 * threadIdx.x;
  double x = a[0], y = a[1], z = a[2], w = a[3];
  o[0] = x * y + z;
  o[1] = z - w * x;
  o[2] = x * w - y;
}

int main() {
  // Four sets of inputs with full mantissas: a product rounded before the
  // add differs from the fused one in the last bits in most of them.
  const int sets = 4;
  float hf[6 * sets];
  double hd[4 * sets];
  unsigned state = 12345;
  for (int i = 0; i < 6 * sets; ++i) {
    state = state * 1103515245u + 12345u;
    hf[i] = (i % 3 == 2 ? -1.0f : 1.0f) * (0.75f + (state >> 8) * 0x1p-24f);
  }
  for (int i = 0; i < 4 * sets; ++i) {
    state = state * 1103515245u + 12345u;
    hd[i] = (i % 2 ? -1.0 : 1.0) * (0.75 + state * 0x1p-33);
  }
  float *df, *of;
  double *dd, *od;
  cudaMalloc(&df, sizeof hf);
  cudaMalloc(&of, 10 * sets * sizeof(float));
  cudaMalloc(&dd, sizeof hd);
  cudaMalloc(&od, 3 * sets * sizeof(double));
  cudaMemcpy(df, hf, sizeof hf, cudaMemcpyHostToDevice);
  cudaMemcpy(dd, hd, sizeof hd, cudaMemcpyHostToDevice);
  patterns<<<1, sets>>>(of, df);
  patternsDouble<<<1, sets>>>(od, dd);
  float rf[10 * sets];
  double rd[3 * sets];
  cudaMemcpy(rf, of, sizeof rf, cudaMemcpyDeviceToHost);
  cudaMemcpy(rd, od, sizeof rd, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 10 * sets; ++i)
    printf("float set %d pattern %d: %a\n", i / 10, i % 10, rf[i]);
  for (int i = 0; i < 3 * sets; ++i)
    printf("double set %d pattern %d: %a\n", i / 3, i % 3, rd[i]);
  return 0;
}
