// A table lookup indexed by input data: with the program's data (1..16)
// every index is valid; with the zero fill a static prediction assumes, the
// index is -1. And a loop whose bound comes from input data: the program's
// stays inside a shared array, the zero fill's walks past it. Statically the
// lanes that would leave memory are not performed, with a note, instead of
// a fault the program never has.
#include <cstdio>
#include <vector>

__constant__ float table[16];

__global__ void lookup(const int *code, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = table[code[i] - 1];
}

__global__ void walk(const int *code, float *out) {
  __shared__ float buf[32];
  buf[threadIdx.x] = float(threadIdx.x);
  __syncthreads();
  float sum = 0;
  for (int i = 0; i < 64 / (code[0] + 1); ++i) // 32 with the program's data
    sum += buf[i];
  out[threadIdx.x] = sum;
}

int main() {
  const int n = 256;
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i)
    h[i] = 1 + (i * 7) % 16;
  float t[16];
  for (int i = 0; i < 16; ++i)
    t[i] = 0.5f * i;
  cudaMemcpyToSymbol(table, t, sizeof t);
  int *code;
  float *out;
  cudaMalloc(&code, n * sizeof(int));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemcpy(code, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  lookup<<<n / 128, 128>>>(code, out, n);
  walk<<<1, 32>>>(code, out);
  cudaDeviceSynchronize();
  std::printf("done\n");
  return 0;
}
