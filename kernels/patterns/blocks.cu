// Thread-block shapes and loop forms: a 2D scale on blocks whose rows are
// shorter than a warp (8x32, 16x16, 4x64) and on 32x8, on a row-major 1000 x 512
// array (1000 columns: tail blocks in x, rows not 128-byte aligned); a 1D add
// on blocks of 48 and 100 threads (partial warps) with n not a multiple of the
// block; a grid-stride SAXPY; a warp-shuffle sum (__shfl_down_sync, one global
// atomic per warp); a block sum whose last warp reduces through volatile
// shared memory; and a #pragma unroll copy of 4 elements per thread.
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

__global__ void scale2d(float *out, const float *in, int w, int h)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    out[y * w + x] = 2.0f * in[y * w + x];
}

__global__ void add_one(float *out, const float *in, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] + 1.0f;
}

__global__ void saxpy_grid_stride(float *y, const float *x, float a, int n)
{
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}

__global__ void sum_warp_shuffle(float *total, const float *in, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = (i < n) ? in[i] : 0.0f;
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffff, v, o);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(total, v);
}

// blockDim.x == 256.
__global__ void sum_volatile_last_warp(float *sums, const float *in)
{
  __shared__ float s[256];
  int tid = threadIdx.x;
  s[tid] = in[blockIdx.x * 256 + tid];
  __syncthreads();
  for (int stride = 128; stride > 32; stride /= 2) {
    if (tid < stride)
      s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid < 32) {
    volatile float *v = s;
    v[tid] += v[tid + 32];
    v[tid] += v[tid + 16];
    v[tid] += v[tid + 8];
    v[tid] += v[tid + 4];
    v[tid] += v[tid + 2];
    v[tid] += v[tid + 1];
  }
  if (tid == 0)
    sums[blockIdx.x] = s[0];
}

#define PER_THREAD 4

__global__ void copy_unrolled(float *out, const float *in)
{
  int base = blockIdx.x * blockDim.x * PER_THREAD + threadIdx.x;
#pragma unroll
  for (int k = 0; k < PER_THREAD; ++k)
    out[base + k * blockDim.x] = in[base + k * blockDim.x];
}

int main()
{
  const int w = 1000, h = 512;
  const int n = 1 << 20;
  const int n_odd = 99963;
  float *h_in = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i) h_in[i] = (float)(i % 9);
  float *d_in, *d_out, *d_sum;
  CHECK(cudaMalloc((void **)&d_in, n * sizeof(float)));
  CHECK(cudaMalloc((void **)&d_out, n * sizeof(float)));
  CHECK(cudaMalloc((void **)&d_sum, n * sizeof(float)));
  CHECK(cudaMemcpy(d_in, h_in, n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_out, 0, n * sizeof(float)));
  CHECK(cudaMemset(d_sum, 0, n * sizeof(float)));

  scale2d<<<dim3((w + 7) / 8, h / 32), dim3(8, 32)>>>(d_out, d_in, w, h);
  CHECK_LAUNCH();
  scale2d<<<dim3((w + 15) / 16, h / 16), dim3(16, 16)>>>(d_out, d_in, w, h);
  CHECK_LAUNCH();
  scale2d<<<dim3((w + 3) / 4, h / 64), dim3(4, 64)>>>(d_out, d_in, w, h);
  CHECK_LAUNCH();
  scale2d<<<dim3((w + 31) / 32, h / 8), dim3(32, 8)>>>(d_out, d_in, w, h);
  CHECK_LAUNCH();
  add_one<<<(n_odd + 47) / 48, 48>>>(d_out, d_in, n_odd);
  CHECK_LAUNCH();
  add_one<<<(n_odd + 99) / 100, 100>>>(d_out, d_in, n_odd);
  CHECK_LAUNCH();
  saxpy_grid_stride<<<264, 256>>>(d_out, d_in, 3.0f, n - 5);
  CHECK_LAUNCH();
  sum_warp_shuffle<<<(n_odd + 255) / 256, 256>>>(d_sum, d_in, n_odd);
  CHECK_LAUNCH();
  sum_volatile_last_warp<<<n / 256, 256>>>(d_sum, d_in);
  CHECK_LAUNCH();
  copy_unrolled<<<n / (256 * PER_THREAD), 256>>>(d_out, d_in);
  CHECK_LAUNCH();

  float h_out[4];
  CHECK(cudaMemcpy(h_out, d_sum, sizeof(h_out), cudaMemcpyDeviceToHost));
  printf("blocks: sum[1] = %f\n", h_out[1]);
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(d_sum));
  free(h_in);
  return 0;
}
