// Matrix transposes (after "An Efficient Matrix Transpose in CUDA C/C++"):
// a copy through the same index pattern as a baseline, the naive transpose
// (coalesced reads, column writes), a shared-memory tiled transpose (32-way
// conflicted column reads of the tile), the same with a padded tile, the
// diagonal block ordering, and a padded transpose of a non-square matrix
// whose size is not a multiple of the tile (tail blocks with guards).
// Blocks are 32x8 threads; each thread moves TILE / ROWS = 4 elements.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call,             \
              cudaGetErrorString(err_));                                       \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)
#define CHECK_LAUNCH()                                                         \
  do {                                                                         \
    CHECK(cudaGetLastError());                                                 \
    CHECK(cudaDeviceSynchronize());                                            \
  } while (0)

#define TILE 32
#define ROWS 8

__global__ void copy_tiled(float *out, const float *in, int w)
{
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    out[(y + j) * w + x] = in[(y + j) * w + x];
}

__global__ void transpose_naive(float *out, const float *in, int w, int h)
{
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    out[x * h + (y + j)] = in[(y + j) * w + x];
}

__global__ void transpose_shared(float *out, const float *in, int w, int h)
{
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void transpose_padded(float *out, const float *in, int w, int h)
{
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}

// Square matrices only: blocks walk the tiles along diagonals.
__global__ void transpose_diagonal(float *out, const float *in, int w)
{
  __shared__ float tile[TILE][TILE + 1];
  int by = blockIdx.x;
  int bx = (blockIdx.x + blockIdx.y) % gridDim.x;
  int x = bx * TILE + threadIdx.x;
  int y = by * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
  __syncthreads();
  x = by * TILE + threadIdx.x;
  y = bx * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    out[(y + j) * w + x] = tile[threadIdx.x][threadIdx.y + j];
}

// Any w x h: threads outside the matrix skip their elements.
__global__ void transpose_guarded(float *out, const float *in, int w, int h)
{
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < w && y + j < h)
      tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < h && y + j < w)
      out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main()
{
  const int n = 1024; // square matrices: n x n
  const int w = 1000, h = 600; // the guarded transpose: w columns, h rows
  const int elems = n * n;

  float *h_in = (float *)malloc(elems * sizeof(float));
  for (int i = 0; i < elems; ++i) h_in[i] = (float)(i % 1000);
  float *d_in, *d_out;
  CHECK(cudaMalloc((void **)&d_in, elems * sizeof(float)));
  CHECK(cudaMalloc((void **)&d_out, elems * sizeof(float)));
  CHECK(cudaMemcpy(d_in, h_in, elems * sizeof(float), cudaMemcpyHostToDevice));

  dim3 block(TILE, ROWS);
  dim3 grid(n / TILE, n / TILE);
  copy_tiled<<<grid, block>>>(d_out, d_in, n);
  CHECK_LAUNCH();
  transpose_naive<<<grid, block>>>(d_out, d_in, n, n);
  CHECK_LAUNCH();
  transpose_shared<<<grid, block>>>(d_out, d_in, n, n);
  CHECK_LAUNCH();
  transpose_padded<<<grid, block>>>(d_out, d_in, n, n);
  CHECK_LAUNCH();
  transpose_diagonal<<<grid, block>>>(d_out, d_in, n);
  CHECK_LAUNCH();
  dim3 grid2((w + TILE - 1) / TILE, (h + TILE - 1) / TILE);
  transpose_guarded<<<grid2, block>>>(d_out, d_in, w, h);
  CHECK_LAUNCH();

  float h_out[4];
  CHECK(cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost));
  printf("transpose: out[1] = %f\n", h_out[1]);
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  free(h_in);
  return 0;
}
