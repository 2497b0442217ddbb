// kcheck's CUDA runtime, memory: allocation, copies and sets, symbols,
// page-locked, managed and registered host memory (see CudaRuntime.h).
#include "host/CudaGraph.h"

#include "core/DeviceFacts.h"
#include "core/RuntimeRules.h"
#include "simulator/engine/AddressWindows.h"

#include <algorithm>
#include <cstring>

namespace kcheck::host::entry {

namespace {

cudaError_t apiMalloc(void **devPtr, size_t size) {
  if (cudaError_t e = sticky())
    return e;
  if (!devPtr)
    return fail(cudaErrorInvalidValue);
  if (size == 0) { // as the H200 answers: success, and a null pointer
    *devPtr = nullptr;
    return cudaSuccess;
  }
  if (core::CudaError e =
          core::deviceAllocationError(rt().arch(), size, rt().deviceBytesInUse);
      e != core::CudaError::cudaSuccess)
    return fail(cudaError_t(e));
  uint64_t base = rt().device().memory().allocate(size, "cudaMalloc");
  rt().deviceBytesInUse += size;
  *devPtr = reinterpret_cast<void *>(base);
  return cudaSuccess;
}
cudaError_t apiFree(void *ptr) {
  if (cudaError_t e = sticky())
    return e;
  if (!ptr)
    return cudaSuccess;
  // The base of a live device or managed allocation; anything else (host
  // memory, an address inside an allocation, a second free) is an invalid
  // value, as the H200 answers. DeviceMemory keeps every allocation
  // (addresses are never reused), so a use after free reads stale bytes
  // instead of faulting.
  const sim::DeviceMemory::Allocation *a =
      rt().device().memory().find(reinterpret_cast<uint64_t>(ptr), 1);
  if (!a || a->base != reinterpret_cast<uint64_t>(ptr) ||
      (a->label != "cudaMalloc" && a->label != "cudaMallocAsync" &&
       a->label != "cudaMallocManaged") ||
      !rt().freed.insert(a->base).second)
    return fail(cudaErrorInvalidValue);
  if (a->label != "cudaMallocManaged") // host-backed: not device memory
    rt().deviceBytesInUse -= std::min(a->size, rt().deviceBytesInUse);
  return cudaSuccess;
}

// Page-locked, managed and registered host memory: with unified addressing
// (every 64-bit CUDA device since Fermi) the kernel dereferences the host's
// own pointer, so each is a host-backed allocation of DeviceMemory at that
// address. kcheck maps their pages itself, at addresses no other allocation
// or address window uses.
cudaError_t hostBacked(void **ptr, size_t size, const char *label) {
  if (cudaError_t e = sticky())
    return e;
  if (!ptr)
    return fail(cudaErrorInvalidValue);
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
cudaError_t apiHostAlloc(void **ptr, size_t size, unsigned flags) {
  // cudaHostAllocPortable 1, Mapped 2, WriteCombined 4.
  if (flags & ~7u)
    return fail(cudaErrorInvalidValue);
  cudaError_t e = hostBacked(ptr, size, "cudaHostAlloc");
  if (e == cudaSuccess)
    rt().hostAllocFlags[*ptr] = flags;
  return e;
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
// Which stream managed memory is attached to is a performance hint:
// nothing to do when every access is simulated at once (the other hints:
// CudaRuntimeManaged.cpp).
cudaError_t apiMemHint() { return cudaSuccess; }
cudaError_t apiMallocPitch(void **devPtr, size_t *pitch, size_t width,
                           size_t height) {
  *pitch = core::pitchedRowBytes(width);
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
// Work on a capturing stream becomes a node (CudaRuntimeCapture.cpp).
cudaError_t apiMemcpyAsync(void *dst, const void *src, size_t n,
                           cudaMemcpyKind kind, cudaStream_t stream) {
  if (capturing(stream))
    return capture(stream, graph::copyWork1D(dst, src, n, kind));
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
cudaMemsetParams memsetRows(void *dst, size_t pitch, int value, size_t width,
                            size_t height) {
  cudaMemsetParams p{};
  p.dst = dst;
  p.pitch = pitch;
  p.value = unsigned(uint8_t(value));
  p.elementSize = 1;
  p.width = width;
  p.height = height;
  return p;
}
cudaError_t apiMemsetAsync(void *devPtr, int value, size_t n,
                           cudaStream_t stream) {
  if (capturing(stream))
    return capture(stream,
                   graph::memsetWork(memsetRows(devPtr, n, value, n, 1)));
  return apiMemset(devPtr, value, n);
}
cudaError_t apiMemcpyToSymbol(const void *symbol, const void *src, size_t n,
                              size_t offset, cudaMemcpyKind kind) {
  std::optional<uint64_t> d = rt().variableAddress(symbol, offset, n);
  if (!d) // past the end of a symbol: invalid value, as the H200 answers
    return fail(rt().variables.count(symbol) ? cudaErrorInvalidValue
                                             : cudaErrorInvalidSymbol);
  if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice &&
      kind != cudaMemcpyDefault)
    return fail(cudaErrorInvalidMemcpyDirection);
  return copy(reinterpret_cast<void *>(*d), src, n, cudaMemcpyDefault);
}
cudaError_t apiMemcpyToSymbolAsync(const void *symbol, const void *src,
                                   size_t n, size_t offset, cudaMemcpyKind kind,
                                   cudaStream_t stream) {
  if (capturing(stream)) {
    std::optional<uint64_t> d = rt().variableAddress(symbol, offset, n);
    if (!d)
      return fail(cudaErrorInvalidSymbol);
    return capture(
        stream, graph::copyWork1D(reinterpret_cast<void *>(*d), src, n, kind));
  }
  return apiMemcpyToSymbol(symbol, src, n, offset, kind);
}
cudaError_t apiMemcpyFromSymbol(void *dst, const void *symbol, size_t n,
                                size_t offset, cudaMemcpyKind kind) {
  std::optional<uint64_t> s = rt().variableAddress(symbol, offset, n);
  if (!s)
    return fail(rt().variables.count(symbol) ? cudaErrorInvalidValue
                                             : cudaErrorInvalidSymbol);
  if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice &&
      kind != cudaMemcpyDefault)
    return fail(cudaErrorInvalidMemcpyDirection);
  return copy(dst, reinterpret_cast<const void *>(*s), n, cudaMemcpyDefault);
}
cudaError_t apiMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t n,
                                     size_t offset, cudaMemcpyKind kind,
                                     cudaStream_t stream) {
  if (capturing(stream)) {
    std::optional<uint64_t> s = rt().variableAddress(symbol, offset, n);
    if (!s)
      return fail(cudaErrorInvalidSymbol);
    return capture(
        stream, graph::copyWork1D(dst, reinterpret_cast<void *>(*s), n, kind));
  }
  return apiMemcpyFromSymbol(dst, symbol, n, offset, kind);
}
cudaError_t apiGetSymbolAddress(void **devPtr, const void *symbol) {
  std::optional<uint64_t> a = rt().variableAddress(symbol, 0, 0);
  if (!a)
    return fail(cudaErrorInvalidSymbol);
  *devPtr = reinterpret_cast<void *>(*a);
  return cudaSuccess;
}
cudaError_t apiMemGetInfo(size_t *free, size_t *total) {
  if (!free || !total)
    return fail(cudaErrorInvalidValue);
  *total = size_t(core::deviceFacts(rt().arch()).totalGlobalMem);
  *free = *total;
  return cudaSuccess;
}

// What a pointer is, as cudaPointerGetAttributes answers on the H200 for
// each kind (docs/validation/data/h200-runtime-facts.tsv): device memory
// (allocations, pools, symbols) type 2 with no host pointer; page-locked,
// mapped and registered host memory type 1 and managed memory type 3, both
// at the same address on both sides; anything else unregistered (type 0,
// device -2, the host pointer itself). The toolkit's struct has a reserved
// tail after these four fields, left as the caller had it.
struct PointerAttributes {
  int type, device;
  void *devicePointer, *hostPointer;
};
cudaError_t apiPointerGetAttributes(PointerAttributes *a, const void *ptr) {
  if (!a)
    return fail(cudaErrorInvalidValue);
  const sim::DeviceMemory::Allocation *found =
      ptr ? rt().device().memory().find(reinterpret_cast<uint64_t>(ptr), 1)
          : nullptr;
  void *p = const_cast<void *>(ptr);
  if (!found) {
    *a = {0, -2, nullptr, p};
    if (!ptr)
      a->devicePointer = nullptr;
    return cudaSuccess;
  }
  bool host =
      rt().device().memory().hostBacked(reinterpret_cast<uint64_t>(ptr));
  if (!host)
    *a = {2, 0, p, nullptr};
  else
    *a = {found->label == "cudaMallocManaged" ? 3 : 1, 0, p, p};
  return cudaSuccess;
}
cudaError_t apiHostGetFlags(unsigned *flags, void *host) {
  if (!flags)
    return fail(cudaErrorInvalidValue);
  const sim::DeviceMemory::Allocation *a =
      rt().device().memory().find(reinterpret_cast<uint64_t>(host), 1);
  if (!a || (a->label != "cudaHostAlloc" && a->label != "cudaMallocHost"))
    return fail(cudaErrorInvalidValue);
  auto it = rt().hostAllocFlags.find(reinterpret_cast<void *>(a->base));
  *flags = it != rt().hostAllocFlags.end() ? it->second : 0;
  return cudaSuccess;
}
cudaError_t apiGetSymbolSize(size_t *size, const void *symbol) {
  auto it = rt().variables.find(symbol);
  if (it == rt().variables.end())
    return fail(cudaErrorInvalidSymbol);
  if (!size)
    return fail(cudaErrorInvalidValue);
  *size = it->second.bytes;
  return cudaSuccess;
}
// One device: a peer copy is a copy within it.
cudaError_t apiMemcpyPeer(void *dst, int dstDevice, const void *src,
                          int srcDevice, size_t n) {
  if (dstDevice != 0 || srcDevice != 0)
    return fail(cudaErrorInvalidDevice);
  return copy(dst, src, n, cudaMemcpyDeviceToDevice);
}
cudaError_t apiMemcpyPeerAsync(void *dst, int dstDevice, const void *src,
                               int srcDevice, size_t n, cudaStream_t stream) {
  if (capturing(stream) && dstDevice == 0 && srcDevice == 0)
    return capture(stream,
                   graph::copyWork1D(dst, src, n, cudaMemcpyDeviceToDevice));
  return apiMemcpyPeer(dst, dstDevice, src, srcDevice, n);
}

// Pitched 2D and 3D memory. cudaPitchedPtr, cudaExtent, cudaPos and
// cudaMemcpy3DParms as driver_types.h lays them out; a cudaArray in a 3D
// copy is a texture resource, which kcheck does not simulate yet.
using PitchedPtr = cudaPitchedPtr;
using Extent = cudaExtent;
using Pos = cudaPos;
using Memcpy3DParms = cudaMemcpy3DParms;

cudaError_t apiMalloc3D(PitchedPtr *p, Extent e) {
  if (!p)
    return fail(cudaErrorInvalidValue);
  size_t pitch = core::pitchedRowBytes(e.width);
  void *base = nullptr;
  if (cudaError_t err = apiMalloc(&base, pitch * e.height * e.depth))
    return err;
  *p = {base, pitch, e.width, e.height};
  return cudaSuccess;
}
cudaError_t apiMemcpy2DAsync(void *dst, size_t dpitch, const void *src,
                             size_t spitch, size_t width, size_t height,
                             cudaMemcpyKind kind, cudaStream_t stream) {
  if (capturing(stream)) {
    cudaMemcpy3DParms p{};
    p.srcPtr = {const_cast<void *>(src), spitch, width, height};
    p.dstPtr = {dst, dpitch, width, height};
    p.extent = {width, height, 1};
    p.kind = kind;
    return capture(stream, graph::copyWork(p));
  }
  return apiMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}
cudaError_t apiMemset2D(void *ptr, size_t pitch, int value, size_t width,
                        size_t height) {
  if (width > pitch && height > 1)
    return fail(cudaErrorInvalidValue);
  for (size_t row = 0; row < height; ++row)
    if (cudaError_t e =
            apiMemset(static_cast<char *>(ptr) + row * pitch, value, width))
      return e;
  return cudaSuccess;
}
cudaError_t apiMemset2DAsync(void *ptr, size_t pitch, int value, size_t width,
                             size_t height, cudaStream_t stream) {
  if (capturing(stream))
    return capture(stream, graph::memsetWork(
                               memsetRows(ptr, pitch, value, width, height)));
  return apiMemset2D(ptr, pitch, value, width, height);
}
cudaError_t apiMemset3D(PitchedPtr p, int value, Extent e) {
  for (size_t z = 0; z < e.depth; ++z)
    if (cudaError_t err =
            apiMemset2D(static_cast<char *>(p.ptr) + z * p.pitch * p.ysize,
                        p.pitch, value, e.width, e.height))
      return err;
  return cudaSuccess;
}
cudaError_t apiMemset3DAsync(PitchedPtr p, int value, Extent e,
                             cudaStream_t stream) {
  // Captured, one memset node per slice, one after another.
  for (size_t z = 0; capturing(stream) && z < e.depth; ++z)
    if (cudaError_t err = capture(
            stream, graph::memsetWork(memsetRows(
                        static_cast<char *>(p.ptr) + z * p.pitch * p.ysize,
                        p.pitch, value, e.width, e.height))))
      return err;
  if (capturing(stream))
    return cudaSuccess;
  return apiMemset3D(p, value, e);
}
cudaError_t apiMemcpy3D(const Memcpy3DParms *m) {
  if (!m)
    return fail(cudaErrorInvalidValue);
  // A CUDA array side is pitched memory (its texels row by row), whose
  // position and the extent count elements, not bytes (cudaMemcpy3D's
  // documentation).
  PitchedPtr src = m->srcPtr, dst = m->dstPtr;
  Pos srcPos = m->srcPos, dstPos = m->dstPos;
  Extent e = m->extent; // in bytes for linear memory
  cudaMemcpyKind kind = m->kind;
  uint64_t elementBytes = 0;
  auto side = [&](cudaArray_t array, PitchedPtr &p, Pos &pos) {
    if (!array)
      return true;
    uint64_t bytes = 0;
    Extent size;
    if (!arrayAsPitched(array, p, bytes, size) ||
        (elementBytes && bytes != elementBytes))
      return false;
    elementBytes = bytes;
    if (pos.x + e.width > size.width ||
        pos.y + std::max<size_t>(e.height, 1) > size.height ||
        pos.z + std::max<size_t>(e.depth, 1) > size.depth)
      return false;
    pos.x *= bytes;
    return true;
  };
  if ((m->srcArray && m->srcPtr.ptr) || (m->dstArray && m->dstPtr.ptr) ||
      !side(m->srcArray, src, srcPos) || !side(m->dstArray, dst, dstPos))
    return fail(cudaErrorInvalidValue);
  if (elementBytes) {
    e.width *= elementBytes;
    if (kind == cudaMemcpyDefault)
      kind = cudaMemcpyKind((m->srcArray || isDevice(src.ptr, 1) ? 2 : 0) +
                            (m->dstArray || isDevice(dst.ptr, 1) ? 1 : 0));
  }
  if (e.width > src.pitch || e.width > dst.pitch)
    return fail(cudaErrorInvalidPitchValue);
  auto at = [](const PitchedPtr &p, const Pos &pos, size_t y, size_t z) {
    return static_cast<char *>(p.ptr) +
           ((pos.z + z) * p.ysize + pos.y + y) * p.pitch + pos.x;
  };
  for (size_t z = 0; z < e.depth; ++z)
    for (size_t y = 0; y < e.height; ++y)
      if (cudaError_t err =
              copy(at(dst, dstPos, y, z), at(src, srcPos, y, z), e.width, kind))
        return err;
  return cudaSuccess;
}
cudaError_t apiMemcpy3DAsync(const Memcpy3DParms *m, cudaStream_t stream) {
  if (m && capturing(stream))
    return capture(stream, graph::copyWork(*m));
  return apiMemcpy3D(m);
}
// cudaMemcpy3DPeerParms: cudaMemcpy3DParms with each side's device and no
// kind (device to device).
struct Memcpy3DPeerParms {
  cudaArray_t srcArray;
  Pos srcPos;
  PitchedPtr srcPtr;
  int srcDevice;
  cudaArray_t dstArray;
  Pos dstPos;
  PitchedPtr dstPtr;
  int dstDevice;
  Extent extent;
};
cudaError_t apiMemcpy3DPeer(const Memcpy3DPeerParms *p) {
  if (!p)
    return fail(cudaErrorInvalidValue);
  if (p->srcDevice != 0 || p->dstDevice != 0)
    return fail(cudaErrorInvalidDevice);
  Memcpy3DParms m{p->srcArray, p->srcPos, p->srcPtr, p->dstArray,
                  p->dstPos,   p->dstPtr, p->extent, cudaMemcpyDeviceToDevice};
  return apiMemcpy3D(&m);
}
cudaError_t apiMemcpy3DPeerAsync(const Memcpy3DPeerParms *p,
                                 cudaStream_t stream) {
  if (p && p->srcDevice == 0 && p->dstDevice == 0 && capturing(stream)) {
    Memcpy3DParms m{
        p->srcArray, p->srcPos, p->srcPtr, p->dstArray,
        p->dstPos,   p->dstPtr, p->extent, cudaMemcpyDeviceToDevice};
    return capture(stream, graph::copyWork(m));
  }
  return apiMemcpy3DPeer(p);
}

} // namespace

cudaError_t copy3D(const cudaMemcpy3DParms &p) { return apiMemcpy3D(&p); }

EntryPoints memoryEntryPoints() {
  return {
      {"cudaMalloc", serialized<apiMalloc>()},
      {"cudaFree", serialized<apiFree>()},
      {"cudaMallocHost", serialized<apiMallocHost>()},
      {"cudaHostAlloc", serialized<apiHostAlloc>()},
      {"cudaFreeHost", serialized<apiFreeHost>()},
      {"cudaMallocManaged", serialized<apiMallocManaged>()},
      {"cudaHostRegister", serialized<apiHostRegister>()},
      {"cudaHostUnregister", serialized<apiHostUnregister>()},
      {"cudaHostGetDevicePointer", serialized<apiHostGetDevicePointer>()},
      {"cudaStreamAttachMemAsync", serialized<apiMemHint>()},
      {"cudaMallocPitch", serialized<apiMallocPitch>()},
      {"cudaMemcpy", serialized<apiMemcpy>()},
      {"cudaMemcpyAsync", serialized<apiMemcpyAsync>()},
      {"cudaMemcpy2D", serialized<apiMemcpy2D>()},
      {"cudaMemcpy2DAsync", serialized<apiMemcpy2DAsync>()},
      {"cudaMalloc3D", serialized<apiMalloc3D>()},
      {"cudaMemcpy3D", serialized<apiMemcpy3D>()},
      {"cudaMemcpy3DAsync", serialized<apiMemcpy3DAsync>()},
      {"cudaMemcpy3DPeer", serialized<apiMemcpy3DPeer>()},
      {"cudaMemcpy3DPeerAsync", serialized<apiMemcpy3DPeerAsync>()},
      {"cudaMemcpyFromSymbolAsync", serialized<apiMemcpyFromSymbolAsync>()},
      {"cudaMemset2D", serialized<apiMemset2D>()},
      {"cudaMemset2DAsync", serialized<apiMemset2DAsync>()},
      {"cudaMemset3D", serialized<apiMemset3D>()},
      {"cudaMemset3DAsync", serialized<apiMemset3DAsync>()},
      {"cudaMemset", serialized<apiMemset>()},
      {"cudaMemsetAsync", serialized<apiMemsetAsync>()},
      {"cudaMemcpyToSymbol", serialized<apiMemcpyToSymbol>()},
      {"cudaMemcpyToSymbolAsync", serialized<apiMemcpyToSymbolAsync>()},
      {"cudaMemcpyFromSymbol", serialized<apiMemcpyFromSymbol>()},
      {"cudaGetSymbolAddress", serialized<apiGetSymbolAddress>()},
      {"cudaMemGetInfo", serialized<apiMemGetInfo>()},
      {"cudaPointerGetAttributes", serialized<apiPointerGetAttributes>()},
      {"cudaHostGetFlags", serialized<apiHostGetFlags>()},
      {"cudaGetSymbolSize", serialized<apiGetSymbolSize>()},
      {"cudaMemcpyPeer", serialized<apiMemcpyPeer>()},
      {"cudaMemcpyPeerAsync", serialized<apiMemcpyPeerAsync>()},
  };
}

} // namespace kcheck::host::entry
