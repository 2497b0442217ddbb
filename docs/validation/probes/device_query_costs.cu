// nvcc: -rdc=true -lcudadevrt
// What the device runtime's queries cost in the memory counters of the
// launch that makes them (as device_runtime_costs.cu does for the other
// calls): one kernel per call, one thread, the call's status stored once.
// Then what byte cudaMemset2DAsync and cudaMemset3DAsync made by a kernel
// write, for several values (device_runtime_queries.cu saw 0 for each).
//   nvcc -O3 -arch=sm_90 -rdc=true -lcudadevrt device_query_costs.cu
#include <cuda_runtime.h>

#include <cstdio>

__global__ void __launch_bounds__(256) bounded(float *p) {
  __shared__ float tile[250];
  tile[threadIdx.x % 250] = p[threadIdx.x];
  __syncthreads();
  p[threadIdx.x] = tile[(threadIdx.x + 1) % 250];
}

#define PROBE(name, ...)                                                       \
  __global__ void name(int *out) {                                             \
    int s = 0;                                                                 \
    __VA_ARGS__;                                                               \
    out[0] = s;                                                                \
  }
PROBE(baseline, s = 1)
PROBE(errorName, s = cudaGetErrorName(cudaErrorInvalidValue) != nullptr)
PROBE(errorString, s = cudaGetErrorString(cudaErrorInvalidValue) != nullptr)
PROBE(errorNameUnknown, s = cudaGetErrorName(cudaError_t(12345)) != nullptr)
PROBE(funcGetAttributes, cudaFuncAttributes a;
      s = cudaFuncGetAttributes(&a, (const void *)bounded) + a.numRegs)
PROBE(occupancy, int n; s = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                                &n, (const void *)bounded, 128, 0) +
                            n)
PROBE(occupancyShared, int n; s = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                                      &n, (const void *)bounded, 256, 40000) +
                                  n)
PROBE(occupancyFlags, int n;
      s = cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
              &n, (const void *)bounded, 512, 0, 1) +
          n)
PROBE(occupancyBadFlags, int n;
      s = cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
              &n, (const void *)bounded, 64, 0, 7) +
          n)
PROBE(occupancyZero, int n; s = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                                    &n, (const void *)bounded, 0, 0) +
                                n)

__global__ void set1D(char *p, int value) { cudaMemsetAsync(p, value, 64, 0); }
__global__ void set2D(char *p, int value) {
  cudaMemset2DAsync(p, 256, value, 64, 2, 0);
}
__global__ void set3D(char *p, int value) {
  cudaPitchedPtr pp = {p, 256, 64, 2};
  cudaExtent e = {64, 2, 2};
  cudaMemset3DAsync(pp, value, e, 0);
}

int main() {
  int *out;
  cudaMalloc(&out, 1 << 16);
  cudaMemset(out, 0, 1 << 16);
  void (*probes[])(int *) = {
      baseline,          errorName,    errorString,     errorNameUnknown,
      funcGetAttributes, occupancy,    occupancyShared, occupancyFlags,
      occupancyBadFlags, occupancyZero};
  for (auto probe : probes) {
    probe<<<1, 1>>>(out);
    cudaDeviceSynchronize();
  }
  char *p;
  cudaMalloc(&p, 4096);
  void (*sets[])(char *, int) = {set1D, set2D, set3D};
  const char *names[] = {"set1D", "set2D", "set3D"};
  for (int k = 0; k < 3; ++k)
    for (int value : {0x5a, 0xff, 1, 0x1234}) {
      cudaMemset(p, 0x11, 4096);
      sets[k]<<<1, 1>>>(p, value);
      cudaDeviceSynchronize();
      unsigned char back[2];
      cudaMemcpy(back, p, 1, cudaMemcpyDeviceToHost);
      cudaMemcpy(back + 1, p + 256, 1, cudaMemcpyDeviceToHost);
      std::printf("probe %s_%x %d %d\n", names[k], value, back[0], back[1]);
    }
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("device_query_costs: %s\n", cudaGetErrorName(e));
  return e != cudaSuccess;
}
