// Shared by kernels/toolkit/*.cu: error checks and buffer helpers.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call,             \
              cudaGetErrorString(err_));                                       \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)
#define CHECK_LAUNCH()                                                         \
  do {                                                                         \
    CHECK(cudaGetLastError());                                                 \
    CHECK(cudaDeviceSynchronize());                                            \
  } while (0)

// A device buffer of n elements, filled with small deterministic values.
template <class T> T *deviceBuffer(size_t n, int seed) {
  T *h = (T *)malloc(n * sizeof(T));
  for (size_t i = 0; i < n; ++i)
    h[i] = T((i * 7 + seed) % 13);
  T *d;
  CHECK(cudaMalloc(&d, n * sizeof(T)));
  CHECK(cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice));
  free(h);
  return d;
}

// The sum of a device buffer, printed so that each program checks a value.
template <class T> double deviceSum(const T *d, size_t n) {
  T *h = (T *)malloc(n * sizeof(T));
  CHECK(cudaMemcpy(h, d, n * sizeof(T), cudaMemcpyDeviceToHost));
  double s = 0;
  for (size_t i = 0; i < n; ++i)
    s += double(h[i]);
  free(h);
  return s;
}
