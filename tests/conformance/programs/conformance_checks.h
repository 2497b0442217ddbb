// The check macros of the conformance programs: CHECK a condition, OK a
// runtime call's status, IS a call's status against the one expected,
// PROBE_ERROR print a call's status as a `probe` line for the GPU's to be
// compared with. Each failed check prints one line; main prints the counts.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>

static int checks = 0, failures = 0;
#define CHECK(cond, what)                                                      \
  do {                                                                         \
    ++checks;                                                                  \
    if (!(cond)) {                                                             \
      ++failures;                                                              \
      std::printf("FAILED %s (line %d)\n", what, __LINE__);                    \
    }                                                                          \
  } while (0)
#define OK(call)                                                               \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    ++checks;                                                                  \
    if (e_ != cudaSuccess) {                                                   \
      ++failures;                                                              \
      std::printf("FAILED %s is %s (line %d)\n", #call, cudaGetErrorName(e_),  \
                  __LINE__);                                                   \
    }                                                                          \
  } while (0)
#define IS(call, error)                                                        \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    ++checks;                                                                  \
    if (e_ != error) {                                                         \
      ++failures;                                                              \
      std::printf("FAILED %s is %s, not " #error " (line %d)\n", #call,        \
                  cudaGetErrorName(e_), __LINE__);                             \
    }                                                                          \
  } while (0)
#define PROBE_ERROR(name, call)                                                \
  std::printf("probe %s %d\n", name, int(call));                               \
  cudaGetLastError()
