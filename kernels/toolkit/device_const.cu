// Where constant tables live: a `__device__ const` array stays in global
// memory under nvcc (read with LDG, counted as global loads and sectors),
// though Clang would make it an implicit __constant__; a `__constant__` one
// is read through the constant cache (no global load).
// (analyzer/toolchain/DeviceConstLikeNvcc.h)
#include "common.h"

static __device__ const float kDeviceTable[16] = {
    0.5f, 1.5f, 2.5f,  3.5f,  4.5f,  5.5f,  6.5f,  7.5f,
    8.5f, 9.5f, 10.5f, 11.5f, 12.5f, 13.5f, 14.5f, 15.5f};
__constant__ float kConstantTable[16] = {
    0.5f, 1.5f, 2.5f,  3.5f,  4.5f,  5.5f,  6.5f,  7.5f,
    8.5f, 9.5f, 10.5f, 11.5f, 12.5f, 13.5f, 14.5f, 15.5f};

// Lane l reads entry 7l mod 16: all sixteen, in another order.
__global__ void device_table(float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = kDeviceTable[(i * 7) & 15];
}

__global__ void constant_table(float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = kConstantTable[(i * 7) & 15];
}

int main() {
  const int n = 4096;
  float *out;
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  device_table<<<n / 256, 256>>>(out);
  CHECK_LAUNCH();
  constant_table<<<n / 256, 256>>>(out);
  CHECK_LAUNCH();
  printf("sum %.1f\n", deviceSum(out, n));
  return 0;
}
