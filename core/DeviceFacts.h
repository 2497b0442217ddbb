// What a CUDA program learns about "the GPU" from device queries
// (cudaGetDeviceProperties, cudaDeviceGetAttribute), for the architecture
// kcheck predicts for, by field and attribute name: read by the simulated
// runtime that --run-host programs call and by the static host evaluator.
// The values are ArchSpec's (core/ArchSpec.h, DeviceLimits and the row's
// SM count and threads per SM).
#pragma once

#include "core/ArchSpec.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace kcheck::core {

/// ArchSpec's device limits with the architecture's identity: every answer
/// comes from the ArchSpec row (core/ArchSpec.cpp), none is decided here.
struct DeviceFacts : DeviceLimits {
  int warpSize = 32, smCount = 0, major = 0, minor = 0;
  int maxThreadsPerSM = 2048;
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
