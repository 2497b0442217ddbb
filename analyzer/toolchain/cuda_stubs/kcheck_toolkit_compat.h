// Force-included (after Clang's CUDA runtime wrapper) when kcheck compiles
// against the real CUDA toolkit: what nvcc accepts and Clang 22's CUDA
// headers lack (../shared/docs/research/clang-cuda13.md, "Plain Clang 22 on
// real programs"). Each addition is written as nvcc's headers define it,
// so the device code kcheck simulates is what nvcc compiles.
#pragma once

#include <cstdio> // likewise printf, memset, malloc, rand
#include <cstdlib>
#include <cstring>
#include <ctime> // clock(), time(): nvcc's cuda_runtime.h brings them
#include <utility>

// Cache-hinted loads and stores that sm_32_intrinsics.hpp declares and
// Clang 22 does not (added upstream after 22): the same inline PTX as nvcc's.
#define __KCHECK_LD1(fn, op, T, asmT, cons)                                    \
  inline __device__ T fn(const T *__p) {                                       \
    asmT __r;                                                                  \
    asm(op " %0, [%1];" : cons(__r) : "l"(__p));                               \
    return (T)__r;                                                             \
  }
#define __KCHECK_LD2(fn, op, T, asmT, cons)                                    \
  inline __device__ T fn(const T *__p) {                                       \
    asmT __x, __y;                                                             \
    asm(op " {%0,%1}, [%2];" : cons(__x), cons(__y) : "l"(__p));               \
    T __r;                                                                     \
    __r.x = __x, __r.y = __y;                                                  \
    return __r;                                                                \
  }
#define __KCHECK_LD4(fn, op, T, asmT, cons)                                    \
  inline __device__ T fn(const T *__p) {                                       \
    asmT __x, __y, __z, __w;                                                   \
    asm(op " {%0,%1,%2,%3}, [%4];"                                             \
        : cons(__x), cons(__y), cons(__z), cons(__w)                           \
        : "l"(__p));                                                           \
    T __r;                                                                     \
    __r.x = __x, __r.y = __y, __r.z = __z, __r.w = __w;                        \
    return __r;                                                                \
  }
#define __KCHECK_ST1(fn, op, T, asmT, cons)                                    \
  inline __device__ void fn(T *__p, T __v) {                                   \
    asm(op " [%0], %1;" ::"l"(__p), cons((asmT)__v) : "memory");               \
  }
#define __KCHECK_ST2(fn, op, T, asmT, cons)                                    \
  inline __device__ void fn(T *__p, T __v) {                                   \
    asm(op " [%0], {%1,%2};" ::"l"(__p), cons((asmT)__v.x), cons((asmT)__v.y)  \
        : "memory");                                                           \
  }
#define __KCHECK_ST4(fn, op, T, asmT, cons)                                    \
  inline __device__ void fn(T *__p, T __v) {                                   \
    asm(op " [%0], {%1,%2,%3,%4};" ::"l"(__p), cons((asmT)__v.x),              \
        cons((asmT)__v.y), cons((asmT)__v.z), cons((asmT)__v.w)                \
        : "memory");                                                           \
  }

// One table of the types nvcc's sm_32_intrinsics.hpp covers: (vector
// length, PTX type, C type, register type, constraint letter).
#define __KCHECK_TYPES(X, fn, op)                                              \
  X(1, fn, op ".s32", int, int, r)                                             \
  X(1, fn, op ".u32", unsigned int, unsigned int, r)                           \
  X(1, fn, op ".s64", long long, long long, l)                                 \
  X(1, fn, op ".u64", unsigned long long, unsigned long long, l)               \
  X(1, fn, op ".s8", char, int, r)                                             \
  X(1, fn, op ".s8", signed char, int, r)                                      \
  X(1, fn, op ".u8", unsigned char, unsigned int, r)                           \
  X(1, fn, op ".s16", short, short, h)                                         \
  X(1, fn, op ".u16", unsigned short, unsigned short, h)                       \
  X(1, fn, op ".f32", float, float, f)                                         \
  X(1, fn, op ".f64", double, double, d)                                       \
  X(2, fn, op ".v2.s32", int2, int, r)                                         \
  X(4, fn, op ".v4.s32", int4, int, r)                                         \
  X(2, fn, op ".v2.u32", uint2, unsigned int, r)                               \
  X(4, fn, op ".v4.u32", uint4, unsigned int, r)                               \
  X(2, fn, op ".v2.f32", float2, float, f)                                     \
  X(4, fn, op ".v4.f32", float4, float, f)                                     \
  X(2, fn, op ".v2.f64", double2, double, d)
#define __KCHECK_LOAD(n, fn, op, T, asmT, c)                                   \
  __KCHECK_LD##n(fn, op, T, asmT, "=" #c)
#define __KCHECK_STORE(n, fn, op, T, asmT, c)                                  \
  __KCHECK_ST##n(fn, op, T, asmT, #c)

__KCHECK_TYPES(__KCHECK_LOAD, __ldca, "ld.global.ca")
__KCHECK_TYPES(__KCHECK_LOAD, __ldlu, "ld.global.lu")
__KCHECK_TYPES(__KCHECK_STORE, __stwb, "st.global.wb")
__KCHECK_TYPES(__KCHECK_STORE, __stcg, "st.global.cg")
__KCHECK_TYPES(__KCHECK_STORE, __stcs, "st.global.cs")

#undef __KCHECK_TYPES
#undef __KCHECK_LOAD
#undef __KCHECK_STORE
#undef __KCHECK_LD1
#undef __KCHECK_LD2
#undef __KCHECK_LD4
#undef __KCHECK_ST1
#undef __KCHECK_ST2
#undef __KCHECK_ST4

// Host overloads of min/max that nvcc's crt/math_functions.hpp declares
// (__host__ __device__, mixed signedness included) and Clang's CUDA headers
// declare for the device only: host code calling max on integers compiles
// with nvcc.
#define __KCHECK_MINMAX(R, A, B)                                               \
  inline __host__ R max(A __a, B __b) {                                        \
    return (R)__a > (R)__b ? (R)__a : (R)__b;                                  \
  }                                                                            \
  inline __host__ R min(A __a, B __b) {                                        \
    return (R)__a < (R)__b ? (R)__a : (R)__b;                                  \
  }
__KCHECK_MINMAX(int, int, int)
__KCHECK_MINMAX(unsigned int, unsigned int, unsigned int)
__KCHECK_MINMAX(unsigned int, int, unsigned int)
__KCHECK_MINMAX(unsigned int, unsigned int, int)
__KCHECK_MINMAX(long, long, long)
__KCHECK_MINMAX(unsigned long, unsigned long, unsigned long)
__KCHECK_MINMAX(unsigned long, long, unsigned long)
__KCHECK_MINMAX(unsigned long, unsigned long, long)
__KCHECK_MINMAX(long long, long long, long long)
__KCHECK_MINMAX(unsigned long long, unsigned long long, unsigned long long)
__KCHECK_MINMAX(unsigned long long, long long, unsigned long long)
__KCHECK_MINMAX(unsigned long long, unsigned long long, long long)
__KCHECK_MINMAX(float, float, float)
__KCHECK_MINMAX(double, double, double)
__KCHECK_MINMAX(double, float, double)
__KCHECK_MINMAX(double, double, float)
#undef __KCHECK_MINMAX

// isfinite, isnan, isinf on the host: nvcc's headers bring <math.h>, which
// puts std::isfinite and its kin in the global namespace.
#include <math.h>

// nan() and nanf() in device code: crt/math_functions.h declares them as
// device builtins and Clang 22's __clang_cuda_math_forward_declares.h as
// static device functions, but no Clang header defines them, so a call
// stayed external. As libdevice's (nvcc calls __nv_nan).
static __device__ __inline__ double nan(const char *__tag) {
  return __nv_nan((const signed char *)__tag);
}
static __device__ __inline__ float nanf(const char *__tag) {
  return __nv_nanf((const signed char *)__tag);
}

// nvcc's scoped atomic builtins (CUDA 12.8+, crt/device_functions.h declares
// their order and scope constants for nvcc only), as Clang's __atomic
// builtins: the same atomic loads, stores and read-modify-writes. The scope
// changes no counter kcheck predicts.
#if !defined(__NV_ATOMIC_RELAXED)
enum {
  __NV_ATOMIC_RELAXED,
  __NV_ATOMIC_CONSUME,
  __NV_ATOMIC_ACQUIRE,
  __NV_ATOMIC_RELEASE,
  __NV_ATOMIC_ACQ_REL,
  __NV_ATOMIC_SEQ_CST
};
enum {
  __NV_THREAD_SCOPE_THREAD,
  __NV_THREAD_SCOPE_BLOCK,
  __NV_THREAD_SCOPE_CLUSTER,
  __NV_THREAD_SCOPE_DEVICE,
  __NV_THREAD_SCOPE_SYSTEM
};
#endif
#define __KCHECK_NV_ATOMIC_RMW(name, builtin)                                  \
  template <class T> inline __device__ T name(T *__p, T __v, int, int = 0) {   \
    return builtin(__p, __v, __ATOMIC_RELAXED);                                \
  }
__KCHECK_NV_ATOMIC_RMW(__nv_atomic_fetch_add, __atomic_fetch_add)
__KCHECK_NV_ATOMIC_RMW(__nv_atomic_fetch_sub, __atomic_fetch_sub)
__KCHECK_NV_ATOMIC_RMW(__nv_atomic_fetch_and, __atomic_fetch_and)
__KCHECK_NV_ATOMIC_RMW(__nv_atomic_fetch_or, __atomic_fetch_or)
__KCHECK_NV_ATOMIC_RMW(__nv_atomic_fetch_xor, __atomic_fetch_xor)
__KCHECK_NV_ATOMIC_RMW(__nv_atomic_fetch_min, __atomic_fetch_min)
__KCHECK_NV_ATOMIC_RMW(__nv_atomic_fetch_max, __atomic_fetch_max)
__KCHECK_NV_ATOMIC_RMW(__nv_atomic_exchange_n, __atomic_exchange_n)
#undef __KCHECK_NV_ATOMIC_RMW
template <class T>
inline __device__ T __nv_atomic_load_n(const T *__p, int, int = 0) {
  return __atomic_load_n(__p, __ATOMIC_RELAXED);
}
template <class T>
inline __device__ void __nv_atomic_store_n(T *__p, T __v, int, int = 0) {
  __atomic_store_n(__p, __v, __ATOMIC_RELAXED);
}
template <class T>
inline __device__ bool __nv_atomic_compare_exchange_n(T *__p, T *__expected,
                                                      T __desired, bool, int,
                                                      int, int = 0) {
  return __atomic_compare_exchange_n(__p, __expected, __desired, false,
                                     __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}
inline __device__ void __nv_atomic_thread_fence(int, int = 0) {}

#include "kcheck_uninitialized_shared.h"
// Last: from here on the user's code gets nvcc's reading of attributes.
#include "kcheck_nvcc_attributes.h"

// __managed__: Clang's CUDA mode ignores the attribute (it is HIP's), so the
// variable would be host-only. As nvcc makes it: a __device__ variable the
// host reaches at the same address. Marked so that kcheck's runtime maps
// its host shadow and the device symbol to the same memory
// (HostDevice::bindManaged), 256-byte aligned as the runtime's managed
// allocations and device symbols are; the static path sees a __device__
// variable.
#undef __managed__
#define __managed__                                                            \
  __device__ __attribute__((annotate("kcheck.managed"), aligned(256)))

// __NVCC__, as nvcc defines it (analyzer/toolchain/NvccMacros.def), so that
// the user's `#ifdef __NVCC__` takes nvcc's branch. Defined only after the
// toolkit headers that choose nvcc-only builtins by it are read, which keeps
// them on their Clang path (their include guards hold it): nv/target's
// compiler choice, CCCL's compiler detection and, with extended lambdas,
// CCCL's __nv_is_extended_device_lambda_closure_type test in invoke.h.
#include <nv/target>
#if __has_include(<cuda/std/__cccl/compiler.h>)
#include <cuda/std/__cccl/compiler.h>
#endif
#if defined(__CUDACC_EXTENDED_LAMBDA__) &&                                     \
    __has_include(<cuda/std/__functional/invoke.h>)
#include <cuda/std/__functional/invoke.h>
#endif
#define __NVCC__ 1
// nvcc's -D__CUDACC__ (Clang's wrapper defines it empty).
#undef __CUDACC__
#define __CUDACC__ 1
