// Probe, second part (docs/conformance.md): the answers kcheck's excluded
// runtime functions would have to give. Prints "key<TAB>value" lines:
// cudaOccupancyAvailableDynamicSMemPerBlock over blocks, block sizes and
// static shared bytes; host and peer atomic capabilities; managed-range
// attributes' defaults; kernel parameter offsets; the driver's error log
// after a failed call. Build: nvcc -arch=sm_90 -o rf2 runtime-facts-2.cu
#include <cuda_runtime.h>
#include <cstdio>
#include <cstring>

__global__ void noShared(float *p) { if (p) p[threadIdx.x] = 1; }
__global__ void shared256(float *p) { __shared__ float s[64]; s[threadIdx.x % 64] = 1; __syncthreads(); if (p) p[threadIdx.x] = s[0]; }
__global__ void shared16k(float *p) { __shared__ float s[4096]; s[threadIdx.x] = 1; __syncthreads(); if (p) p[threadIdx.x] = s[1]; }
struct Big { double d; char c; int v[5]; };
__global__ void params(char a, double b, int *c, Big d, short e, float4 f) { if (c) *c = a + int(b) + d.v[0] + e + int(f.x); }

static void available(const char *name, const void *f) {
  for (int blocks : {1, 2, 3, 4, 8, 16, 32})
    for (int threads : {32, 128, 256, 1024}) {
      size_t v = 0;
      cudaError_t e = cudaOccupancyAvailableDynamicSMemPerBlock(&v, f, blocks, threads);
      std::printf("avail.%s.%d.%d\t%s\t%zu\n", name, blocks, threads, cudaGetErrorName(e), v);
      cudaGetLastError();
    }
}

int main() {
  available("noShared", (const void *)noShared);
  available("shared256", (const void *)shared256);
  available("shared16k", (const void *)shared16k);
  cudaFuncSetAttribute(shared256, cudaFuncAttributePreferredSharedMemoryCarveout, 100);
  available("shared256.carveout100", (const void *)shared256);
  cudaFuncSetAttribute(shared256, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024);
  available("shared256.carveout100.optin200k", (const void *)shared256);
  cudaFuncAttributes fa; cudaFuncGetAttributes(&fa, shared256);
  std::printf("func.shared256.maxDynamicSharedSizeBytes\t%d\nfunc.shared256.preferredShmemCarveout\t%d\n", fa.maxDynamicSharedSizeBytes, fa.preferredShmemCarveout);
  cudaAtomicOperation ops[13];
  for (int i = 0; i < 13; ++i) ops[i] = cudaAtomicOperation(i);
  unsigned caps[13];
  std::memset(caps, 0xff, sizeof caps);
  cudaError_t e = cudaDeviceGetHostAtomicCapabilities(caps, ops, 13, 0);
  std::printf("hostAtomic\t%s", cudaGetErrorName(e)); for (unsigned c : caps) std::printf(" %u", c); std::printf("\n");
  std::memset(caps, 0xff, sizeof caps);
  e = cudaDeviceGetP2PAtomicCapabilities(caps, ops, 13, 0, 0);
  std::printf("p2pAtomic.00\t%s\n", cudaGetErrorName(e)); cudaGetLastError();
  void *managed = nullptr; cudaMallocManaged(&managed, 1 << 20);
  for (int a = 1; a <= 8; ++a) {
    int value[4] = {-7, -7, -7, -7};
    e = cudaMemRangeGetAttribute(value, sizeof value, cudaMemRangeAttribute(a), managed, 1 << 20);
    std::printf("range.%d\t%s\t%d %d %d %d\n", a, cudaGetErrorName(e), value[0], value[1], value[2], value[3]); cudaGetLastError();
  }
  cudaMemAdvise(managed, 4096, cudaMemAdviseSetReadMostly, cudaMemLocation{cudaMemLocationTypeDevice, 0});
  int rm = -7; e = cudaMemRangeGetAttribute(&rm, sizeof rm, cudaMemRangeAttributeReadMostly, managed, 4096);
  std::printf("range.readMostlyAfterAdvise\t%s\t%d\n", cudaGetErrorName(e), rm);
  for (size_t i = 0; i < 7; ++i) {
    size_t offset = 99, size = 99;
    e = cudaFuncGetParamInfo((const void *)params, i, &offset, &size);
    std::printf("param.%zu\t%s\t%zu %zu\n", i, cudaGetErrorName(e), offset, size); cudaGetLastError();
  }
  cudaLogIterator it = 0; e = cudaLogsCurrent(&it, 0); std::printf("logsCurrent\t%s\n", cudaGetErrorName(e));
  void *bad = nullptr; cudaMalloc(&bad, size_t(1) << 50); cudaGetLastError();
  char buffer[4096] = {0}; size_t size = sizeof buffer;
  e = cudaLogsDumpToMemory(&it, buffer, &size, 0);
  std::printf("logsDump\t%s\t%zu\t", cudaGetErrorName(e), size);
  for (size_t i = 0; i < size && i < sizeof buffer; ++i) std::putchar(buffer[i] == '\n' ? '|' : buffer[i]);
  std::printf("\n");
  return 0;
}
