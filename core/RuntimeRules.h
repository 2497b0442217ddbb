// What the CUDA runtime answers that does not depend on which side asks:
// the rules the simulated host runtime (host/), the static host evaluator
// and the device runtime of kernels that launch kernels
// (simulator/DeviceLaunches) share, so that the paths answer alike. Each
// value's source is given where it is decided.
#pragma once

#include "core/ArchSpec.h"
#include "core/CudaErrors.h"
#include "core/Launch.h"
#include "core/Occupancy.h"

#include <cstdint>
#include <optional>
#include <string>

namespace kcheck::core {

/// cudaDeviceGetLimit's answer for `limit` (cudaLimit's number) before the
/// program sets it; nullopt for a limit the device does not support.
std::optional<uint64_t> defaultDeviceLimit(const ArchSpec &arch, int limit);

/// Whether the GPU refuses a launch of `grid` x `block` before running
/// anything: an empty grid or block, a block over the device's threads or
/// the kernel's launch bound (`launchBound` 0: none), a dimension over the
/// device's maxima. The H200 with CUDA 13 answers cudaErrorInvalidValue for
/// each from the host.
bool launchDimensionsRefused(const ArchSpec &arch, const Dim3 &grid,
                             const Dim3 &block, int launchBound);

/// What an allocation of `bytes` more of device memory answers (cudaMalloc,
/// cudaMallocAsync) with `inUse` bytes already allocated:
/// cudaErrorMemoryAllocation past the device's global memory
/// (totalGlobalMem; the H200 refuses 2^50 bytes:
/// docs/validation/data/h200-runtime-facts.tsv, cudaMalloc.huge), else
/// success (0 bytes: success and a null pointer, as the H200 answers).
/// Both host paths ask it: the runtime with the bytes its program holds, the
/// static analysis (which follows no cudaFree) with none.
CudaError deviceAllocationError(const ArchSpec &arch, uint64_t bytes,
                                uint64_t inUse);

/// The pitch cudaMallocPitch and cudaMalloc3D give rows of `widthBytes`:
/// the width rounded up to the device's textureAlignment, 512 bytes (the
/// H200 gives 512 for 100 bytes), so that each row can be a texture's.
uint64_t pitchedRowBytes(uint64_t widthBytes);

/// Why the GPU refuses a launch before running anything, and what the
/// launching call returns.
struct LaunchRefusal {
  CudaError error = CudaError::cudaErrorInvalidValue;
  std::string why;
};

/// Whether the GPU refuses a launch of `config`: its dimensions
/// (launchDimensionsRefused, with the kernel's launch bound), or more
/// dynamic shared memory than the kernel may have — its opt-in (`optIn`:
/// cudaFuncAttributeMaxDynamicSharedMemorySize as the program set it,
/// nullopt: not set) else the device's 48 KB per block, never more than the
/// device's opt-in maximum (the default limit also counts the kernel's
/// static bytes, which only the toolkit's compiler knows, so a launch within
/// 48 KB of dynamic memory is not refused here): cudaErrorInvalidValue for
/// each, as the H200 with CUDA 13 answers from the host — cudaLaunchKernel,
/// <<<>>>, and cudaGraphAddKernelNode (probe
/// docs/validation/probes/graph_kernel_node_dimensions.cu: 300000 bytes).
/// A cooperative launch of more blocks than can be resident at once (the
/// occupancy calculator's blocks per SM on every SM, from `resources` when
/// the toolkit's compiler gave them, else the SMs' thread limit):
/// cudaErrorCooperativeLaunchTooLarge. Every path asks this one rule: the
/// host runtime, graph kernel nodes and the static analysis.
/// The clusters of a launch the GPU refuses (part of launchRefusal; asked on
/// its own where a launch reaches the simulator without it: --kernel,
/// device-side launches).
std::optional<LaunchRefusal> clusterRefusal(const LaunchConfig &config);
/// The most blocks in one cluster ([Guide] "Thread Block Clusters": 8
/// portable, 16 where the kernel allows non-portable sizes, on sm_90 and
/// sm_100).
inline uint64_t maxClusterBlocks(bool nonPortable) {
  return nonPortable ? 16 : 8;
}

std::optional<LaunchRefusal>
launchRefusal(const ArchSpec &arch, const LaunchConfig &config, int launchBound,
              std::optional<uint64_t> optIn,
              const KernelResources *resources = nullptr);

} // namespace kcheck::core
