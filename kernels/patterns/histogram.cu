// Histograms of bytes: one global atomic per element, a per-block histogram
// in shared memory (shared atomics, grid-stride loop) merged with global
// atomics, the same reading four bytes at a time as uchar4, and a 64-bin
// histogram of ints whose bin is computed (key % 64). Atomics whose result is
// unused compile to RED / ATOMS, which the ld/st counters do not count; the
// zeroing and the final read of the shared histogram do.
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

#define BINS 256

__global__ void hist_global(unsigned int *hist, const unsigned char *data, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&hist[data[i]], 1u);
}

// blockDim.x == BINS.
__global__ void hist_shared(unsigned int *hist, const unsigned char *data, int n)
{
  __shared__ unsigned int local[BINS];
  local[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  atomicAdd(&hist[threadIdx.x], local[threadIdx.x]);
}

// n4 = number of uchar4 words; blockDim.x == BINS.
__global__ void hist_shared_vec4(unsigned int *hist, const uchar4 *data, int n4)
{
  __shared__ unsigned int local[BINS];
  local[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += blockDim.x * gridDim.x) {
    uchar4 v = data[i];
    atomicAdd(&local[v.x], 1u);
    atomicAdd(&local[v.y], 1u);
    atomicAdd(&local[v.z], 1u);
    atomicAdd(&local[v.w], 1u);
  }
  __syncthreads();
  atomicAdd(&hist[threadIdx.x], local[threadIdx.x]);
}

// 64 bins, blockDim.x >= 64; returns each old count to count_before.
__global__ void hist_keys64(unsigned int *hist, unsigned int *count_before, const int *keys, int n)
{
  __shared__ unsigned int local[64];
  if (threadIdx.x < 64)
    local[threadIdx.x] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    count_before[i] = atomicAdd(&local[keys[i] % 64], 1u);
  __syncthreads();
  if (threadIdx.x < 64)
    atomicAdd(&hist[threadIdx.x], local[threadIdx.x]);
}

int main()
{
  const int n = 1 << 20;
  const int n_keys = 500000;
  unsigned char *h_data = (unsigned char *)malloc(n);
  int *h_keys = (int *)malloc(n_keys * sizeof(int));
  for (int i = 0; i < n; ++i) h_data[i] = (unsigned char)((i * 7) & 255);
  for (int i = 0; i < n_keys; ++i) h_keys[i] = i * 3;
  unsigned char *d_data;
  int *d_keys;
  unsigned int *d_hist, *d_before;
  CHECK(cudaMalloc((void **)&d_data, n));
  CHECK(cudaMalloc((void **)&d_keys, n_keys * sizeof(int)));
  CHECK(cudaMalloc((void **)&d_hist, BINS * sizeof(unsigned int)));
  CHECK(cudaMalloc((void **)&d_before, n_keys * sizeof(unsigned int)));
  CHECK(cudaMemcpy(d_data, h_data, n, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_keys, h_keys, n_keys * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_hist, 0, BINS * sizeof(unsigned int)));

  hist_global<<<n / 256, 256>>>(d_hist, d_data, n);
  CHECK_LAUNCH();
  hist_shared<<<256, BINS>>>(d_hist, d_data, n);
  CHECK_LAUNCH();
  hist_shared_vec4<<<128, BINS>>>(d_hist, (const uchar4 *)d_data, n / 4);
  CHECK_LAUNCH();
  hist_keys64<<<(n_keys + 127) / 128, 128>>>(d_hist, d_before, d_keys, n_keys);
  CHECK_LAUNCH();

  unsigned int h_hist[4];
  CHECK(cudaMemcpy(h_hist, d_hist, sizeof(h_hist), cudaMemcpyDeviceToHost));
  printf("histogram: hist[1] = %u\n", h_hist[1]);
  CHECK(cudaFree(d_data));
  CHECK(cudaFree(d_keys));
  CHECK(cudaFree(d_hist));
  CHECK(cudaFree(d_before));
  free(h_data);
  free(h_keys);
  return 0;
}
