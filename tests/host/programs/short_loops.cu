// Loops of at most 7 iterations whose count is known only at run time: nvcc
// leaves them rolled, ptxas unrolls them by 4 with a pair and a single
// iteration after, merging pairs of adjacent shared loads from an aligned
// start (analyzer/pipeline/IrPipelinePtxasUnroll.h). Counters measured on the GPU.
#include <cstdio>

#define FILL(T)                                                                \
  extern __shared__ char raw[];                                                \
  T *s = reinterpret_cast<T *>(raw);                                           \
  for (int i = threadIdx.x; i < C + 8; i += blockDim.x)                        \
    s[i] = a[i];                                                               \
  __syncthreads();                                                             \
  int row = blockIdx.x * blockDim.x + threadIdx.x;

// C % 8 iterations over 16-bit elements, from a 16-byte aligned start.
__global__ void halves(const unsigned short *__restrict__ a,
                       unsigned short *__restrict__ c, int C) {
  FILL(unsigned short)
  int start = (C / 8) * 8;
  for (int k = 0; k < C % 8; ++k)
    c[row * C + start + k] += a[row * C + start + k] * s[start + k];
}

// The same over float.
__global__ void floats(const float *__restrict__ a, float *__restrict__ c,
                       int C) {
  FILL(float)
  int start = (C / 8) * 8;
  for (int k = 0; k < C % 8; ++k)
    c[row * C + start + k] += a[row * C + start + k] * s[start + k];
}

// From one element past the aligned start: no pair is merged.
__global__ void unaligned(const unsigned short *__restrict__ a,
                          unsigned short *__restrict__ c, int C) {
  FILL(unsigned short)
  int start = (C / 8) * 8 + 1;
  for (int k = 0; k < C % 8 - 1; ++k)
    c[row * C + start + k] += a[row * C + start + k] * s[start + k];
}

// Lanes with different counts (0-7) in one warp.
__global__ void lanes(const float *__restrict__ a, float *__restrict__ c,
                      int C) {
  FILL(float)
  int start = (C / 8) * 8;
  int n = (C + threadIdx.x * 3) % 8;
  for (int k = 0; k < n; ++k)
    c[row * C + start + k] += a[row * C + start + k] * s[start + k];
}

int main() {
  const int maxC = 1040, rows = 64, n = (maxC + 8) * rows;
  float *af, *cf, *hf = new float[n];
  unsigned short *ah, *ch, *hh = new unsigned short[n];
  for (int i = 0; i < n; ++i) {
    hf[i] = (i % 7) * 0.25f;
    hh[i] = i % 5;
  }
  cudaMalloc(&af, n * 4);
  cudaMalloc(&cf, n * 4);
  cudaMalloc(&ah, n * 2);
  cudaMalloc(&ch, n * 2);
  cudaMemcpy(af, hf, n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(ah, hh, n * 2, cudaMemcpyHostToDevice);
  cudaMemset(cf, 0, n * 4);
  cudaMemset(ch, 0, n * 2);
  for (int C = 1025; C <= 1032; ++C)
    halves<<<1, rows, (C + 8) * 2>>>(ah, ch, C);
  for (int C = 1025; C <= 1032; ++C)
    floats<<<1, rows, (C + 8) * 4>>>(af, cf, C);
  for (int C = 1030; C <= 1031; ++C)
    unaligned<<<1, rows, (C + 8) * 2>>>(ah, ch, C);
  for (int C = 1024; C <= 1025; ++C)
    lanes<<<1, rows, (C + 8) * 4>>>(af, cf, C);
  cudaMemcpy(hf, cf, n * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(hh, ch, n * 2, cudaMemcpyDeviceToHost);
  double sf = 0, sh = 0;
  for (int i = 0; i < n; ++i) {
    sf += hf[i];
    sh += hh[i];
  }
  printf("float sum %.2f, 16-bit sum %.0f\n", sf, sh);
  cudaFree(af);
  cudaFree(cf);
  cudaFree(ah);
  cudaFree(ch);
  delete[] hf;
  delete[] hh;
  return 0;
}
