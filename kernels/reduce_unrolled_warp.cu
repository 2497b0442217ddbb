// Seed 000 ("展开 Warp"): reduce with the last warp unrolled (reduce_unroll_last_warp.cu)
// and fully unrolled for a compile-time BLOCKSIZE (reduce_unroll_all.cu), int data.
// The seed shows only the reduction loops; the load is the previous step's ("去除 idle
// 线程": two elements per thread, half the blocks). All accesses use sequential
// addressing (sdata[tid], sdata[tid + s]): no bank conflicts.
// No bank conflicts or uncoalesced accesses; divergent branches expected inline.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                              \
  do {                                                                           \
    cudaError_t err_ = (call);                                                   \
    if (err_ != cudaSuccess) {                                                   \
      fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call,               \
              cudaGetErrorString(err_));                                         \
      exit(1);                                                                   \
    }                                                                            \
  } while (0)
#define CHECK_LAUNCH()                                                           \
  do {                                                                           \
    CHECK(cudaGetLastError());                                                   \
    CHECK(cudaDeviceSynchronize());                                              \
  } while (0)

#define N (1024 * 1024)
#define BLOCK_SIZE 256

// Seed 000, "2.1. 展开最后一个 Warp": warp_reduce on a volatile pointer, no __syncthreads.
__device__ void warp_reduce(volatile int *sdata, int tid)
{
    sdata[tid] += sdata[tid + 32];
    sdata[tid] += sdata[tid + 16];
    sdata[tid] += sdata[tid + 8];
    sdata[tid] += sdata[tid + 4];
    sdata[tid] += sdata[tid + 2];
    sdata[tid] += sdata[tid + 1];
}

// Seed 000, "2.1. 展开最后一个 Warp": the loop stops at s > 32, then warp 0 finishes.
__global__ void reduce_unroll_last_warp(int *g_idata, int *g_odata)
{
    __shared__ int sdata[BLOCK_SIZE];

    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    sdata[tid] = g_idata[i] + g_idata[i + blockDim.x];
    __syncthreads();

    for (int s = blockDim.x / 2; s > 32; s >>= 1)
    {
        if (tid < s)
        {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }

    if (tid < 32)
    {
        warp_reduce(sdata, tid);
    }

    if (tid == 0) g_odata[blockIdx.x] = sdata[0]; // expected-warning {{divergent branch}}
}

// Seed 000, "2.2. 完全展开": the generic warp_reduce for any BLOCKSIZE (an overload of
// the one above, as the seed gives both the same name).
template <unsigned int BLOCKSIZE>
__device__ void warp_reduce(volatile int *sdata, int tid)
{
    if (BLOCKSIZE >= 64)
    {
        sdata[tid] += sdata[tid + 32];
    }
    if (BLOCKSIZE >= 32)
    {
        sdata[tid] += sdata[tid + 16];
    }
    if (BLOCKSIZE >= 16)
    {
        sdata[tid] += sdata[tid + 8];
    }
    if (BLOCKSIZE >= 8)
    {
        sdata[tid] += sdata[tid + 4];
    }
    if (BLOCKSIZE >= 4)
    {
        sdata[tid] += sdata[tid + 2];
    }
    if (BLOCKSIZE >= 2)
    {
        sdata[tid] += sdata[tid + 1];
    }
}

// Seed 000, "2.2. 完全展开": the block-level loop unrolled for BLOCKSIZE.
template <unsigned int BLOCKSIZE>
__global__ void reduce_unroll_all(int *g_idata, int *g_odata)
{
    __shared__ int sdata[BLOCKSIZE];

    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    sdata[tid] = g_idata[i] + g_idata[i + blockDim.x];
    __syncthreads();

    if (BLOCKSIZE >= 512)
    {
        if (tid < 256)
        {
            sdata[tid] += sdata[tid + 256];
        }
        __syncthreads();
    }
    if (BLOCKSIZE >= 256)
    {
        if (tid < 128)
        {
            sdata[tid] += sdata[tid + 128];
        }
        __syncthreads();
    }
    if (BLOCKSIZE >= 128)
    {
        if (tid < 64)
        {
            sdata[tid] += sdata[tid + 64];
        }
        __syncthreads();
    }

    if (tid < 32)
    {
        warp_reduce<BLOCKSIZE>(sdata, tid);
    }

    if (tid == 0) g_odata[blockIdx.x] = sdata[0]; // expected-warning {{divergent branch}}
}

int main()
{
    int *input_host = (int *)malloc(N * sizeof(int));
    for (int i = 0; i < N; i++) input_host[i] = 1;
    int *input_device;
    CHECK(cudaMalloc((void **)&input_device, N * sizeof(int)));
    CHECK(cudaMemcpy(input_device, input_host, N * sizeof(int), cudaMemcpyHostToDevice));

    const int block_num = N / BLOCK_SIZE / 2;
    int *output_host = (int *)malloc(block_num * sizeof(int));
    int *output_device;
    CHECK(cudaMalloc((void **)&output_device, block_num * sizeof(int)));
    CHECK(cudaMemset(output_device, 0, block_num * sizeof(int)));

    dim3 grid(block_num, 1);
    dim3 block(BLOCK_SIZE, 1);
    reduce_unroll_last_warp<<<grid, block>>>(input_device, output_device);
    CHECK_LAUNCH();
    reduce_unroll_all<BLOCK_SIZE><<<grid, block>>>(input_device, output_device);
    CHECK_LAUNCH();

    CHECK(cudaMemcpy(output_host, output_device, block_num * sizeof(int), cudaMemcpyDeviceToHost));
    long long total = 0;
    for (int b = 0; b < block_num; ++b) total += output_host[b];
    printf("reduce_unrolled_warp: sum = %lld (expected %d)\n", total, N);
    CHECK(cudaFree(input_device));
    CHECK(cudaFree(output_device));
    free(input_host);
    free(output_host);
    return 0;
}
