// What the installed CUDA toolkit declares, read by Clang from its own
// headers as a host program sees them: the specification kcheck's
// conformance tables are checked against (docs/conformance.md). Nothing
// here is kcheck's; a newer toolkit's new entries show up by themselves.
#pragma once

#include "conformance/NvvmBuiltins.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kcheck::conformance {

struct Enumerator {
  std::string name;
  int64_t value;
};

struct ToolkitInventory {
  std::string root;    // the toolkit's directory
  int cudaVersion = 0; // CUDA_VERSION, 13000
  /// Every function cuda_runtime_api.h declares, by name, sorted, once.
  std::vector<std::string> runtimeFunctions;
  /// The names of those the header marks deprecated.
  std::vector<std::string> deprecatedRuntimeFunctions;
  /// enum cudaDeviceAttr, in declaration order.
  std::vector<Enumerator> deviceAttributes;
  /// struct cudaDeviceProp's fields, an int array's elements each as
  /// "maxGridSize[0]"; character arrays, structs and `reserved` whole.
  std::vector<std::string> devicePropertyFields;
  /// enum cudaError.
  std::vector<Enumerator> errors;
  /// The warp-matrix builtins crt/mma.hpp (the wmma API) calls, sorted.
  std::vector<std::string> wmmaBuiltins;
  /// Clang's NVPTX builtins and libdevice's functions, as Clang compiles
  /// CUDA device code for sm_90 against this toolkit.
  std::vector<DeviceFunction> deviceFunctions;
  /// The CUDA device runtime's entry points (cuda_device_runtime_api.h, as
  /// device code for sm_90 sees it: CDP2), sorted.
  std::vector<std::string> deviceRuntimeFunctions;
};

/// Parses `<toolkit>/include/cuda_runtime_api.h` with Clang (host C++);
/// nullopt, with `why`, when the toolkit's headers do not parse.
std::optional<ToolkitInventory> readToolkitInventory(const std::string &root,
                                                     std::string &why);

} // namespace kcheck::conformance
