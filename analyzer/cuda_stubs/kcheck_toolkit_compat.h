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
#define __KCHECK_LD(fn, op, T, asmT, cons)                                     \
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
#define __KCHECK_ST(fn, op, T, asmT, cons)                                     \
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

#define __KCHECK_LOADS(fn, q)                                                  \
  __KCHECK_LD(fn, "ld.global." q ".s32", int, int, "=r")                       \
  __KCHECK_LD(fn, "ld.global." q ".u32", unsigned int, unsigned int, "=r")     \
  __KCHECK_LD(fn, "ld.global." q ".s64", long long, long long, "=l")           \
  __KCHECK_LD(fn, "ld.global." q ".u64", unsigned long long,                   \
              unsigned long long, "=l")                                        \
  __KCHECK_LD(fn, "ld.global." q ".s8", char, int, "=r")                       \
  __KCHECK_LD(fn, "ld.global." q ".s8", signed char, int, "=r")                \
  __KCHECK_LD(fn, "ld.global." q ".u8", unsigned char, unsigned int, "=r")     \
  __KCHECK_LD(fn, "ld.global." q ".s16", short, short, "=h")                   \
  __KCHECK_LD(fn, "ld.global." q ".u16", unsigned short, unsigned short, "=h") \
  __KCHECK_LD(fn, "ld.global." q ".f32", float, float, "=f")                   \
  __KCHECK_LD(fn, "ld.global." q ".f64", double, double, "=d")                 \
  __KCHECK_LD2(fn, "ld.global." q ".v2.s32", int2, int, "=r")                  \
  __KCHECK_LD4(fn, "ld.global." q ".v4.s32", int4, int, "=r")                  \
  __KCHECK_LD2(fn, "ld.global." q ".v2.u32", uint2, unsigned int, "=r")        \
  __KCHECK_LD4(fn, "ld.global." q ".v4.u32", uint4, unsigned int, "=r")        \
  __KCHECK_LD2(fn, "ld.global." q ".v2.f32", float2, float, "=f")              \
  __KCHECK_LD4(fn, "ld.global." q ".v4.f32", float4, float, "=f")              \
  __KCHECK_LD2(fn, "ld.global." q ".v2.f64", double2, double, "=d")
#define __KCHECK_STORES(fn, q)                                                 \
  __KCHECK_ST(fn, "st.global." q ".s32", int, int, "r")                        \
  __KCHECK_ST(fn, "st.global." q ".u32", unsigned int, unsigned int, "r")      \
  __KCHECK_ST(fn, "st.global." q ".s64", long long, long long, "l")            \
  __KCHECK_ST(fn, "st.global." q ".u64", unsigned long long,                   \
              unsigned long long, "l")                                         \
  __KCHECK_ST(fn, "st.global." q ".s8", char, int, "r")                        \
  __KCHECK_ST(fn, "st.global." q ".s8", signed char, int, "r")                 \
  __KCHECK_ST(fn, "st.global." q ".u8", unsigned char, unsigned int, "r")      \
  __KCHECK_ST(fn, "st.global." q ".s16", short, short, "h")                    \
  __KCHECK_ST(fn, "st.global." q ".u16", unsigned short, unsigned short, "h")  \
  __KCHECK_ST(fn, "st.global." q ".f32", float, float, "f")                    \
  __KCHECK_ST(fn, "st.global." q ".f64", double, double, "d")                  \
  __KCHECK_ST2(fn, "st.global." q ".v2.s32", int2, int, "r")                   \
  __KCHECK_ST4(fn, "st.global." q ".v4.s32", int4, int, "r")                   \
  __KCHECK_ST2(fn, "st.global." q ".v2.u32", uint2, unsigned int, "r")         \
  __KCHECK_ST4(fn, "st.global." q ".v4.u32", uint4, unsigned int, "r")         \
  __KCHECK_ST2(fn, "st.global." q ".v2.f32", float2, float, "f")               \
  __KCHECK_ST4(fn, "st.global." q ".v4.f32", float4, float, "f")               \
  __KCHECK_ST2(fn, "st.global." q ".v2.f64", double2, double, "d")

__KCHECK_LOADS(__ldca, "ca")
__KCHECK_LOADS(__ldlu, "lu")
__KCHECK_STORES(__stwb, "wb")
__KCHECK_STORES(__stcg, "cg")
__KCHECK_STORES(__stcs, "cs")

#undef __KCHECK_LOADS
#undef __KCHECK_STORES
#undef __KCHECK_LD
#undef __KCHECK_LD2
#undef __KCHECK_LD4
#undef __KCHECK_ST
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
  template <class T>                                                           \
  inline __device__ T name(T *__p, T __v, int, int = 0) {                      \
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
