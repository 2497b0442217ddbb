// kcheck stub: everything this header provides comes from the force-included
// kcheck_cuda_shim.h.
#pragma once
#ifdef __clang__
#pragma clang system_header // the stubs stand for system headers
#endif
#include "cuda_runtime.h"
