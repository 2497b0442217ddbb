// Clang's cp.async and mbarrier builtins (__nvvm_cp_async_*,
// __nvvm_mbarrier_*; what code written for Clang calls instead of
// cuda_pipeline.h's inline PTX), written from the PTX ISA's cp.async and
// mbarrier sections: each copy size (4, 8, 16 bytes; .ca and .cg), the
// src-size forms (bytes past it read as zero), commit and wait, and an
// mbarrier a block's threads arrive on and wait for. Self-checking; built
// with Clang (nvcc has no __nvvm_* builtins):
//   clang++ -x cuda --cuda-gpu-arch=sm_90 -O3 async_copy_builtins.cu
//     -L$CUDA/lib64 -lcudart_static -ldl -lrt -lpthread
#include "conformance_checks.h"

#include <cstring>

#define SHARED(p) ((__attribute__((address_space(3))) void *)(p))
#define GLOBAL(p) ((__attribute__((address_space(1))) const void *)(p))

constexpr int kThreads = 64;

__global__ void copies(const int4 *in, int *out) {
  __shared__ int4 s16[kThreads], c16[kThreads], z16[kThreads];
  __shared__ int2 s8[kThreads];
  __shared__ int s4[kThreads];
  __shared__ long bar;
  const int t = threadIdx.x;
  if (t == 0)
    __nvvm_mbarrier_init(&bar, kThreads);
  __syncthreads();
  __nvvm_cp_async_ca_shared_global_16(SHARED(&s16[t]), GLOBAL(&in[t]));
  __nvvm_cp_async_cg_shared_global_16(SHARED(&c16[t]), GLOBAL(&in[t ^ 1]));
  __nvvm_cp_async_ca_shared_global_8(SHARED(&s8[t]),
                                     GLOBAL((const int2 *)in + 2 * t + 1));
  __nvvm_cp_async_ca_shared_global_4(SHARED(&s4[t]),
                                     GLOBAL((const int *)in + 4 * t + 2));
  // With src-size (t % 17 bytes of 16; the .s intrinsic): the rest of the
  // destination is zero.
  __nvvm_cp_async_ca_shared_global_16(SHARED(&z16[t]), GLOBAL(&in[t]), t % 17);
  __nvvm_cp_async_commit_group();
  __nvvm_cp_async_wait_group(0);
  __nvvm_cp_async_wait_all();
  long state = __nvvm_mbarrier_arrive(&bar);
  while (!__nvvm_mbarrier_test_wait(&bar, state)) {
  }
  __syncthreads();
  const int u = kThreads - 1 - t; // another thread's copies
  int *o = out + 16 * t;
  o[0] = s16[u].x, o[1] = s16[u].y, o[2] = s16[u].z, o[3] = s16[u].w;
  o[4] = c16[u].x, o[5] = c16[u].w;
  o[6] = s8[u].x, o[7] = s8[u].y;
  o[8] = s4[u];
  o[9] = z16[u].x, o[10] = z16[u].y, o[11] = z16[u].z, o[12] = z16[u].w;
  o[13] = __nvvm_mbarrier_pending_count(state) >= 0;
  __syncthreads();
  if (t == 0)
    __nvvm_mbarrier_inval(&bar);
}

int main() {
  static int4 h[kThreads];
  for (int i = 0; i < kThreads; ++i)
    h[i] = make_int4(0x01010101 * (i + 1), 0x02020202 * (i + 1),
                     0x03030303 * (i + 1), 0x04040404 * (i + 1));
  int4 *in;
  int *out;
  OK(cudaMalloc(&in, sizeof h));
  OK(cudaMalloc(&out, 16 * kThreads * sizeof(int)));
  OK(cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice));
  copies<<<1, kThreads>>>(in, out);
  OK(cudaDeviceSynchronize());
  static int r[16 * kThreads];
  OK(cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost));
  const int *words = reinterpret_cast<const int *>(h);
  for (int t = 0; t < kThreads; ++t) {
    const int u = kThreads - 1 - t;
    const int *o = r + 16 * t;
    CHECK(o[0] == h[u].x && o[1] == h[u].y && o[2] == h[u].z && o[3] == h[u].w,
          "cp.async.ca 16 bytes");
    CHECK(o[4] == h[u ^ 1].x && o[5] == h[u ^ 1].w, "cp.async.cg 16 bytes");
    CHECK(o[6] == words[4 * u + 2] && o[7] == words[4 * u + 3],
          "cp.async.ca 8 bytes");
    CHECK(o[8] == words[4 * u + 2], "cp.async.ca 4 bytes");
    unsigned char expect[16] = {};
    for (int b = 0; b < u % 17 && b < 16; ++b)
      expect[b] = reinterpret_cast<const unsigned char *>(&h[u])[b];
    CHECK(!std::memcmp(o + 9, expect, 16),
          "cp.async src-size: bytes past it are zero");
    CHECK(o[13] == 1, "mbarrier pending count");
  }
  std::printf("async_copy_builtins: %d checks, %d failures\n", checks,
              failures);
  return failures != 0;
}
