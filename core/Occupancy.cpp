#include "core/Occupancy.h"

#include "core/DeviceFacts.h"
#include "core/RuntimeRules.h"

#include <algorithm>
#include <climits>

namespace kcheck::core {

namespace {

uint64_t roundUp(uint64_t x, uint64_t unit) {
  return unit ? (x + unit - 1) / unit * unit : x;
}

uint64_t sharedGranularity(const DeviceFacts &f) {
  return f.sharedAllocationGranularity;
}
int maxRegistersPerThread(const DeviceFacts &f) {
  return f.maxRegistersPerThread;
}
int subPartitions(const DeviceFacts &f) { return f.subPartitions; }

constexpr int kRegisterGranularity = 256; // registers per warp, all archs

// Registers a warp is given, and whether a block of `warps` warps fits the
// register file at all (cudaOccMaxBlocksPerSMRegsLimit's three checks).
int registersPerWarp(const DeviceFacts &f, const KernelResources &k) {
  return int(roundUp(uint64_t(k.registers) * f.warpSize, kRegisterGranularity));
}
bool registersFit(const DeviceFacts &f, const KernelResources &k, int warps) {
  int perWarp = registersPerWarp(f, k);
  int sub = subPartitions(f);
  uint64_t assumed = uint64_t(perWarp) * roundUp(warps, sub);
  uint64_t allocated = uint64_t(perWarp) * warps;
  return assumed <= uint64_t(f.registersPerBlock) &&
         allocated <= uint64_t(f.registersPerBlock) &&
         k.registers <= maxRegistersPerThread(f);
}

// What cudaFuncSetAttribute set, else the default: the 48 KB of
// sharedMemPerBlock less the static part.
uint64_t maxDynamicShared(const DeviceFacts &f, const KernelResources &k) {
  if (k.maxDynamicSharedBytes)
    return k.maxDynamicSharedBytes;
  return f.sharedPerBlock > k.staticSharedBytes
             ? f.sharedPerBlock - k.staticSharedBytes
             : 0;
}

// Defined below, with availableDynamicSharedBytes.
std::optional<uint64_t> preferredSharedPerSM(const DeviceFacts &f,
                                             SharedPreference p);
std::optional<uint64_t> alignUpToCarveout(const DeviceFacts &f, uint64_t bytes);

// [Occ] cudaOccMaxBlocksPerSMSmemLimit: the SM's shared memory the blocks
// share, the preferred carveout when one block fits in it, else the
// smallest carveout that holds one (all of it by default and before cc7.0).
uint64_t sharedForBlocks(const DeviceFacts &f, SharedPreference p,
                         uint64_t perBlock) {
  if (f.carveouts == 0 || (p.cacheConfig == 0 && p.carveoutPercent == -1))
    return f.sharedPerSM;
  std::optional<uint64_t> preferred = preferredSharedPerSM(f, p);
  if (preferred && *preferred >= perBlock)
    return *preferred;
  return alignUpToCarveout(f, perBlock).value_or(0);
}

} // namespace

std::string Occupancy::limitedBy() const {
  std::string s;
  auto add = [&](int limit, const char *name) {
    if (limit == blocksPerSM)
      s += (s.empty() ? "" : ", ") + std::string(name);
  };
  add(byRegisters, "registers");
  add(bySharedMemory, "shared memory");
  add(byWarps, "warps");
  add(byBlockLimit, "blocks per SM");
  add(byBarriers, "barriers");
  return s;
}

Occupancy occupancy(const ArchSpec &arch, const KernelResources &k,
                    int blockThreads, uint64_t dynamicShared) {
  return occupancy(arch, k, blockThreads, dynamicShared, SharedPreference{});
}

Occupancy occupancy(const ArchSpec &arch, const KernelResources &k,
                    int blockThreads, uint64_t dynamicShared,
                    SharedPreference preference) {
  DeviceFacts f = deviceFacts(arch);
  Occupancy o;
  if (blockThreads <= 0)
    return o;
  int warps = (blockThreads + f.warpSize - 1) / f.warpSize;

  // Warps (cudaOccMaxBlocksPerSMWarpsLimit).
  o.byWarps = blockThreads > f.maxThreadsPerBlock
                  ? 0
                  : (f.maxThreadsPerSM / f.warpSize) / warps;
  // Registers (cudaOccMaxBlocksPerSMRegsLimit), per sub-partition.
  int perWarp = registersPerWarp(f, k);
  if (!registersFit(f, k, warps))
    o.byRegisters = 0;
  else if (perWarp == 0)
    o.byRegisters = INT_MAX;
  else {
    int sub = subPartitions(f);
    int warpsPerSub = (f.registersPerSM / sub) / perWarp;
    o.byRegisters = warpsPerSub * sub / warps;
  }
  o.byBlockLimit = f.blocksPerSM;

  // Shared memory (cudaOccMaxBlocksPerSMSmemLimit), with the attributes
  // cudaFuncGetAttributes gives (FUNC_SHMEM_LIMIT_OPTIN) and the default
  // carveout: all of the SM's shared memory.
  uint64_t staticPart = k.staticSharedBytes + f.reservedSharedPerBlock;
  uint64_t maxDynamic = maxDynamicShared(f, k);
  uint64_t allocated =
      roundUp(staticPart + dynamicShared, sharedGranularity(f));
  uint64_t limitPerBlock = staticPart + maxDynamic > f.sharedPerBlock
                               ? f.sharedPerBlockOptin
                               : f.sharedPerBlock;
  limitPerBlock += f.reservedSharedPerBlock; // cc8.0 and later reserve it
  if (dynamicShared > maxDynamic || allocated > limitPerBlock)
    o.bySharedMemory = 0;
  else if (allocated == 0)
    o.bySharedMemory = INT_MAX;
  else
    o.bySharedMemory =
        int(sharedForBlocks(f, preference, allocated) / allocated);

  o.blocksPerSM =
      std::min({o.byRegisters, o.bySharedMemory, o.byWarps, o.byBlockLimit});
  // Named barriers, from sm_90 (cudaOccMaxBlocksPerSMBlockBarrierLimit:
  // two per block slot on sm_90). cudaFuncAttributes carries no barrier
  // count, so the runtime's conversion assumes one.
  o.byBarriers = INT_MAX;
  if (f.barrierSetsPerBlockSlot) {
    int available = f.blocksPerSM * f.barrierSetsPerBlockSlot;
    o.byBarriers = available / std::max(1, k.barriers);
    o.blocksPerSM = std::min(o.blocksPerSM, o.byBarriers);
  }
  return o;
}

int maxThreadsPerBlock(const ArchSpec &arch, const KernelResources &k) {
  DeviceFacts f = deviceFacts(arch);
  int limit = f.maxThreadsPerBlock;
  if (k.maxThreadsPerBlock > 0)
    limit = std::min(limit, k.maxThreadsPerBlock);
  for (int threads = limit; threads > 0;
       threads = (threads - 1) / f.warpSize * f.warpSize)
    if (registersFit(f, k, (threads + f.warpSize - 1) / f.warpSize))
      return threads;
  return 0;
}

namespace {

// [Occ] cudaOccAlignUpShmemSizeVoltaPlus: the smallest carveout holding
// `bytes`; nullopt past the largest.
std::optional<uint64_t> alignUpToCarveout(const DeviceFacts &f,
                                          uint64_t bytes) {
  for (size_t i = 0; i < f.carveouts; ++i)
    if (bytes <= uint64_t(f.carveoutKB[i]) * 1024)
      return uint64_t(f.carveoutKB[i]) * 1024;
  return std::nullopt;
}

// [Occ] cudaOccSMemPreferenceVoltaPlus: the SM's shared memory the
// preference asks for (a carveout percentage, else the cache config's:
// PreferL1 0 %, PreferShared 100 %, PreferEqual 50 %, none: all of it).
std::optional<uint64_t> preferredSharedPerSM(const DeviceFacts &f,
                                             SharedPreference p) {
  int percent = p.carveoutPercent;
  if (percent < -1 || percent > 100)
    return std::nullopt;
  if (percent == -1)
    percent = p.cacheConfig == 2   ? 0
              : p.cacheConfig == 1 ? 100
              : p.cacheConfig == 3 ? 50
                                   : -1;
  uint64_t bytes =
      percent == -1 ? f.sharedPerSM : uint64_t(percent) * f.sharedPerSM / 100;
  return alignUpToCarveout(f, bytes);
}

} // namespace

std::optional<uint64_t> availableDynamicSharedBytes(const ArchSpec &arch,
                                                    const KernelResources &k,
                                                    int numBlocks,
                                                    int blockThreads,
                                                    SharedPreference pref) {
  DeviceFacts f = deviceFacts(arch);
  if (numBlocks <= 0 || f.carveouts == 0)
    return std::nullopt;
  if (occupancy(arch, k, blockThreads, 0, pref).blocksPerSM < numBlocks)
    return std::nullopt;
  // The runtime's attributes opt in (FUNC_SHMEM_LIMIT_OPTIN), and the
  // reserved 1 KB counts as the block's (cudaOccSMemPerBlock).
  uint64_t limitPerBlock = f.sharedPerBlockOptin + f.reservedSharedPerBlock;
  std::optional<uint64_t> preferred = preferredSharedPerSM(f, pref);
  if (!preferred)
    return std::nullopt;
  uint64_t perSM = limitPerBlock;
  if (numBlocks > 1) {
    perSM = *preferred;
    if (perSM == 0) { // the smallest configuration above none
      std::optional<uint64_t> smallest = alignUpToCarveout(f, 1);
      if (!smallest)
        return std::nullopt;
      perSM = *smallest;
    }
  }
  uint64_t available =
      perSM / uint64_t(numBlocks) / sharedGranularity(f) * sharedGranularity(f);
  available = std::min(available, limitPerBlock);
  if (available < k.staticSharedBytes)
    return std::nullopt;
  available -= k.staticSharedBytes;
  return std::min(available, maxDynamicShared(f, k));
}

uint64_t maxDynamicSharedBytes(const ArchSpec &arch, const KernelResources &k) {
  return maxDynamicShared(deviceFacts(arch), k);
}

std::vector<FuncAttribute> funcAttributes(const ArchSpec &arch,
                                          const KernelResources &k) {
  int64_t version = arch.major * 10 + arch.minor; // compiled for this arch
  return {
      {"sharedSizeBytes", int64_t(k.staticSharedBytes)},
      {"constSizeBytes", int64_t(k.constBytes)},
      {"localSizeBytes", int64_t(k.localBytes)},
      {"maxThreadsPerBlock", maxThreadsPerBlock(arch, k)},
      {"numRegs", k.registers},
      {"ptxVersion", version},
      {"binaryVersion", version},
      {"cacheModeCA", 0},
      {"maxDynamicSharedSizeBytes", int64_t(maxDynamicSharedBytes(arch, k))},
      {"preferredShmemCarveout", k.preferredCarveout},
      {"clusterDimMustBeSet", 0},
      {"requiredClusterWidth", k.requiredCluster[0]},
      {"requiredClusterHeight", k.requiredCluster[1]},
      {"requiredClusterDepth", k.requiredCluster[2]},
      {"clusterSchedulingPolicyPreference", 0},
      {"nonPortableClusterSizeAllowed", k.nonPortableCluster ? 1 : 0},
  };
}

PotentialBlockSize maxPotentialBlockSize(const ArchSpec &arch,
                                         const KernelResources &k,
                                         uint64_t dynamicShared,
                                         int blockSizeLimit) {
  // cudaOccMaxPotentialOccupancyBlockSize: from the largest block down in
  // warp steps; the first size reaching the SM's thread limit wins.
  DeviceFacts f = deviceFacts(arch);
  int limit = maxThreadsPerBlock(arch, k);
  if (blockSizeLimit > 0)
    limit = std::min(limit, blockSizeLimit);
  PotentialBlockSize best;
  int bestThreads = 0, bestBlocks = 0;
  for (int aligned = int(roundUp(limit, f.warpSize)); aligned > 0;
       aligned -= f.warpSize) {
    int threads = std::min(limit, aligned);
    int blocks = occupancy(arch, k, threads, dynamicShared).blocksPerSM;
    if (threads * blocks > bestThreads) {
      bestThreads = threads * blocks;
      bestBlocks = blocks;
      best.blockThreads = threads;
    }
    if (bestThreads == f.maxThreadsPerSM)
      break;
  }
  best.minGridSize = bestBlocks * f.smCount;
  return best;
}

uint64_t maxCoResidentBlocks(const ArchSpec &arch,
                             const KernelResources *kernel, int blockThreads,
                             uint64_t dynamicSharedBytes) {
  if (blockThreads <= 0)
    return 0;
  uint64_t perSM =
      kernel
          ? uint64_t(occupancy(arch, *kernel, blockThreads, dynamicSharedBytes)
                         .blocksPerSM)
          : uint64_t(arch.maxThreadsPerSM) / uint64_t(blockThreads);
  return perSM * arch.smCount;
}

std::optional<int>
maxActiveClusters(const ArchSpec &arch, const KernelResources &kernel,
                  int blockThreads, uint64_t dynamicSharedBytes,
                  SharedPreference preference, uint64_t clusterBlocks) {
  const DeviceLimits &l = arch.limits;
  if (!l.clusterGpcs)
    return std::nullopt;
  if (clusterBlocks == 0)
    return 0;
  KernelResources unbounded = kernel; // launch bounds: not applied [H200]
  unbounded.maxThreadsPerBlock = 0;
  uint64_t perSM = uint64_t(std::min(
      occupancy(arch, unbounded, blockThreads, dynamicSharedBytes, preference)
          .blocksPerSM,
      l.clusterBlocksPerSM));
  uint64_t clusters = 0;
  for (size_t g = 0; g < l.clusterGpcs; ++g)
    if (clusterBlocks <= l.clusterGpcSms[g])
      clusters += l.clusterGpcSms[g] * perSM / clusterBlocks;
  return int(clusters);
}

std::optional<int> maxPotentialClusterSize(const ArchSpec &arch,
                                           const KernelResources &kernel,
                                           int blockThreads,
                                           uint64_t dynamicSharedBytes,
                                           SharedPreference preference) {
  for (uint64_t c = maxClusterBlocks(kernel.nonPortableCluster); c > 0; --c) {
    std::optional<int> n = maxActiveClusters(arch, kernel, blockThreads,
                                             dynamicSharedBytes, preference, c);
    if (!n)
      return std::nullopt;
    if (*n > 0)
      return int(c);
  }
  return 0;
}

} // namespace kcheck::core
