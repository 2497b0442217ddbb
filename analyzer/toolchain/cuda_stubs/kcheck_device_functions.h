// kcheck stub: CUDA's device function library (math, integer intrinsics,
// atomics, fences), written with Clang builtins so the IR holds LLVM
// instructions and intrinsics (atomicrmw, cmpxchg, llvm.sqrt, llvm.fma, ...)
// instead of calls into libdevice. Functions without an LLVM intrinsic (tanf,
// atan2f, ...) stay calls to the libm name.
#pragma once
#ifdef __clang__
#pragma clang system_header // the stubs stand for system headers
#endif

#define __KCHECK_DEV static __device__ __forceinline__
#define __KCHECK_HD static __host__ __device__ __forceinline__

// ---- Synchronization and fences (__syncthreads itself is a Clang builtin).
// ----
__KCHECK_DEV int __syncthreads_count(int predicate) {
  return __nvvm_bar0_popc(predicate);
}
__KCHECK_DEV int __syncthreads_and(int predicate) {
  return __nvvm_bar0_and(predicate);
}
__KCHECK_DEV int __syncthreads_or(int predicate) {
  return __nvvm_bar0_or(predicate);
}
__KCHECK_DEV void __threadfence_block() { __nvvm_membar_cta(); }
__KCHECK_DEV void __threadfence() { __nvvm_membar_gl(); }
__KCHECK_DEV void __threadfence_system() { __nvvm_membar_sys(); }
__KCHECK_DEV void __trap() { __builtin_trap(); }
__KCHECK_DEV long long clock64() { return __nvvm_read_ptx_sreg_clock64(); }
__KCHECK_DEV int clock() { return __nvvm_read_ptx_sreg_clock(); }

// ---- min/max: CUDA's __host__ __device__ overloads. ----
#define __KCHECK_MINMAX(T)                                                     \
  __KCHECK_HD T min(T a, T b) { return a < b ? a : b; }                        \
  __KCHECK_HD T max(T a, T b) { return a > b ? a : b; }
__KCHECK_MINMAX(int)
__KCHECK_MINMAX(unsigned int)
__KCHECK_MINMAX(long)
__KCHECK_MINMAX(unsigned long)
__KCHECK_MINMAX(long long)
__KCHECK_MINMAX(unsigned long long)
#undef __KCHECK_MINMAX
__KCHECK_HD float min(float a, float b) { return __builtin_fminf(a, b); }
__KCHECK_HD float max(float a, float b) { return __builtin_fmaxf(a, b); }
__KCHECK_HD double min(double a, double b) { return __builtin_fmin(a, b); }
__KCHECK_HD double max(double a, double b) { return __builtin_fmax(a, b); }
// Mixed signedness, as in CUDA: compare as unsigned.
__KCHECK_HD unsigned int min(int a, unsigned int b) {
  return min((unsigned int)a, b);
}
__KCHECK_HD unsigned int min(unsigned int a, int b) {
  return min(a, (unsigned int)b);
}
__KCHECK_HD unsigned int max(int a, unsigned int b) {
  return max((unsigned int)a, b);
}
__KCHECK_HD unsigned int max(unsigned int a, int b) {
  return max(a, (unsigned int)b);
}
__KCHECK_HD float min(float a, double b) {
  return __builtin_fminf(a, (float)b);
}
__KCHECK_HD float max(float a, double b) {
  return __builtin_fmaxf(a, (float)b);
}
__KCHECK_HD unsigned int umin(unsigned int a, unsigned int b) {
  return a < b ? a : b;
}
__KCHECK_HD unsigned int umax(unsigned int a, unsigned int b) {
  return a > b ? a : b;
}
__KCHECK_HD long long llmin(long long a, long long b) { return a < b ? a : b; }
__KCHECK_HD long long llmax(long long a, long long b) { return a > b ? a : b; }

// ---- Single-precision math. ----
#define __KCHECK_F1(name, builtin)                                             \
  __KCHECK_DEV float name(float x) { return builtin(x); }
#define __KCHECK_F2(name, builtin)                                             \
  __KCHECK_DEV float name(float x, float y) { return builtin(x, y); }
__KCHECK_F1(sqrtf, __builtin_sqrtf)
__KCHECK_F1(cbrtf, __builtin_cbrtf)
__KCHECK_F1(expf, __builtin_expf)
__KCHECK_F1(exp2f, __builtin_exp2f)
__KCHECK_F1(exp10f, __builtin_exp10f)
__KCHECK_F1(expm1f, __builtin_expm1f)
__KCHECK_F1(logf, __builtin_logf)
__KCHECK_F1(log2f, __builtin_log2f)
__KCHECK_F1(log10f, __builtin_log10f)
__KCHECK_F1(log1pf, __builtin_log1pf)
__KCHECK_F1(sinf, __builtin_sinf)
__KCHECK_F1(cosf, __builtin_cosf)
__KCHECK_F1(tanf, __builtin_tanf)
__KCHECK_F1(asinf, __builtin_asinf)
__KCHECK_F1(acosf, __builtin_acosf)
__KCHECK_F1(atanf, __builtin_atanf)
__KCHECK_F1(sinhf, __builtin_sinhf)
__KCHECK_F1(coshf, __builtin_coshf)
__KCHECK_F1(tanhf, __builtin_tanhf)
__KCHECK_F1(fabsf, __builtin_fabsf)
__KCHECK_F1(floorf, __builtin_floorf)
__KCHECK_F1(ceilf, __builtin_ceilf)
__KCHECK_F1(truncf, __builtin_truncf)
__KCHECK_F1(roundf, __builtin_roundf)
__KCHECK_F1(rintf, __builtin_rintf)
__KCHECK_F1(nearbyintf, __builtin_nearbyintf)
__KCHECK_F1(__expf, __builtin_expf)
__KCHECK_F1(__exp10f, __builtin_exp10f)
__KCHECK_F1(__logf, __builtin_logf)
__KCHECK_F1(__log2f, __builtin_log2f)
__KCHECK_F1(__log10f, __builtin_log10f)
__KCHECK_F1(__sinf, __builtin_sinf)
__KCHECK_F1(__cosf, __builtin_cosf)
__KCHECK_F1(__tanf, __builtin_tanf)
__KCHECK_F1(__fsqrt_rn, __builtin_sqrtf)
__KCHECK_F2(powf, __builtin_powf)
__KCHECK_F2(__powf, __builtin_powf)
__KCHECK_F2(atan2f, __builtin_atan2f)
__KCHECK_F2(fmodf, __builtin_fmodf)
__KCHECK_F2(fminf, __builtin_fminf)
__KCHECK_F2(fmaxf, __builtin_fmaxf)
__KCHECK_F2(copysignf, __builtin_copysignf)
__KCHECK_F2(hypotf, __builtin_hypotf)
__KCHECK_F2(fdimf, __builtin_fdimf)
#undef __KCHECK_F1
#undef __KCHECK_F2
__KCHECK_DEV float rsqrtf(float x) { return 1.0f / __builtin_sqrtf(x); }
__KCHECK_DEV float __frsqrt_rn(float x) { return 1.0f / __builtin_sqrtf(x); }
__KCHECK_DEV float fmaf(float x, float y, float z) {
  return __builtin_fmaf(x, y, z);
}
__KCHECK_DEV float __fmaf_rn(float x, float y, float z) {
  return __builtin_fmaf(x, y, z);
}
__KCHECK_DEV float __fdividef(float x, float y) { return x / y; }
__KCHECK_DEV float __fdiv_rn(float x, float y) { return x / y; }
__KCHECK_DEV float __fadd_rn(float x, float y) { return x + y; }
__KCHECK_DEV float __fsub_rn(float x, float y) { return x - y; }
__KCHECK_DEV float __fmul_rn(float x, float y) { return x * y; }
__KCHECK_DEV float __frcp_rn(float x) { return 1.0f / x; }
__KCHECK_DEV float __saturatef(float x) {
  return __builtin_fminf(__builtin_fmaxf(x, 0.0f), 1.0f);
}
__KCHECK_DEV void sincosf(float x, float *s, float *c) {
  *s = __builtin_sinf(x);
  *c = __builtin_cosf(x);
}
__KCHECK_DEV void __sincosf(float x, float *s, float *c) { sincosf(x, s, c); }

// ---- Double-precision math (the common subset). ----
#define __KCHECK_D1(name)                                                      \
  __KCHECK_DEV double name(double x) { return __builtin_##name(x); }
#define __KCHECK_D2(name)                                                      \
  __KCHECK_DEV double name(double x, double y) {                               \
    return __builtin_##name(x, y);                                             \
  }
__KCHECK_D1(sqrt)
__KCHECK_D1(exp)
__KCHECK_D1(exp2)
__KCHECK_D1(log)
__KCHECK_D1(log2)
__KCHECK_D1(log10)
__KCHECK_D1(sin)
__KCHECK_D1(cos)
__KCHECK_D1(tan)
__KCHECK_D1(tanh)
__KCHECK_D1(fabs)
__KCHECK_D1(floor)
__KCHECK_D1(ceil)
__KCHECK_D1(trunc)
__KCHECK_D1(round)
__KCHECK_D2(pow)
__KCHECK_D2(fmin)
__KCHECK_D2(fmax)
__KCHECK_D2(fmod)
__KCHECK_D2(atan2)
#undef __KCHECK_D1
#undef __KCHECK_D2
__KCHECK_DEV double rsqrt(double x) { return 1.0 / __builtin_sqrt(x); }
__KCHECK_DEV double fma(double x, double y, double z) {
  return __builtin_fma(x, y, z);
}

// ---- Integer and bit intrinsics. ----
__KCHECK_DEV int __popc(unsigned int x) { return __builtin_popcount(x); }
__KCHECK_DEV int __popcll(unsigned long long x) {
  return __builtin_popcountll(x);
}
__KCHECK_DEV int __clz(int x) {
  return x == 0 ? 32 : __builtin_clz((unsigned)x);
}
__KCHECK_DEV int __clzll(long long x) {
  return x == 0 ? 64 : __builtin_clzll((unsigned long long)x);
}
__KCHECK_DEV int __ffs(int x) { return __builtin_ffs(x); }
__KCHECK_DEV int __ffsll(long long x) { return __builtin_ffsll(x); }
__KCHECK_DEV unsigned int __brev(unsigned int x) {
  return __builtin_bitreverse32(x);
}
__KCHECK_DEV unsigned long long __brevll(unsigned long long x) {
  return __builtin_bitreverse64(x);
}
__KCHECK_DEV int __mul24(int x, int y) {
  return ((x << 8) >> 8) * ((y << 8) >> 8);
}
__KCHECK_DEV unsigned int __umul24(unsigned int x, unsigned int y) {
  return (x & 0xffffffu) * (y & 0xffffffu);
}
__KCHECK_DEV int __mulhi(int x, int y) {
  return (int)(((long long)x * y) >> 32);
}
__KCHECK_DEV unsigned int __umulhi(unsigned int x, unsigned int y) {
  return (unsigned int)(((unsigned long long)x * y) >> 32);
}
__KCHECK_DEV int __float_as_int(float x) { return __builtin_bit_cast(int, x); }
__KCHECK_DEV unsigned int __float_as_uint(float x) {
  return __builtin_bit_cast(unsigned int, x);
}
__KCHECK_DEV float __int_as_float(int x) {
  return __builtin_bit_cast(float, x);
}
__KCHECK_DEV float __uint_as_float(unsigned int x) {
  return __builtin_bit_cast(float, x);
}
__KCHECK_DEV long long __double_as_longlong(double x) {
  return __builtin_bit_cast(long long, x);
}
__KCHECK_DEV double __longlong_as_double(long long x) {
  return __builtin_bit_cast(double, x);
}
__KCHECK_DEV int __float2int_rz(float x) { return (int)x; }
__KCHECK_DEV int __float2int_rn(float x) { return (int)__builtin_rintf(x); }
__KCHECK_DEV int __float2int_rd(float x) { return (int)__builtin_floorf(x); }
__KCHECK_DEV int __float2int_ru(float x) { return (int)__builtin_ceilf(x); }
__KCHECK_DEV unsigned int __float2uint_rz(float x) { return (unsigned int)x; }
__KCHECK_DEV unsigned int __float2uint_rn(float x) {
  return (unsigned int)__builtin_rintf(x);
}
__KCHECK_DEV float __int2float_rn(int x) { return (float)x; }
__KCHECK_DEV float __uint2float_rn(unsigned int x) { return (float)x; }

// ---- Atomics: relaxed, like CUDA's, as atomicrmw / cmpxchg in the IR. ----
#define __KCHECK_ATOMIC_RMW(name, T, builtin)                                  \
  __KCHECK_DEV T name(T *address, T val) {                                     \
    return builtin(address, val, __ATOMIC_RELAXED);                            \
  }
#define __KCHECK_ATOMIC_INTEGER(T)                                             \
  __KCHECK_ATOMIC_RMW(atomicAdd, T, __atomic_fetch_add)                        \
  __KCHECK_ATOMIC_RMW(atomicSub, T, __atomic_fetch_sub)                        \
  __KCHECK_ATOMIC_RMW(atomicMin, T, __atomic_fetch_min)                        \
  __KCHECK_ATOMIC_RMW(atomicMax, T, __atomic_fetch_max)                        \
  __KCHECK_ATOMIC_RMW(atomicAnd, T, __atomic_fetch_and)                        \
  __KCHECK_ATOMIC_RMW(atomicOr, T, __atomic_fetch_or)                          \
  __KCHECK_ATOMIC_RMW(atomicXor, T, __atomic_fetch_xor)                        \
  __KCHECK_ATOMIC_RMW(atomicExch, T, __atomic_exchange_n)                      \
  __KCHECK_DEV T atomicCAS(T *address, T compare, T val) {                     \
    __atomic_compare_exchange_n(address, &compare, val, false,                 \
                                __ATOMIC_RELAXED, __ATOMIC_RELAXED);           \
    return compare;                                                            \
  }
__KCHECK_ATOMIC_INTEGER(int)
__KCHECK_ATOMIC_INTEGER(unsigned int)
__KCHECK_ATOMIC_INTEGER(long long)
__KCHECK_ATOMIC_INTEGER(unsigned long long)
#undef __KCHECK_ATOMIC_INTEGER
__KCHECK_ATOMIC_RMW(atomicAdd, float, __atomic_fetch_add)
__KCHECK_ATOMIC_RMW(atomicAdd, double, __atomic_fetch_add)
__KCHECK_ATOMIC_RMW(atomicSub, float, __atomic_fetch_sub)
__KCHECK_ATOMIC_RMW(atomicMin, float, __atomic_fetch_min)
__KCHECK_ATOMIC_RMW(atomicMax, float, __atomic_fetch_max)
__KCHECK_ATOMIC_RMW(atomicMin, double, __atomic_fetch_min)
__KCHECK_ATOMIC_RMW(atomicMax, double, __atomic_fetch_max)
#undef __KCHECK_ATOMIC_RMW
__KCHECK_DEV float atomicExch(float *address, float val) {
  float old;
  __atomic_exchange(address, &val, &old,
                    __ATOMIC_RELAXED); // no _n form for float
  return old;
}
__KCHECK_DEV unsigned short
atomicCAS(unsigned short *address, unsigned short compare, unsigned short val) {
  __atomic_compare_exchange_n(address, &compare, val, false, __ATOMIC_RELAXED,
                              __ATOMIC_RELAXED);
  return compare;
}
// Wrapping increment/decrement: atomicrmw uinc_wrap / udec_wrap.
__KCHECK_DEV unsigned int atomicInc(unsigned int *address, unsigned int val) {
  return __nvvm_atom_inc_gen_ui(address, val);
}
__KCHECK_DEV unsigned int atomicDec(unsigned int *address, unsigned int val) {
  return __nvvm_atom_dec_gen_ui(address, val);
}
// The _block and _system scopes count the same memory traffic as the default
// scope.
#define __KCHECK_SCOPED(name)                                                  \
  template <class T, class... Rest>                                            \
  __KCHECK_DEV auto name##_block(T *address, Rest... rest) {                   \
    return name(address, rest...);                                             \
  }                                                                            \
  template <class T, class... Rest>                                            \
  __KCHECK_DEV auto name##_system(T *address, Rest... rest) {                  \
    return name(address, rest...);                                             \
  }
__KCHECK_SCOPED(atomicAdd)
__KCHECK_SCOPED(atomicSub)
__KCHECK_SCOPED(atomicExch)
__KCHECK_SCOPED(atomicMin)
__KCHECK_SCOPED(atomicMax)
__KCHECK_SCOPED(atomicAnd)
__KCHECK_SCOPED(atomicOr)
__KCHECK_SCOPED(atomicXor)
__KCHECK_SCOPED(atomicCAS)
#undef __KCHECK_SCOPED

#undef __KCHECK_HD
#undef __KCHECK_DEV
