// The CUDA occupancy calculator: how many blocks of a kernel one SM holds at
// once, as cudaOccupancyMaxActiveBlocksPerMultiprocessor answers, and the
// block size cudaOccupancyMaxPotentialBlockSize picks. Programs size grids
// with these (grid-stride loops, cooperative launches, CUB's dispatch), so a
// wrong answer changes every count of the launch.
//
// Source of every rule: the toolkit's own calculator, include/cuda_occupancy.h
// (CUDA 13.0): register allocation per warp in units of 256, warps rounded
// up to the 4 sub-partitions for the hardware check, shared memory per block
// = static + dynamic + the reserved 1 KB (sm_80+) rounded up to 128 bytes
// (sm_80+; 256 before), the default carveout (all of the SM's shared
// memory), the per-generation block limit (DeviceFacts), and, from sm_90,
// the named barriers a block uses. Assumptions: blocks per SM with the
// default cache and carveout configuration (a preference changes only
// availableDynamicSharedBytes here), partitioned global caching off (the
// default), the kernel's opt-in dynamic shared limit as cudaFuncSetAttribute
// left it.
#pragma once

#include "core/ArchSpec.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kcheck::core {

/// What the compiler (ptxas) gave a kernel: the inputs of the calculator and
/// of cudaFuncGetAttributes.
struct KernelResources {
  int registers = 0;              // per thread
  uint64_t staticSharedBytes = 0; // __shared__ variables
  uint64_t localBytes = 0;        // stack frame per thread
  uint64_t constBytes = 0;        // the kernel's own __constant__ bank
  int barriers = 0;               // named barriers (bar.sync ids) used
  int maxThreadsPerBlock = 0;     // __launch_bounds__ / .maxntid; 0: none
  // cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize);
  // 0: the default, the 48 KB of sharedMemPerBlock less the static part.
  uint64_t maxDynamicSharedBytes = 0;
  // cudaFuncAttributePreferredSharedMemoryCarveout; -1: none set.
  int preferredCarveout = -1;
  // __cluster_dims__ (0: none), and
  // cudaFuncAttributeNonPortableClusterSizeAllowed.
  uint32_t requiredCluster[3] = {0, 0, 0};
  bool nonPortableCluster = false;
};

/// Blocks per SM and which resource limits them.
struct Occupancy {
  int blocksPerSM = 0;
  int byWarps = 0, byRegisters = 0, bySharedMemory = 0, byBlockLimit = 0,
      byBarriers = 0;
  // "registers", "shared memory", "warps", "blocks per SM", "barriers":
  // the limits equal to blocksPerSM, joined by ", ".
  std::string limitedBy() const;
};

/// What the program prefers for a kernel's split of L1 and shared memory:
/// the cache configuration (cudaFuncCache: 0 none, 1 shared, 2 L1, 3
/// equal; the kernel's cudaFuncSetCacheConfig, else the device's) and the
/// carveout in percent of the SM's shared memory
/// (cudaFuncAttributePreferredSharedMemoryCarveout; -1: none).
struct SharedPreference {
  int cacheConfig = 0;
  int carveoutPercent = -1;
};

/// cudaOccupancyMaxActiveBlocksPerMultiprocessor(kernel, blockThreads,
/// dynamicSharedBytes) on `arch`.
Occupancy occupancy(const ArchSpec &arch, const KernelResources &kernel,
                    int blockThreads, uint64_t dynamicSharedBytes,
                    SharedPreference preference);
Occupancy occupancy(const ArchSpec &arch, const KernelResources &kernel,
                    int blockThreads, uint64_t dynamicSharedBytes);

/// The most blocks of `blockThreads` threads `arch` holds at once, the limit
/// of a cooperative launch (cudaErrorCooperativeLaunchTooLarge past it): the
/// occupancy calculator's blocks per SM on every SM when the kernel's
/// resources are known, else only what the SMs' threads allow (an upper
/// bound). 0 when the SM count is unknown.
uint64_t maxCoResidentBlocks(const ArchSpec &arch,
                             const KernelResources *kernel, int blockThreads,
                             uint64_t dynamicSharedBytes);

/// cudaFuncGetAttributes's maxThreadsPerBlock: the largest block the kernel
/// can be launched with (its launch bounds, and the registers it needs).
int maxThreadsPerBlock(const ArchSpec &arch, const KernelResources &kernel);

/// The dynamic shared memory a block may ask for by default
/// (cudaFuncGetAttributes's maxDynamicSharedSizeBytes).
uint64_t maxDynamicSharedBytes(const ArchSpec &arch,
                               const KernelResources &kernel);

/// cudaOccupancyAvailableDynamicSMemPerBlock: the dynamic shared memory a
/// block may have with `numBlocks` blocks of `blockThreads` resident per SM
/// ([Occ] cudaOccAvailableDynamicSMemPerBlock: the preferred carveout,
/// rounded up to a configuration of the SM, shared by the blocks in
/// 128-byte units, less the static part, within the kernel's limits);
/// nullopt where the runtime answers cudaErrorInvalidValue (fewer blocks
/// fit, or a preference out of range) or, before cc7.0, where kcheck does
/// not model the cache configuration's split.
std::optional<uint64_t> availableDynamicSharedBytes(const ArchSpec &arch,
                                                    const KernelResources &k,
                                                    int numBlocks,
                                                    int blockThreads,
                                                    SharedPreference pref);

/// cudaOccupancyMaxActiveClusters: how many clusters of `clusterBlocks`
/// blocks fit on the device at once. The rule, fitted to the H200's answers
/// for 312 configurations (docs/validation/data/h200-cluster_occupancy.txt):
/// the blocks per SM of the occupancy calculator, at most
/// DeviceLimits::clusterBlocksPerSM, the kernel's launch bounds not applied;
/// a cluster's blocks on distinct SMs of one GPC, so a GPC of s SMs holds
/// floor(s * blocks / clusterBlocks) clusters when clusterBlocks <= s, else
/// none. nullopt where the part's GPCs are not known (not measured).
std::optional<int>
maxActiveClusters(const ArchSpec &arch, const KernelResources &kernel,
                  int blockThreads, uint64_t dynamicSharedBytes,
                  SharedPreference preference, uint64_t clusterBlocks);
/// cudaOccupancyMaxPotentialClusterSize: the largest cluster of which one
/// fits (maxActiveClusters > 0), up to 8 blocks, 16 where the kernel allows
/// non-portable sizes; 0 when no block fits. The H200 answers so whatever
/// the kernel's __cluster_dims__ (8 for a kernel that requires 4, where the
/// Runtime API reference says the required size).
std::optional<int> maxPotentialClusterSize(const ArchSpec &arch,
                                           const KernelResources &kernel,
                                           int blockThreads,
                                           uint64_t dynamicSharedBytes,
                                           SharedPreference preference);

/// cudaFuncGetAttributes's answer, under cudaFuncAttributes' field names,
/// always in this order (the run-host glue fills the struct by name).
struct FuncAttribute {
  std::string_view field;
  int64_t value;
};
std::vector<FuncAttribute> funcAttributes(const ArchSpec &arch,
                                          const KernelResources &kernel);

/// cudaOccupancyMaxPotentialBlockSize: the block size with the most threads
/// resident per SM (the largest such, trying multiples of the warp size from
/// the top), and the grid that fills every SM with it.
struct PotentialBlockSize {
  int blockThreads = 0;
  int minGridSize = 0;
};
PotentialBlockSize maxPotentialBlockSize(const ArchSpec &arch,
                                         const KernelResources &kernel,
                                         uint64_t dynamicSharedBytes,
                                         int blockSizeLimit = 0);

} // namespace kcheck::core
