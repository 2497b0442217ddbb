// nvcc: -rdc=true -lcudadevrt
// What each call of the CUDA device runtime (CDP2) costs in the memory
// counters of the launch that makes it: the instructions libcudadevrt runs
// for it. One kernel per call, one thread, the call's status stored once
// (one STG of one sector of its own); a kernel that stores only that is the
// baseline. Measured with ncu on the H200 (counters per kernel).
//   nvcc -O3 -arch=sm_90 -rdc=true -lcudadevrt device_runtime_costs.cu
#include <cuda_runtime.h>

#include <cstdio>

__global__ void empty() {}
__global__ void takesInt(int) {}

#define PROBE(name, ...)                                                       \
  __global__ void name(int *out) {                                             \
    int s = 0;                                                                 \
    __VA_ARGS__;                                                               \
    out[0] = s;                                                                \
  }
PROBE(baseline, s = 1)
PROBE(getLastError, s = cudaGetLastError())
PROBE(peekAtLastError, s = cudaPeekAtLastError())
PROBE(getDevice, int d; s = cudaGetDevice(&d) + d)
PROBE(getDeviceCount, int d; s = cudaGetDeviceCount(&d) + d)
PROBE(deviceGetAttribute, int v;
      s = cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 0) + v)
PROBE(deviceGetLimit, size_t v;
      s = cudaDeviceGetLimit(&v, cudaLimitStackSize) + int(v))
PROBE(deviceGetCacheConfig, cudaFuncCache c;
      s = cudaDeviceGetCacheConfig(&c) + c)
PROBE(runtimeGetVersion, int v; s = cudaRuntimeGetVersion(&v) + v)
PROBE(streamCreateDestroy, cudaStream_t t;
      s = cudaStreamCreateWithFlags(&t, cudaStreamNonBlocking);
      s += cudaStreamDestroy(t))
PROBE(eventCreateDestroy, cudaEvent_t e;
      s = cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
      s += cudaEventDestroy(e))
PROBE(eventRecord, cudaEvent_t e;
      s = cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
      s += cudaEventRecord(e, 0); s += cudaEventDestroy(e))
PROBE(streamWaitEvent, cudaEvent_t e; cudaStream_t t;
      s = cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
      s += cudaStreamCreateWithFlags(&t, cudaStreamNonBlocking);
      s += cudaStreamWaitEvent(t, e, 0); s += cudaEventDestroy(e);
      s += cudaStreamDestroy(t))
PROBE(mallocFree, void *p; s = cudaMalloc(&p, 64); s += cudaFree(p))
PROBE(parameterBuffer, s = cudaGetParameterBuffer(64, 16) != nullptr)
PROBE(launchEmpty, empty<<<1, 1>>>(); s = cudaGetLastError())
PROBE(launchNoCheck, empty<<<1, 1>>>())
PROBE(launchInt, takesInt<<<1, 1>>>(7))
PROBE(launchTail, empty<<<1, 1, 0, cudaStreamTailLaunch>>>())
PROBE(launchRefused, empty<<<1, 2048>>>(); s = cudaGetLastError())
PROBE(memcpy16,
      s = cudaMemcpyAsync(out + 64, out + 128, 16, cudaMemcpyDeviceToDevice, 0))
PROBE(memcpy256, s = cudaMemcpyAsync(out + 256, out + 512, 256,
                                     cudaMemcpyDeviceToDevice, 0))
PROBE(memcpy4096, s = cudaMemcpyAsync(out + 2048, out + 4096, 4096,
                                      cudaMemcpyDeviceToDevice, 0))
PROBE(memset16, s = cudaMemsetAsync(out + 64, 1, 16, 0))
PROBE(memset256, s = cudaMemsetAsync(out + 256, 1, 256, 0))
PROBE(memset4096, s = cudaMemsetAsync(out + 2048, 1, 4096, 0))

// 32 lanes of a warp launching at once, and calling cudaGetLastError.
__global__ void warpLaunches(int *out) {
  empty<<<1, 1>>>();
  out[threadIdx.x] = cudaGetLastError();
}
__global__ void warpGetLastError(int *out) {
  out[threadIdx.x] = cudaGetLastError();
}

int main() {
  int *out;
  cudaMalloc(&out, 1 << 16);
  cudaMemset(out, 0, 1 << 16);
  void (*probes[])(int *) = {baseline,           getLastError,
                             peekAtLastError,    getDevice,
                             getDeviceCount,     deviceGetAttribute,
                             deviceGetLimit,     deviceGetCacheConfig,
                             runtimeGetVersion,  streamCreateDestroy,
                             eventCreateDestroy, eventRecord,
                             streamWaitEvent,    mallocFree,
                             parameterBuffer,    launchEmpty,
                             launchNoCheck,      launchInt,
                             launchTail,         launchRefused,
                             memcpy16,           memcpy256,
                             memcpy4096,         memset16,
                             memset256,          memset4096};
  for (auto probe : probes) {
    probe<<<1, 1>>>(out);
    cudaDeviceSynchronize();
  }
  warpLaunches<<<1, 32>>>(out);
  warpGetLastError<<<1, 32>>>(out);
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("device_runtime_costs: %s\n", cudaGetErrorName(e));
  return e != cudaSuccess;
}
