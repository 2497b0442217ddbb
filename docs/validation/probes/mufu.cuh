// The special-function instructions the MUFU probes run over bit patterns:
// ex2.approx / lg2.approx, with or without .ftz (MUFU.EX2 / MUFU.LG2).
#pragma once
#include <cstdint>

enum class Mufu { Ex2, Lg2 };

template <Mufu kOp>
__global__ void mufuOf(const uint32_t *in, float *out, int n, int ftz) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float x = __uint_as_float(in[i]), r;
  if (kOp == Mufu::Ex2 && ftz)
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  else if (kOp == Mufu::Ex2)
    asm("ex2.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
  else if (ftz)
    asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  else
    asm("lg2.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
  out[i] = r;
}
