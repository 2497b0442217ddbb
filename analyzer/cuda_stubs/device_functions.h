// kcheck stub: everything this header provides comes from the force-included
// kcheck_cuda_shim.h.
#pragma once
#include "cuda_runtime.h"
