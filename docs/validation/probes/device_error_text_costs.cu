// nvcc: -rdc=true -lcudadevrt
// What cudaGetErrorName and cudaGetErrorString cost on the device, per
// error code (libcudadevrt looks the code up in a table: the loads depend
// on where it is), and the occupancy calculator's refused calls: one
// launch of one thread per call, its status stored once (one STG of one
// sector, as device_runtime_costs.cu's baseline).
//   nvcc -O3 -arch=sm_90 -rdc=true -lcudadevrt device_error_text_costs.cu
#include <cuda_runtime.h>

#include <cstdio>

__global__ void name(int code, int *out) {
  out[0] = cudaGetErrorName(cudaError_t(code)) != nullptr;
}
__global__ void text(int code, int *out) {
  out[0] = cudaGetErrorString(cudaError_t(code)) != nullptr;
}
__global__ void target(int *p) { p[threadIdx.x] = 0; }
__global__ void occupancy(int blockSize, size_t shared, int *out) {
  int n = -1;
  out[0] = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &n, (const void *)target, blockSize, shared);
  out[1] = n;
}

int main() {
  int *out;
  cudaMalloc(&out, 64);
  // Every code the toolkit names (core/CudaErrors.def's, in its order), then
  // some it does not.
  const int codes[] = {
      0,   1,   2,   3,   4,   5,   6,   7,   8,     9,     12,  13,  16,  17,
      18,  19,  20,  21,  22,  23,  24,  25,  26,    27,    28,  31,  32,  34,
      35,  36,  37,  43,  44,  45,  46,  49,  52,    53,    65,  66,  67,  68,
      69,  98,  100, 101, 102, 103, 127, 200, 201,   205,   206, 207, 208, 209,
      210, 211, 212, 213, 214, 215, 216, 217, 218,   219,   220, 221, 222, 223,
      224, 225, 226, 300, 301, 302, 303, 304, 400,   401,   402, 500, 600, 700,
      701, 702, 703, 704, 705, 708, 709, 710, 711,   712,   713, 714, 715, 716,
      717, 718, 719, 720, 721, 800, 801, 802, 803,   804,   805, 806, 807, 808,
      809, 810, 811, 812, 900, 901, 902, 903, 904,   905,   906, 907, 908, 909,
      910, 911, 912, 913, 914, 915, 999, 10,  10000, 12345, -1};
  for (int code : codes) {
    name<<<1, 1>>>(code, out);
    text<<<1, 1>>>(code, out);
  }
  struct {
    int blockSize;
    size_t shared;
  } occ[] = {{128, 0}, {0, 0}, {-1, 0}, {2048, 0}, {1025, 0}, {256, 1 << 20}};
  for (auto c : occ) {
    occupancy<<<1, 1>>>(c.blockSize, c.shared, out);
    int back[2];
    cudaMemcpy(back, out, sizeof back, cudaMemcpyDeviceToHost);
    std::printf("probe occupancy_%d_%zu %d %d\n", c.blockSize, c.shared,
                back[0], back[1]);
  }
  for (int code : codes)
    std::printf("code %d %s\n", code, cudaGetErrorName(cudaError_t(code)));
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("device_error_text_costs: %s\n", cudaGetErrorName(e));
  return e != cudaSuccess;
}
