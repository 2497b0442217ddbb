// Grids padded past their data: blocks past the end store nothing, and
// `kcheck run` counts them as an idle block it ran instead of running each
// (simulator/IdleBlocks.h). Every figure and byte must be what running every
// block gives (host.idle_blocks_equal_every_block compares with
// --exhaustive); the program checks its results.
#include <cstdio>

// y = 2x + y where i < n: the grid has four times the blocks it needs.
__global__ void axpy(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = 2.0f * x[i] + y[i];
}

// Past the data, blocks still read (a row's length) and synchronise
// through shared memory before deciding to store nothing.
__global__ void rowSums(const int *a, const int *len, int *sums, int rows,
                        int cols) {
  __shared__ int part[128];
  int row = blockIdx.y * gridDim.x + blockIdx.x;
  int n = len[0];
  int v = 0;
  for (int c = threadIdx.x; c < cols && c < n; c += blockDim.x)
    v += row < rows ? a[row * cols + c] : 0;
  part[threadIdx.x] = v;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s)
      part[threadIdx.x] += part[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0 && row < rows)
    sums[row] = part[0];
}

// Every block stores (a count per block): none is idle.
__global__ void perBlock(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0)
    out[blockIdx.x] = i < n ? 1 : 0;
}

// Idle blocks print: they are not idle.
__global__ void tell(int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n && threadIdx.x == 0 && blockIdx.x % 64 == 0)
    printf("block %d past the data\n", blockIdx.x);
}

int main() {
  const int n = 1000, blocks = 4 * ((n + 255) / 256) * 64;
  float *x, *y;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  float hx[n], hy[n];
  for (int i = 0; i < n; ++i)
    hx[i] = float(i), hy[i] = 1.0f;
  cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice);
  cudaMemcpy(y, hy, sizeof hy, cudaMemcpyHostToDevice);
  for (int k = 0; k < 3; ++k) // in place: each launch reads what it wrote
    axpy<<<blocks, 256>>>(x, y, n);
  cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i)
    bad += hy[i] != 6.0f * float(i) + 1.0f;

  const int rows = 300, cols = 200;
  int *a, *len, *sums;
  cudaMalloc(&a, rows * cols * sizeof(int));
  cudaMalloc(&len, sizeof(int));
  cudaMalloc(&sums, rows * sizeof(int));
  static int ha[rows * cols];
  for (int i = 0; i < rows * cols; ++i)
    ha[i] = i % 7;
  cudaMemcpy(a, ha, sizeof ha, cudaMemcpyHostToDevice);
  cudaMemcpy(len, &cols, sizeof cols, cudaMemcpyHostToDevice);
  rowSums<<<dim3(32, 32), 128>>>(a, len, sums, rows, cols);
  int hs[rows];
  cudaMemcpy(hs, sums, sizeof hs, cudaMemcpyDeviceToHost);
  for (int r = 0; r < rows; ++r) {
    int want = 0;
    for (int c = 0; c < cols; ++c)
      want += ha[r * cols + c];
    bad += hs[r] != want;
  }

  int *flags;
  cudaMalloc(&flags, blocks * sizeof(int));
  perBlock<<<blocks, 256>>>(flags, n);
  static int hf[blocks];
  cudaMemcpy(hf, flags, sizeof hf, cudaMemcpyDeviceToHost);
  int withData = 0;
  for (int b = 0; b < blocks; ++b)
    withData += hf[b];
  bad += withData != (n + 255) / 256;

  tell<<<blocks, 256>>>(n);
  cudaDeviceSynchronize();
  printf("%d wrong: %s\n", bad, bad ? "FAIL" : "PASS");
  return bad != 0;
}
