// Conformance program for the device heap: malloc, free, new and delete in
// kernels, written from the CUDA C++ Programming Guide's "Dynamic Global
// Memory Allocation and Operations": blocks are 16-byte aligned, live until
// freed (across launches), are freed by any thread of any later kernel, and
// malloc returns NULL when cudaLimitMallocHeapSize has no room; the limit can
// be set only before a kernel that allocates has run. The program checks it
// on whatever runs it: the GPU (nvcc) or kcheck's simulated device (kcheck
// run). It prints one line per failed check and a summary.
#include "conformance_checks.h"

#include <cstdint>
#include <cstdio>

constexpr int kBlocks = 64, kThreads = 128, kInts = 16;

// Each thread allocates kInts ints (a different count of bytes per thread
// for every fourth, to mix sizes) and fills them with its own pattern.
__global__ void allocate(int **blocks, unsigned *misaligned) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  size_t ints = kInts + (t % 4 == 3 ? 5 : 0);
  int *p = static_cast<int *>(malloc(ints * sizeof(int)));
  blocks[t] = p;
  if (!p)
    return;
  if (reinterpret_cast<uintptr_t>(p) % 16 != 0)
    atomicAdd(misaligned, 1u);
  for (size_t i = 0; i < ints; ++i)
    p[i] = t * 1000 + int(i);
}

// A later kernel reads every block (none overlaps another: each still holds
// its thread's pattern) and frees it, threads of other blocks than the one
// that allocated it.
__global__ void check(int **blocks, unsigned *bad, unsigned *nulls) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int owner = (t + kThreads) % (kBlocks * kThreads); // another block's
  int *p = blocks[owner];
  if (!p) {
    atomicAdd(nulls, 1u);
    return;
  }
  size_t ints = kInts + (owner % 4 == 3 ? 5 : 0);
  for (size_t i = 0; i < ints; ++i)
    if (p[i] != owner * 1000 + int(i))
      atomicAdd(bad, 1u);
  free(p);
}

struct Counter {
  int value;
  int twice;
  __device__ Counter() : value(7), twice(14) {}
  __device__ ~Counter() {}
};

// new and delete: a constructed object, an array, and free(NULL).
__global__ void objects(int *out) {
  int t = threadIdx.x;
  Counter *c = new Counter;
  int *a = new int[8];
  for (int i = 0; i < 8; ++i)
    a[i] = t + i;
  int sum = 0;
  for (int i = 0; i < 8; ++i)
    sum += a[i];
  out[t] = c ? c->value + c->twice + sum : -1;
  delete c;
  delete[] a;
  free(nullptr);
}

// One thread asks for more than the heap holds, another for a little.
__global__ void tooMuch(unsigned long long *got, size_t big, size_t small) {
  void *p = malloc(threadIdx.x == 0 ? big : small);
  got[threadIdx.x] = reinterpret_cast<unsigned long long>(p);
  free(p);
}

int main() {
  // The heap's size, set before any kernel allocates.
  size_t limit = 0;
  OK(cudaDeviceGetLimit(&limit, cudaLimitMallocHeapSize));
  CHECK(limit == 8u << 20, "the default heap is 8 MB");
  OK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 4u << 20));
  OK(cudaDeviceGetLimit(&limit, cudaLimitMallocHeapSize));
  CHECK(limit == 4u << 20, "the heap size set");

  int **blocks = nullptr;
  unsigned *counts = nullptr;
  OK(cudaMalloc(&blocks, kBlocks * kThreads * sizeof(int *)));
  OK(cudaMalloc(&counts, 3 * sizeof(unsigned)));
  OK(cudaMemset(counts, 0, 3 * sizeof(unsigned)));
  allocate<<<kBlocks, kThreads>>>(blocks, counts);
  OK(cudaGetLastError());
  OK(cudaDeviceSynchronize());
  check<<<kBlocks, kThreads>>>(blocks, counts + 1, counts + 2);
  OK(cudaDeviceSynchronize());
  unsigned h[3];
  OK(cudaMemcpy(h, counts, sizeof h, cudaMemcpyDeviceToHost));
  CHECK(h[0] == 0, "every block 16-byte aligned");
  CHECK(h[1] == 0, "no block overlaps another, across launches");
  CHECK(h[2] == 0, "every allocation succeeded");

  int *out = nullptr;
  OK(cudaMalloc(&out, 32 * sizeof(int)));
  objects<<<1, 32>>>(out);
  OK(cudaDeviceSynchronize());
  int o[32];
  OK(cudaMemcpy(o, out, sizeof o, cudaMemcpyDeviceToHost));
  bool constructed = true;
  for (int t = 0; t < 32; ++t)
    constructed = constructed && o[t] == 21 + 8 * t + 28;
  CHECK(constructed, "new runs the constructor; new[] gives room for 8");

  unsigned long long *got = nullptr;
  OK(cudaMalloc(&got, 2 * sizeof(unsigned long long)));
  tooMuch<<<1, 2>>>(got, size_t(16) << 20, 64);
  OK(cudaDeviceSynchronize());
  unsigned long long g[2];
  OK(cudaMemcpy(g, got, sizeof g, cudaMemcpyDeviceToHost));
  CHECK(g[0] == 0, "malloc past the heap returns NULL");
  CHECK(g[1] != 0, "a small malloc beside it succeeds");

  // After a kernel allocated, the heap's size is fixed.
  IS(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 16u << 20),
     cudaErrorInvalidValue);
  cudaGetLastError();
  OK(cudaDeviceGetLimit(&limit, cudaLimitMallocHeapSize));
  CHECK(limit == 4u << 20, "the heap size stays");

  OK(cudaFree(blocks));
  OK(cudaFree(counts));
  OK(cudaFree(out));
  OK(cudaFree(got));
  std::printf("device_heap: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
