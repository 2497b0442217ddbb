// Warps take turns at global loads (simulator/engine/BlockRunner.cpp,
// runWarps): the reduction of HeCBench layernorm, whose result every warp
// reads right after a barrier while warp 0, past its next global loads,
// already writes the next result into the same __shared__ word (no barrier
// between the two). On the GPU the other warps read it while warp 0 waits
// for its loads; a simulator that runs warp 0 to its next barrier first
// hands them the next result instead.
#include <cstdio>

__global__ void twoResults(const float *in, float *out) {
  __shared__ float result;
  if (threadIdx.x == 0)
    result = in[0];
  __syncthreads();
  float first = result; // every warp reads the first result here
  float next = in[1 + threadIdx.x];
  if (threadIdx.x == 0)
    result = next * 2.0f; // the next result, no barrier in between
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = first + result;
}

int main() {
  const int blocks = 4, threads = 256;
  float host[1 + threads];
  for (int i = 0; i <= threads; ++i)
    host[i] = float(i + 1);
  float *in, *out;
  cudaMalloc(&in, sizeof host);
  cudaMalloc(&out, blocks * threads * sizeof(float));
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  twoResults<<<blocks, threads>>>(in, out);
  float result[blocks * threads];
  cudaMemcpy(result, out, sizeof result, cudaMemcpyDeviceToHost);
  int firstSeen = 0;
  for (int i = 0; i < blocks * threads; ++i)
    firstSeen += result[i] == 1.0f + 4.0f; // the first result, then the next
  printf("%d of %d threads read the first result\n", firstSeen,
         blocks * threads);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
