// memcheck, planted bugs in local memory and alignment:
// - a local (stack) array indexed one past its end: `window[k]` with k up to
//   4 in a float[4] (the loop bound is `<=`), next to another local array,
//   so the whole frame does not catch it but the array's bounds do;
// - a float4 load at an address 4 bytes past 16-byte alignment.
// The fixed kernels use `<` and an aligned base. Each buggy launch faults on
// its own; on a GPU each needs its own run (the first fault loses the
// context), `kcheck memcheck` simulates every launch.
#include <cstdio>
#include <cuda_runtime.h>

#define N 256

__global__ void windowSum(const float *in, float *out, int width, int pick) {
  float window[4], weights[4];
  for (int k = 0; k < 4; ++k) {
    window[k] = in[threadIdx.x + k];
    weights[k] = in[k];
  }
  float sum = 0.0f;
  for (int k = 0; k < width; ++k)
    sum += window[(k + pick) & 7] * weights[k & 3]; // expected-error {{invalid __local__ read of size 4 bytes by thread (0,0,0) in block (0,0,0) of windowSum(float const*, float*, int, int): address 0x10 is out of bounds, 0 bytes after local 'window' [0x0, 0x10)}}
  out[threadIdx.x] = sum;
}

__global__ void loadVec4(const float *in, float *out, int offset) {
  const float4 v =
      reinterpret_cast<const float4 *>(in + offset)[threadIdx.x]; // expected-error {{invalid __global__ read of size 16 bytes by thread (0,0,0) in block (0,0,0) of loadVec4(float const*, float*, int): address 0x700000000004 is misaligned (a 16-byte access needs a multiple of 16)}}
  out[threadIdx.x] = v.x + v.y + v.z + v.w;
}

int main() {
  static float host[N + 8];
  float *in, *out;
  for (int i = 0; i < N + 8; ++i)
    host[i] = 1.0f;
  cudaMalloc(&in, sizeof host);
  cudaMalloc(&out, N * sizeof(float));
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  windowSum<<<1, 64>>>(in, out, 4, 0); // fixed: k < 4
  loadVec4<<<1, 32>>>(in, out, 4);     // fixed: 16-byte aligned
  cudaMemcpy(host, out, N * sizeof(float), cudaMemcpyDeviceToHost);
  printf("fixed: %g %g\n", host[0], host[31]);
  windowSum<<<1, 64>>>(in, out, 1, 4); // reads window[4]
  printf("window past end: %s\n",
         cudaGetErrorString(cudaDeviceSynchronize()));
  loadVec4<<<1, 32>>>(in, out, 1); // 4 bytes past alignment
  printf("misaligned float4: %s\n",
         cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
