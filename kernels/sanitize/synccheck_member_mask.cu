// synccheck, planted bug: a warp vote whose member mask leaves out the
// calling thread. The binary prefix count of a stream-compaction scan passes
// "the lanes below me" as the mask of __ballot_sync (HeCBench bscan does);
// the mask must name the calling lane, so on the H100 the kernel stops with
// an illegal instruction (compute-sanitizer's synccheck: "Barrier error
// detected. Invalid arguments."). The fixed kernel votes with the whole warp
// and masks the result.
#include <cstdio>
#include <cuda_runtime.h>

#define BLOCK 64

__device__ unsigned lanesBelow() { return (1u << (threadIdx.x % 32)) - 1; }

__global__ void prefixCountFixed(const int *in, unsigned *out) {
  unsigned t = threadIdx.x;
  unsigned votes = __ballot_sync(0xffffffffu, in[t] > 0);
  out[t] = __popc(votes & lanesBelow());
}

__global__ void prefixCount(const int *in, unsigned *out) {
  unsigned t = threadIdx.x;
  unsigned votes = __ballot_sync(lanesBelow(), in[t] > 0); // expected-error {{its member mask 0x00000000 leaves out the calling thread (lane 0)}}
  out[t] = __popc(votes);
}

int main() {
  int host[BLOCK], *in;
  unsigned counts[BLOCK], *out;
  for (int i = 0; i < BLOCK; ++i)
    host[i] = i % 3;
  cudaMalloc(&in, sizeof host);
  cudaMalloc(&out, sizeof counts);
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  prefixCountFixed<<<1, BLOCK>>>(in, out);
  cudaMemcpy(counts, out, sizeof counts, cudaMemcpyDeviceToHost);
  printf("fixed: counts[63] = %u\n", counts[63]);
  prefixCount<<<1, BLOCK>>>(in, out);
  cudaError_t e = cudaDeviceSynchronize();
  printf("planted: %s\n", cudaGetErrorName(e));
  return 0;
}
