// kcheck stub: the driver API types programs mention most; no functions are
// used by device code, and host code is only parsed.
#pragma once
#ifdef __clang__
#pragma clang system_header // the stubs stand for system headers
#endif
#include "cuda_runtime_api.h"

typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef cudaStream_t CUstream;
typedef cudaEvent_t CUevent;
typedef enum cudaError_enum {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1
} CUresult;
extern "C" {
CUresult cuInit(unsigned int flags);
CUresult cuGetErrorString(CUresult error, const char **str);
}
