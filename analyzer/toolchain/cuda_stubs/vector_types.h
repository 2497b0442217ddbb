// kcheck stub: CUDA's vector types with CUDA's alignment, dim3, and make_*.
// Layout and alignment must match nvcc's, because the simulator's addresses and
// the load/store widths (float4 -> one 16-byte access) depend on them.
#pragma once
#ifdef __clang__
#pragma clang system_header // the stubs stand for system headers
#endif

#ifndef __host__
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#endif

#define __KCHECK_VEC1(T, N, A)                                                 \
  struct __attribute__((aligned(A))) N##1 {                                    \
    T x;                                                                       \
  };
#define __KCHECK_VEC2(T, N, A)                                                 \
  struct __attribute__((aligned(A))) N##2 {                                    \
    T x, y;                                                                    \
  };
#define __KCHECK_VEC3(T, N)                                                    \
  struct N##3 {                                                                \
    T x, y, z;                                                                 \
  };
#define __KCHECK_VEC4(T, N, A)                                                 \
  struct __attribute__((aligned(A))) N##4 {                                    \
    T x, y, z, w;                                                              \
  };
#define __KCHECK_VECS(T, N, A1, A2, A4)                                        \
  __KCHECK_VEC1(T, N, A1)                                                      \
  __KCHECK_VEC2(T, N, A2) __KCHECK_VEC3(T, N) __KCHECK_VEC4(T, N, A4)

__KCHECK_VECS(signed char, char, 1, 2, 4)
__KCHECK_VECS(unsigned char, uchar, 1, 2, 4)
__KCHECK_VECS(short, short, 2, 4, 8)
__KCHECK_VECS(unsigned short, ushort, 2, 4, 8)
__KCHECK_VECS(int, int, 4, 8, 16)
__KCHECK_VECS(unsigned int, uint, 4, 8, 16)
__KCHECK_VECS(long, long, 8, 16, 16)
__KCHECK_VECS(unsigned long, ulong, 8, 16, 16)
__KCHECK_VECS(long long, longlong, 8, 16, 16)
__KCHECK_VECS(unsigned long long, ulonglong, 8, 16, 16)
__KCHECK_VECS(float, float, 4, 8, 16)
__KCHECK_VECS(double, double, 8, 16, 16)

#undef __KCHECK_VECS
#undef __KCHECK_VEC1
#undef __KCHECK_VEC2
#undef __KCHECK_VEC3
#undef __KCHECK_VEC4

#define __KCHECK_MAKE1(T, N)                                                   \
  __host__ __device__ inline N##1 make_##N##1(T x) {                           \
    N##1 r;                                                                    \
    r.x = x;                                                                   \
    return r;                                                                  \
  }
#define __KCHECK_MAKE2(T, N)                                                   \
  __host__ __device__ inline N##2 make_##N##2(T x, T y) {                      \
    N##2 r;                                                                    \
    r.x = x;                                                                   \
    r.y = y;                                                                   \
    return r;                                                                  \
  }
#define __KCHECK_MAKE3(T, N)                                                   \
  __host__ __device__ inline N##3 make_##N##3(T x, T y, T z) {                 \
    N##3 r;                                                                    \
    r.x = x;                                                                   \
    r.y = y;                                                                   \
    r.z = z;                                                                   \
    return r;                                                                  \
  }
#define __KCHECK_MAKE4(T, N)                                                   \
  __host__ __device__ inline N##4 make_##N##4(T x, T y, T z, T w) {            \
    N##4 r;                                                                    \
    r.x = x;                                                                   \
    r.y = y;                                                                   \
    r.z = z;                                                                   \
    r.w = w;                                                                   \
    return r;                                                                  \
  }
#define __KCHECK_MAKES(T, N)                                                   \
  __KCHECK_MAKE1(T, N)                                                         \
  __KCHECK_MAKE2(T, N) __KCHECK_MAKE3(T, N) __KCHECK_MAKE4(T, N)

__KCHECK_MAKES(signed char, char)
__KCHECK_MAKES(unsigned char, uchar)
__KCHECK_MAKES(short, short)
__KCHECK_MAKES(unsigned short, ushort)
__KCHECK_MAKES(int, int)
__KCHECK_MAKES(unsigned int, uint)
__KCHECK_MAKES(long, long)
__KCHECK_MAKES(unsigned long, ulong)
__KCHECK_MAKES(long long, longlong)
__KCHECK_MAKES(unsigned long long, ulonglong)
__KCHECK_MAKES(float, float)
__KCHECK_MAKES(double, double)

#undef __KCHECK_MAKES
#undef __KCHECK_MAKE1
#undef __KCHECK_MAKE2
#undef __KCHECK_MAKE3
#undef __KCHECK_MAKE4

struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1,
                                     unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  __host__ __device__ constexpr operator uint3() const {
    return uint3{x, y, z};
  }
};
typedef struct dim3 dim3;
