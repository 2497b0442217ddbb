// cudaError_t's values by name (core/CudaErrors.def, every code of CUDA 13's
// `enum cudaError`), for the layers that answer CUDA calls without the
// toolkit's headers: the device runtime (simulator/DeviceLaunches) and the
// simulated host runtime.
#pragma once

#include <vector>

namespace kcheck::core {

enum class CudaError : int {
#define KCHECK_CUDA_ERROR(number, name, message) name = number,
#include "core/CudaErrors.def"
#undef KCHECK_CUDA_ERROR
};

/// "cudaErrorInvalidValue", as cudaGetErrorName writes it.
const char *cudaErrorName(CudaError error);

/// One row of core/CudaErrors.def: a cudaError_t and what
/// cudaGetErrorName and cudaGetErrorString return for it (on the host and,
/// as the H200's device runtime does too, on the device).
struct CudaErrorText {
  int code;
  const char *name, *message;
};
const std::vector<CudaErrorText> &cudaErrorTexts();
/// The row of `code`; for a code no row has, "unrecognized error code" for
/// both, as the runtime answers.
const CudaErrorText &cudaErrorText(int code);

} // namespace kcheck::core
