#include "core/RuntimeRules.h"

#include "core/DeviceFacts.h"

#include <algorithm>

namespace kcheck::core {

// CUDA 13 on the H200 (docs/validation/conformance-h200.md): the stack 1 KB
// a thread, the printf FIFO 8650752 bytes, the malloc heap 8 MB, 2048
// pending device launches, a 64-byte L2 fetch granularity, and 3/16 of the
// L2 for persisting lines (11796480 of 62914560 on the H200).
// cudaLimitDevRuntimeSyncDepth is unsupported from sm_90 (no device-side
// cudaDeviceSynchronize).
std::optional<uint64_t> defaultDeviceLimit(const ArchSpec &arch, int limit) {
  DeviceFacts f = deviceFacts(arch);
  switch (limit) {
  case 0: // cudaLimitStackSize
    return 1024;
  case 1: // cudaLimitPrintfFifoSize
    return 8650752;
  case 2: // cudaLimitMallocHeapSize
    return 8388608;
  case 3: // cudaLimitDevRuntimeSyncDepth
    return f.cc() >= 90 ? std::nullopt : std::optional<uint64_t>(2);
  case 4: // cudaLimitDevRuntimePendingLaunchCount
    return 2048;
  case 5: // cudaLimitMaxL2FetchGranularity
    return 64;
  case 6: // cudaLimitPersistingL2CacheSize
    return f.persistingL2Bytes ? uint64_t(f.l2Bytes) * 3 / 16 : 0;
  }
  return std::nullopt;
}

bool launchDimensionsRefused(const ArchSpec &arch, const Dim3 &grid,
                             const Dim3 &block, int launchBound) {
  DeviceFacts f = deviceFacts(arch);
  uint64_t threads = block.count();
  return !grid.x || !grid.y || !grid.z || !threads ||
         threads > uint64_t(f.maxThreadsPerBlock) ||
         (launchBound && threads > uint64_t(launchBound)) ||
         block.x > unsigned(f.maxThreadsPerBlock) ||
         block.y > unsigned(f.maxThreadsPerBlock) ||
         block.z > unsigned(f.maxBlockDimZ) ||
         grid.x > unsigned(f.maxGridDimX) ||
         grid.y > unsigned(f.maxGridDimYZ) || grid.z > unsigned(f.maxGridDimYZ);
}

CudaError deviceAllocationError(const ArchSpec &arch, uint64_t bytes,
                                uint64_t inUse) {
  uint64_t total = uint64_t(deviceFacts(arch).totalGlobalMem);
  if (bytes > total || inUse > total - bytes)
    return CudaError::cudaErrorMemoryAllocation;
  return CudaError::cudaSuccess;
}

std::optional<LaunchRefusal> clusterRefusal(const LaunchConfig &config) {
  // CUDA Programming Guide, "Thread Block Clusters": the grid a whole
  // number of clusters, at most 8 blocks each (16 where the kernel allows
  // non-portable sizes). The error is the one CUDA 13 names for "cluster
  // misconfiguration", as the H200 answers (clusters.cu's and
  // cluster_occupancy.cu's probes).
  const Dim3 &g = config.grid, &c = config.cluster;
  uint64_t most = maxClusterBlocks(config.nonPortableCluster);
  if (c.x == 0 || c.y == 0 || c.z == 0 || g.x % c.x || g.y % c.y || g.z % c.z ||
      c.count() > most)
    return LaunchRefusal{CudaError::cudaErrorInvalidClusterSize,
                         "grid (" + toString(g) + ") in clusters of (" +
                             toString(c) +
                             ") blocks: not a whole number of clusters, or "
                             "more than " +
                             std::to_string(most) + " blocks in one"};
  return std::nullopt;
}

std::optional<LaunchRefusal>
launchRefusal(const ArchSpec &arch, const LaunchConfig &config, int launchBound,
              std::optional<uint64_t> optIn, const KernelResources *resources) {
  DeviceFacts f = deviceFacts(arch);
  if (launchDimensionsRefused(arch, config.grid, config.block, launchBound))
    return LaunchRefusal{
        CudaError::cudaErrorInvalidValue,
        "grid (" + toString(config.grid) + ") or block (" +
            toString(config.block) + ") past what the device" +
            (launchBound ? " or the kernel's __launch_bounds__ (" +
                               std::to_string(launchBound) + " threads)"
                         : std::string()) +
            " allows"};
  uint64_t limit = std::min<uint64_t>(optIn.value_or(f.sharedPerBlock),
                                      uint64_t(f.sharedPerBlockOptin));
  if (config.dynamicSharedBytes > limit)
    return LaunchRefusal{
        CudaError::cudaErrorInvalidValue,
        std::to_string(config.dynamicSharedBytes) +
            " bytes of dynamic shared memory, past the kernel's " +
            std::to_string(limit) +
            (optIn ? ""
                   : " (without cudaFuncAttributeMaxDynamicSharedMemorySize)")};
  if (std::optional<LaunchRefusal> refused = clusterRefusal(config))
    return refused;
  if (config.cooperative)
    if (uint64_t resident =
            maxCoResidentBlocks(arch, resources, int(config.block.count()),
                                config.dynamicSharedBytes);
        resident && config.grid.count() > resident)
      return LaunchRefusal{CudaError::cudaErrorCooperativeLaunchTooLarge,
                           "a cooperative launch of " +
                               std::to_string(config.grid.count()) +
                               " blocks, past the " + std::to_string(resident) +
                               " that can be resident at once"};
  return std::nullopt;
}

uint64_t pitchedRowBytes(uint64_t widthBytes) {
  constexpr uint64_t kTextureAlignment = 512;
  return (widthBytes + kTextureAlignment - 1) / kTextureAlignment *
         kTextureAlignment;
}

} // namespace kcheck::core
