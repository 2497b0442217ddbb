// Conformance program for the occupancy calculator with thread-block
// clusters (cudaOccupancyMaxActiveClusters,
// cudaOccupancyMaxPotentialClusterSize), written from the Runtime API reference
// and the Programming Guide's "Thread Block Clusters": what the specification
// fixes is checked (a cluster fits in one GPC, so at most as many clusters as
// blocks fit on the GPU; a configuration's size other than __cluster_dims__' is
// refused); what it leaves to the hardware (how many clusters of each size fit,
// which depends on how many SMs each GPC has) is printed as `probe` lines, one
// per configuration (docs/validation/conformance-h200.md reads them).
#include "conformance_checks.h"

#include <cstring>

__global__ void plain(int *out) {
  if (out)
    out[blockIdx.x] = threadIdx.x;
}

__global__ void __cluster_dims__(4, 1, 1) required4(int *out) {
  if (out)
    out[blockIdx.x] = threadIdx.x;
}

__global__ void __launch_bounds__(256) bounded(int *out) {
  if (out)
    out[blockIdx.x] = threadIdx.x;
}

static cudaLaunchConfig_t config(unsigned blocks, unsigned threads, size_t smem,
                                 cudaLaunchAttribute *attr, unsigned clusterX) {
  cudaLaunchConfig_t c;
  std::memset(&c, 0, sizeof c);
  c.gridDim = dim3(blocks);
  c.blockDim = dim3(threads);
  c.dynamicSmemBytes = smem;
  if (clusterX) {
    attr->id = cudaLaunchAttributeClusterDimension;
    attr->val.clusterDim.x = clusterX;
    attr->val.clusterDim.y = 1;
    attr->val.clusterDim.z = 1;
    c.attrs = attr;
    c.numAttrs = 1;
  }
  return c;
}

static void maxActive(const char *kernel, const void *func, unsigned threads,
                      size_t smem, unsigned size) {
  cudaLaunchAttribute attr;
  cudaLaunchConfig_t c =
      config(size ? size * 16 : 64, threads, smem, &attr, size);
  int n = -1;
  cudaError_t e = cudaOccupancyMaxActiveClusters(&n, func, &c);
  std::printf("probe active_%s_t%u_s%zu_c%u %d %d\n", kernel, threads,
              smem / 1024, size, int(e), e == cudaSuccess ? n : -1);
  cudaGetLastError();
  if (e == cudaSuccess && size) {
    int perSm = 0;
    OK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, func, int(threads),
                                                     smem));
    int sms = 0;
    OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CHECK(long(n) * size <= long(perSm) * sms,
          "no more clusters than the blocks that fit on the GPU");
  }
}

static void probeWithValue(const char *name, cudaError_t e, int n) {
  std::printf("probe %s %d %d\n", name, int(e), e == cudaSuccess ? n : -1);
  cudaGetLastError();
}

static void potential(const char *kernel, const void *func, unsigned threads,
                      size_t smem) {
  cudaLaunchAttribute attr;
  cudaLaunchConfig_t c = config(128, threads, smem, &attr, 0);
  int n = -1;
  cudaError_t e = cudaOccupancyMaxPotentialClusterSize(&n, func, &c);
  std::printf("probe potential_%s_t%u_s%zu %d %d\n", kernel, threads,
              smem / 1024, int(e), e == cudaSuccess ? n : -1);
  cudaGetLastError();
}

int main() {
  std::setvbuf(stdout, nullptr, _IOLBF, 0); // each probe before a crash
  const void *p = reinterpret_cast<const void *>(plain);
  const size_t big = 200 * 1024, mid = 100 * 1024;
  OK(cudaFuncSetAttribute(plain, cudaFuncAttributeMaxDynamicSharedMemorySize,
                          int(big)));
  const unsigned threads[] = {32, 128, 256, 512, 1024};
  const size_t smems[] = {0, 48 * 1024, mid, big};
  const unsigned sizes[] = {1, 2, 3, 4, 5, 6, 7, 8, 16};
  for (unsigned t : threads)
    for (size_t s : smems)
      for (unsigned c : sizes)
        maxActive("plain", p, t, s, c);
  for (unsigned t : threads)
    for (size_t s : smems)
      potential("plain", p, t, s);
  // Non-portable sizes allowed: up to 16 on sm_90.
  OK(cudaFuncSetAttribute(plain, cudaFuncAttributeNonPortableClusterSizeAllowed,
                          1));
  for (unsigned t : threads)
    for (size_t s : smems)
      for (unsigned c : {9u, 10u, 12u, 14u, 16u})
        maxActive("plain_np", p, t, s, c);
  for (unsigned t : threads)
    for (size_t s : smems)
      potential("plain_np", p, t, s);

  // No cluster size in the configuration nor in the kernel: an error.
  maxActive("plain_none", p, 128, 0, 0);
  int n = -1;
  // A required size: the configuration may leave it out or repeat it.
  const void *r = reinterpret_cast<const void *>(required4);
  maxActive("required4_none", r, 128, 0, 0);
  maxActive("required4_same", r, 128, 0, 4);
  maxActive("required4_other", r, 128, 0, 2);
  {
    cudaLaunchAttribute attr;
    cudaLaunchConfig_t c = config(128, 128, 0, &attr, 2);
    IS(cudaOccupancyMaxActiveClusters(&n, r, &c), cudaErrorInvalidClusterSize);
    c = config(128, 128, 0, &attr, 16); // past 8 without the opt-in
    IS(cudaOccupancyMaxActiveClusters(
           &n, reinterpret_cast<const void *>(bounded), &c),
       cudaErrorInvalidClusterSize);
  }
  potential("required4", r, 128, 0);
  // The reference says the potential size "will reflect the required
  // cluster size"; the H200 answers 8 for __cluster_dims__(4, 1, 1): the
  // probe above records it.
  // Launch bounds: a block larger than them.
  const void *b = reinterpret_cast<const void *>(bounded);
  maxActive("bounded", b, 256, 0, 2);
  maxActive("bounded", b, 512, 0, 2);
  potential("bounded", b, 512, 0);
  // Not a kernel; no result pointer; a block of more than 1024 threads;
  // more shared memory than a block may have.
  {
    cudaLaunchAttribute attr;
    cudaLaunchConfig_t c = config(16, 128, 0, &attr, 2);
    PROBE_ERROR("active_not_a_kernel",
                cudaOccupancyMaxActiveClusters(&n, (const void *)&n, &c));
    PROBE_ERROR("active_null_result",
                cudaOccupancyMaxActiveClusters(nullptr, p, &c));
    // (A null configuration: the H200's driver crashes, not probed.)
    c.blockDim = dim3(2048);
    probeWithValue("active_block_2048",
                   cudaOccupancyMaxActiveClusters(&n, p, &c), n);
    probeWithValue("potential_block_2048",
                   cudaOccupancyMaxPotentialClusterSize(&n, p, &c), n);
    c.blockDim = dim3(128);
    c.dynamicSmemBytes = 300 * 1024;
    probeWithValue("active_smem_300k",
                   cudaOccupancyMaxActiveClusters(&n, p, &c), n);
    probeWithValue("potential_smem_300k",
                   cudaOccupancyMaxPotentialClusterSize(&n, p, &c), n);
    c.dynamicSmemBytes = 0;
    c.gridDim = dim3(15); // not a whole number of clusters
    PROBE_ERROR("active_grid_not_whole",
                cudaOccupancyMaxActiveClusters(&n, p, &c));
    attr.val.clusterDim.y = 2; // 2x2 clusters: 4 blocks
    c.gridDim = dim3(16, 2);
    n = -1;
    cudaError_t e = cudaOccupancyMaxActiveClusters(&n, p, &c);
    std::printf("probe active_2x2 %d %d\n", int(e), n);
  }
  std::printf("cluster_occupancy: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
