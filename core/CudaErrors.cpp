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

} // namespace kcheck::core
