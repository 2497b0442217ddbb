// Seed 001 (course slides COMP4007 ch.5, "并行归约" / "矢量归约示例"): the in-place sum
// reduction in shared memory, the "简单实现" (t % (2*stride), divergent) and the
// "更好地实现" (t < stride, halving), 512 threads per block as on the slides.
// The slides assume partialSum[] is already in shared memory; the loads before the
// loops are added here. Both versions read words at most 32 apart within one warp's
// row, and every active lane of a warp hits a different bank: no bank conflicts.
// No bank conflicts or uncoalesced accesses; divergent branches expected inline.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                              \
  do {                                                                           \
    cudaError_t err_ = (call);                                                   \
    if (err_ != cudaSuccess) {                                                   \
      fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call,               \
              cudaGetErrorString(err_));                                         \
      exit(1);                                                                   \
    }                                                                            \
  } while (0)
#define CHECK_LAUNCH()                                                           \
  do {                                                                           \
    CHECK(cudaGetLastError());                                                   \
    CHECK(cudaDeviceSynchronize());                                              \
  } while (0)

#define SECTION_SIZE 512

// Seed 001, "简单实现": the active threads t are multiples of 2*stride.
__global__ void SlideReduceModulo(float *in, float *out)
{
  __shared__ float partialSum[SECTION_SIZE];

  unsigned int t = threadIdx.x;
  partialSum[t] = in[blockIdx.x * blockDim.x + t];
  for (unsigned int stride = 1; stride < blockDim.x; stride *= 2)
  {
    __syncthreads();
    if (t % (2 * stride) == 0) // expected-warning {{divergent branch}}
      partialSum[t] += partialSum[t + stride];
  }
  if (t == 0) out[blockIdx.x] = partialSum[0]; // expected-warning {{divergent branch}}
}

// Seed 001, "更好地实现": each block sums 2*blockDim.x elements, the active threads are
// 0 .. stride-1. The slide's loop header reads "stride > 1; stride >> 1", which never
// terminates (and would skip the last step); it is written here as intended.
__global__ void SlideReduceHalving(float *in, float *out)
{
  __shared__ float partialSum[2 * SECTION_SIZE];

  unsigned int t = threadIdx.x;
  partialSum[t] = in[blockIdx.x * 2 * blockDim.x + t];
  partialSum[t + blockDim.x] = in[blockIdx.x * 2 * blockDim.x + blockDim.x + t];
  for (unsigned int stride = blockDim.x; stride >= 1; stride >>= 1)
  {
    __syncthreads();
    if (t < stride) // expected-warning {{divergent branch}}
      partialSum[t] += partialSum[t + stride];
  }
  if (t == 0) out[blockIdx.x] = partialSum[0]; // expected-warning {{divergent branch}}
}

int main()
{
  const int n = 256 * 1024;
  float *h_in = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i) h_in[i] = 1.0f;
  float *d_in, *d_out;
  CHECK(cudaMalloc((void **)&d_in, n * sizeof(float)));
  CHECK(cudaMalloc((void **)&d_out, (n / SECTION_SIZE) * sizeof(float)));
  CHECK(cudaMemcpy(d_in, h_in, n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_out, 0, (n / SECTION_SIZE) * sizeof(float)));

  SlideReduceModulo<<<n / SECTION_SIZE, SECTION_SIZE>>>(d_in, d_out);
  CHECK_LAUNCH();
  SlideReduceHalving<<<n / (2 * SECTION_SIZE), SECTION_SIZE>>>(d_in, d_out);
  CHECK_LAUNCH();

  float h_out[n / (2 * SECTION_SIZE)];
  CHECK(cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost));
  printf("slides_reduction: out[0] = %f (expected %d)\n", h_out[0], 2 * SECTION_SIZE);
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  free(h_in);
  return 0;
}
