// kcheck stub: the runtime API (declarations only) plus its C++ convenience
// templates.
#pragma once
#ifdef __clang__
#pragma clang system_header // the stubs stand for system headers
#endif
#include "cuda_runtime_api.h"
#include "kcheck_cuda_shim.h"

// What the toolkit's cuda_runtime.h brings with it (crt/common_functions.h,
// math_functions.h, its C++ launch templates): programs call memset,
// malloc, rand, clock, printf and std::forward without including them.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <utility>

template <class T> inline cudaError_t cudaMalloc(T **devPtr, size_t size) {
  return ::cudaMalloc((void **)(void *)devPtr, size);
}
template <class T>
inline cudaError_t cudaMallocManaged(T **devPtr, size_t size,
                                     unsigned int flags = cudaMemAttachGlobal) {
  return ::cudaMallocManaged((void **)(void *)devPtr, size, flags);
}
template <class T>
inline cudaError_t cudaMallocHost(T **ptr, size_t size,
                                  unsigned int flags = 0) {
  return ::cudaHostAlloc((void **)(void *)ptr, size, flags);
}
template <class T>
inline cudaError_t cudaHostAlloc(T **ptr, size_t size, unsigned int flags) {
  return ::cudaHostAlloc((void **)(void *)ptr, size, flags);
}
template <class T>
inline cudaError_t
cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count,
                   size_t offset = 0,
                   enum cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return ::cudaMemcpyToSymbol((const void *)&symbol, src, count, offset, kind);
}
template <class T>
inline cudaError_t
cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count,
                     size_t offset = 0,
                     enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  return ::cudaMemcpyFromSymbol(dst, (const void *)&symbol, count, offset,
                                kind);
}
template <class T>
inline cudaError_t cudaGetSymbolAddress(void **devPtr, const T &symbol) {
  return ::cudaGetSymbolAddress(devPtr, (const void *)&symbol);
}
template <class T>
inline cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr,
                                         T *entry) {
  return ::cudaFuncGetAttributes(attr, (const void *)entry);
}
template <class T>
inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(
    int *numBlocks, T func, int blockSize, size_t dynamicSMemSize) {
  return ::cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      numBlocks, (const void *)func, blockSize, dynamicSMemSize);
}
