// Stencils: a 7-point 1D stencil read straight from global memory through
// __ldg / const __restrict__ (n not a multiple of the block: a tail block), the
// same with a shared tile and its two halos loaded by the first RADIUS threads,
// a 2D 5-point stencil from global memory on 16x16 blocks, and the 2D stencil
// with a shared (BY + 2) x (BX + 2) tile whose halo rows and columns are loaded
// by the edge threads, from a padded input (rows of w + 2 floats, so rows start
// misaligned).
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

#define RADIUS 3
#define BLOCK 256
#define BX 32
#define BY 8

// in holds n + 2 * RADIUS floats; out[i] sums in[i .. i + 2 * RADIUS].
__global__ void stencil1d_ldg(float *__restrict__ out, const float *__restrict__ in, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k <= 2 * RADIUS; ++k)
      s += __ldg(&in[i + k]);
    out[i] = s;
  }
}

__global__ void stencil1d_shared(float *out, const float *in)
{
  __shared__ float tile[BLOCK + 2 * RADIUS];
  int g = blockIdx.x * BLOCK + threadIdx.x;
  int l = threadIdx.x + RADIUS;
  tile[l] = in[g + RADIUS];
  if (threadIdx.x < RADIUS) {
    tile[l - RADIUS] = in[g];
    tile[l + BLOCK] = in[g + RADIUS + BLOCK];
  }
  __syncthreads();
  float s = 0.0f;
  for (int k = -RADIUS; k <= RADIUS; ++k)
    s += tile[l + k];
  out[g] = s;
}

__global__ void stencil2d_global(float *out, const float *in, int w, int h)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x > 0 && x < w - 1 && y > 0 && y < h - 1)
    out[y * w + x] = 0.25f * (in[(y - 1) * w + x] + in[(y + 1) * w + x] +
                              in[y * w + x - 1] + in[y * w + x + 1]) -
                     in[y * w + x];
}

// in is (h + 2) x (w + 2) with a one-element border; out is h x w.
__global__ void stencil2d_shared(float *out, const float *in, int w)
{
  __shared__ float tile[BY + 2][BX + 2];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x = blockIdx.x * BX + tx;
  int y = blockIdx.y * BY + ty;
  int pw = w + 2;
  tile[ty + 1][tx + 1] = in[(y + 1) * pw + x + 1];
  if (tx == 0) {
    tile[ty + 1][0] = in[(y + 1) * pw + x];
    tile[ty + 1][BX + 1] = in[(y + 1) * pw + x + BX + 1];
  }
  if (ty == 0) {
    tile[0][tx + 1] = in[y * pw + x + 1];
    tile[BY + 1][tx + 1] = in[(y + BY + 1) * pw + x + 1];
  }
  __syncthreads();
  out[y * w + x] = tile[ty][tx + 1] + tile[ty + 2][tx + 1] + tile[ty + 1][tx] +
                   tile[ty + 1][tx + 2] - 4.0f * tile[ty + 1][tx + 1];
}

int main()
{
  const int n = 1000003;       // 1D, tail block
  const int n_full = 1 << 20;  // 1D, whole blocks
  const int w = 1024, h = 512; // 2D
  const int alloc = (h + 2) * (w + 2) + n_full + 2 * RADIUS + 2 * BLOCK;

  float *h_in = (float *)malloc(alloc * sizeof(float));
  for (int i = 0; i < alloc; ++i) h_in[i] = (float)(i % 13);
  float *d_in, *d_out;
  CHECK(cudaMalloc((void **)&d_in, alloc * sizeof(float)));
  CHECK(cudaMalloc((void **)&d_out, alloc * sizeof(float)));
  CHECK(cudaMemcpy(d_in, h_in, alloc * sizeof(float), cudaMemcpyHostToDevice));

  stencil1d_ldg<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(d_out, d_in, n);
  CHECK_LAUNCH();
  stencil1d_shared<<<n_full / BLOCK, BLOCK>>>(d_out, d_in);
  CHECK_LAUNCH();
  stencil2d_global<<<dim3(w / 16, h / 16), dim3(16, 16)>>>(d_out, d_in, w, h);
  CHECK_LAUNCH();
  stencil2d_shared<<<dim3(w / BX, h / BY), dim3(BX, BY)>>>(d_out, d_in, w);
  CHECK_LAUNCH();

  float h_out[4];
  CHECK(cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost));
  printf("stencil: out[2] = %f\n", h_out[2]);
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  free(h_in);
  return 0;
}
