// Seed 002 (BBuf, "reduce优化学习笔记"): the Reduce Sum kernels reduce_v0 .. reduce_v8,
// float, BLOCK_SIZE = 256, each launched the way the note launches it.
// Problem size: the note reduces 32M floats; here N = 128K so that the whole file
// simulates quickly (every launch keeps the note's block size and grid formula).
// Only reduce_v1 (interleaved addressing, index = 2*s*tid) has bank conflicts.
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdint>
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

#define N (128 * 1024)
#define BLOCK_SIZE 256
#define WARP_SIZE 32

// Seed 002, "构建BaseLine": reduce_v0, interleaved addressing with tid % (2*s).
// Active lanes of a warp touch words 2s apart within one 32-word row: no conflict.
__global__ void reduce_v0(float *g_idata, float *g_odata) {
  __shared__ float sdata[BLOCK_SIZE];

  // each thread loads one element from global to shared mem
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = g_idata[i];
  __syncthreads();

  // do reduction in shared mem
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) { // expected-warning {{divergent branch}}
      sdata[tid] += sdata[tid + s];
    }
    __syncthreads();
  }

  // write result for this block to global mem
  if (tid == 0) g_odata[blockIdx.x] = sdata[0]; // expected-warning {{divergent branch}}
}

// Seed 002, "优化手段1: 交错寻址": reduce_v1, strided index = 2*s*tid.
// Degrees per s (256 threads): s=1: 2-way (warps 0-3), s=2: 4-way, s=4: 8-way
// (warp 0), s=8: 8-way (16 lanes), s=16: 8-way (8 lanes), s=32: 4-way (4 lanes),
// s=64: 2-way (2 lanes), s=128: one lane, none. Same for the load of index + s.
__global__ void reduce_v1(float *g_idata, float *g_odata) {
  __shared__ float sdata[BLOCK_SIZE];

  // each thread loads one element from global to shared mem
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = g_idata[i];
  __syncthreads();

  // do reduction in shared mem
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    // if (tid % (2*s) == 0) {
    //     sdata[tid] += sdata[tid + s];
    // }
    int index = 2 * s * tid;
    if (index < blockDim.x) { // expected-warning {{divergent branch}}
      sdata[index] += sdata[index + s]; // expected-warning {{2-way to 8-way shared-memory bank conflict on 'sdata'}}
    }
    __syncthreads();
  }

  // write result for this block to global mem
  if (tid == 0) g_odata[blockIdx.x] = sdata[0]; // expected-warning {{divergent branch}}
}

// Seed 002, "优化手段2: 解决Bank Conflict": reduce_v2, sequential addressing.
__global__ void reduce_v2(float *g_idata, float *g_odata) {
  __shared__ float sdata[BLOCK_SIZE];

  // each thread loads one element from global to shared mem
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = g_idata[i];
  __syncthreads();

  // do reduction in shared mem
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) { // expected-warning {{divergent branch}}
      sdata[tid] += sdata[tid + s];
    }
    __syncthreads();
  }

  // write result for this block to global mem
  if (tid == 0) g_odata[blockIdx.x] = sdata[0]; // expected-warning {{divergent branch}}
}

// Seed 002, "优化手段3: 解决 Idle 线程": reduce_v3, first add during the load.
__global__ void reduce_v3(float *g_idata, float *g_odata) {
  __shared__ float sdata[BLOCK_SIZE];

  // each thread loads one element from global to shared mem
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  sdata[tid] = g_idata[i] + g_idata[i + blockDim.x];
  __syncthreads();

  // do reduction in shared mem
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) { // expected-warning {{divergent branch}}
      sdata[tid] += sdata[tid + s];
    }
    __syncthreads();
  }

  // write result for this block to global mem
  if (tid == 0) g_odata[blockIdx.x] = sdata[0]; // expected-warning {{divergent branch}}
}

// Seed 002, "优化手段4: 展开最后一个warp": warpReduce on a volatile pointer.
__device__ void warpReduce(volatile float *cache, unsigned int tid) {
  cache[tid] += cache[tid + 32];
  cache[tid] += cache[tid + 16];
  cache[tid] += cache[tid + 8];
  cache[tid] += cache[tid + 4];
  cache[tid] += cache[tid + 2];
  cache[tid] += cache[tid + 1];
}

// Seed 002, "优化手段4: 展开最后一个warp": reduce_v4.
__global__ void reduce_v4(float *g_idata, float *g_odata) {
  __shared__ float sdata[BLOCK_SIZE];

  // each thread loads one element from global to shared mem
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  sdata[tid] = g_idata[i] + g_idata[i + blockDim.x];
  __syncthreads();

  // do reduction in shared mem
  for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) {
      sdata[tid] += sdata[tid + s];
    }
    __syncthreads();
  }

  // write result for this block to global mem
  if (tid < 32) warpReduce(sdata, tid);
  if (tid == 0) g_odata[blockIdx.x] = sdata[0]; // expected-warning {{divergent branch}}
}

// Seed 002, "优化手段5: 完全展开循环": the templated warpReduce (an overload of the
// one above, as the note gives both the same name).
template <unsigned int blockSize>
__device__ void warpReduce(volatile float *cache, int tid) {
  if (blockSize >= 64) cache[tid] += cache[tid + 32];
  if (blockSize >= 32) cache[tid] += cache[tid + 16];
  if (blockSize >= 16) cache[tid] += cache[tid + 8];
  if (blockSize >= 8) cache[tid] += cache[tid + 4];
  if (blockSize >= 4) cache[tid] += cache[tid + 2];
  if (blockSize >= 2) cache[tid] += cache[tid + 1];
}

// Seed 002, "优化手段5: 完全展开循环": reduce_v5.
template <unsigned int blockSize>
__global__ void reduce_v5(float *g_idata, float *g_odata) {
  __shared__ float sdata[BLOCK_SIZE];

  // each thread loads one element from global to shared mem
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  sdata[tid] = g_idata[i] + g_idata[i + blockDim.x];
  __syncthreads();

  // do reduction in shared mem
  if (blockSize >= 512) {
    if (tid < 256) {
      sdata[tid] += sdata[tid + 256];
    }
    __syncthreads();
  }
  if (blockSize >= 256) {
    if (tid < 128) {
      sdata[tid] += sdata[tid + 128];
    }
    __syncthreads();
  }
  if (blockSize >= 128) {
    if (tid < 64) {
      sdata[tid] += sdata[tid + 64];
    }
    __syncthreads();
  }

  // write result for this block to global mem
  if (tid < 32) warpReduce<blockSize>(sdata, tid);
  if (tid == 0) g_odata[blockIdx.x] = sdata[0]; // expected-warning {{divergent branch}}
}

// Seed 002, "优化手段6: 调节BlockSize和GridSize": reduce_v6, NUM_PER_THREAD adds per thread.
template <unsigned int blockSize, int NUM_PER_THREAD>
__global__ void reduce_v6(float *g_idata, float *g_odata) {
  __shared__ float sdata[BLOCK_SIZE];

  // each thread loads one element from global to shared mem
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockDim.x * NUM_PER_THREAD) + threadIdx.x;
  sdata[tid] = 0;
#pragma unroll
  for (int iter = 0; iter < NUM_PER_THREAD; iter++) {
    sdata[tid] += g_idata[i + iter * blockSize];
  }
  __syncthreads();

  // do reduction in shared mem
  if (blockSize >= 512) {
    if (tid < 256) {
      sdata[tid] += sdata[tid + 256];
    }
    __syncthreads();
  }
  if (blockSize >= 256) {
    if (tid < 128) {
      sdata[tid] += sdata[tid + 128];
    }
    __syncthreads();
  }
  if (blockSize >= 128) {
    if (tid < 64) {
      sdata[tid] += sdata[tid + 64];
    }
    __syncthreads();
  }

  // write result for this block to global mem
  if (tid < 32) warpReduce<blockSize>(sdata, tid);
  if (tid == 0) g_odata[blockIdx.x] = sdata[0]; // expected-warning {{divergent branch}}
}

// Seed 002, "PyTorch Block Reduce": warp reduction with __shfl_down_sync (no shared memory).
template <unsigned int blockSize>
__device__ __forceinline__ float warpReduceSum(float sum) {
  if (blockSize >= 32) sum += __shfl_down_sync(0xffffffff, sum, 16); // 0-16, 1-17, 2-18, etc.
  if (blockSize >= 16) sum += __shfl_down_sync(0xffffffff, sum, 8);  // 0-8, 1-9, 2-10, etc.
  if (blockSize >= 8) sum += __shfl_down_sync(0xffffffff, sum, 4);   // 0-4, 1-5, 2-6, etc.
  if (blockSize >= 4) sum += __shfl_down_sync(0xffffffff, sum, 2);   // 0-2, 1-3, 4-6, 5-7, etc.
  if (blockSize >= 2) sum += __shfl_down_sync(0xffffffff, sum, 1);   // 0-1, 2-3, 4-5, etc.
  return sum;
}

// Seed 002, "PyTorch Block Reduce": reduce7 (reduce_v7_shfl_down_sync). One lane per warp
// writes warpLevelSums[warpId]; lanes 0..7 read warpLevelSums[laneId]: no conflict.
template <unsigned int blockSize, int NUM_PER_THREAD>
__global__ void reduce7(float *g_idata, float *g_odata, unsigned int n) {
  float sum = 0;

  // each thread loads one element from global to shared mem
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockSize * NUM_PER_THREAD) + threadIdx.x;

#pragma unroll
  for (int iter = 0; iter < NUM_PER_THREAD; iter++) {
    sum += g_idata[i + iter * blockSize];
  }

  // Shared mem for partial sums (one per warp in the block)
  static __shared__ float warpLevelSums[WARP_SIZE];
  const int laneId = threadIdx.x % WARP_SIZE;
  const int warpId = threadIdx.x / WARP_SIZE;

  sum = warpReduceSum<blockSize>(sum);

  if (laneId == 0) warpLevelSums[warpId] = sum; // expected-warning {{divergent branch}}
  __syncthreads();
  // read from shared memory only if that warp existed
  sum = (threadIdx.x < blockDim.x / WARP_SIZE) ? warpLevelSums[laneId] : 0; // expected-warning {{divergent branch}}
  // Final reduce using first warp
  if (warpId == 0) sum = warpReduceSum<blockSize / WARP_SIZE>(sum);
  // write result for this block to global mem
  if (tid == 0) g_odata[blockIdx.x] = sum; // expected-warning {{divergent branch}}
}

// Seed 002, "PyTorch BlockReduce + Pack + 选择更更合理的 GridSize": reduce_v8.
#define PackSize 4
#define kWarpSize 32
constexpr int kBlockSize = 256;
constexpr int kNumWaves = 1;

// The grid of reduce_v8 comes from this device query (SM count x threads per SM), so it
// is known only at run time: a static analysis has to say so (on an H100 SXM,
// 132 * 2048 / 256 = 1056, capped by (N + 255) / 256 = 512 here).
int64_t GetNumBlocks(int64_t n) {
  int dev;
  {
    cudaError_t err = cudaGetDevice(&dev);
    if (err != cudaSuccess) { return err; }
  }
  int sm_count;
  {
    cudaError_t err = cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, dev);
    if (err != cudaSuccess) { return err; }
  }
  int tpm;
  {
    cudaError_t err = cudaDeviceGetAttribute(&tpm, cudaDevAttrMaxThreadsPerMultiProcessor, dev);
    if (err != cudaSuccess) { return err; }
  }
  int64_t num_blocks = std::max<int64_t>(1, std::min<int64_t>((n + kBlockSize - 1) / kBlockSize,
                                                             sm_count * tpm / kBlockSize * kNumWaves));
  return num_blocks;
}

template <typename T, int pack_size>
struct alignas(sizeof(T) * pack_size) Packed {
  __device__ Packed(T val) {
#pragma unroll
    for (int i = 0; i < pack_size; i++) {
      elem[i] = val;
    }
  }
  __device__ Packed() {
    // do nothing
  }
  union {
    T elem[pack_size];
  };
  __device__ void operator+=(Packed<T, pack_size> packA) {
#pragma unroll
    for (int i = 0; i < pack_size; i++) {
      elem[i] += packA.elem[i];
    }
  }
};

template <typename T, int pack_size>
__device__ T PackReduce(Packed<T, pack_size> pack) {
  T res = 0.0;
#pragma unroll
  for (int i = 0; i < pack_size; i++) {
    res += pack.elem[i];
  }
  return res;
}

// The note's generic warpReduceSum<T> (an overload of the blockSize template above).
template <typename T>
__device__ T warpReduceSum(T val) {
  for (int lane_mask = 16; lane_mask > 0; lane_mask /= 2) {
    val += __shfl_down_sync(0xffffffff, val, lane_mask);
  }
  return val;
}

__global__ void reduce_v8(float *g_idata, float *g_odata, unsigned int n) {

  // each thread loads one element from global to shared mem

  unsigned int i = blockDim.x * blockIdx.x + threadIdx.x;
  Packed<float, PackSize> sum_pack(0.0);
  Packed<float, PackSize> load_pack(0.0);
  const auto *pack_ptr = reinterpret_cast<const Packed<float, PackSize> *>(g_idata);

  for (int32_t linear_index = i; linear_index < n / PackSize; linear_index += blockDim.x * gridDim.x) {
    Packed<float, PackSize> g_idata_load = pack_ptr[linear_index];
    sum_pack += g_idata_load;
  }
  float PackReduceVal = PackReduce<float, PackSize>(sum_pack);
  // Shared mem for partial sums (one per warp in the block)
  static __shared__ float warpLevelSums[kWarpSize];
  const int laneId = threadIdx.x % kWarpSize;
  const int warpId = threadIdx.x / kWarpSize;

  float sum = warpReduceSum<float>(PackReduceVal);
  __syncthreads();

  if (laneId == 0) warpLevelSums[warpId] = sum; // expected-warning {{divergent branch}}
  __syncthreads();
  // read from shared memory only if that warp existed
  sum = (threadIdx.x < blockDim.x / kWarpSize) ? warpLevelSums[laneId] : 0; // expected-warning {{divergent branch}}
  // Final reduce using first warp
  if (warpId == 0) sum = warpReduceSum<float>(sum);
  // write result for this block to global mem
  if (threadIdx.x == 0) g_odata[blockIdx.x] = sum; // expected-warning {{divergent branch}}
}

int main() {
  float *input_host = (float *)malloc(N * sizeof(float));
  float *input_device;
  CHECK(cudaMalloc((void **)&input_device, N * sizeof(float)));
  for (int i = 0; i < N; i++) input_host[i] = 2.0;
  CHECK(cudaMemcpy(input_device, input_host, N * sizeof(float), cudaMemcpyHostToDevice));

  int32_t block_num = (N + BLOCK_SIZE - 1) / BLOCK_SIZE;
  float *output_host = (float *)malloc((N / BLOCK_SIZE) * sizeof(float));
  float *output_device;
  CHECK(cudaMalloc((void **)&output_device, (N / BLOCK_SIZE) * sizeof(float)));
  CHECK(cudaMemset(output_device, 0, (N / BLOCK_SIZE) * sizeof(float)));

  // v0 .. v2: one element per thread, N / BLOCK_SIZE blocks.
  dim3 grid(N / BLOCK_SIZE, 1);
  dim3 block(BLOCK_SIZE, 1);
  reduce_v0<<<grid, block>>>(input_device, output_device);
  CHECK_LAUNCH();
  reduce_v1<<<grid, block>>>(input_device, output_device);
  CHECK_LAUNCH();
  reduce_v2<<<grid, block>>>(input_device, output_device);
  CHECK_LAUNCH();

  // v3 .. v5: two elements per thread, half the blocks.
  dim3 grid_half(N / BLOCK_SIZE / 2, 1);
  reduce_v3<<<grid_half, block>>>(input_device, output_device);
  CHECK_LAUNCH();
  reduce_v4<<<grid_half, block>>>(input_device, output_device);
  CHECK_LAUNCH();
  reduce_v5<BLOCK_SIZE><<<grid_half, block>>>(input_device, output_device);
  CHECK_LAUNCH();

  // v6, v7: a fixed number of blocks (the note uses 1024 blocks for 32M elements; 128
  // here keeps NUM_PER_THREAD = 4 for N = 128K).
  const int block_num_v6 = 128;
  const int NUM_PER_BLOCK = N / block_num_v6;
  const int NUM_PER_THREAD = NUM_PER_BLOCK / BLOCK_SIZE;
  dim3 grid_v6(block_num_v6, 1);
  reduce_v6<BLOCK_SIZE, NUM_PER_THREAD><<<grid_v6, block>>>(input_device, output_device);
  CHECK_LAUNCH();
  reduce7<BLOCK_SIZE, NUM_PER_THREAD><<<grid_v6, block>>>(input_device, output_device, N);
  CHECK_LAUNCH();

  // v8: grid from the device query above.
  int64_t block_num_v8 = GetNumBlocks(N);
  reduce_v8<<<block_num_v8, kBlockSize>>>(input_device, output_device, N);
  CHECK_LAUNCH();

  CHECK(cudaMemcpy(output_host, output_device, block_num * sizeof(float), cudaMemcpyDeviceToHost));
  printf("reduce_v0_v8: out[0] = %f\n", output_host[0]);
  CHECK(cudaFree(input_device));
  CHECK(cudaFree(output_device));
  free(input_host);
  free(output_host);
  return 0;
}
