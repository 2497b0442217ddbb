// The C entry points of kcheck's CUDA runtime (see CudaRuntime.h), with the
// signatures of kcheck's CUDA stub headers. JIT'd host code is compiled
// against those or the toolkit's: the functions here take only what both
// lay out alike (scalars, pointers, dim3, the enums' values); a struct whose
// layout differs (cudaDeviceProp) is filled by HostGlue.cpp's code, compiled
// with the program.
#include "host/CudaRuntime.h"

#include "core/DeviceFacts.h"
#include "core/Occupancy.h"

#include "llvm/Demangle/Demangle.h"

// The stubs mark host/device functions with Clang's CUDA attributes, which
// mean nothing here.
#define __host__
#define __device__
#include "analyzer/cuda_stubs/cuda_runtime_api.h"
#undef __host__
#undef __device__

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace kcheck::host {

namespace {

constexpr int kDriverVersion = 12080; // CUDA_VERSION of the stub headers

CudaRuntime &rt() {
  if (CudaRuntime *r = CudaRuntime::current())
    return *r;
  // A thread the program started: no runtime to answer, nowhere to unwind.
  static const char message[] =
      "kcheck: error: a CUDA runtime call from a thread the program started; "
      "kcheck runs host code's CUDA calls on its main thread only\n";
  (void)!write(STDERR_FILENO, message, sizeof message - 1);
  _exit(3);
}

cudaError_t fail(cudaError_t e) {
  rt().lastError = e;
  return e;
}

core::Dim3 toDim3(dim3 d) { return {d.x, d.y, d.z}; }

// ---------------------------------------------------------------------------
// Device facts: core/DeviceFacts.h, the table the static evaluator reads too.

// cudaGetDeviceProperties is HostGlue.cpp's, compiled against the program's
// own headers; attributes are answered here, from the same table.
std::optional<int> attributeOf(int attr, const core::ArchSpec &a) {
  core::DeviceFacts f = core::deviceFacts(a);
  switch (attr) {
  case cudaDevAttrMaxThreadsPerBlock:
    return f.maxThreadsPerBlock;
  case cudaDevAttrMaxBlockDimX:
  case cudaDevAttrMaxBlockDimY:
  case cudaDevAttrMaxBlockDimZ:
    return attr == cudaDevAttrMaxBlockDimZ ? f.maxBlockDimZ
                                           : f.maxThreadsPerBlock;
  case cudaDevAttrMaxGridDimX:
  case cudaDevAttrMaxGridDimY:
  case cudaDevAttrMaxGridDimZ:
    return attr == cudaDevAttrMaxGridDimX ? f.maxGridDimX : f.maxGridDimYZ;
  case cudaDevAttrMaxSharedMemoryPerBlock:
    return int(f.sharedPerBlock);
  case cudaDevAttrTotalConstantMemory:
    return f.totalConstMem;
  case cudaDevAttrWarpSize:
    return f.warpSize;
  case cudaDevAttrMaxPitch:
    return f.memPitch;
  case cudaDevAttrMaxRegistersPerBlock:
    return f.registersPerBlock;
  case cudaDevAttrClockRate:
    return f.clockRateKHz;
  case cudaDevAttrMultiProcessorCount:
    return f.smCount;
  case cudaDevAttrL2CacheSize:
    return f.l2Bytes;
  case cudaDevAttrMaxThreadsPerMultiProcessor:
    return f.maxThreadsPerSM;
  case cudaDevAttrComputeCapabilityMajor:
    return f.major;
  case cudaDevAttrComputeCapabilityMinor:
    return f.minor;
  case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
    return int(f.sharedPerSM);
  case cudaDevAttrMaxRegistersPerMultiprocessor:
    return f.registersPerSM;
  case cudaDevAttrManagedMemory:
    return 1;
  case cudaDevAttrMaxSharedMemoryPerBlockOptin:
    return int(f.sharedPerBlockOptin);
  case cudaDevAttrMaxBlocksPerMultiprocessor:
    return f.blocksPerSM;
  default:
    return std::nullopt;
  }
}

// ---------------------------------------------------------------------------
// Errors.

const char *errorString(cudaError_t e) {
  switch (e) {
  case cudaSuccess:
    return "no error";
  case cudaErrorInvalidValue:
    return "invalid argument";
  case cudaErrorMemoryAllocation:
    return "out of memory";
  case cudaErrorInitializationError:
    return "initialization error";
  case cudaErrorInvalidConfiguration:
    return "invalid configuration argument";
  case cudaErrorInvalidSymbol:
    return "invalid device symbol";
  case cudaErrorInvalidDevicePointer:
    return "invalid device pointer";
  case cudaErrorInvalidMemcpyDirection:
    return "invalid copy direction for memcpy";
  case cudaErrorInvalidDevice:
    return "invalid device ordinal";
  case cudaErrorInvalidResourceHandle:
    return "invalid resource handle";
  case cudaErrorNotReady:
    return "device not ready";
  case cudaErrorIllegalAddress:
    return "an illegal memory access was encountered";
  case cudaErrorLaunchFailure:
    return "unspecified launch failure";
  case cudaErrorCooperativeLaunchTooLarge:
    return "too many blocks in cooperative launch";
  case cudaErrorInvalidDeviceFunction:
    return "invalid device function";
  default:
    return "unknown error";
  }
}

const char *errorName(cudaError_t e) {
  switch (e) {
  case cudaSuccess:
    return "cudaSuccess";
  case cudaErrorInvalidValue:
    return "cudaErrorInvalidValue";
  case cudaErrorMemoryAllocation:
    return "cudaErrorMemoryAllocation";
  case cudaErrorInvalidConfiguration:
    return "cudaErrorInvalidConfiguration";
  case cudaErrorInvalidSymbol:
    return "cudaErrorInvalidSymbol";
  case cudaErrorInvalidDevicePointer:
    return "cudaErrorInvalidDevicePointer";
  case cudaErrorInvalidMemcpyDirection:
    return "cudaErrorInvalidMemcpyDirection";
  case cudaErrorInvalidDevice:
    return "cudaErrorInvalidDevice";
  case cudaErrorInvalidResourceHandle:
    return "cudaErrorInvalidResourceHandle";
  case cudaErrorInvalidDeviceFunction:
    return "cudaErrorInvalidDeviceFunction";
  case cudaErrorCooperativeLaunchTooLarge:
    return "cudaErrorCooperativeLaunchTooLarge";
  default:
    return "cudaErrorUnknown";
  }
}

cudaError_t apiGetLastError() {
  cudaError_t e = cudaError_t(rt().lastError);
  rt().lastError = cudaSuccess;
  return e;
}
cudaError_t apiPeekAtLastError() { return cudaError_t(rt().lastError); }
const char *apiGetErrorString(cudaError_t e) { return errorString(e); }
const char *apiGetErrorName(cudaError_t e) { return errorName(e); }

// ---------------------------------------------------------------------------
// Device management: one device, 0.

cudaError_t apiGetDeviceCount(int *count) {
  *count = 1;
  return cudaSuccess;
}
cudaError_t apiGetDevice(int *device) {
  *device = 0;
  return cudaSuccess;
}
cudaError_t apiSetDevice(int device) {
  return device == 0 ? cudaSuccess : fail(cudaErrorInvalidDevice);
}
// The device check of HostGlue.cpp's cudaGetDeviceProperties.
cudaError_t apiCheckDevice(int device) {
  return device == 0 ? cudaSuccess : fail(cudaErrorInvalidDevice);
}
cudaError_t apiDeviceGetAttribute(int *value, cudaDeviceAttr attr, int device) {
  if (device != 0)
    return fail(cudaErrorInvalidDevice);
  std::optional<int> v = attributeOf(attr, rt().arch());
  if (!v) {
    char name[64];
    std::snprintf(name, sizeof name, "cudaDeviceGetAttribute(attribute %d)",
                  int(attr));
    rt().unsupported(name);
  }
  *value = *v;
  return cudaSuccess;
}
cudaError_t apiSucceed() { return cudaSuccess; }
cudaError_t apiSucceedUnsigned(unsigned) { return cudaSuccess; }
cudaError_t apiSucceedInt(int) { return cudaSuccess; }
cudaError_t apiVersion(int *version) {
  *version = kDriverVersion;
  return cudaSuccess;
}
cudaError_t apiFuncSetAttribute(const void *func, cudaFuncAttribute attr,
                                int value) {
  // The dynamic shared limit is what the occupancy calculator reads.
  auto it = rt().kernels.find(func);
  if (it == rt().kernels.end())
    return fail(cudaErrorInvalidDeviceFunction);
  if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize)
    rt().maxDynamicShared[it->second] = uint64_t(value);
  return cudaSuccess;
}

// ---------------------------------------------------------------------------
// Kernel queries: the occupancy calculator (core/Occupancy.h) over what the
// toolkit's compiler gave the kernel.

// The kernel `func` and its resources; stops the run, saying why, when the
// compiler's answer is unknown (a guess would size the program's grids).
std::optional<core::KernelResources> resourcesOf(const void *func,
                                                 const char *call) {
  CudaRuntime &r = rt();
  auto it = r.kernels.find(func);
  if (it == r.kernels.end())
    return std::nullopt;
  std::string why;
  std::optional<core::KernelResources> k =
      r.device().resources(it->second, why);
  if (!k) {
    Stop stop;
    stop.kind = Stop::Kind::Unsupported;
    stop.message = std::string("the program calls ") + call +
                   ", whose answer needs the registers of " +
                   llvm::demangle(it->second) + ": " + why;
    r.stop(std::move(stop));
  }
  if (auto d = r.maxDynamicShared.find(it->second);
      d != r.maxDynamicShared.end())
    k->maxDynamicSharedBytes = d->second;
  return k;
}
cudaError_t apiOccupancyWithFlags(int *numBlocks, const void *func,
                                  int blockSize, size_t dynamicShared,
                                  unsigned) {
  std::optional<core::KernelResources> k =
      resourcesOf(func, "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  if (!k)
    return fail(cudaErrorInvalidDeviceFunction);
  if (!numBlocks || blockSize <= 0)
    return fail(cudaErrorInvalidValue);
  *numBlocks =
      core::occupancy(rt().arch(), *k, blockSize, dynamicShared).blocksPerSM;
  return cudaSuccess;
}
cudaError_t apiOccupancy(int *numBlocks, const void *func, int blockSize,
                         size_t dynamicShared) {
  return apiOccupancyWithFlags(numBlocks, func, blockSize, dynamicShared, 0);
}
// cudaFuncGetAttributes itself is glue compiled with the program's headers
// (HostGlue.cpp): the struct's layout is theirs.
cudaError_t apiFuncAttributes(const void *func, long long *values) {
  std::optional<core::KernelResources> k =
      resourcesOf(func, "cudaFuncGetAttributes");
  if (!k)
    return fail(cudaErrorInvalidDeviceFunction);
  size_t i = 0;
  for (const core::FuncAttribute &a : core::funcAttributes(rt().arch(), *k))
    values[i++] = a.value;
  return cudaSuccess;
}
cudaError_t apiFuncSetCacheConfig(const void *, cudaFuncCache) {
  return cudaSuccess;
}

// ---------------------------------------------------------------------------
// Memory.

cudaError_t apiMalloc(void **devPtr, size_t size) {
  uint64_t base = rt().device().memory().allocate(size, "cudaMalloc");
  *devPtr = reinterpret_cast<void *>(base);
  return cudaSuccess;
}
cudaError_t apiFree(void *) {
  // DeviceMemory keeps every allocation (addresses are never reused), so a
  // use after free reads stale bytes instead of faulting.
  return cudaSuccess;
}
cudaError_t apiMallocHost(void **ptr, size_t size) {
  *ptr = std::malloc(size ? size : 1);
  if (!*ptr)
    return fail(cudaErrorMemoryAllocation);
  rt().hostAllocations.push_back(*ptr);
  return cudaSuccess;
}
cudaError_t apiHostAlloc(void **ptr, size_t size, unsigned) {
  return apiMallocHost(ptr, size);
}
cudaError_t apiFreeHost(void *ptr) {
  auto &owned = rt().hostAllocations;
  auto it = std::find(owned.begin(), owned.end(), ptr);
  if (it == owned.end())
    return ptr ? fail(cudaErrorInvalidValue) : cudaSuccess;
  owned.erase(it);
  std::free(ptr);
  return cudaSuccess;
}
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

// ---------------------------------------------------------------------------
// Streams and events: everything has completed when the call returns.

cudaError_t apiStreamCreate(cudaStream_t *stream) {
  rt().streams.push_back(0);
  *stream = reinterpret_cast<cudaStream_t>(&rt().streams.back());
  return cudaSuccess;
}
cudaError_t apiStreamCreateWithFlags(cudaStream_t *stream, unsigned) {
  return apiStreamCreate(stream);
}
cudaError_t apiStreamOp(cudaStream_t) { return cudaSuccess; }
cudaError_t apiStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned) {
  return cudaSuccess;
}
CudaRuntime::Event *eventOf(cudaEvent_t e) {
  for (CudaRuntime::Event &ev : rt().events)
    if (reinterpret_cast<cudaEvent_t>(&ev) == e)
      return &ev;
  return nullptr;
}
cudaError_t apiEventCreate(cudaEvent_t *event) {
  rt().events.emplace_back();
  *event = reinterpret_cast<cudaEvent_t>(&rt().events.back());
  return cudaSuccess;
}
cudaError_t apiEventCreateWithFlags(cudaEvent_t *event, unsigned) {
  return apiEventCreate(event);
}
cudaError_t apiEventRecord(cudaEvent_t event, cudaStream_t) {
  CudaRuntime::Event *e = eventOf(event);
  if (!e)
    return fail(cudaErrorInvalidResourceHandle);
  e->time = std::chrono::steady_clock::now();
  e->recorded = true;
  return cudaSuccess;
}
cudaError_t apiEventOp(cudaEvent_t event) {
  return eventOf(event) ? cudaSuccess : fail(cudaErrorInvalidResourceHandle);
}
cudaError_t apiEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end) {
  CudaRuntime::Event *a = eventOf(start), *b = eventOf(end);
  if (!a || !b)
    return fail(cudaErrorInvalidResourceHandle);
  if (!a->recorded || !b->recorded)
    return fail(cudaErrorInvalidResourceHandle);
  // Host time between the records: it includes the simulations, so it is
  // no GPU time, only a plausible non-negative one.
  *ms = std::max(
      0.0f,
      std::chrono::duration<float, std::milli>(b->time - a->time).count());
  return cudaSuccess;
}

// ---------------------------------------------------------------------------
// Registration and launches, as Clang's host code generation calls them.

void **apiRegisterFatBinary(void *fatCubin) {
  // The handle is only passed back to the calls below.
  return static_cast<void **>(fatCubin);
}
void apiRegisterFatBinaryEnd(void **) {}
void apiUnregisterFatBinary(void **) {}
int apiRegisterFunction(void **, const char *hostFun, char *deviceFun,
                        const char *, int, uint3 *, uint3 *, dim3 *, dim3 *,
                        int *) {
  rt().kernels[hostFun] = deviceFun;
  return 0;
}
void apiRegisterVar(void **, char *hostVar, char *deviceAddress, const char *,
                    int, size_t size, int constant, int) {
  rt().variables[hostVar] = {deviceAddress, size, constant != 0};
}
void apiRegisterManagedVar(void **, void **, char *, const char *, int, size_t,
                           int, int) {
  rt().unsupported("__managed__ variables (__cudaRegisterManagedVar)");
}
unsigned apiPushCallConfiguration(dim3 grid, dim3 block, size_t shared,
                                  void *stream) {
  rt().configurations.push_back({toDim3(grid), toDim3(block), shared, stream});
  return 0;
}
cudaError_t apiPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shared,
                                    void **stream) {
  auto &stack = rt().configurations;
  if (stack.empty())
    return fail(cudaErrorInvalidConfiguration);
  CudaRuntime::CallConfiguration c = stack.back();
  stack.pop_back();
  *grid = dim3(c.grid.x, c.grid.y, c.grid.z);
  *block = dim3(c.block.x, c.block.y, c.block.z);
  *shared = c.sharedBytes;
  *stream = c.stream;
  return cudaSuccess;
}
cudaError_t launchKernel(const void *func, dim3 grid, dim3 block, void **args,
                         size_t shared, bool cooperative) {
  CudaRuntime &r = rt();
  auto it = r.kernels.find(func);
  if (it == r.kernels.end())
    return fail(cudaErrorInvalidDeviceFunction);
  // What the GPU refuses before running anything.
  core::DeviceFacts f = core::deviceFacts(r.arch());
  uint64_t threads = uint64_t(block.x) * block.y * block.z;
  if (!grid.x || !grid.y || !grid.z || !threads ||
      threads > uint64_t(f.maxThreadsPerBlock) ||
      block.x > unsigned(f.maxThreadsPerBlock) ||
      block.y > unsigned(f.maxThreadsPerBlock) ||
      block.z > unsigned(f.maxBlockDimZ) || grid.x > unsigned(f.maxGridDimX) ||
      grid.y > unsigned(f.maxGridDimYZ) || grid.z > unsigned(f.maxGridDimYZ))
    return fail(cudaErrorInvalidConfiguration);
  if (shared > f.sharedPerBlockOptin)
    return fail(cudaErrorInvalidValue);
  core::LaunchConfig config{toDim3(grid), toDim3(block), shared};
  if (cooperative) {
    // Every block must be resident at once: at most the occupancy
    // calculator's blocks per SM on every SM. Without the compiler's
    // registers (no toolkit) only the SMs' thread limit is known.
    std::string why;
    std::optional<core::KernelResources> k =
        r.device().resources(it->second, why);
    if (uint64_t resident = core::maxCoResidentBlocks(
            r.arch(), k ? &*k : nullptr, int(threads), shared);
        resident && uint64_t(grid.x) * grid.y * grid.z > resident)
      return fail(cudaErrorCooperativeLaunchTooLarge);
    config.cooperative = true;
  }
  std::string error = r.device().launch(it->second, config, args);
  if (!error.empty()) {
    Stop why;
    why.kind = Stop::Kind::Failed;
    why.message = std::move(error);
    r.stop(std::move(why));
  }
  return cudaSuccess;
}
cudaError_t apiLaunchKernel(const void *func, dim3 grid, dim3 block,
                            void **args, size_t shared, cudaStream_t) {
  return launchKernel(func, grid, block, args, shared, false);
}
cudaError_t apiLaunchCooperativeKernel(const void *func, dim3 grid, dim3 block,
                                       void **args, size_t shared,
                                       cudaStream_t) {
  return launchKernel(func, grid, block, args, shared, true);
}

// ---------------------------------------------------------------------------
// Process control: host code's exit, abort and failed asserts end the run of
// host code, not kcheck, which still reports the launches made so far.

[[noreturn]] void stopWith(Stop::Kind kind, int status) {
  Stop why;
  why.kind = kind;
  why.status = status;
  rt().stop(std::move(why));
}
[[noreturn]] void procExit(int status) {
  std::fflush(nullptr); // what exit() does before the process ends
  stopWith(Stop::Kind::Exit, status);
}
[[noreturn]] void procQuickExit(int status) {
  stopWith(Stop::Kind::Exit, status);
}
[[noreturn]] void procAbort() { stopWith(Stop::Kind::Abort, 134); }
[[noreturn]] void procAssertFail(const char *assertion, const char *file,
                                 unsigned line, const char *function) {
  std::fflush(stdout);
  std::fprintf(stderr, "%s:%u: %s: Assertion `%s' failed.\n", file, line,
               function, assertion);
  procAbort();
}
[[noreturn]] void procUnsupported(const char *name) { rt().unsupported(name); }
[[noreturn]] void apiManaged(void **, size_t, unsigned) {
  rt().unsupported("cudaMallocManaged");
}
[[noreturn]] void apiPointerGetAttributes(cudaPointerAttributes *,
                                          const void *) {
  rt().unsupported("cudaPointerGetAttributes");
}

template <class F> void *address(F *f) { return reinterpret_cast<void *>(f); }

} // namespace

std::vector<std::pair<const char *, void *>> CudaRuntime::entryPoints() {
  return {
      {"cudaGetLastError", address(apiGetLastError)},
      {"cudaPeekAtLastError", address(apiPeekAtLastError)},
      {"cudaGetErrorString", address(apiGetErrorString)},
      {"cudaGetErrorName", address(apiGetErrorName)},
      {"cudaGetDeviceCount", address(apiGetDeviceCount)},
      {"cudaGetDevice", address(apiGetDevice)},
      {"cudaSetDevice", address(apiSetDevice)},
      {"kcheck_check_device", address(apiCheckDevice)},
      {"cudaDeviceGetAttribute", address(apiDeviceGetAttribute)},
      {"cudaDeviceSynchronize", address(apiSucceed)},
      {"cudaThreadSynchronize", address(apiSucceed)},
      {"cudaDeviceReset", address(apiSucceed)},
      {"cudaSetDeviceFlags", address(apiSucceedUnsigned)},
      {"cudaDeviceSetCacheConfig", address(apiSucceedInt)},
      {"cudaDeviceSetSharedMemConfig", address(apiSucceedInt)},
      {"cudaDriverGetVersion", address(apiVersion)},
      {"cudaRuntimeGetVersion", address(apiVersion)},
      {"cudaFuncSetAttribute", address(apiFuncSetAttribute)},
      {"cudaFuncSetCacheConfig", address(apiFuncSetCacheConfig)},
      {"kcheck_func_attributes", address(apiFuncAttributes)},
      {"cudaOccupancyMaxActiveBlocksPerMultiprocessor", address(apiOccupancy)},
      {"cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags",
       address(apiOccupancyWithFlags)},
      {"cudaMalloc", address(apiMalloc)},
      {"cudaFree", address(apiFree)},
      {"cudaMallocHost", address(apiMallocHost)},
      {"cudaHostAlloc", address(apiHostAlloc)},
      {"cudaFreeHost", address(apiFreeHost)},
      {"cudaMallocPitch", address(apiMallocPitch)},
      {"cudaMallocManaged", address(apiManaged)},
      {"cudaPointerGetAttributes", address(apiPointerGetAttributes)},
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
      {"cudaStreamCreate", address(apiStreamCreate)},
      {"cudaStreamCreateWithFlags", address(apiStreamCreateWithFlags)},
      {"cudaStreamDestroy", address(apiStreamOp)},
      {"cudaStreamSynchronize", address(apiStreamOp)},
      {"cudaStreamQuery", address(apiStreamOp)},
      {"cudaStreamWaitEvent", address(apiStreamWaitEvent)},
      {"cudaEventCreate", address(apiEventCreate)},
      {"cudaEventCreateWithFlags", address(apiEventCreateWithFlags)},
      {"cudaEventDestroy", address(apiEventOp)},
      {"cudaEventRecord", address(apiEventRecord)},
      {"cudaEventSynchronize", address(apiEventOp)},
      {"cudaEventQuery", address(apiEventOp)},
      {"cudaEventElapsedTime", address(apiEventElapsedTime)},
      {"__cudaRegisterFatBinary", address(apiRegisterFatBinary)},
      {"__cudaRegisterFatBinaryEnd", address(apiRegisterFatBinaryEnd)},
      {"__cudaUnregisterFatBinary", address(apiUnregisterFatBinary)},
      {"__cudaRegisterFunction", address(apiRegisterFunction)},
      {"__cudaRegisterVar", address(apiRegisterVar)},
      {"__cudaRegisterManagedVar", address(apiRegisterManagedVar)},
      {"__cudaPushCallConfiguration", address(apiPushCallConfiguration)},
      {"__cudaPopCallConfiguration", address(apiPopCallConfiguration)},
      {"cudaLaunchKernel", address(apiLaunchKernel)},
      {"cudaLaunchCooperativeKernel", address(apiLaunchCooperativeKernel)},
      {"exit", address(procExit)},
      {"_exit", address(procQuickExit)},
      {"_Exit", address(procQuickExit)},
      {"quick_exit", address(procQuickExit)},
      {"abort", address(procAbort)},
      {"__assert_fail", address(procAssertFail)},
      {"__kcheck_unsupported_call", address(procUnsupported)},
  };
}

} // namespace kcheck::host
