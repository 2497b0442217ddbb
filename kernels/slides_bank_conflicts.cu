// Seed 001 (course slides COMP4007 ch.5, "共享内存访问" / "Bank访问冲突" / "避免Bank冲突"):
// the slides' bank examples as kernels. 32 banks of 4 bytes (compute capability 7.x and
// later, so sm_90); each kernel stores a block of input linearly into shared memory
// (conflict-free), synchronises, then reads it back with the pattern under test:
//   示例 1: linear addressing, stride 1                 -> no conflict
//   示例 2: a 1:1 permutation of the lanes              -> no conflict
//   示例 3: linear addressing, stride 2                 -> 2-way
//   示例 4: linear addressing, stride 8                 -> 8-way
//   (odd strides such as 3 reach every bank once        -> no conflict)
//   broadcast / multicast: many lanes read one word     -> no conflict
//   "32x32 共享内存数组, 每个Warp访问一列"              -> 32-way
//   "增加一列, 32 x 33"                                  -> no conflict
// For these 4-byte accesses the degree does not depend on where the array starts:
// moving the base shifts every lane's bank by the same amount.
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

#define BLOCK 256
#define TILE_DIM 32

// Seed 001, "示例 1: 无Bank冲突": thread t reads word t (bank t % 32).
__global__ void LinearAddressing(const float *in, float *out)
{
  __shared__ float shared[BLOCK];
  int tid = threadIdx.x;
  shared[tid] = in[blockIdx.x * BLOCK + tid];
  __syncthreads();
  out[blockIdx.x * BLOCK + tid] = shared[tid];
}

// Seed 001, "示例 2: 无Bank冲突": a fixed 1:1 permutation of the 32 lanes of each warp
// (lane -> (13 * lane + 7) % 32): every lane still has a bank of its own.
__global__ void RandomPermutation(const float *in, float *out)
{
  __shared__ float shared[BLOCK];
  int tid = threadIdx.x;
  shared[tid] = in[blockIdx.x * BLOCK + tid];
  __syncthreads();
  int lane = tid % 32;
  int perm = tid - lane + (13 * lane + 7) % 32;
  out[blockIdx.x * BLOCK + tid] = shared[perm];
}

// Seed 001, "示例 3: 2-路Bank冲突": stride 2, lanes l and l + 16 share bank 2l % 32.
__global__ void Stride2(const float *in, float *out)
{
  __shared__ float shared[2 * BLOCK];
  int tid = threadIdx.x;
  shared[tid] = in[blockIdx.x * 2 * BLOCK + tid];
  shared[tid + BLOCK] = in[blockIdx.x * 2 * BLOCK + BLOCK + tid];
  __syncthreads();
  out[blockIdx.x * BLOCK + tid] = shared[2 * tid]; // expected-warning {{2-way shared-memory bank conflict on 'shared'}}
}

// Seed 001, "示例 4: 8-路Bank冲突": stride 8, the 32 lanes use banks 0, 8, 16, 24 only,
// eight different words each.
__global__ void Stride8(const float *in, float *out)
{
  __shared__ float shared[8 * BLOCK];
  int tid = threadIdx.x;
  for (int k = 0; k < 8; ++k)
    shared[k * BLOCK + tid] = in[(blockIdx.x * 8 + k) * BLOCK + tid];
  __syncthreads();
  out[blockIdx.x * BLOCK + tid] = shared[8 * tid]; // expected-warning {{8-way shared-memory bank conflict on 'shared'}}
}

// Seed 001, "Bank冲突的延迟" (stride / #-way plot): an odd stride, 3, is conflict-free
// because 3 * lane % 32 takes every value once.
__global__ void Stride3(const float *in, float *out)
{
  __shared__ float shared[3 * BLOCK];
  int tid = threadIdx.x;
  for (int k = 0; k < 3; ++k)
    shared[k * BLOCK + tid] = in[(blockIdx.x * 3 + k) * BLOCK + tid];
  __syncthreads();
  out[blockIdx.x * BLOCK + tid] = shared[3 * tid];
}

// Broadcast: every lane reads the same word, served once for the whole warp.
__global__ void Broadcast(const float *in, float *out)
{
  __shared__ float shared[BLOCK];
  int tid = threadIdx.x;
  shared[tid] = in[blockIdx.x * BLOCK + tid];
  __syncthreads();
  out[blockIdx.x * BLOCK + tid] = shared[0];
}

// Multicast: four lanes per word, eight words in eight different banks per warp.
__global__ void Multicast(const float *in, float *out)
{
  __shared__ float shared[BLOCK];
  int tid = threadIdx.x;
  shared[tid] = in[blockIdx.x * BLOCK + tid];
  __syncthreads();
  out[blockIdx.x * BLOCK + tid] = shared[tid / 4];
}

// Seed 001, "避免Bank冲突": a 32x32 shared array, each warp (one threadIdx.y) reads a
// column: word 32 * threadIdx.x + threadIdx.y, all 32 lanes in bank threadIdx.y.
__global__ void ColumnRead32(const float *in, float *out, int width)
{
  __shared__ float tile[TILE_DIM][TILE_DIM];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * width + x];
  __syncthreads();
  out[y * width + x] = tile[threadIdx.x][threadIdx.y]; // expected-warning {{32-way shared-memory bank conflict on 'tile'}}
}

// Seed 001, "避免Bank冲突 (增加一列)": 32x33, word 33 * threadIdx.x + threadIdx.y falls in
// bank (threadIdx.x + threadIdx.y) % 32, a different one for every lane.
__global__ void ColumnRead33(const float *in, float *out, int width)
{
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * width + x];
  __syncthreads();
  out[y * width + x] = tile[threadIdx.x][threadIdx.y];
}

int main()
{
  const int blocks = 64;
  const int n_in = blocks * 8 * BLOCK; // enough for the stride-8 kernel
  const int n_out = blocks * BLOCK;
  const int width = 256;               // the column kernels: a 256 x 256 matrix
  const int n_mat = width * width;
  const int n_buf = n_in > n_mat ? n_in : n_mat;
  static_assert(n_out <= n_buf, "buffers too small");

  float *h_in = (float *)malloc(n_buf * sizeof(float));
  for (int i = 0; i < n_buf; ++i) h_in[i] = (float)(i % 101);
  float *d_in, *d_out;
  CHECK(cudaMalloc((void **)&d_in, n_buf * sizeof(float)));
  CHECK(cudaMalloc((void **)&d_out, n_buf * sizeof(float)));
  CHECK(cudaMemcpy(d_in, h_in, n_buf * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_out, 0, n_buf * sizeof(float)));

  LinearAddressing<<<blocks, BLOCK>>>(d_in, d_out);
  CHECK_LAUNCH();
  RandomPermutation<<<blocks, BLOCK>>>(d_in, d_out);
  CHECK_LAUNCH();
  Stride2<<<blocks, BLOCK>>>(d_in, d_out);
  CHECK_LAUNCH();
  Stride8<<<blocks, BLOCK>>>(d_in, d_out);
  CHECK_LAUNCH();
  Stride3<<<blocks, BLOCK>>>(d_in, d_out);
  CHECK_LAUNCH();
  Broadcast<<<blocks, BLOCK>>>(d_in, d_out);
  CHECK_LAUNCH();
  Multicast<<<blocks, BLOCK>>>(d_in, d_out);
  CHECK_LAUNCH();

  dim3 grid(width / TILE_DIM, width / TILE_DIM);
  dim3 block(TILE_DIM, TILE_DIM);
  ColumnRead32<<<grid, block>>>(d_in, d_out, width);
  CHECK_LAUNCH();
  ColumnRead33<<<grid, block>>>(d_in, d_out, width);
  CHECK_LAUNCH();

  float h_out[4];
  CHECK(cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost));
  printf("slides_bank_conflicts: out[1] = %f\n", h_out[1]);
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  free(h_in);
  return 0;
}
