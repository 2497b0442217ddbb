// A device assert on input data that only thread (0,0) of block (0,0)
// reaches, behind `row == 0 && col == 0` (which clang compiles to
// `(row | col) == 0`). Every other block still joins a class, so this
// launch of 65536 blocks (1.3 G warp instructions, past the launch budget
// when every block runs) is simulated as a few blocks.
#include <cassert>

__global__ void matmulChecked(const float *a, const float *b, float *c, int n,
                              int k) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  float sum = 0.f;
  for (int i = 0; i < k; ++i)
    sum += a[row * k + i] * b[i * n + col];
  if (row == 0 && col == 0)
    assert(a[0] == 0.f);
  c[row * n + col] = sum;
}

int main() {
  const int n = 4096, k = 256;
  float *a, *b, *c;
  cudaMalloc(&a, n * k * sizeof(float));
  cudaMalloc(&b, k * n * sizeof(float));
  cudaMalloc(&c, n * n * sizeof(float));
  cudaMemset(a, 0, n * k * sizeof(float));
  matmulChecked<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(a, b, c, n, k);
  cudaDeviceSynchronize();
}
