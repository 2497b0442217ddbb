// What nvcc's front end, optimizer and ptxas do that plain Clang/LLVM does
// not, each found on a real program (HeCBench topk) and reduced here:
//  - ext_vector_type is ignored by nvcc (a HIP "wide" type is 4 bytes, so
//    code that picks a path by its size takes the scalar one);
//  - ptxas drops shared reloads across an inline-assembly shuffle;
//  - NVVM keeps a conditional read-modify-write of a shared field inside
//    the loop, where LLVM 22's LICM hoists the load;
//  - ptxas reads three or four words of a 16-byte shared chunk with one
//    LDS.128, also across a branch.
#include "common.h"

using wide4 = __attribute__((__ext_vector_type__(4))) float;

__global__ void ext_vector_width(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (sizeof(wide4) == 16) {
    // What Clang's meaning of the attribute would run: one LDG.128 a thread.
    float4 v = reinterpret_cast<const float4 *>(in)[i];
    reinterpret_cast<float4 *>(out)[i] =
        make_float4(v.x * 2, v.y * 2, v.z * 2, v.w * 2);
  } else {
    for (int k = 0; k < 4; ++k)
      out[i * 4 + k] = in[i * 4 + k] * 2;
  }
}

__device__ int shuffleXor(int v, int mask) {
  int r;
  asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;"
               : "=r"(r)
               : "r"(v), "r"(mask));
  return r;
}

// A raking pass as CUB writes it: read a padded segment, combine across the
// warp with assembly shuffles, read the segment again.
__global__ void reload_after_asm_shuffle(int *out, const int *in) {
  __shared__ int segment[32 * 5];
  int t = threadIdx.x;
  for (int k = 0; k < 5; ++k)
    segment[t * 5 + k] = in[blockIdx.x * 160 + t * 5 + k];
  __syncthreads();
  int sum = 0;
  for (int k = 0; k < 4; ++k)
    sum += segment[t * 5 + k];
  for (int mask = 1; mask < 32; mask *= 2)
    sum += shuffleXor(sum, mask);
  int acc = 0;
  for (int k = 0; k < 4; ++k)
    acc += segment[t * 5 + k] * (k + 1);
  out[blockIdx.x * 32 + t] = sum + acc;
}

struct Counter {
  int k;
  int len;
  int previous;
  unsigned bits;
};

// The counter's address escapes into (empty) assembly, as it escapes into
// atomics in topk: neither compiler may then split the struct into one
// variable per field, which both do for a struct used only field by field
// (and then lay out differently).
__device__ void keepWhole(Counter *c) { asm volatile("" ::"l"(c)); }

// One thread of the block finds the bucket where the prefix sums pass k and
// updates the counter (topk's choose_bucket).
__global__ void conditional_update_in_loop(int *out, const int *prefix, int k) {
  __shared__ Counter counter;
  __shared__ int sums[256];
  for (int i = threadIdx.x; i < 256; i += blockDim.x)
    sums[i] = prefix[blockIdx.x * 256 + i];
  if (threadIdx.x == 0)
    counter = Counter{0, 0, 0, 1u};
  keepWhole(&counter);
  __syncthreads();
  for (int i = threadIdx.x; i < 256; i += blockDim.x) {
    int previous = i == 0 ? 0 : sums[i - 1];
    int current = sums[i];
    if (previous < k && current >= k) {
      counter.k = k - previous;
      counter.len = current - previous;
      counter.bits |= unsigned(i) << 4;
    }
  }
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = int(counter.bits) + counter.k + counter.len;
}

__global__ void shared_chunks(int *out, const int *in) {
  __shared__ int aggregates[8];
  __shared__ Counter counter;
  int t = threadIdx.x;
  if (t < 8)
    aggregates[t] = in[blockIdx.x * 8 + t];
  if (t == 0)
    counter = Counter{in[blockIdx.x], in[blockIdx.x], 3, 5u};
  keepWhole(&counter);
  __syncthreads();
  int r = 0;
  // Words 1-3 of the first chunk (one LDS.128), words 1-2 of the second.
  if (t % 32 == 0)
    r = aggregates[1] + aggregates[2] + aggregates[3] + aggregates[5] +
        aggregates[6];
  // k and len before the branch, bits in it (a branch: it stores): one
  // LDS.128.
  if (counter.len == counter.k)
    out[(gridDim.x + blockIdx.x) * blockDim.x + t] = int(counter.bits);
  out[blockIdx.x * blockDim.x + t] = r;
}

int main() {
  const int blocks = 64;
  float *fin = deviceBuffer<float>(blocks * 256 * 4, 1), *fout;
  CHECK(cudaMalloc(&fout, blocks * 256 * 4 * sizeof(float)));
  ext_vector_width<<<blocks, 256>>>(fout, fin);
  CHECK_LAUNCH();
  printf("ext_vector_width %.0f\n", deviceSum(fout, blocks * 256 * 4));

  int *in = deviceBuffer<int>(blocks * 256, 2), *out;
  CHECK(cudaMalloc(&out, blocks * 256 * sizeof(int)));
  reload_after_asm_shuffle<<<blocks, 32>>>(out, in);
  CHECK_LAUNCH();
  printf("reload_after_asm_shuffle %.0f\n", deviceSum(out, blocks * 32));

  int *h = (int *)malloc(blocks * 256 * sizeof(int)), *prefix;
  for (int b = 0; b < blocks; ++b)
    for (int i = 0; i < 256; ++i)
      h[b * 256 + i] = (i + 1) * (b % 3 + 1);
  CHECK(cudaMalloc(&prefix, blocks * 256 * sizeof(int)));
  CHECK(cudaMemcpy(prefix, h, blocks * 256 * sizeof(int),
                   cudaMemcpyHostToDevice));
  free(h);
  conditional_update_in_loop<<<blocks, 64>>>(out, prefix, 100);
  CHECK_LAUNCH();
  printf("conditional_update_in_loop %.0f\n", deviceSum(out, blocks));

  shared_chunks<<<blocks, 128>>>(out, in);
  CHECK_LAUNCH();
  printf("shared_chunks %.0f\n", deviceSum(out, blocks * 256));
  return 0;
}
