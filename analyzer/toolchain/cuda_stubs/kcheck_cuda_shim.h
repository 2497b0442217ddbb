// kcheck's replacement for the CUDA toolkit headers, force-included (-include)
// before the user's file, the way nvcc force-includes cuda_runtime.h. kcheck
// compiles only the device side and interprets the IR, so device functions are
// written with Clang builtins that become plain LLVM IR (atomicrmw, llvm.sqrt,
// ...) rather than calls into libdevice, which the interpreter could not
// execute.
#pragma once
#ifdef __clang__
#pragma clang system_header // the stubs stand for system headers
#endif

// The toolkit's guard macros, first: code testing them (cuda-samples'
// helper_cuda.h: #ifdef __DRIVER_TYPES_H__) sees what nvcc's headers give,
// and a toolkit header included later (-I/usr/local/cuda/include) is
// skipped rather than redefining what the stubs declare.
#define __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_API_H__
#define __DRIVER_TYPES_H__
#define __VECTOR_TYPES_H__
#define __DEVICE_LAUNCH_PARAMETERS_H__
#define __HOST_DEFINES_H__
#define __BUILTIN_TYPES_H__
#define __cuda_cuda_h__
#define _COOPERATIVE_GROUPS_H_

#define CUDA_VERSION                                                           \
  12080 // enables the *_sync shuffles in Clang's intrinsics header
#define CUDART_VERSION 12080
#define __CUDACC__ 1
#define __NVCC__ 1 // many programs test it to choose the CUDA code path
#define __CUDACC_VER_MAJOR__ 12
#define __CUDACC_VER_MINOR__ 8
#define __CUDACC_VER_BUILD__ 0

#include <stddef.h>
#include <stdint.h>

// Qualifiers, as Clang's attributes.
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
// Clang ignores `managed` outside HIP: as the toolkit compat header does.
#define __managed__                                                            \
  __device__ __attribute__((annotate("kcheck.managed"), aligned(256)))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(n) __attribute__((aligned(n)))
#define __restrict__ __restrict
#define __grid_constant__ __attribute__((grid_constant))
#define __cudart_builtin__
#define CUDART_CB

typedef uint32_t cuuint32_t; // used by __clang_cuda_intrinsics.h
typedef uint64_t cuuint64_t;

#include "vector_types.h"

#include <__clang_cuda_builtin_vars.h>

// Out-of-line conversions declared by __clang_cuda_builtin_vars.h; they need
// dim3/uint3.
__device__ inline __cuda_builtin_threadIdx_t::operator dim3() const {
  return dim3(x, y, z);
}
__device__ inline __cuda_builtin_threadIdx_t::operator uint3() const {
  return {x, y, z};
}
__device__ inline __cuda_builtin_blockIdx_t::operator dim3() const {
  return dim3(x, y, z);
}
__device__ inline __cuda_builtin_blockIdx_t::operator uint3() const {
  return {x, y, z};
}
__device__ inline __cuda_builtin_blockDim_t::operator dim3() const {
  return dim3(x, y, z);
}
__device__ inline __cuda_builtin_blockDim_t::operator uint3() const {
  return {x, y, z};
}
__device__ inline __cuda_builtin_gridDim_t::operator dim3() const {
  return dim3(x, y, z);
}
__device__ inline __cuda_builtin_gridDim_t::operator uint3() const {
  return {x, y, z};
}

// Address-space predicates __clang_cuda_intrinsics.h needs for sm_90.
#define __KCHECK_DEV static __device__ __forceinline__
__KCHECK_DEV unsigned int __isGlobal(const void *p) {
  return __nvvm_isspacep_global(p);
}
__KCHECK_DEV unsigned int __isShared(const void *p) {
  return __nvvm_isspacep_shared(p);
}
__KCHECK_DEV unsigned int __isConstant(const void *p) {
  return __nvvm_isspacep_const(p);
}
__KCHECK_DEV unsigned int __isLocal(const void *p) {
  return __nvvm_isspacep_local(p);
}
__KCHECK_DEV size_t __cvta_generic_to_shared(const void *p) {
  return (size_t)(void __attribute__((address_space(3))) *)p;
}
__KCHECK_DEV size_t __cvta_generic_to_global(const void *p) {
  return (size_t)(void __attribute__((address_space(1))) *)p;
}

// System calls (lowered by Clang: printf -> vprintf), and the libc pieces
// device code and Clang's headers use.
extern "C" {
__device__ int vprintf(const char *, const char *);
__device__ int printf(const char *, ...);
__device__ void free(void *) __attribute((nothrow));
__device__ void *malloc(size_t) __attribute((nothrow)) __attribute__((malloc));
__device__ void __assertfail(const char *message, const char *file,
                             unsigned line, const char *function,
                             size_t charSize);
__device__ static inline void __assert_fail(const char *message,
                                            const char *file, unsigned line,
                                            const char *function) {
  __assertfail(message, file, line, function, sizeof(char));
}
__device__ void *memcpy(void *, const void *, size_t);
__device__ void *memset(void *, int, size_t);
}

#include <__clang_cuda_intrinsics.h>

#include "cuda_runtime_api.h"
#include "kcheck_device_functions.h"
#include "kcheck_uninitialized_shared.h"
// nvcc force-includes cuda_runtime.h, C++ templates (cudaMalloc(T **)) and all.
#include "cuda_runtime.h"
// Last: from here on the user's code gets nvcc's reading of attributes.
#include "kcheck_nvcc_attributes.h"
