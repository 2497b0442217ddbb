// A block of a cluster of 2 maps rank 2's shared memory, which no block of
// its cluster has (undefined in the PTX ISA): kcheck reports the read as a
// fault, at its line.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 1, 1) pastCluster(int *out) {
  __shared__ int s[32];
  cg::cluster_group cluster = cg::this_cluster();
  s[threadIdx.x] = int(threadIdx.x);
  cluster.sync();
  int *peer = cluster.map_shared_rank(s, 2);
  out[blockIdx.x * 32 + threadIdx.x] = peer[threadIdx.x];
  cluster.sync();
}

int main() {
  int *out;
  cudaMalloc(&out, 2 * 32 * sizeof(int));
  pastCluster<<<2, 32>>>(out);
  cudaDeviceSynchronize();
  return 0;
}
