// Non-portable cluster sizes: a cluster of 16 blocks is refused until the
// kernel allows non-portable sizes (cudaFuncAttributeNonPortableClusterSize-
// Allowed), then runs, each block seeing 16 blocks in its cluster and reading
// its neighbour's shared memory; 17 stays refused. cudaFuncGetAttributes
// reads the attribute back, and a kernel's __cluster_dims__ as its required
// cluster size.
#include <cooperative_groups.h>
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

__global__ void sizes(unsigned *out) {
  __shared__ unsigned mine;
  cg::cluster_group cluster = cg::this_cluster();
  unsigned rank = cluster.block_rank();
  if (threadIdx.x == 0)
    mine = rank * 10;
  cluster.sync();
  unsigned *next =
      cluster.map_shared_rank(&mine, (rank + 1) % cluster.num_blocks());
  if (threadIdx.x == 0)
    out[blockIdx.x] = cluster.num_blocks() * 1000 + *next;
  cluster.sync();
}

__global__ void __cluster_dims__(4, 1, 1) fixed(unsigned *out) {
  if (threadIdx.x == 0)
    out[blockIdx.x] = 1;
}

static cudaError_t launch(unsigned blocks, unsigned cluster, unsigned *out) {
  cudaLaunchConfig_t config;
  std::memset(&config, 0, sizeof config);
  config.gridDim = dim3(blocks);
  config.blockDim = dim3(32);
  cudaLaunchAttribute attribute;
  attribute.id = cudaLaunchAttributeClusterDimension;
  attribute.val.clusterDim.x = cluster;
  attribute.val.clusterDim.y = 1;
  attribute.val.clusterDim.z = 1;
  config.attrs = &attribute;
  config.numAttrs = 1;
  cudaError_t e = cudaLaunchKernelEx(&config, sizes, out);
  cudaDeviceSynchronize();
  return e;
}

int main() {
  unsigned *out;
  cudaMalloc(&out, 64 * sizeof(unsigned));
  cudaFuncAttributes a;
  cudaFuncGetAttributes(&a, sizes);
  std::printf("non-portable allowed before: %d\n",
              a.nonPortableClusterSizeAllowed);
  std::printf("16 blocks before: %d\n", int(launch(32, 16, out)));
  cudaGetLastError();
  cudaFuncSetAttribute(sizes, cudaFuncAttributeNonPortableClusterSizeAllowed,
                       1);
  cudaFuncGetAttributes(&a, sizes);
  std::printf("non-portable allowed after: %d\n",
              a.nonPortableClusterSizeAllowed);
  std::printf("16 blocks after: %d\n", int(launch(32, 16, out)));
  unsigned h[32];
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  bool ok = true;
  for (unsigned b = 0; b < 32; ++b)
    ok &= h[b] == 16000 + ((b % 16 + 1) % 16) * 10;
  std::printf("clusters of 16: %s\n", ok ? "PASS" : "FAIL");
  std::printf("17 blocks after: %d\n", int(launch(34, 17, out)));
  cudaGetLastError();
  cudaFuncGetAttributes(&a, fixed);
  std::printf("required cluster of fixed: %d %d %d\n", a.requiredClusterWidth,
              a.requiredClusterHeight, a.requiredClusterDepth);
  return 0;
}
