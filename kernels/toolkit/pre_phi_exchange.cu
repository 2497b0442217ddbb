// Four registers loaded under per-item guards and stored to consecutive
// shared words, as CUB's BlockLoad + BlockExchange do (HeCBench
// blockexchange): nvcc's PTX has one st.shared.v4.u32 per thread;
// GVN's partial redundancy elimination must not hide that the fourth
// word's index is the first's plus 3 (analyzer/pipeline/IrPipelinePhis.h).
#include "common.h"

__global__ void guarded_then_exchange(const int *d, int *o, int valid) {
  __shared__ __align__(16) int buf[1024];
  int tid = threadIdx.x;
  int v[4] = {0, 0, 0, 0};
#pragma unroll
  for (int j = 0; j < 4; j++)
    if (tid * 4 + j < valid)
      v[j] = d[tid * 4 + j];
#pragma unroll
  for (int j = 0; j < 4; j++)
    buf[tid * 4 + j] = v[j];
  __syncthreads();
#pragma unroll
  for (int j = 0; j < 4; j++)
    o[blockIdx.x * 1024 + j * 256 + tid] = buf[j * 256 + tid];
}

int main() {
  int *d = deviceBuffer<int>(1024, 5), *o;
  CHECK(cudaMalloc(&o, 16 * 1024 * sizeof(int)));
  guarded_then_exchange<<<16, 256>>>(d, o, 1000);
  CHECK_LAUNCH();
  printf("guarded_then_exchange %.0f\n", deviceSum(o, 16 * 1024));
  return 0;
}
