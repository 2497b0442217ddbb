// What a CUDA program learns about "the GPU" from device queries
// (cudaGetDeviceProperties, cudaDeviceGetAttribute), for the architecture
// kcheck predicts for: one table, read by the simulated runtime that
// --run-host programs call and by the static host evaluator.
//
// Sources: ArchSpec's SM count and threads per SM; the per-generation limits
// of the CUDA Programming Guide ("Technical Specifications per Compute
// Capability"); for sm_90 the H100 SXM's clocks, memory and L2.
#pragma once

#include "core/ArchSpec.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace kcheck::core {

struct DeviceFacts {
  uint64_t totalGlobalMem = uint64_t(80) << 30;
  uint64_t sharedPerBlock = 48 * 1024, sharedPerBlockOptin = 48 * 1024;
  uint64_t sharedPerSM = 48 * 1024, reservedSharedPerBlock = 0;
  int registersPerBlock = 65536, registersPerSM = 65536;
  int blocksPerSM = 32, maxThreadsPerBlock = 1024, maxThreadsPerSM = 2048;
  int maxBlockDimZ = 64;
  int maxGridDimX = 2147483647, maxGridDimYZ = 65535;
  int warpSize = 32, smCount = 0, major = 0, minor = 0;
  int l2Bytes = 50 * 1024 * 1024;
  int clockRateKHz = 1980000, memoryClockRateKHz = 2619000;
  int memoryBusWidth = 5120, totalConstMem = 65536, memPitch = 2147483647;
  int textureAlignment = 512, asyncEngineCount = 2;
};

DeviceFacts deviceFacts(const ArchSpec &arch);

/// One answer: under its cudaDeviceProp field ("maxGridSize[0]") and its
/// cudaDeviceAttr enumerator, either of which may be empty.
struct DeviceFactEntry {
  std::string_view field, attribute;
  int64_t value;
};
std::vector<DeviceFactEntry> deviceFactTable(const ArchSpec &arch);

/// The value a query by name returns: a cudaDeviceProp field
/// ("multiProcessorCount", "maxGridSize[0]") or a cudaDeviceAttr enumerator
/// ("cudaDevAttrMultiProcessorCount"); nullopt for what the table lacks.
std::optional<int64_t> deviceFact(const ArchSpec &arch, std::string_view name);

} // namespace kcheck::core
