// cudaError_t's values by name (core/CudaErrors.def, every code of CUDA 13's
// `enum cudaError`), for the layers that answer CUDA calls without the
// toolkit's headers: the device runtime (simulator/DeviceLaunches) and the
// simulated host runtime.
#pragma once

namespace kcheck::core {

enum class CudaError : int {
#define KCHECK_CUDA_ERROR(number, name, message) name = number,
#include "core/CudaErrors.def"
#undef KCHECK_CUDA_ERROR
};

/// "cudaErrorInvalidValue", as cudaGetErrorName writes it.
const char *cudaErrorName(CudaError error);

} // namespace kcheck::core
