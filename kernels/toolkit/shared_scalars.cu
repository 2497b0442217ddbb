// Static __shared__ scalars that ptxas lays out side by side and then reads
// and writes together, as it would an array's words
// (analyzer/pipeline/IrPipelineShared.h): two words of an 8-byte aligned pair are
// one LDS.64 / STS.64, three or four of a 16-byte chunk one LDS.128.
#include "common.h"

// Thread 0 writes both (one STS.64), every lane reads both (one LDS.64 at
// one address: a single wavefront), as HeCBench accuracy does.
__global__ void two_scalars(const int *label, const float *x, float *out) {
  __shared__ float s_pred;
  __shared__ int s_label;
  if (threadIdx.x == 0) {
    s_label = label[blockIdx.x];
    s_pred = x[blockIdx.x];
  }
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s_pred + float(s_label);
}

__global__ void four_scalars(const int *in, float *out) {
  __shared__ int a, b, c, d;
  if (threadIdx.x == 0) {
    a = in[0];
    b = in[1];
    c = in[2];
    d = in[3];
  }
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = float(a + b * c - d);
}

// Three words: one LDS.128, an STS.64 and an STS.
__global__ void three_scalars(const int *in, float *out) {
  __shared__ int a, b, c;
  if (threadIdx.x == 0) {
    a = in[0];
    b = in[1];
    c = in[2];
  }
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = float(a + b * c);
}

// Two scalars read on either side of a loop stay two loads.
__global__ void scalars_around_loop(const int *in, float *out, int n) {
  __shared__ float scale;
  __shared__ float shift;
  if (threadIdx.x == 0) {
    scale = float(in[0]);
    shift = float(in[1]);
  }
  __syncthreads();
  float v = scale;
  for (int i = threadIdx.x; i < n; i += 7)
    v += float(in[i & 1023]);
  out[blockIdx.x * blockDim.x + threadIdx.x] = v * shift;
}

int main() {
  const int blocks = 8;
  int *in = deviceBuffer<int>(1024, 1);
  float *x = deviceBuffer<float>(1024, 2), *out;
  CHECK(cudaMalloc(&out, blocks * 256 * sizeof(float)));
  two_scalars<<<blocks, 256>>>(in, x, out);
  CHECK_LAUNCH();
  four_scalars<<<blocks, 256>>>(in, out);
  CHECK_LAUNCH();
  three_scalars<<<blocks, 256>>>(in, out);
  CHECK_LAUNCH();
  scalars_around_loop<<<blocks, 256>>>(in, out, 300);
  CHECK_LAUNCH();
  printf("sum %.1f\n", deviceSum(out, blocks * 256));
  return 0;
}
