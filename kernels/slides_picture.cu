// Seed 001 (course slides COMP4007 ch.5, "基于多维度数据的线程映射"): PictureKernel scales
// a 76x62 picture with 16x16 thread blocks, a 5x4 grid of 80x64 threads (some idle).
// No shared memory. Global: rows of 76 floats are not 128-byte aligned, so each warp's
// half-rows straddle sectors; the threads past column 76 / row 62 are masked off.
// kcheck check: both accesses are uncoalesced (744 sectors for 589 ideal on the H100).
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

// Seed 001, "内核函数": d_Pin指向图片数据 (n columns, m rows).
__global__ void PictureKernel(float *d_Pin, float *d_Pout, int n, int m)
{
  int Row = blockIdx.y * blockDim.y + threadIdx.y;
  int Col = blockIdx.x * blockDim.x + threadIdx.x;
  if ((Row < m) && (Col < n)) // expected-warning {{divergent branch}}
    d_Pout[Row * n + Col] = 2 * d_Pin[Row * n + Col]; // expected-warning {{uncoalesced global store to 'd_Pout'}} expected-warning {{uncoalesced global load of 'd_Pin'}}
}

int main()
{
  // Seed 001, "示例: 76×62分辨率的图片表示" and "启动内核".
  const int n = 76; // width
  const int m = 62; // height
  float h_Pin[n * m];
  for (int i = 0; i < n * m; ++i) h_Pin[i] = (float)(i % 255);
  float *d_Pin, *d_Pout;
  CHECK(cudaMalloc((void **)&d_Pin, n * m * sizeof(float)));
  CHECK(cudaMalloc((void **)&d_Pout, n * m * sizeof(float)));
  CHECK(cudaMemcpy(d_Pin, h_Pin, n * m * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_Pout, 0, n * m * sizeof(float)));

  dim3 dimBlock(16, 16, 1);
  // The slide writes dim3 dimGrid(ceil(n/16.0), ceil(m/16.0), 1): the same 5x4 grid.
  dim3 dimGrid((n + 15) / 16, (m + 15) / 16, 1);
  PictureKernel<<<dimGrid, dimBlock>>>(d_Pin, d_Pout, n, m);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  float h_Pout[n * m];
  CHECK(cudaMemcpy(h_Pout, d_Pout, n * m * sizeof(float), cudaMemcpyDeviceToHost));
  printf("slides_picture: Pout[77] = %f\n", h_Pout[77]);
  CHECK(cudaFree(d_Pin));
  CHECK(cudaFree(d_Pout));
  return 0;
}
