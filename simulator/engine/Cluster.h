// Thread-block clusters (sm_90), as the engine runs them: the blocks of a
// cluster see each other's shared memory (distributed shared memory) and
// share the cluster barrier (barrier.cluster.arrive / wait).
//
// Assumptions and their sources (PTX ISA 8.x, "Cluster of Cooperative
// Thread Arrays", special registers %cluster_*, mapa, getctarank,
// barrier.cluster; CUDA Programming Guide, "Distributed Shared Memory"):
// - a launch without clusters runs each block as a cluster of one
//   (%cluster_nctarank 1, %is_explicit_cluster 0);
// - a block's rank in its cluster is its cluster-relative index with x
//   fastest;
// - a shared::cluster address names a block of the cluster and an offset in
//   its shared window. The GPU's encoding is not observable; here the rank
//   plus one is in bits 24-31 of the 32-bit shared address (0: the block's
//   own memory, which is what a shared::cta address is), well above the
//   228 KB a block may have;
// - the barrier's phase completes when every thread of the cluster that has
//   not exited has arrived as often as the waiting thread (exited threads
//   count as arrived, as they do at bar.sync).
#pragma once

#include "core/Launch.h"
#include "simulator/engine/Bytecode.h"

#include <cstdint>
#include <vector>

namespace kcheck::sim {

class BlockRunner;

inline constexpr unsigned kClusterRankShift = 24;
inline constexpr uint64_t kClusterOffsetMask = (1ull << kClusterRankShift) - 1;
/// The rank mapa gives for a rank past the cluster: an address that stays
/// 32 bits wide and faults when used (no cluster has 255 blocks).
inline constexpr unsigned kNoClusterRank = 254;

/// The rank field of a 32-bit shared address: 0 for the block's own memory
/// (a shared::cta address), rank + 1 for a block's of the cluster.
inline unsigned clusterRankField(uint64_t shared) {
  return unsigned((shared & 0xffffffffu) >> kClusterRankShift);
}

/// The shared::cluster address of `offset` in the shared memory of the
/// block of rank `rank`.
inline uint64_t clusterSharedAddress(unsigned rank, uint64_t offset) {
  return (uint64_t(rank + 1) << kClusterRankShift) |
         (offset & kClusterOffsetMask);
}

/// A cluster special register (SregKind Cluster*, Clusterid*, Ncluster*,
/// IsExplicitCluster) of the block at `blockIdx` of `launch`.
uint64_t clusterRegister(bc::SregKind kind, const core::LaunchConfig &launch,
                         const core::Dim3 &blockIdx);

/// The rank of the block at `blockIdx` in its cluster.
unsigned clusterRank(const core::LaunchConfig &launch,
                     const core::Dim3 &blockIdx);

/// The runners of one cluster's blocks, by rank: what each sees of the
/// others. The driver that runs the cluster (CoResidentBlocks.h) makes every
/// runner before any block starts and keeps them until all completed, so
/// that a block's shared memory is there while another reads it.
struct ClusterMembers {
  std::vector<BlockRunner *> byRank;
};

} // namespace kcheck::sim
