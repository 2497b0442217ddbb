#include "core/CudaErrors.h"

namespace kcheck::core {

const char *cudaErrorName(CudaError error) {
  switch (error) {
#define KCHECK_CUDA_ERROR(number, name, message)                               \
  case CudaError::name:                                                        \
    return #name;
#include "core/CudaErrors.def"
#undef KCHECK_CUDA_ERROR
  }
  return "cudaErrorUnknown";
}

const std::vector<CudaErrorText> &cudaErrorTexts() {
  static const std::vector<CudaErrorText> rows = {
#define KCHECK_CUDA_ERROR(CODE, NAME, MESSAGE) {CODE, #NAME, MESSAGE},
#include "core/CudaErrors.def"
#undef KCHECK_CUDA_ERROR
  };
  return rows;
}

const CudaErrorText &cudaErrorText(int code) {
  static const CudaErrorText unknown{-1, "unrecognized error code",
                                     "unrecognized error code"};
  for (const CudaErrorText &t : cudaErrorTexts())
    if (t.code == code)
      return t;
  return unknown;
}

} // namespace kcheck::core
