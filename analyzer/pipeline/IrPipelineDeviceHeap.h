// The device heap's calls as NVVM sees them: malloc, free and the device
// operators new and delete are calls into the device runtime that may read
// and write any memory. Clang knows malloc as the C library's (noalias
// result, touching only memory nothing else sees), so O3 forwards a store
// made before a malloc to a load after it; nvcc loads again (measured on the
// H200, tests/conformance/programs/device_heap.cu's `objects`: the two
// fields a constructor stored are loaded back after the `new int[8]` that
// follows, 2 LDG). Renames each such declaration to kcheck's
// (kDeviceHeapPrefix + its name) with no attributes, and clears its call
// sites' attributes, so that no pass takes it for the library function; the
// engine executes the renamed calls (bc::Op::DeviceHeap).
#pragma once

#include "llvm/IR/PassManager.h"

namespace kcheck::analyzer {

inline constexpr const char *kDeviceHeapPrefix = "kcheck.device_heap.";

struct OpaqueDeviceHeapCallsLikeNvvm
    : llvm::PassInfoMixin<OpaqueDeviceHeapCallsLikeNvvm> {
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &analyses);
  static bool isRequired() { return true; }
};

} // namespace kcheck::analyzer
