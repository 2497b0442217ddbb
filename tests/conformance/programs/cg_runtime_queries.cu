// nvcc: -rdc=true -lcudadevrt
// Conformance program for the device runtime's cooperative-groups queries
// (cuda_device_runtime_api.h: cudaCGGetIntrinsicHandle, cudaCGGetSize,
// cudaCGGetRank; no CUDA 13 header calls them), as
// docs/validation/probes/cg_runtime_calls.cu without the synchronizations
// (which kcheck does not execute yet): in a plain and in a cooperative
// launch of 4 blocks of 64 threads, each thread's handle, sizes, ranks and
// statuses, printed as probes; the reference fixes none of it.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void cg(int scope, unsigned long long *handles, unsigned *out,
                   int *status) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long h = cudaCGGetIntrinsicHandle(cudaCGScope(scope));
  handles[t] = h;
  unsigned threads = 0, grids = 0, rank = 0, gridRank = 0;
  status[4 * t] = cudaCGGetSize(&threads, &grids, h);
  status[4 * t + 1] = cudaCGGetRank(&rank, &gridRank, h);
  out[4 * t] = threads, out[4 * t + 1] = grids, out[4 * t + 2] = rank;
  out[4 * t + 3] = gridRank;
}

int main() {
  const int n = 256;
  unsigned long long *handles;
  unsigned *out;
  int *status;
  cudaMalloc(&handles, n * sizeof *handles);
  cudaMalloc(&out, 4 * n * sizeof *out);
  cudaMalloc(&status, 4 * n * sizeof *status);
  static unsigned long long h[n];
  static unsigned o[4 * n];
  static int s[4 * n];
  for (int cooperative = 0; cooperative < 2; ++cooperative)
    for (int scope = 0; scope < 3; ++scope) {
      cudaMemset(handles, 0xff, n * sizeof *handles);
      cudaMemset(out, 0xff, 4 * n * sizeof *out);
      cudaMemset(status, 0xff, 4 * n * sizeof *status);
      void *args[] = {&scope, &handles, &out, &status};
      cudaError_t e =
          cooperative
              ? cudaLaunchCooperativeKernel((void *)cg, 4, 64, args, 0, 0)
              : cudaLaunchKernel((void *)cg, 4, 64, args, 0, 0);
      cudaError_t sy = cudaDeviceSynchronize();
      cudaMemcpy(h, handles, sizeof h, cudaMemcpyDeviceToHost);
      cudaMemcpy(o, out, sizeof o, cudaMemcpyDeviceToHost);
      cudaMemcpy(s, status, sizeof s, cudaMemcpyDeviceToHost);
      for (int t : {0, 1, 64, 255})
        std::printf("probe coop%d_scope%d_t%d launch %d sync %d "
                    "handle %llx size %u %u rank %u %u status %d %d %d %d\n",
                    cooperative, scope, t, int(e), int(sy), h[t], o[4 * t],
                    o[4 * t + 1], o[4 * t + 2], o[4 * t + 3], s[4 * t],
                    s[4 * t + 1], s[4 * t + 2], s[4 * t + 3]);
      cudaGetLastError();
    }
  std::printf("cg_runtime_queries: %s\n",
              cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
