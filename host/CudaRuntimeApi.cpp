// The C entry points of kcheck's CUDA runtime (see CudaRuntime.h), with the
// signatures of kcheck's CUDA stub headers. JIT'd host code is compiled
// against those or the toolkit's: the functions here take only what both
// lay out alike (scalars, pointers, dim3, the enums' values); a struct whose
// layout differs (cudaDeviceProp) is filled by HostGlue.cpp's code, compiled
// with the program.
#include "host/CudaGraph.h"

#include "core/DeviceFacts.h"
#include "core/Occupancy.h"
#include "core/RuntimeRules.h"
#include "host/RuntimeConformance.h"

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
  // No program is running (a thread of the program's still calls after
  // its main returned): no runtime to answer, nowhere to unwind.
  static const char message[] =
      "kcheck: error: a CUDA runtime call after the program's run ended, "
      "from a thread it started\n";
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

// ---------------------------------------------------------------------------
// Device facts: core/DeviceFacts.h, the table the static evaluator reads too.

// cudaGetDeviceProperties is HostGlue.cpp's, compiled against the program's
// own headers; attributes are answered here, from the same tables
// (core/DeviceAttributes.def).

// ---------------------------------------------------------------------------
// Errors.

// The runtime's names and messages, as cudaGetErrorName/String print them
// (core/CudaErrors.def, as the H200 printed them).
const char *errorString(int e) { return cudaErrorText(e).message; }
const char *errorName(int e) { return cudaErrorText(e).name; }

cudaError_t apiGetLastError() {
  cudaError_t e = cudaError_t(rt().lastError);
  // Reset even after a kernel fault, as the H100 does (device_fault.cu): the
  // fault stays in the calls that reach the device, not here.
  rt().lastError = cudaSuccess;
  return e;
}
cudaError_t apiPeekAtLastError() { return cudaError_t(rt().lastError); }
// Any int: a code no enumerator names is "unrecognized error code".
const char *apiGetErrorString(int e) { return errorString(e); }
const char *apiGetErrorName(int e) { return errorName(e); }

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
// Enumerations arrive as ints: a program may pass a value the stub headers'
// enum does not list (a newer attribute, a bad one), which the runtime
// answers rather than assumes away.
cudaError_t apiDeviceGetAttribute(int *value, int attr, int device) {
  // As the H200 answers (docs/validation/data/h200-runtime-facts.tsv): the
  // ordinal first, then the pointer and the number.
  if (device != 0)
    return fail(cudaErrorInvalidDevice);
  std::optional<int64_t> v = core::deviceAttributeValue(rt().arch(), attr);
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
cudaError_t apiFuncSetAttribute(const void *func, int attr, int value) {
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
  } else if (attr == 14) { // cudaFuncAttributeNonPortableClusterSizeAllowed
    if (value)
      rt().nonPortableClusters.insert(it->second);
    else
      rt().nonPortableClusters.erase(it->second);
  }
  return cudaSuccess;
}

// ---------------------------------------------------------------------------
// Kernel queries: the occupancy calculator (core/Occupancy.h) over what the
// toolkit's compiler gave the kernel.

// Kernel `deviceName`'s resources as the program has set them (its
// attributes, __cluster_dims__); nullopt, with `why`, where the compiler's
// answer is unknown.
std::optional<core::KernelResources>
kernelResources(CudaRuntime &r, const std::string &deviceName,
                std::string &why) {
  std::optional<core::KernelResources> k =
      r.device().resources(deviceName, why);
  if (!k)
    return std::nullopt;
  if (auto d = r.maxDynamicShared.find(deviceName);
      d != r.maxDynamicShared.end())
    k->maxDynamicSharedBytes = d->second;
  if (auto c = r.carveouts.find(deviceName); c != r.carveouts.end())
    k->preferredCarveout = c->second;
  if (std::optional<core::Dim3> d = r.device().clusterDims(deviceName)) {
    k->requiredCluster[0] = d->x;
    k->requiredCluster[1] = d->y;
    k->requiredCluster[2] = d->z;
  }
  k->nonPortableCluster = r.nonPortableClusters.count(deviceName) != 0;
  return k;
}

// The device's queries of a kernel, answered as the host's are.
class RuntimeKernelQueries : public sim::KernelQueries {
public:
  explicit RuntimeKernelQueries(CudaRuntime &r) : r_(r) {}
  std::optional<core::KernelResources> resources(const std::string &mangled,
                                                 std::string &why) override {
    return kernelResources(r_, mangled, why);
  }
  core::SharedPreference sharedPreference(const std::string &mangled) override {
    return r_.sharedPreference(mangled);
  }

private:
  CudaRuntime &r_;
};

// The kernel `func` and its resources; stops the run, saying why, when the
// compiler's answer is unknown (a guess would size the program's grids).
std::optional<core::KernelResources> resourcesOf(const void *func,
                                                 const char *call) {
  CudaRuntime &r = rt();
  auto it = r.kernels.find(func);
  if (it == r.kernels.end())
    return std::nullopt;
  std::string why;
  std::optional<core::KernelResources> k = kernelResources(r, it->second, why);
  if (!k) {
    Stop stop;
    stop.kind = Stop::Kind::Unsupported;
    stop.message = std::string("the program calls ") + call +
                   ", whose answer needs the registers of " +
                   llvm::demangle(it->second) + ": " + why;
    r.stop(std::move(stop));
  }
  return k;
}
cudaError_t apiOccupancyWithFlags(int *numBlocks, const void *func,
                                  int blockSize, size_t dynamicShared,
                                  unsigned flags) {
  std::optional<core::KernelResources> k =
      resourcesOf(func, "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  if (!k)
    return fail(cudaErrorInvalidDeviceFunction);
  // cudaOccupancyDefault or cudaOccupancyDisableCachingOverride (the H200
  // refuses others: device_runtime_queries.cu's occupancy_0_64_0_7).
  if (!numBlocks || blockSize <= 0 || flags > 1)
    return fail(cudaErrorInvalidValue);
  *numBlocks = core::occupancy(rt().arch(), *k, blockSize, dynamicShared,
                               rt().sharedPreference(rt().kernels.at(func)))
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
      rt().sharedPreference(rt().kernels.at(func)));
  if (!v)
    return fail(cudaErrorInvalidValue);
  *bytes = size_t(*v);
  return cudaSuccess;
}
// Clusters (core::maxActiveClusters): the configuration's cluster
// dimension, else the kernel's __cluster_dims__; answers as the H200 does
// (cluster_occupancy.cu's probes): no cluster size at all is 0 clusters, a
// size other than the kernel's or past the limit is
// cudaErrorInvalidClusterSize, a block that does not fit is 0.
cudaError_t clusterOccupancy(const void *func, const LaunchConfigAbi *config,
                             const char *call, bool potential, int *out) {
  if (!rt().kernels.count(func))
    return fail(cudaErrorInvalidResourceHandle); // as the H200 answers
  if (!out || !config || (config->numAttrs && !config->attrs))
    return fail(cudaErrorInvalidValue);
  std::optional<core::KernelResources> k = resourcesOf(func, call);
  if (!k)
    return fail(cudaErrorInvalidDeviceFunction);
  std::optional<int> n;
  int threads = int(std::min<uint64_t>(toDim3(config->block).count(), 1 << 30));
  core::SharedPreference pref = rt().sharedPreference(rt().kernels.at(func));
  if (potential) {
    n = core::maxPotentialClusterSize(rt().arch(), *k, threads,
                                      config->dynamicSmemBytes, pref);
  } else {
    core::LaunchConfig c{toDim3(config->grid), toDim3(config->block),
                         config->dynamicSmemBytes};
    for (unsigned i = 0; i < config->numAttrs; ++i)
      if (config->attrs[i].id == 4) { // cudaLaunchAttributeClusterDimension
        const auto &d = config->attrs[i].value.dim;
        c.cluster = {d.x, d.y, d.z}, c.explicitCluster = true;
      }
    std::optional<core::Dim3> required =
        rt().device().clusterDims(rt().kernels.at(func));
    if (required && c.explicitCluster && !(c.cluster == *required))
      return fail(cudaError_t(core::CudaError::cudaErrorInvalidClusterSize));
    c.applyKernelCluster(required);
    c.nonPortableCluster = k->nonPortableCluster;
    if (!c.explicitCluster) {
      *out = 0;
      return cudaSuccess;
    }
    if (core::clusterRefusal(c))
      return fail(cudaError_t(core::CudaError::cudaErrorInvalidClusterSize));
    n = core::maxActiveClusters(rt().arch(), *k, threads,
                                config->dynamicSmemBytes, pref,
                                c.cluster.count());
  }
  if (!n)
    rt().unsupported((std::string(call) + " on " + rt().arch().name +
                      " (how many SMs each GPC has, which the answer needs, "
                      "is measured for sm_90 only)")
                         .c_str());
  *out = *n;
  return cudaSuccess;
}
cudaError_t apiOccupancyMaxActiveClusters(int *numClusters, const void *func,
                                          const LaunchConfigAbi *config) {
  return clusterOccupancy(func, config, "cudaOccupancyMaxActiveClusters", false,
                          numClusters);
}
cudaError_t apiOccupancyMaxPotentialClusterSize(int *clusterSize,
                                                const void *func,
                                                const LaunchConfigAbi *config) {
  return clusterOccupancy(func, config, "cudaOccupancyMaxPotentialClusterSize",
                          true, clusterSize);
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
cudaError_t apiFuncSetCacheConfig(const void *func, int config) {
  auto it = rt().kernels.find(func);
  if (it == rt().kernels.end())
    return fail(cudaErrorInvalidDeviceFunction);
  if (config < 0 || config > 3)
    return fail(cudaErrorInvalidValue);
  rt().cacheConfigs[it->second] = config;
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
// Waiting for a capturing stream is not permitted (and invalidates its
// capture).
cudaError_t apiStreamSynchronize(cudaStream_t stream) {
  if (capturing(stream))
    return captureSynchronize(stream);
  return sticky();
}
cudaError_t apiStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
                               unsigned) {
  if (std::optional<cudaError_t> e = captureStreamWait(stream, event))
    return *e;
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
cudaError_t apiEventRecord(cudaEvent_t event, cudaStream_t stream) {
  if (cudaError_t e = sticky())
    return e;
  CudaRuntime::Event *e = eventOf(event);
  if (!e)
    return fail(cudaErrorInvalidResourceHandle);
  if (capturing(stream))
    return captureEventRecord(event, stream);
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
  // A __managed__ variable: host code and kernels share the host shadow.
  rt().device().bindManaged(deviceAddress, hostVar, size);
}
void apiRegisterManagedVar(void **, void **, char *, const char *, int, size_t,
                           int, int) {
  rt().unsupported("__managed__ variables (__cudaRegisterManagedVar)");
}
// <<<>>>'s configuration, pushed and popped by the thread that launches:
// per host thread, as the threads of an OpenMP region launch at once.
thread_local std::vector<CudaRuntime::CallConfiguration> callConfigurations;

unsigned apiPushCallConfiguration(dim3 grid, dim3 block, size_t shared,
                                  void *stream) {
  callConfigurations.push_back({toDim3(grid), toDim3(block), shared, stream});
  return 0;
}
cudaError_t apiPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shared,
                                    void **stream) {
  auto &stack = callConfigurations;
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

cudaError_t entry::recordEvent(cudaEvent_t event, cudaStream_t stream) {
  return apiEventRecord(event, stream);
}

std::vector<std::pair<const char *, void *>> CudaRuntime::entryPoints() {
  EntryPoints entries = {
      {"cudaGetLastError", serialized<apiGetLastError>()},
      {"cudaPeekAtLastError", serialized<apiPeekAtLastError>()},
      {"cudaGetErrorString", serialized<apiGetErrorString>()},
      {"cudaGetErrorName", serialized<apiGetErrorName>()},
      {"cudaGetDeviceCount", serialized<apiGetDeviceCount>()},
      {"cudaGetDevice", serialized<apiGetDevice>()},
      {"cudaSetDevice", serialized<apiSetDevice>()},
      {"kcheck_check_device", serialized<apiCheckDevice>()},
      {"cudaDeviceGetAttribute", serialized<apiDeviceGetAttribute>()},
      {"cudaDeviceSynchronize", serialized<apiSynchronize>()},
      {"cudaThreadSynchronize", serialized<apiSynchronize>()},
      {"cudaDeviceReset", serialized<apiDeviceReset>()},
      {"cudaProfilerStart", serialized<apiProfilerControl>()},
      {"cudaProfilerStop", serialized<apiProfilerControl>()},
      {"cudaDriverGetVersion", serialized<apiVersion>()},
      {"cudaRuntimeGetVersion", serialized<apiVersion>()},
      {"cudaFuncSetAttribute", serialized<apiFuncSetAttribute>()},
      {"cudaFuncSetCacheConfig", serialized<apiFuncSetCacheConfig>()},
      {"cudaFuncGetParamInfo", serialized<apiFuncGetParamInfo>()},
      {"kcheck_func_attributes", serialized<apiFuncAttributes>()},
      {"cudaOccupancyMaxActiveBlocksPerMultiprocessor",
       serialized<apiOccupancy>()},
      {"cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags",
       serialized<apiOccupancyWithFlags>()},
      {"cudaOccupancyAvailableDynamicSMemPerBlock",
       serialized<apiOccupancyAvailableDynamicShared>()},
      {"cudaOccupancyMaxActiveClusters",
       serialized<apiOccupancyMaxActiveClusters>()},
      {"cudaOccupancyMaxPotentialClusterSize",
       serialized<apiOccupancyMaxPotentialClusterSize>()},
      {"cudaStreamCreate", serialized<apiStreamCreate>()},
      {"cudaStreamCreateWithFlags", serialized<apiStreamCreateWithFlags>()},
      {"cudaStreamDestroy", serialized<apiStreamOp>()},
      {"cudaStreamSynchronize", serialized<apiStreamSynchronize>()},
      {"cudaStreamQuery", serialized<apiStreamSynchronize>()},
      {"cudaStreamWaitEvent", serialized<apiStreamWaitEvent>()},
      {"cudaEventCreate", serialized<apiEventCreate>()},
      {"cudaEventCreateWithFlags", serialized<apiEventCreateWithFlags>()},
      {"cudaEventDestroy", serialized<apiEventOp>()},
      {"cudaEventRecord", serialized<apiEventRecord>()},
      {"cudaEventRecordWithFlags", serialized<apiEventRecordWithFlags>()},
      {"cudaEventSynchronize", serialized<apiEventOp>()},
      {"cudaEventQuery", serialized<apiEventOp>()},
      {"cudaEventElapsedTime", serialized<apiEventElapsedTime>()},
      {"__cudaRegisterFatBinary", serialized<apiRegisterFatBinary>()},
      {"__cudaRegisterFatBinaryEnd", serialized<apiRegisterFatBinaryEnd>()},
      {"__cudaUnregisterFatBinary", serialized<apiUnregisterFatBinary>()},
      {"__cudaRegisterFunction", serialized<apiRegisterFunction>()},
      {"__cudaRegisterVar", serialized<apiRegisterVar>()},
      {"__cudaRegisterManagedVar", serialized<apiRegisterManagedVar>()},
      {"__cudaPushCallConfiguration", serialized<apiPushCallConfiguration>()},
      {"__cudaPopCallConfiguration", serialized<apiPopCallConfiguration>()},
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
  for (const auto &entry : launchEntryPoints())
    entries.push_back(entry);
  for (const EntryPoints &more :
       {captureEntryPoints(), graphEntryPoints(), graphParamEntryPoints(),
        graphExecEntryPoints(), graphConditionalEntryPoints(),
        textureEntryPoints(), textureObjectEntryPoints(),
        arrayCopyEntryPoints(), managedEntryPoints(), copyBatchEntryPoints()})
    for (const auto &entry : more)
      entries.push_back(entry);
  return entries;
}

std::unique_ptr<sim::KernelQueries> makeKernelQueries(CudaRuntime &r) {
  return std::make_unique<RuntimeKernelQueries>(r);
}

} // namespace kcheck::host
