// A tiled transpose: each block reads a 32 x 32 tile by rows and writes it
// by columns through shared memory. Whether the column reads conflict
// depends on the tile's pitch, which the build sets (CMakeLists.txt).
#include "tile_config.h"

#include <cuda_runtime.h>

__global__ void transposeTile(float *out, const float *in, int n) {
  __shared__ float tile[kTile][kTilePitch];
  int x = blockIdx.x * kTile + threadIdx.x;
  int y = blockIdx.y * kTile + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  int tx = blockIdx.y * kTile + threadIdx.x;
  int ty = blockIdx.x * kTile + threadIdx.y;
  out[ty * n + tx] = tile[threadIdx.x][threadIdx.y];
}

int main() {
  const int n = 256;
  float *in, *out;
  cudaMalloc(&in, n * n * sizeof(float));
  cudaMalloc(&out, n * n * sizeof(float));
  transposeTile<<<dim3(n / kTile, n / kTile), dim3(kTile, kTile)>>>(out, in, n);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
  return 0;
}
