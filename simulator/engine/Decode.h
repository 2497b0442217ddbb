// The engine's LLVM side: a kernel's IR decoded into the DecodedKernel the
// executor runs (BlockRunner and the Exec*.cpp files, which use no LLVM
// type; the test engine.executor_links_without_llvm proves it).
#pragma once

#include "simulator/engine/DecodedKernel.h"

#include "llvm/Support/Error.h"

#include <memory>

namespace llvm {
class Function;
class StringRef;
} // namespace llvm

namespace kcheck::sim {

/// Decodes `kernel`; errors name the unsupported construct and its
/// file:line.
llvm::Expected<std::unique_ptr<DecodedKernel>>
decodeKernel(const llvm::Function &kernel);

/// Whether the engine executes calls to the external function `name` itself
/// (libdevice's __nv_* math it maps to its own operations, vprintf,
/// __assertfail). The IR pipeline links libdevice's definitions of the
/// others.
bool executesNatively(llvm::StringRef name);

/// Where a kernel's parameters lie in its parameter buffer: in order, each
/// at its alignment (a struct passed by value at its byval alignment), as
/// nvcc lays them out (measured on the H200: char, double, int*, a 32-byte
/// struct, short, float4 at 0, 8, 16, 24, 56, 64). A device-side launch
/// reads its arguments from there; cudaLaunchKernelEx's and a graph's
/// kernel-node parameters are at these offsets too.
std::vector<DecodedKernel::ParameterPlace>
parameterPlaces(const llvm::Function &kernel);

/// The kernel's __cluster_dims__ (nvvm.cluster_dim "x,y,z", as the device
/// compile puts it back: Clang 22 drops them); nullopt when it has none.
std::optional<core::Dim3> kernelClusterDims(const llvm::Function &kernel);

} // namespace kcheck::sim
