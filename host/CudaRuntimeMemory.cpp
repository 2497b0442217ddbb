// kcheck's CUDA runtime, memory: allocation, copies and sets, symbols,
// page-locked, managed and registered host memory (see CudaRuntime.h).
#include "host/CudaRuntimeEntry.h"

#include "simulator/engine/AddressWindows.h"

#include <algorithm>
#include <cstring>

namespace kcheck::host::entry {

namespace {

cudaError_t apiMalloc(void **devPtr, size_t size) {
  if (cudaError_t e = sticky())
    return e;
  uint64_t base = rt().device().memory().allocate(size, "cudaMalloc");
  *devPtr = reinterpret_cast<void *>(base);
  return cudaSuccess;
}
cudaError_t apiFree(void *) {
  // DeviceMemory keeps every allocation (addresses are never reused), so a
  // use after free reads stale bytes instead of faulting.
  return sticky();
}

// Page-locked, managed and registered host memory: with unified addressing
// (every 64-bit CUDA device since Fermi) the kernel dereferences the host's
// own pointer, so each is a host-backed allocation of DeviceMemory at that
// address. kcheck maps their pages itself, at addresses no other allocation
// or address window uses.
cudaError_t hostBacked(void **ptr, size_t size, const char *label) {
  if (cudaError_t e = sticky())
    return e;
  void *p = rt().mapHostMemory(size);
  if (!p)
    return fail(cudaErrorMemoryAllocation);
  rt().device().memory().allocateHostBacked(p, size ? size : 1, label);
  *ptr = p;
  return cudaSuccess;
}
cudaError_t apiMallocHost(void **ptr, size_t size) {
  return hostBacked(ptr, size, "cudaMallocHost");
}
cudaError_t apiHostAlloc(void **ptr, size_t size, unsigned) {
  return hostBacked(ptr, size, "cudaHostAlloc");
}
cudaError_t apiMallocManaged(void **ptr, size_t size, unsigned) {
  if (size == 0)
    return fail(cudaErrorInvalidValue);
  return hostBacked(ptr, size, "cudaMallocManaged");
}
cudaError_t apiFreeHost(void *ptr) {
  if (!ptr)
    return cudaSuccess;
  if (!rt().unmapHostMemory(ptr))
    return fail(cudaErrorInvalidValue);
  rt().device().memory().releaseHostBacked(reinterpret_cast<uint64_t>(ptr));
  return cudaSuccess;
}
// Host memory the program allocated itself, made visible to kernels.
cudaError_t apiHostRegister(void *ptr, size_t size, unsigned) {
  sim::DeviceMemory &m = rt().device().memory();
  uint64_t a = reinterpret_cast<uint64_t>(ptr);
  if (!ptr || !size || a + size < a)
    return fail(cudaErrorInvalidValue);
  // Where the engine's shared and local windows are, a generic address is
  // not global memory (no Linux process maps there in practice).
  if (a < sim::kLocalWindowBase + sim::kWindowBytes &&
      a + size > sim::kSharedWindowBase)
    return fail(cudaErrorNotSupported);
  if (m.find(a, 1) || m.find(a + size - 1, 1))
    return fail(cudaErrorHostMemoryAlreadyRegistered);
  m.allocateHostBacked(ptr, size, "cudaHostRegister");
  return cudaSuccess;
}
cudaError_t apiHostUnregister(void *ptr) {
  sim::DeviceMemory &m = rt().device().memory();
  const sim::DeviceMemory::Allocation *a =
      m.find(reinterpret_cast<uint64_t>(ptr), 1);
  if (!a || a->label != "cudaHostRegister" ||
      a->base != reinterpret_cast<uint64_t>(ptr))
    return fail(cudaErrorHostMemoryNotRegistered);
  m.releaseHostBacked(a->base);
  return cudaSuccess;
}
cudaError_t apiHostGetDevicePointer(void **devPtr, void *host, unsigned) {
  if (!rt().device().memory().hostBacked(reinterpret_cast<uint64_t>(host)))
    return fail(cudaErrorInvalidValue);
  *devPtr = host;
  return cudaSuccess;
}
// Where managed memory lives is a performance hint: nothing to do when every
// access is simulated at once.
cudaError_t apiMemHint() { return cudaSuccess; }
cudaError_t apiMallocPitch(void **devPtr, size_t *pitch, size_t width,
                           size_t height) {
  *pitch = (width + 511) / 512 * 512; // textureAlignment
  return apiMalloc(devPtr, *pitch * height);
}

bool isDevice(const void *p, size_t n) {
  return rt().device().memory().find(reinterpret_cast<uint64_t>(p),
                                     std::max<size_t>(n, 1)) != nullptr;
}

cudaError_t copy(void *dst, const void *src, size_t n, cudaMemcpyKind kind) {
  if (cudaError_t e = sticky())
    return e;
  if (n == 0)
    return cudaSuccess;
  if (kind == cudaMemcpyDefault)
    kind = cudaMemcpyKind((isDevice(src, n) ? 2 : 0) + (isDevice(dst, n)));
  sim::DeviceMemory &m = rt().device().memory();
  uint64_t d = reinterpret_cast<uint64_t>(dst);
  uint64_t s = reinterpret_cast<uint64_t>(src);
  switch (int(kind)) {
  case cudaMemcpyHostToHost:
    std::memmove(dst, src, n);
    return cudaSuccess;
  case cudaMemcpyHostToDevice:
    return m.write(d, src, n) ? cudaSuccess : fail(cudaErrorInvalidValue);
  case cudaMemcpyDeviceToHost:
    return m.read(s, dst, n) ? cudaSuccess : fail(cudaErrorInvalidValue);
  case cudaMemcpyDeviceToDevice: {
    std::vector<uint8_t> bytes(n);
    if (!m.read(s, bytes.data(), n) || !m.write(d, bytes.data(), n))
      return fail(cudaErrorInvalidValue);
    return cudaSuccess;
  }
  default:
    return fail(cudaErrorInvalidMemcpyDirection);
  }
}

cudaError_t apiMemcpy(void *dst, const void *src, size_t n,
                      cudaMemcpyKind kind) {
  return copy(dst, src, n, kind);
}
cudaError_t apiMemcpyAsync(void *dst, const void *src, size_t n,
                           cudaMemcpyKind kind, cudaStream_t) {
  return copy(dst, src, n, kind);
}
cudaError_t apiMemcpy2D(void *dst, size_t dpitch, const void *src,
                        size_t spitch, size_t width, size_t height,
                        cudaMemcpyKind kind) {
  if (width > dpitch || width > spitch)
    return fail(cudaErrorInvalidPitchValue);
  for (size_t row = 0; row < height; ++row)
    if (cudaError_t e =
            copy(static_cast<char *>(dst) + row * dpitch,
                 static_cast<const char *>(src) + row * spitch, width, kind))
      return e;
  return cudaSuccess;
}
cudaError_t apiMemset(void *devPtr, int value, size_t n) {
  if (cudaError_t e = sticky())
    return e;
  std::vector<uint8_t> bytes(std::min<size_t>(n, 1 << 20), uint8_t(value));
  uint64_t d = reinterpret_cast<uint64_t>(devPtr);
  for (size_t done = 0; done < n; done += bytes.size())
    if (!rt().device().memory().write(d + done, bytes.data(),
                                      std::min<size_t>(bytes.size(), n - done)))
      return fail(cudaErrorInvalidValue);
  return cudaSuccess;
}
cudaError_t apiMemsetAsync(void *devPtr, int value, size_t n, cudaStream_t) {
  return apiMemset(devPtr, value, n);
}
cudaError_t apiMemcpyToSymbol(const void *symbol, const void *src, size_t n,
                              size_t offset, cudaMemcpyKind kind) {
  std::optional<uint64_t> d = rt().variableAddress(symbol, offset, n);
  if (!d)
    return fail(cudaErrorInvalidSymbol);
  if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice &&
      kind != cudaMemcpyDefault)
    return fail(cudaErrorInvalidMemcpyDirection);
  return copy(reinterpret_cast<void *>(*d), src, n, cudaMemcpyDefault);
}
cudaError_t apiMemcpyToSymbolAsync(const void *symbol, const void *src,
                                   size_t n, size_t offset, cudaMemcpyKind kind,
                                   cudaStream_t) {
  return apiMemcpyToSymbol(symbol, src, n, offset, kind);
}
cudaError_t apiMemcpyFromSymbol(void *dst, const void *symbol, size_t n,
                                size_t offset, cudaMemcpyKind kind) {
  std::optional<uint64_t> s = rt().variableAddress(symbol, offset, n);
  if (!s)
    return fail(cudaErrorInvalidSymbol);
  if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice &&
      kind != cudaMemcpyDefault)
    return fail(cudaErrorInvalidMemcpyDirection);
  return copy(dst, reinterpret_cast<const void *>(*s), n, cudaMemcpyDefault);
}
cudaError_t apiGetSymbolAddress(void **devPtr, const void *symbol) {
  std::optional<uint64_t> a = rt().variableAddress(symbol, 0, 0);
  if (!a)
    return fail(cudaErrorInvalidSymbol);
  *devPtr = reinterpret_cast<void *>(*a);
  return cudaSuccess;
}
cudaError_t apiMemGetInfo(size_t *free, size_t *total) {
  *total = size_t(80) << 30;
  *free = *total;
  return cudaSuccess;
}

} // namespace

EntryPoints memoryEntryPoints() {
  return {
      {"cudaMalloc", address(apiMalloc)},
      {"cudaFree", address(apiFree)},
      {"cudaMallocHost", address(apiMallocHost)},
      {"cudaHostAlloc", address(apiHostAlloc)},
      {"cudaFreeHost", address(apiFreeHost)},
      {"cudaMallocManaged", address(apiMallocManaged)},
      {"cudaHostRegister", address(apiHostRegister)},
      {"cudaHostUnregister", address(apiHostUnregister)},
      {"cudaHostGetDevicePointer", address(apiHostGetDevicePointer)},
      {"cudaMemPrefetchAsync", address(apiMemHint)},
      {"cudaMemAdvise", address(apiMemHint)},
      {"cudaStreamAttachMemAsync", address(apiMemHint)},
      {"cudaMallocPitch", address(apiMallocPitch)},
      {"cudaMemcpy", address(apiMemcpy)},
      {"cudaMemcpyAsync", address(apiMemcpyAsync)},
      {"cudaMemcpy2D", address(apiMemcpy2D)},
      {"cudaMemset", address(apiMemset)},
      {"cudaMemsetAsync", address(apiMemsetAsync)},
      {"cudaMemcpyToSymbol", address(apiMemcpyToSymbol)},
      {"cudaMemcpyToSymbolAsync", address(apiMemcpyToSymbolAsync)},
      {"cudaMemcpyFromSymbol", address(apiMemcpyFromSymbol)},
      {"cudaGetSymbolAddress", address(apiGetSymbolAddress)},
      {"cudaMemGetInfo", address(apiMemGetInfo)},
  };
}

} // namespace kcheck::host::entry
