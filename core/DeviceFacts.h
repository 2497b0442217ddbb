// What a CUDA program learns about "the GPU" from device queries
// (cudaGetDeviceProperties, cudaDeviceGetAttribute), for the architecture
// kcheck predicts for: every device attribute the CUDA 13 driver answers
// (core/DeviceAttributes.def) and every cudaDeviceProp field
// (core/DeviceProperties.def). Read by the simulated runtime that
// --run-host programs call and by the static host evaluator, so both paths
// answer alike. Every value comes from the ArchSpec row (core/ArchSpec.h);
// none is decided here.
#pragma once

#include "core/ArchSpec.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace kcheck::core {

/// ArchSpec's device limits with the architecture's identity.
struct DeviceFacts : DeviceLimits {
  int warpSize = 32, smCount = 0, major = 0, minor = 0;
  int maxThreadsPerSM = 2048;
  int integrated = 0, datacenter = 0;
  int cc() const { return major * 10 + minor; }
};

DeviceFacts deviceFacts(const ArchSpec &arch);

/// One row of core/DeviceAttributes.def: the number cudaDeviceGetAttribute
/// takes, its cudaDeviceAttr enumerator ("" where only cuda.h names it) and
/// its CU_DEVICE_ATTRIBUTE_ name without the prefix.
struct DeviceAttribute {
  int number;
  std::string_view runtimeName, driverName;
};
const std::vector<DeviceAttribute> &deviceAttributes();

/// What cudaDeviceGetAttribute answers for attribute `number` on `arch`;
/// nullopt for a number the driver does not know (cudaErrorInvalidValue).
std::optional<int64_t> deviceAttributeValue(const ArchSpec &arch, int number);

/// One field of cudaDeviceProp (core/DeviceProperties.def), "maxGridSize[0]"
/// for an array's element.
struct DeviceProperty {
  enum class Kind { Attribute, Value, Name, Zeroed };
  std::string_view field;
  Kind kind;
  int attribute; // the attribute it takes its value from, or 0
};
const std::vector<DeviceProperty> &deviceProperties();

/// The value of an Attribute or Value field; nullopt for Name and Zeroed.
std::optional<int64_t> devicePropertyValue(const ArchSpec &arch,
                                           const DeviceProperty &p);

/// One answer: under its cudaDeviceProp field ("maxGridSize[0]") and its
/// cudaDeviceAttr enumerator, either of which may be empty: every attribute
/// and every numeric field, for the host glue and name lookups.
struct DeviceFactEntry {
  std::string_view field, attribute;
  int64_t value;
};
std::vector<DeviceFactEntry> deviceFactTable(const ArchSpec &arch);

/// The value a query by name returns: a cudaDeviceProp field
/// ("multiProcessorCount", "maxGridSize[0]") or a cudaDeviceAttr enumerator
/// ("cudaDevAttrMultiProcessorCount"); nullopt for what the tables lack.
std::optional<int64_t> deviceFact(const ArchSpec &arch, std::string_view name);

} // namespace kcheck::core
