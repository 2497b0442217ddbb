#include "core/DeviceFacts.h"

namespace kcheck::core {

DeviceFacts deviceFacts(const ArchSpec &a) {
  DeviceFacts f;
  unsigned cc = a.major * 10 + a.minor;
  f.warpSize = int(a.warpSize);
  f.smCount = int(a.smCount);
  f.maxThreadsPerSM = int(a.maxThreadsPerSM);
  f.major = int(a.major);
  f.minor = int(a.minor);
  if (a.major < 2) {
    f.sharedPerBlock = f.sharedPerBlockOptin = f.sharedPerSM = 16 * 1024;
    f.registersPerSM = cc < 12 ? 8192 : 16384;
    f.blocksPerSM = 8;
    f.maxThreadsPerBlock = 512;
  } else if (a.major < 5) {
    f.registersPerSM = a.major == 2 ? 32768 : 65536;
    f.blocksPerSM = a.major == 2 ? 8 : 16;
  } else if (cc == 70 || cc == 72) {
    f.sharedPerBlockOptin = 96 * 1024;
    f.sharedPerSM = 96 * 1024;
  } else if (cc == 75) {
    f.sharedPerBlockOptin = f.sharedPerSM = 64 * 1024;
    f.blocksPerSM = 16;
  } else if (cc == 80 || cc == 87) {
    f.sharedPerBlockOptin = 163 * 1024;
    f.sharedPerSM = 164 * 1024;
    f.blocksPerSM = cc == 80 ? 32 : 16;
  } else if (a.major == 8 || a.major == 12) {
    // Resident blocks: the toolkit's cuda_occupancy.h
    // (cudaOccMaxBlocksPerMultiprocessor): 8.9 and 12.x 24, 8.6 16.
    f.sharedPerBlockOptin = 99 * 1024;
    f.sharedPerSM = 100 * 1024;
    f.blocksPerSM = cc == 86 ? 16 : 24;
  } else if (a.major >= 9) {
    f.sharedPerBlockOptin = 227 * 1024;
    f.sharedPerSM = 228 * 1024;
  }
  if (a.major < 3)
    f.maxGridDimX = 65535;
  if (a.major >= 8)
    f.reservedSharedPerBlock = 1024;
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
