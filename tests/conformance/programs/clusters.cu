// Conformance program for thread-block clusters (sm_90), written from the
// CUDA Programming Guide ("Thread Block Clusters", "Distributed Shared
// Memory"), the cooperative groups reference (cluster_group) and the PTX ISA
// (%cluster_ctaid, %cluster_nctaid, %clusterid, %nclusterid,
// %cluster_ctarank, %cluster_nctarank, %is_explicit_cluster, mapa,
// getctarank, barrier.cluster): clusters from __cluster_dims__ and from
// cudaLaunchKernelEx's cudaLaunchAttributeClusterDimension, a launch without
// clusters (each block a cluster of one), each block reading another's
// shared memory, atomics on one block's shared memory from every block of
// the cluster, the split arrive and wait of the cluster barrier. What the
// documents leave open (the error of a grid that is not a whole number of
// clusters) is printed as `probe` lines. It prints one line per failed
// check and a summary.
#include "conformance_checks.h"
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdio>

namespace cg = cooperative_groups;

constexpr int kThreads = 64;

// What a block sees of its cluster, 12 words per block.
struct Place {
  unsigned ctaid[3], nctaid[3], clusterid[3], nclusterid[3];
  unsigned rank, size, isExplicit, queriedRank;
};

__device__ void record(Place *out) {
  cg::cluster_group cluster = cg::this_cluster();
  if (threadIdx.x != 0)
    return;
  Place p;
  dim3 ctaid = cluster.block_index(), nctaid = cluster.dim_blocks();
  dim3 id = __clusterIdx(), nid = __clusterGridDimInClusters();
  p.ctaid[0] = ctaid.x, p.ctaid[1] = ctaid.y, p.ctaid[2] = ctaid.z;
  p.nctaid[0] = nctaid.x, p.nctaid[1] = nctaid.y, p.nctaid[2] = nctaid.z;
  p.clusterid[0] = id.x, p.clusterid[1] = id.y, p.clusterid[2] = id.z;
  p.nclusterid[0] = nid.x, p.nclusterid[1] = nid.y, p.nclusterid[2] = nid.z;
  p.rank = cluster.block_rank();
  p.size = cluster.num_blocks();
  p.isExplicit = __clusterDimIsSpecified();
  p.queriedRank = ~0u;
  unsigned linear =
      blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  out[linear] = p;
}

__global__ void __cluster_dims__(2, 2, 1) places2x2(Place *out) { record(out); }
__global__ void placesNoCluster(Place *out) { record(out); }
__global__ void placesFromLaunch(Place *out) { record(out); }

// Each block fills its shared array, then reads the next rank's (a ring)
// and asks which rank a mapped pointer belongs to.
__global__ void __cluster_dims__(4, 1, 1) ring(int *out, unsigned *ranks) {
  __shared__ int s[kThreads];
  cg::cluster_group cluster = cg::this_cluster();
  unsigned rank = cluster.block_rank(), n = cluster.num_blocks();
  s[threadIdx.x] = int(rank * 1000 + threadIdx.x);
  cluster.sync();
  int *next = cluster.map_shared_rank(s, (rank + 1) % n);
  out[blockIdx.x * kThreads + threadIdx.x] = next[kThreads - 1 - threadIdx.x];
  if (threadIdx.x == 0)
    ranks[blockIdx.x] = cluster.query_shared_rank(next);
  cluster.sync(); // no block leaves while another reads its memory
}

// Every thread of the cluster adds to rank 0's counter; rank 0 writes the
// sum once all arrived (split arrive and wait).
__global__ void __cluster_dims__(8, 1, 1) gather(int *out) {
  __shared__ int counter;
  cg::cluster_group cluster = cg::this_cluster();
  if (threadIdx.x == 0)
    counter = 0;
  cluster.sync();
  int *target = cluster.map_shared_rank(&counter, 0);
  atomicAdd(target, int(threadIdx.x) + 1);
  cluster.barrier_arrive();
  cluster.barrier_wait();
  if (cluster.block_rank() == 0 && threadIdx.x == 0)
    out[blockIdx.x / 8] = counter;
  cluster.sync();
}

static void checkPlaces(const Place *p, dim3 grid, dim3 c, bool isExplicit,
                        const char *what) {
  for (unsigned z = 0; z < grid.z; ++z)
    for (unsigned y = 0; y < grid.y; ++y)
      for (unsigned x = 0; x < grid.x; ++x) {
        const Place &q = p[x + grid.x * (y + grid.y * z)];
        unsigned b[3] = {x, y, z}, dims[3] = {c.x, c.y, c.z},
                 g[3] = {grid.x, grid.y, grid.z};
        bool ok = q.size == c.x * c.y * c.z && q.isExplicit == isExplicit;
        for (int d = 0; d < 3; ++d)
          ok = ok && q.ctaid[d] == b[d] % dims[d] && q.nctaid[d] == dims[d] &&
               q.clusterid[d] == b[d] / dims[d] &&
               q.nclusterid[d] == g[d] / dims[d];
        ok = ok && q.rank == (x % c.x) + c.x * ((y % c.y) + c.y * (z % c.z));
        CHECK(ok, what);
      }
}

int main() {
  Place *places;
  const int kMaxBlocks = 64;
  OK(cudaMalloc(&places, kMaxBlocks * sizeof(Place)));
  static Place p[kMaxBlocks];

  // __cluster_dims__(2, 2, 1) on a (4, 4, 2) grid.
  places2x2<<<dim3(4, 4, 2), 32>>>(places);
  OK(cudaDeviceSynchronize());
  OK(cudaMemcpy(p, places, 32 * sizeof(Place), cudaMemcpyDeviceToHost));
  checkPlaces(p, dim3(4, 4, 2), dim3(2, 2, 1), true,
              "__cluster_dims__(2,2,1): place in the cluster and the grid");

  // No cluster: each block is a cluster of one.
  placesNoCluster<<<dim3(3, 2, 1), 32>>>(places);
  OK(cudaDeviceSynchronize());
  OK(cudaMemcpy(p, places, 6 * sizeof(Place), cudaMemcpyDeviceToHost));
  checkPlaces(p, dim3(3, 2, 1), dim3(1, 1, 1), false,
              "no cluster: a cluster of one block");

  // cudaLaunchKernelEx with cudaLaunchAttributeClusterDimension (4, 1, 1).
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(8, 2, 1);
  config.blockDim = dim3(32, 1, 1);
  cudaLaunchAttribute attribute[1];
  attribute[0].id = cudaLaunchAttributeClusterDimension;
  attribute[0].val.clusterDim.x = 4;
  attribute[0].val.clusterDim.y = 1;
  attribute[0].val.clusterDim.z = 1;
  config.attrs = attribute;
  config.numAttrs = 1;
  OK(cudaLaunchKernelEx(&config, placesFromLaunch, places));
  OK(cudaDeviceSynchronize());
  OK(cudaMemcpy(p, places, 16 * sizeof(Place), cudaMemcpyDeviceToHost));
  checkPlaces(p, dim3(8, 2, 1), dim3(4, 1, 1), true,
              "cudaLaunchAttributeClusterDimension (4,1,1)");

  // Distributed shared memory: a ring over clusters of 4, two clusters.
  int *out;
  unsigned *ranks;
  OK(cudaMalloc(&out, 8 * kThreads * sizeof(int)));
  OK(cudaMalloc(&ranks, 8 * sizeof(unsigned)));
  ring<<<8, kThreads>>>(out, ranks);
  OK(cudaDeviceSynchronize());
  static int r[8 * kThreads];
  static unsigned rk[8];
  OK(cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost));
  OK(cudaMemcpy(rk, ranks, sizeof rk, cudaMemcpyDeviceToHost));
  for (int b = 0; b < 8; ++b) {
    int next = (b % 4 + 1) % 4;
    bool ok = rk[b] == unsigned(next);
    for (int t = 0; t < kThreads; ++t)
      ok = ok && r[b * kThreads + t] == next * 1000 + (kThreads - 1 - t);
    CHECK(ok, "a block reads the next rank's shared memory");
  }

  // Atomics on rank 0's shared memory from 8 blocks, two clusters.
  gather<<<16, kThreads>>>(out);
  OK(cudaDeviceSynchronize());
  OK(cudaMemcpy(r, out, 2 * sizeof(int), cudaMemcpyDeviceToHost));
  int want = 8 * kThreads * (kThreads + 1) / 2;
  CHECK(r[0] == want && r[1] == want,
        "atomics from every block on one block's shared memory");

  // A grid that is not a whole number of clusters: the launch's error.
  places2x2<<<dim3(3, 2, 1), 32>>>(places);
  PROBE_ERROR("grid_not_whole_clusters", cudaGetLastError());
  cudaDeviceSynchronize();
  // A cluster of more than 8 blocks without the non-portable attribute.
  attribute[0].val.clusterDim.x = 16;
  config.gridDim = dim3(16, 1, 1);
  PROBE_ERROR("cluster_of_16",
              cudaLaunchKernelEx(&config, placesFromLaunch, places));
  cudaDeviceSynchronize();

  std::printf("clusters: %d checks, %d failures\n", checks, failures);
  return failures != 0;
}
