// memcheck, planted bug: an off-by-one shared write. Each thread stores to
// tile[threadIdx.x + 1], so thread 31 writes tile[32], one past the end of
// the 32-float tile. The fixed kernel shifts the read instead of the write.
// `kcheck memcheck --verify` checks the expectation; the program runs on a
// GPU too (nvcc -lineinfo; compute-sanitizer --tool memcheck reports the
// same thread and address). The fixed launch runs first: after the fault
// the GPU context is lost.
#include <cstdio>
#include <cuda_runtime.h>

#define N 32

__global__ void shiftLeftFixed(const float *in, float *out) {
  __shared__ float tile[N];
  tile[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = threadIdx.x + 1 < N ? tile[threadIdx.x + 1] : 0.0f;
}

__global__ void shiftLeftOffByOne(const float *in, float *out) {
  __shared__ float tile[N];
  tile[threadIdx.x + 1] = in[threadIdx.x]; // expected-error {{invalid __shared__ write of size 4 bytes by thread (31,0,0) in block (0,0,0) of shiftLeftOffByOne(float const*, float*): address 0x80 is out of bounds, 0 bytes after 'tile' [0x0, 0x80)}}
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x];
}

int main() {
  float host[N], *in, *out;
  for (int i = 0; i < N; ++i)
    host[i] = float(i);
  cudaMalloc(&in, N * sizeof(float));
  cudaMalloc(&out, N * sizeof(float));
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  shiftLeftFixed<<<1, N>>>(in, out);
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  printf("fixed: out[0] = %g, out[30] = %g\n", host[0], host[30]);
  shiftLeftOffByOne<<<1, N>>>(in, out);
  cudaError_t err = cudaDeviceSynchronize();
  printf("off by one: %s\n", cudaGetErrorString(err));
  return 0;
}
