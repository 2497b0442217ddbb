// memcheck, planted bug: a global read past the end of a cudaMalloc. Each
// thread adds its element and the next one, guarded by i < n only, so the
// last thread (i = 1039, thread 15 of block 32) reads in[1040], one float
// past the 1040 floats `in` holds. The fixed kernel stops the pair at n.
// With `kcheck memcheck --run-host` the sizes are the program's own
// cudaMalloc sizes (statically they are the same here). The fixed launch
// runs first: after the fault the GPU context is lost.
#include <cstdio>
#include <cuda_runtime.h>

#define N 1040
#define BLOCK 32

__global__ void pairSumFixed(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] + (i + 1 < n ? in[i + 1] : 0.0f);
}

__global__ void pairSumPastEnd(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] + in[i + 1]; // expected-error {{invalid __global__ read of size 4 bytes by thread (15,0,0) in block (32,0,0) of pairSumPastEnd(float const*, float*, int): address}}
}

int main() {
  static float host[N];
  float *in, *out;
  for (int i = 0; i < N; ++i)
    host[i] = float(i);
  cudaMalloc(&in, N * sizeof(float));
  cudaMalloc(&out, N * sizeof(float));
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  pairSumFixed<<<(N + BLOCK - 1) / BLOCK, BLOCK>>>(in, out, N);
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  printf("fixed: out[1038] = %g, out[1039] = %g\n", host[N - 2], host[N - 1]);
  pairSumPastEnd<<<(N + BLOCK - 1) / BLOCK, BLOCK>>>(in, out, N);
  cudaError_t err = cudaDeviceSynchronize();
  printf("past end: %s\n", cudaGetErrorString(err));
  return 0;
}
