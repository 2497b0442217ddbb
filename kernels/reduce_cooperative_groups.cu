// Seed 004 ("CUDAの高速化の復習2023年版 Reduction編", after NVIDIA's CUDA Samples):
// the int reductions with cooperative groups, reduce1 .. reduce9 (reduce5 is the
// article's reduce8), dynamic shared memory `extern __shared__ int sdata[]`.
// Problem size: the article reduces 32M ints; here n = 128K so that the whole file
// simulates quickly. Only reduce_gpu_v2_kernel (index = 2*s*tid) has bank conflicts.
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace cg = cooperative_groups;

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

// Seed 004, "Reduce1: Baseline": tid % (2*s), synchronised with cg::sync.
__global__ void reduce_gpu_v1_kernel(const int *g_in, size_t n, int *g_out)
{
    cg::thread_block cta = cg::this_thread_block();
    extern __shared__ int sdata[];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
    {
        sdata[tid] = g_in[i];
    }
    else
    {
        sdata[tid] = 0;
    }

    cg::sync(cta);

    for (int s = 1; s < blockDim.x; s *= 2)
    {
        if (tid % (2 * s) == 0) // expected-warning {{divergent branch}}
        {
            sdata[tid] += sdata[tid + s];
        }
        cg::sync(cta);
    }
    if (tid == 0) // expected-warning {{divergent branch}}
    {
        g_out[blockIdx.x] = sdata[0];
    }
}

// Seed 004, "Reduce2: Branch Divergenceの削減": index = 2*s*tid. With 256 threads the
// degree is 2, 4, 8, 8, 8, 4, 2 for s = 1 .. 64 and 1 (one lane) for s = 128.
__global__ void reduce_gpu_v2_kernel(const int *g_in, size_t n, int *g_out)
{
    cg::thread_block cta = cg::this_thread_block();
    extern __shared__ int sdata[];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
    {
        sdata[tid] = g_in[i];
    }
    else
    {
        sdata[tid] = 0;
    }

    cg::sync(cta);

    for (uint32_t s = 1; s < blockDim.x; s *= 2)
    {
        uint32_t index = 2 * s * tid;
        if (index < blockDim.x) // expected-warning {{divergent branch}}
        {
            sdata[index] += sdata[index + s]; // expected-warning {{2-way to 8-way shared-memory bank conflict on 'sdata'}}
        }
        cg::sync(cta);
    }
    if (tid == 0) // expected-warning {{divergent branch}}
    {
        g_out[blockIdx.x] = sdata[0];
    }
}

// Seed 004, "Reduce3: shared memoryのbank conflictの削減": sequential addressing.
__global__ void reduce_gpu_v3_kernel(const int *g_in, size_t n, int *g_out)
{
    cg::thread_block cta = cg::this_thread_block();
    extern __shared__ int sdata[];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
    {
        sdata[tid] = g_in[i];
    }
    else
    {
        sdata[tid] = 0;
    }

    cg::sync(cta);

    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1)
    {
        if (tid < s) // expected-warning {{divergent branch}}
        {
            sdata[tid] += sdata[tid + s];
        }
        cg::sync(cta);
    }
    if (tid == 0) // expected-warning {{divergent branch}}
    {
        g_out[blockIdx.x] = sdata[0];
    }
}

// Seed 004, "Reduce4: スレッドの実行効率向上": two loads per thread, half the blocks.
__global__ void reduce_gpu_v4_kernel(const int *g_in, size_t n, int *g_out)
{
    cg::thread_block cta = cg::this_thread_block();
    extern __shared__ int sdata[];
    int tid = threadIdx.x;
    int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    int sum_value = 0;
    if (i < n)
    {
        sum_value = g_in[i];
    }
    if ((i + blockDim.x) < n)
    {
        sum_value += g_in[i + blockDim.x];
    }
    sdata[tid] = sum_value;
    cg::sync(cta);

    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1)
    {
        if (tid < s) // expected-warning {{divergent branch}}
        {
            sdata[tid] += sdata[tid + s];
        }
        cg::sync(cta);
    }
    if (tid == 0) // expected-warning {{divergent branch}}
    {
        g_out[blockIdx.x] = sdata[0];
    }
}

// Seed 004, "Reduce6: 完全なloop unroll": the reduction loop unrolled for kBlockSize.
template <int kBlockSize>
__global__ void reduce_gpu_v6_kernel(const int *g_in, size_t n, int *g_out)
{
    cg::thread_block cta = cg::this_thread_block();
    extern __shared__ int sdata[];
    int tid = threadIdx.x;
    int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    int sum_value = 0;
    if (i < n)
    {
        sum_value = g_in[i];
    }
    if ((i + blockDim.x) < n)
    {
        sum_value += g_in[i + blockDim.x];
    }
    sdata[tid] = sum_value;
    cg::sync(cta);

    if (kBlockSize >= 512)
    {
        if (tid < 256)
        {
            sdata[tid] += sdata[tid + 256];
        }
        cg::sync(cta);
    }
    if (kBlockSize >= 256)
    {
        if (tid < 128)
        {
            sdata[tid] += sdata[tid + 128];
        }
        cg::sync(cta);
    }
    if (kBlockSize >= 128)
    {
        if (tid < 64)
        {
            sdata[tid] += sdata[tid + 64];
        }
        cg::sync(cta);
    }
    if (kBlockSize >= 64)
    {
        if (tid < 32)
        {
            sdata[tid] += sdata[tid + 32];
        }
        cg::sync(cta);
    }
    if (kBlockSize >= 32)
    {
        if (tid < 16) // expected-warning {{divergent branch}}
        {
            sdata[tid] += sdata[tid + 16];
        }
        cg::sync(cta);
    }
    if (kBlockSize >= 16)
    {
        if (tid < 8) // expected-warning {{divergent branch}}
        {
            sdata[tid] += sdata[tid + 8];
        }
        cg::sync(cta);
    }
    if (kBlockSize >= 8)
    {
        if (tid < 4) // expected-warning {{divergent branch}}
        {
            sdata[tid] += sdata[tid + 4];
        }
        cg::sync(cta);
    }
    if (kBlockSize >= 4)
    {
        if (tid < 2) // expected-warning {{divergent branch}}
        {
            sdata[tid] += sdata[tid + 2];
        }
        cg::sync(cta);
    }
    if (kBlockSize >= 2)
    {
        if (tid < 1) // expected-warning {{divergent branch}}
        {
            sdata[tid] += sdata[tid + 1];
        }
        cg::sync(cta);
    }
    if (tid == 0) // expected-warning {{divergent branch}}
    {
        g_out[blockIdx.x] = sdata[0];
    }
}

// Seed 004, "Reduce7: 1スレッドあたりの仕事を増やす": a grid-stride while loop before the
// unrolled reduction; launched with a fixed 128 blocks.
template <int kBlockSize>
__global__ void reduce_gpu_v7_kernel(const int *g_in, size_t n, int *g_out)
{
    cg::thread_block cta = cg::this_thread_block();
    extern __shared__ int sdata[];
    int tid = threadIdx.x;
    int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    int grid_size = 2 * blockDim.x * gridDim.x;
    int sum_value = 0;

    while (i < n)
    {
        sum_value += g_in[i];
        if ((i + kBlockSize) < n)
        {
            sum_value += g_in[i + kBlockSize];
        }
        i += grid_size;
    }
    sdata[tid] = sum_value;
    cg::sync(cta);

    if (kBlockSize >= 512)
    {
        if (tid < 256)
        {
            sdata[tid] += sdata[tid + 256];
        }
        cg::sync(cta);
    }
    if (kBlockSize >= 256)
    {
        if (tid < 128)
        {
            sdata[tid] += sdata[tid + 128];
        }
        cg::sync(cta);
    }
    if (kBlockSize >= 128)
    {
        if (tid < 64)
        {
            sdata[tid] += sdata[tid + 64];
        }
        cg::sync(cta);
    }
    if (kBlockSize >= 64)
    {
        if (tid < 32)
        {
            sdata[tid] += sdata[tid + 32];
        }
        cg::sync(cta);
    }
    if (kBlockSize >= 32)
    {
        if (tid < 16) // expected-warning {{divergent branch}}
        {
            sdata[tid] += sdata[tid + 16];
        }
        cg::sync(cta);
    }
    if (kBlockSize >= 16)
    {
        if (tid < 8) // expected-warning {{divergent branch}}
        {
            sdata[tid] += sdata[tid + 8];
        }
        cg::sync(cta);
    }
    if (kBlockSize >= 8)
    {
        if (tid < 4) // expected-warning {{divergent branch}}
        {
            sdata[tid] += sdata[tid + 4];
        }
        cg::sync(cta);
    }
    if (kBlockSize >= 4)
    {
        if (tid < 2) // expected-warning {{divergent branch}}
        {
            sdata[tid] += sdata[tid + 2];
        }
        cg::sync(cta);
    }
    if (kBlockSize >= 2)
    {
        if (tid < 1) // expected-warning {{divergent branch}}
        {
            sdata[tid] += sdata[tid + 1];
        }
        cg::sync(cta);
    }
    if (tid == 0) // expected-warning {{divergent branch}}
    {
        g_out[blockIdx.x] = sdata[0];
    }
}

// Seed 004, "Reduce8: スレッド数がwarpサイズになった以降の同期の最適化": below 64 partial
// sums only the first warp works, synchronised with a thread_block_tile<32>.
template <int kBlockSize>
__global__ void reduce_gpu_v8_kernel(const int *g_in, size_t n, int *g_out)
{
    cg::thread_block cta = cg::this_thread_block();
    extern __shared__ int sdata[];
    int tid = threadIdx.x;
    int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    int grid_size = 2 * blockDim.x * gridDim.x;
    int sum_value = 0;

    while (i < n)
    {
        sum_value += g_in[i];
        if ((i + kBlockSize) < n)
        {
            sum_value += g_in[i + kBlockSize];
        }
        i += grid_size;
    }
    sdata[tid] = sum_value;
    cg::sync(cta);

    if (kBlockSize >= 512)
    {
        if (tid < 256)
        {
            sdata[tid] += sdata[tid + 256];
        }
        cg::sync(cta);
    }
    if (kBlockSize >= 256)
    {
        if (tid < 128)
        {
            sdata[tid] += sdata[tid + 128];
        }
        cg::sync(cta);
    }
    if (kBlockSize >= 128)
    {
        if (tid < 64)
        {
            sdata[tid] += sdata[tid + 64];
        }
        cg::sync(cta);
    }

    cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cta);
    if (cta.thread_rank() < 32)
    {
        if (kBlockSize >= 64)
        {
            if (tid < 32)
            {
                sdata[tid] += sdata[tid + 32];
            }
            tile32.sync();
        }
        if (kBlockSize >= 32)
        {
            if (tid < 16) // expected-warning {{divergent branch}}
            {
                sdata[tid] += sdata[tid + 16];
            }
            tile32.sync();
        }
        if (kBlockSize >= 16)
        {
            if (tid < 8) // expected-warning {{divergent branch}}
            {
                sdata[tid] += sdata[tid + 8];
            }
            tile32.sync();
        }
        if (kBlockSize >= 8)
        {
            if (tid < 4) // expected-warning {{divergent branch}}
            {
                sdata[tid] += sdata[tid + 4];
            }
            tile32.sync();
        }
        if (kBlockSize >= 4)
        {
            if (tid < 2) // expected-warning {{divergent branch}}
            {
                sdata[tid] += sdata[tid + 2];
            }
            tile32.sync();
        }
        if (kBlockSize >= 2)
        {
            if (tid < 1) // expected-warning {{divergent branch}}
            {
                sdata[tid] += sdata[tid + 1];
            }
            tile32.sync();
        }
    }
    if (tid == 0) // expected-warning {{divergent branch}}
    {
        g_out[blockIdx.x] = sdata[0];
    }
}

// Seed 004, "Reduce9 : shfl_down()の使用": the first warp finishes with tile32.shfl_down
// (registers, not shared memory).
template <int kBlockSize>
__global__ void reduce_gpu_v9_kernel(const int *g_in, size_t n, int *g_out)
{
    cg::thread_block cta = cg::this_thread_block();
    extern __shared__ int sdata[];
    int tid = threadIdx.x;
    int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    int grid_size = 2 * blockDim.x * gridDim.x;
    int sum_value = 0;

    while (i < n)
    {
        sum_value += g_in[i];
        if ((i + kBlockSize) < n)
        {
            sum_value += g_in[i + kBlockSize];
        }
        i += grid_size;
    }
    sdata[tid] = sum_value;
    cg::sync(cta);

    if (kBlockSize >= 512)
    {
        if (tid < 256)
        {
            sdata[tid] += sdata[tid + 256];
        }
        cg::sync(cta);
    }
    if (kBlockSize >= 256)
    {
        if (tid < 128)
        {
            sdata[tid] += sdata[tid + 128];
        }
        cg::sync(cta);
    }
    if (kBlockSize >= 128)
    {
        if (tid < 64)
        {
            sdata[tid] += sdata[tid + 64];
        }
        cg::sync(cta);
    }

    cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cta);
    if (cta.thread_rank() < 32)
    {
        sum_value = sdata[tid];
        if (kBlockSize >= 64)
        {
            sum_value += sdata[tid + 32];
        }
        for (int offset = tile32.size() / 2; offset > 0; offset /= 2)
        {
            sum_value += tile32.shfl_down(sum_value, offset);
        }
    }
    if (tid == 0) // expected-warning {{divergent branch}}
    {
        g_out[blockIdx.x] = sum_value;
    }
}

int main()
{
    const size_t n = 128 * 1024;
    const int n_threads = 256;   // reduce1 .. reduce4
    const int kBlockSize = 512;  // reduce6 .. reduce9
    const int n_blocks_v7 = 128; // "今回は決め打ちで128に固定しています"

    int *h_in = (int *)malloc(n * sizeof(int));
    for (size_t i = 0; i < n; ++i)
    {
        h_in[i] = (int)(i % 7) + 1;
    }
    int *d_in;
    int *d_tmp_out;
    CHECK(cudaMalloc((void **)&d_in, n * sizeof(int)));
    CHECK(cudaMemcpy(d_in, h_in, n * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMalloc((void **)&d_tmp_out, (n / n_threads) * sizeof(int)));
    CHECK(cudaMemset(d_tmp_out, 0, (n / n_threads) * sizeof(int)));

    const int n_blocks = (n + n_threads - 1) / n_threads;
    reduce_gpu_v1_kernel<<<n_blocks, n_threads, sizeof(int) * n_threads>>>(d_in, n, d_tmp_out);
    CHECK_LAUNCH();
    reduce_gpu_v2_kernel<<<n_blocks, n_threads, sizeof(int) * n_threads>>>(d_in, n, d_tmp_out);
    CHECK_LAUNCH();
    reduce_gpu_v3_kernel<<<n_blocks, n_threads, sizeof(int) * n_threads>>>(d_in, n, d_tmp_out);
    CHECK_LAUNCH();

    const int n_blocks_half = (n + 2 * n_threads - 1) / (2 * n_threads);
    reduce_gpu_v4_kernel<<<n_blocks_half, n_threads, sizeof(int) * n_threads>>>(d_in, n, d_tmp_out);
    CHECK_LAUNCH();

    const int n_blocks_v6 = (n + 2 * kBlockSize - 1) / (2 * kBlockSize);
    reduce_gpu_v6_kernel<kBlockSize><<<n_blocks_v6, kBlockSize, sizeof(int) * kBlockSize>>>(d_in, n, d_tmp_out);
    CHECK_LAUNCH();
    reduce_gpu_v7_kernel<kBlockSize><<<n_blocks_v7, kBlockSize, sizeof(int) * kBlockSize>>>(d_in, n, d_tmp_out);
    CHECK_LAUNCH();
    reduce_gpu_v8_kernel<kBlockSize><<<n_blocks_v7, kBlockSize, sizeof(int) * kBlockSize>>>(d_in, n, d_tmp_out);
    CHECK_LAUNCH();
    reduce_gpu_v9_kernel<kBlockSize><<<n_blocks_v7, kBlockSize, sizeof(int) * kBlockSize>>>(d_in, n, d_tmp_out);
    CHECK_LAUNCH();

    int h_out[n_blocks_v7];
    CHECK(cudaMemcpy(h_out, d_tmp_out, sizeof(int) * n_blocks_v7, cudaMemcpyDeviceToHost));
    long long total = 0;
    for (int b = 0; b < n_blocks_v7; ++b)
    {
        total += h_out[b];
    }
    printf("reduce_cooperative_groups: sum = %lld\n", total);
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_tmp_out));
    free(h_in);
    return 0;
}
