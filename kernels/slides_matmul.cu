// Seed 001 (course slides COMP4007 ch.5, "示例: 矩阵乘法"): the naive matrix multiply
// (one thread per element of P, all operands from global memory) and the tiled version
// with __shared__ Mds/Nds tiles of TILE_WIDTH x TILE_WIDTH, Width = 256.
// Shared memory in the tiled kernel, 16x16 blocks (a warp = two rows ty, ty+1):
//   Mds[ty][tx] = ..., Nds[ty][tx] = ...: 32 consecutive words per warp, no conflict;
//   Mds[ty][k]: two words per warp (rows ty, ty+1, 16 words apart, different banks),
//     each multicast to 16 lanes; after unrolling the compiler reads Mds[ty][k..k+3]
//     as one 16-byte load: two distinct 16-byte chunks in different banks, no conflict;
//   Nds[k][tx]: 16 consecutive words, each read by two lanes, no conflict.
// expected-no-diagnostics
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

#define TILE_WIDTH 16

// Seed 001, "内核函数" (naive): each thread computes one element of Pd.
__global__ void MatMulKernel(float *Md, float *Nd, float *Pd, int Width)
{
  // 线程需计算的矩阵P中结果元素的行索引
  int Row = blockIdx.y * blockDim.y + threadIdx.y;
  // 线程需计算的矩阵P中结果元素的列索引
  int Col = blockIdx.x * blockDim.x + threadIdx.x;
  if ((Row < Width) && (Col < Width)) {
    float Pvalue = 0.0;
    // 每个线程计算矩阵P的一个元素
    for (int k = 0; k < Width; ++k)
      Pvalue += Md[Row * Width + k] * Nd[k * Width + Col];
    Pd[Row * Width + Col] = Pvalue;
  }
}

// Seed 001, "新的内核函数" (tiled, shared memory). The slide names it MatMulKernel as
// well; its nvprof slide calls the shared-memory version SharedMatrixMulKernel.
__global__ void SharedMatrixMulKernel(float *Md, float *Nd, float *Pd, int Width)
{
  __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
  __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
  int bx = blockIdx.x; int by = blockIdx.y;
  int tx = threadIdx.x; int ty = threadIdx.y;
  // Identify the row and column of the Pd element to work on
  int Row = by * TILE_WIDTH + ty;
  int Col = bx * TILE_WIDTH + tx;
  float Pvalue = 0;
  // Loop over the Md and Nd tiles required to compute the Pd element
  for (int m = 0; m < Width / TILE_WIDTH; ++m) {
    // Collaborative loading of Md and Nd tiles into shared memory
    Mds[ty][tx] = Md[Row * Width + (m * TILE_WIDTH + tx)];
    Nds[ty][tx] = Nd[(m * TILE_WIDTH + ty) * Width + Col];
    __syncthreads();
    for (int k = 0; k < TILE_WIDTH; ++k)
      Pvalue += Mds[ty][k] * Nds[k][tx];
    __syncthreads();
  }
  Pd[Row * Width + Col] = Pvalue;
}

int main()
{
  const int Width = 256;
  float *h_M = (float *)malloc(Width * Width * sizeof(float));
  float *h_N = (float *)malloc(Width * Width * sizeof(float));
  float *h_P = (float *)malloc(Width * Width * sizeof(float));
  for (int i = 0; i < Width * Width; ++i) {
    h_M[i] = (float)(i % 3);
    h_N[i] = (float)(i % 5);
  }
  float *Md, *Nd, *Pd;
  CHECK(cudaMalloc((void **)&Md, Width * Width * sizeof(float)));
  CHECK(cudaMalloc((void **)&Nd, Width * Width * sizeof(float)));
  CHECK(cudaMalloc((void **)&Pd, Width * Width * sizeof(float)));
  CHECK(cudaMemcpy(Md, h_M, Width * Width * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(Nd, h_N, Width * Width * sizeof(float), cudaMemcpyHostToDevice));

  // Seed 001, "启动内核": 设置内核执行时的配置. The slide writes
  //   int NB = Width/TILE_WIDTH; if (Width % TILE_WIDTH != 0) NB++;
  const int NB = Width / TILE_WIDTH + (Width % TILE_WIDTH != 0 ? 1 : 0);
  dim3 dimGrid(NB, NB);
  dim3 dimBlock(TILE_WIDTH, TILE_WIDTH);

  // 启动设备上的计算线程
  MatMulKernel<<<dimGrid, dimBlock>>>(Md, Nd, Pd, Width);
  CHECK_LAUNCH();
  SharedMatrixMulKernel<<<dimGrid, dimBlock>>>(Md, Nd, Pd, Width);
  CHECK_LAUNCH();

  CHECK(cudaMemcpy(h_P, Pd, Width * Width * sizeof(float), cudaMemcpyDeviceToHost));
  printf("slides_matmul: P[0] = %f\n", h_P[0]);
  CHECK(cudaFree(Md));
  CHECK(cudaFree(Nd));
  CHECK(cudaFree(Pd));
  free(h_M);
  free(h_N);
  free(h_P);
  return 0;
}
