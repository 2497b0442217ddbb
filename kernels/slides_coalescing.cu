// Seed 001 (course slides COMP4007 ch.5, "全局内存聚合" / "不良访问模式"): the misaligned
// copy (示例 3, "数据访问错位: 起始地址不是 32 或 128 的倍数") and the strided copy
// (示例 4, "相邻线程访问内存的步长为2"), as the CUDA C Best Practices Guide writes them
// (offsetCopy / strideCopy, which the slides cite as reference 3).
// Expected global traffic on sm_90 (32-byte sectors), per warp instruction:
//   OffsetCopy, offset 0: 4 sectors (128 aligned bytes) per load and per store;
//   OffsetCopy, offset 1: 5 sectors (the 128 bytes straddle a sector boundary);
//   StrideCopy, stride 2: 8 sectors (256 bytes spanned, half of them unused).
// No shared memory.
// kcheck check: the offset-1 launch (#1) and the stride-2 launch (#2) are uncoalesced.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                              \
  do {                                                                           \
    cudaError_t err_ = (call);                                                   \
    if (err_ != cudaSuccess) {                                                   \
      fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call,               \
              cudaGetErrorString(err_));                                         \
      exit(1);                                                                   \
    }                                                                            \
  } while (0)
#define CHECK_LAUNCH()                                                           \
  do {                                                                           \
    CHECK(cudaGetLastError());                                                   \
    CHECK(cudaDeviceSynchronize());                                              \
  } while (0)

// Seed 001, "示例 3" (misaligned access): each thread copies one float, shifted by offset.
__global__ void OffsetCopy(float *odata, const float *idata, int offset)
{
  int xid = blockIdx.x * blockDim.x + threadIdx.x + offset;
  odata[xid] = idata[xid]; // expected-warning {{uncoalesced global store to 'odata': 5 sectors per request where 4 would do}} expected-warning {{uncoalesced global load of 'idata': 5 sectors per request where 4 would do}}
}

// Seed 001, "示例 4: 按步长访问": neighbouring threads are stride floats apart.
__global__ void StrideCopy(float *odata, const float *idata, int stride)
{
  int xid = (blockIdx.x * blockDim.x + threadIdx.x) * stride;
  odata[xid] = idata[xid]; // expected-warning {{uncoalesced global store to 'odata': 8 sectors per request where 4 would do}} expected-warning {{uncoalesced global load of 'idata': 8 sectors per request where 4 would do}}
}

int main()
{
  const int n = 1024 * 1024; // threads per launch
  const int block = 256;
  const int n_alloc = 2 * n + 64;

  float *h_in = (float *)malloc(n_alloc * sizeof(float));
  for (int i = 0; i < n_alloc; ++i) h_in[i] = (float)i;
  float *d_in, *d_out;
  CHECK(cudaMalloc((void **)&d_in, n_alloc * sizeof(float)));
  CHECK(cudaMalloc((void **)&d_out, n_alloc * sizeof(float)));
  CHECK(cudaMemcpy(d_in, h_in, n_alloc * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_out, 0, n_alloc * sizeof(float)));

  OffsetCopy<<<n / block, block>>>(d_out, d_in, 0);
  CHECK_LAUNCH();
  OffsetCopy<<<n / block, block>>>(d_out, d_in, 1);
  CHECK_LAUNCH();
  StrideCopy<<<n / block, block>>>(d_out, d_in, 2);
  CHECK_LAUNCH();

  float h_out[4];
  CHECK(cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost));
  printf("slides_coalescing: out[2] = %f\n", h_out[2]);
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  free(h_in);
  return 0;
}
