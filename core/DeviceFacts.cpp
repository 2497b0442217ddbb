#include "core/DeviceFacts.h"

namespace kcheck::core {

DeviceFacts deviceFacts(const ArchSpec &a) {
  DeviceFacts f;
  static_cast<DeviceLimits &>(f) = a.limits;
  f.warpSize = int(a.warpSize);
  f.smCount = int(a.smCount);
  f.maxThreadsPerSM = int(a.maxThreadsPerSM);
  f.major = int(a.major);
  f.minor = int(a.minor);
  return f;
}

std::vector<DeviceFactEntry> deviceFactTable(const ArchSpec &arch) {
  DeviceFacts f = deviceFacts(arch);
  return {
      {"totalGlobalMem", "", int64_t(f.totalGlobalMem)},
      {"sharedMemPerBlock", "cudaDevAttrMaxSharedMemoryPerBlock",
       int64_t(f.sharedPerBlock)},
      {"sharedMemPerBlockOptin", "cudaDevAttrMaxSharedMemoryPerBlockOptin",
       int64_t(f.sharedPerBlockOptin)},
      {"sharedMemPerMultiprocessor",
       "cudaDevAttrMaxSharedMemoryPerMultiprocessor", int64_t(f.sharedPerSM)},
      {"reservedSharedMemPerBlock", "cudaDevAttrReservedSharedMemoryPerBlock",
       int64_t(f.reservedSharedPerBlock)},
      {"regsPerBlock", "cudaDevAttrMaxRegistersPerBlock", f.registersPerBlock},
      {"regsPerMultiprocessor", "cudaDevAttrMaxRegistersPerMultiprocessor",
       f.registersPerSM},
      {"maxBlocksPerMultiProcessor", "cudaDevAttrMaxBlocksPerMultiprocessor",
       f.blocksPerSM},
      {"maxThreadsPerBlock", "cudaDevAttrMaxThreadsPerBlock",
       f.maxThreadsPerBlock},
      {"maxThreadsPerMultiProcessor", "cudaDevAttrMaxThreadsPerMultiProcessor",
       f.maxThreadsPerSM},
      {"maxThreadsDim[0]", "cudaDevAttrMaxBlockDimX", f.maxThreadsPerBlock},
      {"maxThreadsDim[1]", "cudaDevAttrMaxBlockDimY", f.maxThreadsPerBlock},
      {"maxThreadsDim[2]", "cudaDevAttrMaxBlockDimZ", f.maxBlockDimZ},
      {"maxGridSize[0]", "cudaDevAttrMaxGridDimX", f.maxGridDimX},
      {"maxGridSize[1]", "cudaDevAttrMaxGridDimY", f.maxGridDimYZ},
      {"maxGridSize[2]", "cudaDevAttrMaxGridDimZ", f.maxGridDimYZ},
      {"warpSize", "cudaDevAttrWarpSize", f.warpSize},
      {"multiProcessorCount", "cudaDevAttrMultiProcessorCount", f.smCount},
      {"major", "cudaDevAttrComputeCapabilityMajor", f.major},
      {"minor", "cudaDevAttrComputeCapabilityMinor", f.minor},
      {"l2CacheSize", "cudaDevAttrL2CacheSize", f.l2Bytes},
      {"clockRate", "cudaDevAttrClockRate", f.clockRateKHz},
      {"memoryClockRate", "cudaDevAttrMemoryClockRate", f.memoryClockRateKHz},
      {"memoryBusWidth", "cudaDevAttrGlobalMemoryBusWidth", f.memoryBusWidth},
      {"totalConstMem", "cudaDevAttrTotalConstantMemory", f.totalConstMem},
      {"memPitch", "cudaDevAttrMaxPitch", f.memPitch},
      {"textureAlignment", "cudaDevAttrTextureAlignment", f.textureAlignment},
      {"asyncEngineCount", "cudaDevAttrAsyncEngineCount", f.asyncEngineCount},
      {"managedMemory", "cudaDevAttrManagedMemory", 1},
      {"cooperativeLaunch", "cudaDevAttrCooperativeLaunch", 1},
      {"concurrentKernels", "cudaDevAttrConcurrentKernels", 1},
      {"unifiedAddressing", "cudaDevAttrUnifiedAddressing", 1},
      {"concurrentManagedAccess", "cudaDevAttrConcurrentManagedAccess", 1},
      {"globalL1CacheSupported", "cudaDevAttrGlobalL1CacheSupported", 1},
      {"localL1CacheSupported", "cudaDevAttrLocalL1CacheSupported", 1},
      {"deviceOverlap", "cudaDevAttrGpuOverlap", 1},
  };
}

std::optional<int64_t> deviceFact(const ArchSpec &arch, std::string_view name) {
  if (arch.smCount == 0 && (name == "multiProcessorCount" ||
                            name == "cudaDevAttrMultiProcessorCount"))
    return std::nullopt; // ArchSpec does not know this generation's count
  for (const DeviceFactEntry &e : deviceFactTable(arch))
    if ((!e.field.empty() && e.field == name) || e.attribute == name)
      return e.value;
  return std::nullopt;
}

} // namespace kcheck::core
