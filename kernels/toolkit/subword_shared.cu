// Sub-word loads from shared memory as ptxas merges them
// (analyzer/pipeline/IrPipelineAlign.h): 16-bit loads of halves into at most 64 bits,
// bytes never; 32-bit loads into 128 bits.
#include "common.h"
#include <cuda_fp16.h>

// Eight halves of a 16-byte aligned row per thread, from the dynamic
// window and from a static array; four halves of an 8-byte aligned row.
__global__ void halves8_dynamic(const half *in, float *out) {
  extern __shared__ char raw[];
  half *sh = reinterpret_cast<half *>(raw);
  for (int i = threadIdx.x; i < 256 * 8; i += blockDim.x)
    sh[i] = in[i];
  __syncthreads();
  float acc = 0;
  for (int i = 0; i < 8; ++i)
    acc += __half2float(sh[threadIdx.x * 8 + i]);
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

__global__ void halves8_static(const half *in, float *out) {
  __shared__ half sh[256 * 8];
  for (int i = threadIdx.x; i < 256 * 8; i += blockDim.x)
    sh[i] = in[i];
  __syncthreads();
  float acc = 0;
  for (int i = 0; i < 8; ++i)
    acc += __half2float(sh[threadIdx.x * 8 + i]);
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

__global__ void halves4_static(const half *in, float *out) {
  __shared__ half sh[256 * 4];
  for (int i = threadIdx.x; i < 256 * 4; i += blockDim.x)
    sh[i] = in[i];
  __syncthreads();
  float acc = 0;
  for (int i = 0; i < 4; ++i)
    acc += __half2float(sh[threadIdx.x * 4 + i]);
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

__global__ void bytes16_static(const unsigned char *in, int *out) {
  __shared__ unsigned char sh[256 * 16];
  for (int i = threadIdx.x; i < 256 * 16; i += blockDim.x)
    sh[i] = in[i];
  __syncthreads();
  int acc = 0;
  for (int i = 0; i < 16; ++i)
    acc += sh[threadIdx.x * 16 + i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

__global__ void floats8_static(const float *in, float *out) {
  __shared__ float sh[256 * 8];
  for (int i = threadIdx.x; i < 256 * 8; i += blockDim.x)
    sh[i] = in[i];
  __syncthreads();
  float acc = 0;
  for (int i = 0; i < 8; ++i)
    acc += sh[threadIdx.x * 8 + i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

int main() {
  const int blocks = 8, n = 256 * 16;
  half *h = deviceBuffer<half>(n, 1);
  unsigned char *u = deviceBuffer<unsigned char>(n, 2);
  float *f = deviceBuffer<float>(n, 3), *out;
  int *o;
  CHECK(cudaMalloc(&out, blocks * 256 * sizeof(float)));
  CHECK(cudaMalloc(&o, blocks * 256 * sizeof(int)));
  halves8_dynamic<<<blocks, 256, 256 * 8 * sizeof(half)>>>(h, out);
  CHECK_LAUNCH();
  halves8_static<<<blocks, 256>>>(h, out);
  CHECK_LAUNCH();
  halves4_static<<<blocks, 256>>>(h, out);
  CHECK_LAUNCH();
  bytes16_static<<<blocks, 256>>>(u, o);
  CHECK_LAUNCH();
  floats8_static<<<blocks, 256>>>(f, out);
  CHECK_LAUNCH();
  printf("sum %.1f\n", deviceSum(out, blocks * 256));
  return 0;
}
