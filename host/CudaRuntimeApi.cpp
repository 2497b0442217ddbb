// The C entry points of kcheck's CUDA runtime (see CudaRuntime.h), with the
// signatures of kcheck's CUDA stub headers. JIT'd host code is compiled
// against those or the toolkit's: the functions here take only what both
// lay out alike (scalars, pointers, dim3, the enums' values); a struct whose
// layout differs (cudaDeviceProp) is filled by HostGlue.cpp's code, compiled
// with the program.
#include "host/CudaRuntimeEntry.h"

#include "core/DeviceFacts.h"
#include "core/Occupancy.h"

#include "llvm/Demangle/Demangle.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace kcheck::host {

namespace entry {

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

cudaError_t sticky() {
  if (int e = rt().stickyError)
    return fail(cudaError_t(e));
  return cudaSuccess;
}

} // namespace entry

namespace {

using namespace entry;

constexpr int kDriverVersion = 12080; // CUDA_VERSION of the stub headers

core::Dim3 toDim3(dim3 d) { return {d.x, d.y, d.z}; }

// ---------------------------------------------------------------------------
// Device facts: core/DeviceFacts.h, the table the static evaluator reads too.

// cudaGetDeviceProperties is HostGlue.cpp's, compiled against the program's
// own headers; attributes are answered here, from the same tables
// (core/DeviceAttributes.def).

// ---------------------------------------------------------------------------
// Errors.

// The runtime's names and messages, as cudaGetErrorName/String print them
// (host/CudaErrors.def, as the H200 printed them).
struct ErrorText {
  int code;
  const char *name, *message;
};
constexpr ErrorText kErrors[] = {
#define KCHECK_CUDA_ERROR(CODE, NAME, MESSAGE) {CODE, #NAME, MESSAGE},
#include "host/CudaErrors.def"
#undef KCHECK_CUDA_ERROR
};

const ErrorText &errorText(cudaError_t e) {
  static constexpr ErrorText unknown{-1, "unrecognized error code",
                                     "unrecognized error code"};
  for (const ErrorText &t : kErrors)
    if (t.code == int(e))
      return t;
  return unknown;
}
const char *errorString(cudaError_t e) { return errorText(e).message; }
const char *errorName(cudaError_t e) { return errorText(e).name; }

cudaError_t apiGetLastError() {
  cudaError_t e = cudaError_t(rt().lastError);
  // Reset even after a kernel fault, as the H100 does (device_fault.cu): the
  // fault stays in the calls that reach the device, not here.
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
  // As the H200 answers (docs/validation/data/h200-runtime-facts.tsv): the
  // ordinal first, then the pointer and the number.
  if (device != 0)
    return fail(cudaErrorInvalidDevice);
  std::optional<int64_t> v = core::deviceAttributeValue(rt().arch(), int(attr));
  if (!value || !v)
    return fail(cudaErrorInvalidValue);
  *value = int(*v);
  return cudaSuccess;
}
// Every launch has completed when it returns; what a synchronization reports
// is a kernel's fault.
cudaError_t apiSynchronize() { return sticky(); }
// No profiler is attached to the simulated device: starting and stopping
// one's collection succeeds (or reports the context's fault), as the runtime
// does when the program runs without a profiler.
cudaError_t apiProfilerControl() { return sticky(); }
cudaError_t apiDeviceReset() {
  // A new context: the fault is forgotten (device memory is kept, which a
  // program cannot tell from fresh allocations).
  rt().stickyError = rt().lastError = cudaSuccess;
  return cudaSuccess;
}
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
  if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
    // Past the device's opt-in maximum the runtime refuses the value (the
    // kernel's static bytes count against it too: the launch checks both).
    if (value < 0 ||
        uint64_t(value) > core::deviceFacts(rt().arch()).sharedPerBlockOptin)
      return fail(cudaErrorInvalidValue);
    rt().maxDynamicShared[it->second] = uint64_t(value);
  } else if (attr == cudaFuncAttributePreferredSharedMemoryCarveout) {
    // A percentage of the SM's shared memory, or -1 (no preference).
    if (value < -1 || value > 100)
      return fail(cudaErrorInvalidValue);
    rt().carveouts[it->second] = value;
  }
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
  if (auto c = r.carveouts.find(it->second); c != r.carveouts.end())
    k->preferredCarveout = c->second;
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
  *numBlocks = core::occupancy(rt().arch(), *k, blockSize, dynamicShared,
                               rt().sharedPreference(rt().kernels[func]))
                   .blocksPerSM;
  return cudaSuccess;
}
cudaError_t apiOccupancyAvailableDynamicShared(size_t *bytes, const void *func,
                                               int numBlocks, int blockSize) {
  std::optional<core::KernelResources> k =
      resourcesOf(func, "cudaOccupancyAvailableDynamicSMemPerBlock");
  if (!k)
    return fail(cudaErrorInvalidDeviceFunction);
  if (!bytes)
    return fail(cudaErrorInvalidValue);
  if (rt().arch().major < 7)
    rt().unsupported("cudaOccupancyAvailableDynamicSMemPerBlock before "
                     "cc7.0 (the cache configuration's split is not "
                     "modelled)");
  std::optional<uint64_t> v = core::availableDynamicSharedBytes(
      rt().arch(), *k, numBlocks, blockSize,
      rt().sharedPreference(rt().kernels[func]));
  if (!v)
    return fail(cudaErrorInvalidValue);
  *bytes = size_t(*v);
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
cudaError_t apiFuncGetParamInfo(const void *func, size_t index, size_t *offset,
                                size_t *size) {
  auto it = rt().kernels.find(func);
  if (it == rt().kernels.end())
    return fail(cudaErrorInvalidDeviceFunction);
  std::optional<std::pair<uint64_t, uint64_t>> p =
      rt().device().parameter(it->second, index);
  if (!p || !offset || !size) // past the last parameter: as the H200
    return fail(cudaErrorInvalidValue);
  *offset = size_t(p->first);
  *size = size_t(p->second);
  return cudaSuccess;
}
cudaError_t apiFuncSetCacheConfig(const void *func, cudaFuncCache config) {
  auto it = rt().kernels.find(func);
  if (it == rt().kernels.end())
    return fail(cudaErrorInvalidDeviceFunction);
  if (int(config) < 0 || int(config) > 3)
    return fail(cudaErrorInvalidValue);
  rt().cacheConfigs[it->second] = int(config);
  return cudaSuccess;
}

// ---------------------------------------------------------------------------
// Streams and events: everything has completed when the call returns.

cudaError_t apiStreamCreate(cudaStream_t *stream) {
  return createStream(stream, 0, 0);
}
cudaError_t apiStreamCreateWithFlags(cudaStream_t *stream, unsigned flags) {
  return createStream(stream, flags, 0);
}
cudaError_t apiStreamOp(cudaStream_t) { return sticky(); }
cudaError_t apiStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned) {
  return cudaSuccess;
}
CudaRuntime::Event *eventOf(cudaEvent_t e) {
  for (CudaRuntime::Event &ev : rt().events)
    if (reinterpret_cast<cudaEvent_t>(&ev) == e)
      return &ev;
  return nullptr;
}
cudaError_t apiEventCreateWithFlags(cudaEvent_t *event, unsigned flags) {
  // cudaEventBlockingSync 1, DisableTiming 2, Interprocess 4.
  if (!event || (flags & ~7u))
    return fail(cudaErrorInvalidValue);
  rt().events.emplace_back();
  rt().events.back().flags = flags;
  *event = reinterpret_cast<cudaEvent_t>(&rt().events.back());
  return cudaSuccess;
}
cudaError_t apiEventCreate(cudaEvent_t *event) {
  return apiEventCreateWithFlags(event, 0);
}
cudaError_t apiEventRecord(cudaEvent_t event, cudaStream_t) {
  if (cudaError_t e = sticky())
    return e;
  CudaRuntime::Event *e = eventOf(event);
  if (!e)
    return fail(cudaErrorInvalidResourceHandle);
  e->time = std::chrono::steady_clock::now();
  e->recorded = true;
  return cudaSuccess;
}
cudaError_t apiEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream,
                                    unsigned flags) {
  if (flags & ~1u) // cudaEventRecordExternal
    return fail(cudaErrorInvalidValue);
  return apiEventRecord(event, stream);
}
cudaError_t apiEventOp(cudaEvent_t event) {
  if (cudaError_t e = sticky())
    return e;
  return eventOf(event) ? cudaSuccess : fail(cudaErrorInvalidResourceHandle);
}
cudaError_t apiEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end) {
  if (cudaError_t e = sticky())
    return e;
  CudaRuntime::Event *a = eventOf(start), *b = eventOf(end);
  if (!a || !b)
    return fail(cudaErrorInvalidResourceHandle);
  // Unrecorded or without timing: the H200 answers "invalid resource
  // handle" for both.
  if (!a->recorded || !b->recorded || ((a->flags | b->flags) & 2))
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
  // After a fault nothing more runs on the device.
  if (cudaError_t e = sticky())
    return e;
  auto it = r.kernels.find(func);
  if (it == r.kernels.end())
    return fail(cudaErrorInvalidDeviceFunction);
  // What the GPU refuses before running anything: from CUDA 12 on, an
  // invalid value for each (the H200 with CUDA 13: a block over 1024 threads
  // or over the launch bounds, an empty grid, a grid's y over 65535, more
  // dynamic shared memory than the kernel may have).
  core::DeviceFacts f = core::deviceFacts(r.arch());
  uint64_t threads = uint64_t(block.x) * block.y * block.z;
  int bound = r.device().launchBound(it->second);
  if (!grid.x || !grid.y || !grid.z || !threads ||
      threads > uint64_t(f.maxThreadsPerBlock) ||
      (bound && threads > uint64_t(bound)) ||
      block.x > unsigned(f.maxThreadsPerBlock) ||
      block.y > unsigned(f.maxThreadsPerBlock) ||
      block.z > unsigned(f.maxBlockDimZ) || grid.x > unsigned(f.maxGridDimX) ||
      grid.y > unsigned(f.maxGridDimYZ) || grid.z > unsigned(f.maxGridDimYZ))
    return fail(cudaErrorInvalidValue);
  // Dynamic shared memory past the default 48 KB needs the kernel's opt-in
  // (cudaFuncAttributeMaxDynamicSharedMemorySize); the default limit also
  // counts the kernel's static bytes, which only the toolkit's compiler
  // knows, so a launch under 48 KB of dynamic memory is not refused here.
  auto optIn = r.maxDynamicShared.find(it->second);
  uint64_t sharedLimit = optIn != r.maxDynamicShared.end()
                             ? optIn->second
                             : uint64_t(f.sharedPerBlock);
  if (shared > std::min<uint64_t>(sharedLimit, f.sharedPerBlockOptin))
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
  LaunchOutcome outcome = r.device().launch(it->second, config, args);
  if (outcome.fault) {
    // As on the GPU, the program goes on: the launch itself succeeded
    // (kernels run asynchronously), the fault surfaces at the next call that
    // reaches the device (cudaGetLastError before it: still success, as
    // while the kernel is still running).
    r.stickyError = faultErrorCode(*outcome.fault);
    r.launchFaults.push_back(std::move(outcome.error));
  } else if (!outcome.error.empty()) {
    // A limit of kcheck's or something it cannot run: the run cannot be
    // the program's any more.
    Stop why;
    why.kind = Stop::Kind::Failed;
    why.message = std::move(outcome.error);
    r.stop(std::move(why));
  }
  return cudaSuccess;
}
cudaError_t apiLaunchKernel(const void *func, dim3 grid, dim3 block,
                            void **args, size_t shared, cudaStream_t) {
  return launchKernel(func, grid, block, args, shared, false);
}
// cudaLaunchKernelExC (what the cudaLaunchKernelEx template calls), with
// cudaLaunchConfig_t and cudaLaunchAttribute as driver_types.h lays them
// out: an attribute is its id, 4 bytes of padding and a 64-byte value.
struct LaunchAttribute {
  int id;
  char pad[4];
  union {
    char bytes[CudaRuntime::kAttributeBytes];
    int integer;
    struct {
      unsigned x, y, z;
    } dim;
    struct {
      cudaEvent_t event;
      int flags;
    } event;
  } value;
};
struct LaunchConfig {
  dim3 grid, block;
  size_t dynamicSmemBytes;
  cudaStream_t stream;
  LaunchAttribute *attrs;
  unsigned numAttrs;
};
cudaError_t apiLaunchKernelExC(const LaunchConfig *config, const void *func,
                               void **args) {
  if (!config || (config->numAttrs && !config->attrs))
    return fail(cudaErrorInvalidValue);
  bool cooperative = false;
  std::vector<cudaEvent_t> recordAfter;
  for (unsigned i = 0; i < config->numAttrs; ++i) {
    const LaunchAttribute &a = config->attrs[i];
    switch (a.id) {
    case 2: // cudaLaunchAttributeCooperative
      cooperative = a.value.integer != 0;
      break;
    case 4: // cudaLaunchAttributeClusterDimension
      if (uint64_t(a.value.dim.x) * a.value.dim.y * a.value.dim.z > 1)
        rt().unsupported("cudaLaunchKernelEx with a thread block cluster "
                         "(cudaLaunchAttributeClusterDimension): clusters "
                         "are not simulated yet");
      break;
    case 7:  // cudaLaunchAttributeProgrammaticEvent
    case 12: // cudaLaunchAttributeLaunchCompletionEvent
      // Recorded when the launch has completed, which is when it returns.
      recordAfter.push_back(a.value.event.event);
      break;
    case 0:  // Ignore
    case 1:  // AccessPolicyWindow: an L2 hint
    case 3:  // SynchronizationPolicy
    case 5:  // ClusterSchedulingPolicyPreference
    case 6:  // ProgrammaticStreamSerialization: launches are serial anyway
    case 8:  // Priority
    case 9:  // MemSyncDomainMap
    case 10: // MemSyncDomain
    case 11: // PreferredClusterDimension: a preference, clusters optional
    case 14: // PreferredSharedMemoryCarveout: a hint
    case 16: // NvlinkUtilCentricScheduling: a hint
      break;
    case 13: // DeviceUpdatableKernelNode: for graph nodes; a launch with it
             // fails on the H200 with an error not yet recorded
      rt().unsupported("cudaLaunchKernelEx with "
                       "cudaLaunchAttributeDeviceUpdatableKernelNode (a graph "
                       "node's attribute; the runtime's answer for a launch "
                       "is not measured yet)");
    default: // an id CUDA 13 does not define
      return fail(cudaErrorInvalidValue);
    }
  }
  cudaError_t e = launchKernel(func, config->grid, config->block, args,
                               config->dynamicSmemBytes, cooperative);
  for (cudaEvent_t event : recordAfter)
    if (e == cudaSuccess)
      e = apiEventRecord(event, config->stream);
  return e;
}
cudaError_t apiLaunchCooperativeKernel(const void *func, dim3 grid, dim3 block,
                                       void **args, size_t shared,
                                       cudaStream_t) {
  return launchKernel(func, grid, block, args, shared, true);
}

// cudaChannelFormatDesc by value: only a description of texel bits, which
// the texture functions would read (they are excluded: RuntimeExclusions).
struct ChannelFormatDesc {
  int x, y, z, w;
  int f; // cudaChannelFormatKind
};
ChannelFormatDesc apiCreateChannelDesc(int x, int y, int z, int w, int f) {
  return {x, y, z, w, f};
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

} // namespace

std::vector<std::pair<const char *, void *>> CudaRuntime::entryPoints() {
  EntryPoints entries = {
      {"cudaGetLastError", address(apiGetLastError)},
      {"cudaPeekAtLastError", address(apiPeekAtLastError)},
      {"cudaGetErrorString", address(apiGetErrorString)},
      {"cudaGetErrorName", address(apiGetErrorName)},
      {"cudaGetDeviceCount", address(apiGetDeviceCount)},
      {"cudaGetDevice", address(apiGetDevice)},
      {"cudaSetDevice", address(apiSetDevice)},
      {"kcheck_check_device", address(apiCheckDevice)},
      {"cudaDeviceGetAttribute", address(apiDeviceGetAttribute)},
      {"cudaDeviceSynchronize", address(apiSynchronize)},
      {"cudaThreadSynchronize", address(apiSynchronize)},
      {"cudaDeviceReset", address(apiDeviceReset)},
      {"cudaProfilerStart", address(apiProfilerControl)},
      {"cudaProfilerStop", address(apiProfilerControl)},
      {"cudaDriverGetVersion", address(apiVersion)},
      {"cudaRuntimeGetVersion", address(apiVersion)},
      {"cudaFuncSetAttribute", address(apiFuncSetAttribute)},
      {"cudaFuncSetCacheConfig", address(apiFuncSetCacheConfig)},
      {"cudaFuncGetParamInfo", address(apiFuncGetParamInfo)},
      {"kcheck_func_attributes", address(apiFuncAttributes)},
      {"cudaOccupancyMaxActiveBlocksPerMultiprocessor", address(apiOccupancy)},
      {"cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags",
       address(apiOccupancyWithFlags)},
      {"cudaOccupancyAvailableDynamicSMemPerBlock",
       address(apiOccupancyAvailableDynamicShared)},
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
      {"cudaEventRecordWithFlags", address(apiEventRecordWithFlags)},
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
      {"cudaLaunchKernelExC", address(apiLaunchKernelExC)},
      {"cudaCreateChannelDesc", address(apiCreateChannelDesc)},
      {"exit", address(procExit)},
      {"_exit", address(procQuickExit)},
      {"_Exit", address(procQuickExit)},
      {"quick_exit", address(procQuickExit)},
      {"abort", address(procAbort)},
      {"__assert_fail", address(procAssertFail)},
      {"__kcheck_unsupported_call", address(procUnsupported)},
  };
  for (const auto &entry : memoryEntryPoints())
    entries.push_back(entry);
  for (const auto &entry : queryEntryPoints())
    entries.push_back(entry);
  for (const auto &entry : streamEntryPoints())
    entries.push_back(entry);
  return entries;
}

} // namespace kcheck::host
