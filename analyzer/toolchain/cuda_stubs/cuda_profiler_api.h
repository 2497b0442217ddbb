// kcheck stub of the toolkit's <cuda_profiler_api.h>: kcheck's simulated
// runtime answers both calls as the real one does with no profiler attached.
#pragma once
#ifdef __clang__
#pragma clang system_header // the stubs stand for system headers
#endif
#include "cuda_runtime_api.h"

extern "C" {
cudaError_t cudaProfilerStart(void);
cudaError_t cudaProfilerStop(void);
}
