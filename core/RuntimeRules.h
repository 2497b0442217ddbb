// What the CUDA runtime answers that does not depend on which side asks:
// the rules the simulated host runtime (host/), the static host evaluator
// and the device runtime of kernels that launch kernels
// (simulator/DeviceLaunches) share, so that the paths answer alike. Each
// value's source is given where it is decided.
#pragma once

#include "core/ArchSpec.h"
#include "core/Launch.h"

#include <cstdint>
#include <optional>

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

} // namespace kcheck::core
