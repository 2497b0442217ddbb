// Two phases of one cooperative launch separated by cooperative groups'
// grid.sync(): every block writes its part, then block 0 reads one element
// of every block's part. Without the grid-wide barrier block 0 would read
// parts not yet written.
#include <cooperative_groups.h>
#include <cstdio>

namespace cg = cooperative_groups;

__global__ void twoPhases(const float *in, float *part, float *out) {
  cg::grid_group grid = cg::this_grid();
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  part[i] = 2.f * in[i];
  grid.sync();
  if (blockIdx.x == 0 && threadIdx.x < gridDim.x)
    out[threadIdx.x] = part[threadIdx.x * blockDim.x + 1];
}

int main() {
  const int blocks = 4, threads = 64, n = blocks * threads;
  float h[n];
  for (int i = 0; i < n; ++i)
    h[i] = float(i);
  float *in, *part, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&part, n * sizeof(float));
  cudaMalloc(&out, blocks * sizeof(float));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  void *args[] = {&in, &part, &out};
  cudaLaunchCooperativeKernel((void *)twoPhases, dim3(blocks), dim3(threads),
                              args, 0, 0);
  float r[blocks];
  cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
  bool ok = true;
  for (int b = 0; b < blocks; ++b)
    ok &= r[b] == 2.f * float(b * threads + 1);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
