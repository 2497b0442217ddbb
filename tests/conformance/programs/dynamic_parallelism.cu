// Conformance program for dynamic parallelism (CDP2, sm_90), written from the
// CUDA C++ Programming Guide's "CUDA Dynamic Parallelism": a kernel launches
// kernels; a child grid sees what its parent wrote before the launch; the
// parent grid is complete only when its children are; launches of one block
// into the same stream (the implicit NULL stream included) run in order;
// cudaStreamTailLaunch runs after the launching grid and its other work;
// parameters pass by value as in a host launch; device-side errors come back
// from cudaGetLastError in the launching thread. The program checks it on
// whatever runs it (the GPU, or kcheck run) and prints a line per failed
// check, probe lines for values the two are compared on, and a summary.
// nvcc: -rdc=true -lcudadevrt
#include "conformance_checks.h"

#include <cstdint>

constexpr int kParents = 8, kChildBlocks = 2, kChildThreads = 32;

// 1. One child per parent block, its position from the launch's arguments.
__global__ void fillChild(int *out, int base) {
  int i = base + blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = i;
}
__global__ void fillParent(int *out) {
  if (threadIdx.x == 0)
    fillChild<<<kChildBlocks, kChildThreads>>>(out, blockIdx.x * kChildBlocks *
                                                        kChildThreads);
}

// 2. Parameters of every size and alignment, a struct by value among them.
struct Mixed {
  int a;
  float b;
  char c[3];
};
__global__ void paramsChild(char c, double d, short s, Mixed m, const int *p,
                            long long ll, unsigned char u, int *out) {
  out[0] = c;
  out[1] = int(d * 4);
  out[2] = s;
  out[3] = m.a;
  out[4] = int(m.b * 2);
  out[5] = m.c[0] + m.c[1] + m.c[2];
  out[6] = p[threadIdx.x];
  out[7] = int(ll >> 33);
  out[8] = u;
}
__global__ void paramsParent(const int *p, int *out) {
  Mixed m = {-7, 2.5f, {1, 2, 3}};
  paramsChild<<<1, 1>>>('x', 10.25, short(-300), m, p, 5LL << 33, 200, out);
}

// 3. Nested launches: each level launches the next, to depth kDepth.
constexpr int kDepth = 5;
__global__ void nest(int *levels, int depth) {
  atomicAdd(&levels[depth], 1);
  if (depth + 1 < kDepth && threadIdx.x == 0)
    nest<<<2, 4>>>(levels, depth + 1);
}

// 4. Two launches of one block into its NULL stream run in order: the second
// reads what the first wrote.
__global__ void writeValue(int *cell, int v) { *cell = v; }
__global__ void readAfter(const int *cell, int *seen) { *seen = *cell + 1; }
__global__ void orderedParent(int *cells, int *seen) {
  if (threadIdx.x == 0) {
    writeValue<<<1, 1>>>(&cells[blockIdx.x], 40 + int(blockIdx.x));
    readAfter<<<1, 1>>>(&cells[blockIdx.x], &seen[blockIdx.x]);
  }
}

// 5. A tail launch runs after every block of the grid that launched it: it
// sums what all blocks wrote, though block 0 launched it first.
__global__ void sumTail(const int *parts, int n, int *sum) {
  int s = 0;
  for (int i = 0; i < n; ++i)
    s += parts[i];
  *sum = s;
}
__global__ void tailParent(int *parts, int *sum) {
  if (blockIdx.x == 0 && threadIdx.x == 0)
    sumTail<<<1, 1, 0, cudaStreamTailLaunch>>>(parts, gridDim.x, sum);
  __syncthreads();
  if (threadIdx.x == 0)
    parts[blockIdx.x] = int(blockIdx.x) + 1;
}

// 6. Fire-and-forget and a stream the parent creates; dynamic shared memory
// from the launch configuration.
__global__ void sharedChild(int *out, int n) {
  extern __shared__ int tile[];
  tile[threadIdx.x] = int(threadIdx.x) * 3;
  __syncthreads();
  out[threadIdx.x] = tile[(threadIdx.x + 1) % n];
}
__global__ void streamsParent(int *a, int *b, int *status) {
  if (threadIdx.x != 0)
    return;
  sharedChild<<<1, 64, 64 * sizeof(int), cudaStreamFireAndForget>>>(a, 64);
  cudaStream_t s;
  status[0] = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  sharedChild<<<1, 32, 32 * sizeof(int), s>>>(b, 32);
  status[1] = cudaGetLastError();
  status[2] = cudaStreamDestroy(s);
}

// 7. Launches every thread makes, each child told its parent thread.
__global__ void markChild(int *marks, int who) { atomicAdd(&marks[who], 1); }
__global__ void everyThreadParent(int *marks) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  markChild<<<1, 2>>>(marks, t);
}

// 8. Errors and queries on the device. A block of 2048 threads is refused
// at launch; cudaGetLastError reports it once, then cudaSuccess.
__global__ void neverRuns(int *out) { out[0] = 1; }
__global__ void queriesParent(int *out, int *values) {
  neverRuns<<<1, 2048>>>(out);
  values[0] = cudaPeekAtLastError();
  values[1] = cudaGetLastError();
  values[2] = cudaGetLastError();
  int v = -1;
  values[3] = cudaGetDevice(&v);
  values[4] = v;
  values[5] = cudaGetDeviceCount(&v);
  values[6] = v;
  values[7] = cudaDeviceGetAttribute(&v, cudaDevAttrMaxThreadsPerBlock, 0);
  values[8] = v;
  values[9] = cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 0);
  values[10] = v;
  values[11] = cudaRuntimeGetVersion(&v);
  values[12] = v > 0;
  neverRuns<<<0, 32>>>(out);
  values[13] = cudaGetLastError();
}

// 9. cudaMalloc, cudaMemsetAsync, cudaMemcpyAsync and cudaFree on the device
// (the free by a child after the copy: cudaFree itself is not stream-ordered).
__global__ void freeChild(int *p, int *status) { *status = cudaFree(p); }
__global__ void memoryParent(int *out, int *status) {
  int *p = nullptr;
  status[0] = cudaMalloc(reinterpret_cast<void **>(&p), 16 * sizeof(int));
  status[1] = p != nullptr && reinterpret_cast<uintptr_t>(p) % 16 == 0;
  for (int i = 0; i < 16; ++i)
    p[i] = i * i;
  status[2] =
      cudaMemcpyAsync(out, p, 16 * sizeof(int), cudaMemcpyDeviceToDevice, 0);
  status[3] = cudaMemsetAsync(out + 16, 0x01, 4 * sizeof(int), 0);
  freeChild<<<1, 1>>>(p, &status[4]);
}

// 10. Limits, configurations and events on the device: a child on a
// stream that waits for an event recorded after another child runs after it.
__global__ void eventsParent(int *cells, int *status) {
  size_t v = 0;
  status[0] = cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize);
  status[1] = int(v >> 20);
  status[2] = cudaDeviceGetLimit(&v, cudaLimitStackSize);
  status[3] = int(v);
  status[4] = cudaDeviceGetLimit(&v, cudaLimitDevRuntimePendingLaunchCount);
  status[5] = int(v);
  cudaFuncCache cache = cudaFuncCachePreferEqual;
  status[6] = cudaDeviceGetCacheConfig(&cache);
  status[7] = cache;
  cudaSharedMemConfig banks = cudaSharedMemBankSizeEightByte;
  status[8] = cudaDeviceGetSharedMemConfig(&banks);
  status[9] = banks;
  cudaStream_t s;
  cudaEvent_t e;
  status[10] = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  status[11] = cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
  writeValue<<<1, 1>>>(&cells[0], 7);
  status[12] = cudaEventRecord(e, 0);
  status[13] = cudaStreamWaitEvent(s, e, 0);
  readAfter<<<1, 1, 0, s>>>(&cells[0], &cells[1]);
  status[14] = cudaEventRecord(e, s);
  status[15] = cudaEventDestroy(e);
  status[16] = cudaStreamDestroy(s);
  status[17] = cudaStreamCreateWithFlags(&s, cudaStreamDefault);
}

int main() {
  int *out, *cells, *status;
  OK(cudaMalloc(&out, 4096 * sizeof(int)));
  OK(cudaMalloc(&cells, 1024 * sizeof(int)));
  OK(cudaMalloc(&status, 64 * sizeof(int)));
  int host[4096];

  // 1
  OK(cudaMemset(out, 0xff, 4096 * sizeof(int)));
  fillParent<<<kParents, 64>>>(out);
  OK(cudaDeviceSynchronize());
  OK(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
  int n = kParents * kChildBlocks * kChildThreads, wrong = 0;
  for (int i = 0; i < n; ++i)
    wrong += host[i] != i;
  CHECK(wrong == 0 && host[n] == -1, "every parent block's child filled");

  // 2
  int ints[32];
  for (int i = 0; i < 32; ++i)
    ints[i] = 1000 + i;
  OK(cudaMemcpy(cells, ints, sizeof ints, cudaMemcpyHostToDevice));
  paramsParent<<<1, 1>>>(cells, out);
  OK(cudaDeviceSynchronize());
  OK(cudaMemcpy(host, out, 9 * sizeof(int), cudaMemcpyDeviceToHost));
  const int expect[9] = {'x', 41, -300, -7, 5, 6, 1000, 5, 200};
  for (int i = 0; i < 9; ++i)
    CHECK(host[i] == expect[i], "a parameter passed by value");

  // 3
  OK(cudaMemset(cells, 0, kDepth * sizeof(int)));
  nest<<<2, 4>>>(cells, 0);
  OK(cudaDeviceSynchronize());
  OK(cudaMemcpy(host, cells, kDepth * sizeof(int), cudaMemcpyDeviceToHost));
  // Level d has 2^d grids of 2 blocks of 4 threads.
  for (int d = 0; d < kDepth; ++d)
    CHECK(host[d] == (1 << d) * 8, "every level of nested launches ran");

  // 4
  OK(cudaMemset(cells, 0, 64 * sizeof(int)));
  orderedParent<<<4, 32>>>(cells, cells + 32);
  OK(cudaDeviceSynchronize());
  OK(cudaMemcpy(host, cells, 64 * sizeof(int), cudaMemcpyDeviceToHost));
  for (int b = 0; b < 4; ++b)
    CHECK(host[32 + b] == 41 + b, "a block's launches ran in order");

  // 5
  OK(cudaMemset(cells, 0, 64 * sizeof(int)));
  tailParent<<<16, 64>>>(cells, cells + 32);
  OK(cudaDeviceSynchronize());
  OK(cudaMemcpy(host, cells, 64 * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(host[32] == 16 * 17 / 2, "a tail launch ran after its grid");

  // 6
  OK(cudaMemset(out, 0, 128 * sizeof(int)));
  OK(cudaMemset(status, 0xff, 64 * sizeof(int)));
  streamsParent<<<1, 32>>>(out, out + 64, status);
  OK(cudaDeviceSynchronize());
  OK(cudaMemcpy(host, out, 128 * sizeof(int), cudaMemcpyDeviceToHost));
  wrong = 0;
  for (int i = 0; i < 64; ++i)
    wrong += host[i] != (i + 1) % 64 * 3;
  for (int i = 0; i < 32; ++i)
    wrong += host[64 + i] != (i + 1) % 32 * 3;
  CHECK(wrong == 0, "children on the fire-and-forget and a created stream");
  OK(cudaMemcpy(host, status, 3 * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < 3; ++i)
    CHECK(host[i] == cudaSuccess, "stream calls on the device succeed");

  // 7
  OK(cudaMemset(cells, 0, 256 * sizeof(int)));
  everyThreadParent<<<4, 64>>>(cells);
  OK(cudaDeviceSynchronize());
  OK(cudaMemcpy(host, cells, 256 * sizeof(int), cudaMemcpyDeviceToHost));
  wrong = 0;
  for (int i = 0; i < 256; ++i)
    wrong += host[i] != 2;
  CHECK(wrong == 0, "every thread's launch ran");

  // 8
  OK(cudaMemset(out, 0, sizeof(int)));
  OK(cudaMemset(status, 0xff, 64 * sizeof(int)));
  queriesParent<<<1, 1>>>(out, status);
  OK(cudaDeviceSynchronize());
  OK(cudaMemcpy(host, status, 14 * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < 14; ++i)
    std::printf("probe device_query_%d %d\n", i, host[i]);
  CHECK(host[0] != cudaSuccess && host[1] == host[0] && host[2] == 0,
        "a refused device launch's error, read once");
  CHECK(host[4] == 0 && host[6] == 1 && host[8] == 1024 && host[10] == 32,
        "device queries");
  OK(cudaMemcpy(host, out, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(host[0] == 0, "a refused launch never runs");

  // 9
  OK(cudaMemset(out, 0, 32 * sizeof(int)));
  memoryParent<<<1, 1>>>(out, status);
  OK(cudaDeviceSynchronize());
  OK(cudaMemcpy(host, status, 5 * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(host[0] == 0 && host[1] == 1 && host[2] == 0 && host[3] == 0 &&
            host[4] == 0,
        "device cudaMalloc, memcpy, memset, free succeed");
  OK(cudaMemcpy(host, out, 32 * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < 20; ++i)
    std::printf("probe device_copy_%d %d\n", i, host[i]);
  // The memset's bytes are probes only: the H200 leaves them 0 although
  // the call returns cudaSuccess (dynamic_parallelism_known_differences).
  wrong = 0;
  for (int i = 0; i < 16; ++i)
    wrong += host[i] != i * i;
  CHECK(wrong == 0, "device memcpy wrote");

  // 10
  OK(cudaMemset(cells, 0, 2 * sizeof(int)));
  OK(cudaMemset(status, 0xff, 64 * sizeof(int)));
  eventsParent<<<1, 1>>>(cells, status);
  OK(cudaDeviceSynchronize());
  OK(cudaMemcpy(host, status, 18 * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < 18; ++i)
    std::printf("probe device_events_%d %d\n", i, host[i]);
  for (int i : {0, 2, 4, 6, 8, 10, 11, 12, 13, 14, 15, 16})
    CHECK(host[i] == cudaSuccess, "device limits, configurations, events");
  CHECK(host[1] == 8 && host[3] == 1024 && host[5] == 2048,
        "device limits' defaults");
  OK(cudaMemcpy(host, cells, 2 * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(host[1] == 8, "a stream waits for an event recorded on another");

  OK(cudaGetLastError());
  std::printf("dynamic_parallelism: %d checks, %d failures\n", checks,
              failures);
  return failures != 0;
}
