// A __shared__ cuda::barrier: nvcc runs no constructor (the program calls
// init), Clang rejects the declaration; kcheck compiles it as raw shared
// storage and simulates the kernel.
#include <cuda/barrier>

__global__ void stage(float *out, const float *in) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ float tile[128];
  if (threadIdx.x == 0)
    init(&bar, blockDim.x);
  __syncthreads();
  tile[threadIdx.x] = in[blockIdx.x * 128 + threadIdx.x];
  bar.arrive_and_wait();
  out[blockIdx.x * 128 + threadIdx.x] = tile[127 - threadIdx.x];
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 4 * 128 * sizeof(float));
  cudaMalloc(&out, 4 * 128 * sizeof(float));
  stage<<<4, 128>>>(out, in);
  cudaDeviceSynchronize();
  return 0;
}
