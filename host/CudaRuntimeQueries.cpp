// kcheck's CUDA runtime, device settings and stream-ordered work: limits,
// flags and cache configurations a program sets and reads back; the one
// device's peers (none) and PCI identity; stream properties and host
// functions; memory pools and stream-ordered allocation. Each answer is the
// one the H200 gave (docs/validation/probes/runtime-facts.cu,
// docs/validation/data/h200-runtime-facts.tsv) for the same call.
#include "host/CudaGraph.h"

#include "core/DeviceFacts.h"
#include "core/RuntimeRules.h"

#include <cstdio>
#include <cstring>

namespace kcheck::host::entry {

namespace {

// ---------------------------------------------------------------------------
// Device settings.

cudaError_t checkDevice(int device) {
  return device == 0 ? cudaSuccess : fail(cudaErrorInvalidDevice);
}

cudaError_t apiGetDeviceFlags(unsigned *flags) {
  if (!flags)
    return fail(cudaErrorInvalidValue);
  *flags = rt().deviceFlags;
  return cudaSuccess;
}
cudaError_t apiSetDeviceFlags(unsigned flags) {
  // cudaDeviceScheduleMask (0x07) takes one of auto, spin, yield or
  // blocking sync; the other bits up to cudaDeviceMask (0xff) are flags.
  unsigned schedule = flags & 0x07;
  if ((flags & ~0xffu) ||
      (schedule != 0 && schedule != 1 && schedule != 2 && schedule != 4))
    return fail(cudaErrorInvalidValue);
  // cudaDeviceMapHost stays on: every device since CUDA 4 maps host memory
  // (the H200 answers 9 after cudaSetDeviceFlags(cudaDeviceScheduleSpin)).
  rt().deviceFlags = flags | 0x08;
  return cudaSuccess;
}
cudaError_t apiInitDevice(int device, unsigned, unsigned) {
  return checkDevice(device);
}
cudaError_t apiSetValidDevices(int *devices, int count) {
  if (count < 0 || (count > 0 && !devices))
    return fail(cudaErrorInvalidValue);
  for (int i = 0; i < count; ++i)
    if (devices[i] != 0)
      return fail(cudaErrorInvalidDevice);
  return cudaSuccess;
}
cudaError_t apiChooseDevice(int *device, const void *properties) {
  if (!device || !properties)
    return fail(cudaErrorInvalidValue);
  *device = 0; // the only one
  return cudaSuccess;
}

// The simulated device has no PCI location: domain, bus and device 0, as
// its attributes say (core/DeviceAttributes.def).
constexpr const char *kPciBusId = "0000:00:00.0";

cudaError_t apiDeviceGetPCIBusId(char *id, int length, int device) {
  if (cudaError_t e = checkDevice(device))
    return e;
  if (!id || length <= 0)
    return fail(cudaErrorInvalidValue);
  std::snprintf(id, size_t(length), "%s", kPciBusId);
  return cudaSuccess;
}
cudaError_t apiDeviceGetByPCIBusId(int *device, const char *id) {
  if (!device || !id)
    return fail(cudaErrorInvalidValue);
  // [domain]:[bus]:[device].[function] or [bus]:[device].[function], hex.
  unsigned domain = 0, bus = 0, dev = 0, function = 0;
  char end = 0;
  bool parsed = std::sscanf(id, "%x:%x:%x.%x%c", &domain, &bus, &dev, &function,
                            &end) == 4 ||
                (domain = 0, std::sscanf(id, "%x:%x.%x%c", &bus, &dev,
                                         &function, &end) == 3);
  if (!parsed)
    return fail(cudaErrorInvalidValue);
  if (domain || bus || dev || function)
    return fail(cudaErrorInvalidDevice);
  *device = 0;
  return cudaSuccess;
}

cudaError_t apiDeviceGetCacheConfig(int *config) {
  if (!config)
    return fail(cudaErrorInvalidValue);
  *config = rt().cacheConfig;
  return cudaSuccess;
}
cudaError_t apiDeviceSetCacheConfig(int config) {
  if (config < 0 || config > 3) // cudaFuncCachePreferNone .. PreferEqual
    return fail(cudaErrorInvalidValue);
  rt().cacheConfig = config;
  return cudaSuccess;
}
// The bank width is 4 bytes from cc5.0 on whatever is asked (the H200
// answers cudaSharedMemBankSizeFourByte after a request for eight); only
// cc3.x has the 8-byte mode, which `--bank-mode` chooses for the models.
cudaError_t apiDeviceGetSharedMemConfig(int *config) {
  if (!config)
    return fail(cudaErrorInvalidValue);
  *config = rt().arch().options.bankModeBytes == 8 ? 2 : 1;
  return cudaSuccess;
}
cudaError_t apiDeviceSetSharedMemConfig(int config) {
  return config >= 0 && config <= 2 ? cudaSuccess : fail(cudaErrorInvalidValue);
}
cudaError_t apiFuncSetSharedMemConfig(const void *func, int config) {
  if (!rt().kernels.count(func))
    return fail(cudaErrorInvalidDeviceFunction);
  return apiDeviceSetSharedMemConfig(config);
}
cudaError_t apiDeviceGetStreamPriorityRange(int *least, int *greatest) {
  // Measured on the H200: 0 (least) to -5 (greatest); either may be null.
  if (least)
    *least = 0;
  if (greatest)
    *greatest = -5;
  return cudaSuccess;
}

// As every path answers (core/RuntimeRules.h).
std::optional<uint64_t> defaultLimit(int limit) {
  return core::defaultDeviceLimit(rt().arch(), limit);
}
cudaError_t apiDeviceGetLimit(size_t *value, int limit) {
  if (!value)
    return fail(cudaErrorInvalidValue);
  if (limit < 0 || limit > 6)
    return fail(cudaErrorInvalidValue);
  std::optional<uint64_t> v = defaultLimit(limit);
  if (!v)
    return fail(cudaErrorUnsupportedLimit);
  auto set = rt().limits.find(limit);
  *value = size_t(set != rt().limits.end() ? set->second : *v);
  return cudaSuccess;
}
cudaError_t apiDeviceSetLimit(int limit, size_t value) {
  if (limit < 0 || limit > 6)
    return fail(cudaErrorInvalidValue);
  if (!defaultLimit(limit))
    return fail(cudaErrorUnsupportedLimit);
  core::DeviceFacts f = core::deviceFacts(rt().arch());
  if (limit == 6 && value > uint64_t(f.persistingL2Bytes))
    return fail(cudaErrorInvalidValue);
  if (limit == 5 && value > 128)
    return fail(cudaErrorInvalidValue);
  // The heap's size is fixed by the first launch that allocates from it.
  if (limit == 2 && !rt().device().memory().setMallocHeapBytes(value))
    return fail(cudaErrorInvalidValue);
  rt().limits[limit] = value;
  return cudaSuccess;
}

// ---------------------------------------------------------------------------
// Peers: one device, so none (the H200 alone answers these).

cudaError_t apiDeviceCanAccessPeer(int *can, int device, int peer) {
  if (device != 0 || peer != 0)
    return fail(cudaErrorInvalidDevice);
  if (!can)
    return fail(cudaErrorInvalidValue);
  *can = 0;
  return cudaSuccess;
}
cudaError_t apiDeviceEnablePeerAccess(int peer, unsigned flags) {
  if (peer != 0)
    return fail(cudaErrorInvalidDevice);
  if (flags != 0)
    return fail(cudaErrorInvalidValue);
  return fail(cudaErrorPeerAccessUnsupported);
}
cudaError_t apiDeviceDisablePeerAccess(int peer) {
  if (peer != 0)
    return fail(cudaErrorInvalidDevice);
  return fail(cudaErrorPeerAccessNotEnabled);
}
cudaError_t apiDeviceGetP2PAttribute(int *, int, int, int) {
  // Source and destination must be two devices; there is one.
  return fail(cudaErrorInvalidDevice);
}
// Nothing is in flight to flush or to reset.
cudaError_t apiDeviceFlushGPUDirectRDMAWrites(int, int) { return sticky(); }
cudaError_t apiCtxResetPersistingL2Cache() { return sticky(); }

// Atomic capabilities per cudaAtomicOperation (0 integer add ... 12 float
// max): none to the host for a part without host-native atomics (a PCIe
// device: the H200 answers 0 for each); no peer on one device.
cudaError_t apiDeviceGetHostAtomicCapabilities(unsigned *capabilities,
                                               const int *operations,
                                               unsigned count, int device) {
  if (cudaError_t e = checkDevice(device))
    return e;
  if (count && (!capabilities || !operations))
    return fail(cudaErrorInvalidValue);
  if (*core::deviceAttributeValue(rt().arch(), 86)) // HostNativeAtomic
    rt().unsupported("cudaDeviceGetHostAtomicCapabilities on a part with "
                     "host-native atomics (not measured)");
  for (unsigned i = 0; i < count; ++i) {
    if (operations[i] < 0 || operations[i] > 12)
      return fail(cudaErrorInvalidValue);
    capabilities[i] = 0;
  }
  return cudaSuccess;
}
cudaError_t apiDeviceGetP2PAtomicCapabilities(unsigned *, const int *, unsigned,
                                              int, int) {
  return fail(cudaErrorInvalidDevice); // a peer must be another device
}

cudaError_t apiFuncGetName(const char **name, const void *func) {
  if (!name)
    return fail(cudaErrorInvalidValue);
  auto it = rt().kernels.find(func);
  if (it == rt().kernels.end())
    return fail(cudaErrorInvalidDeviceFunction);
  *name = it->second.c_str(); // the mangled name, as the runtime gives it
  return cudaSuccess;
}

// ---------------------------------------------------------------------------
// Memory pools and stream-ordered allocation. cudaMemPoolProps and
// cudaMemLocation as driver_types.h lays them out (read, never written).

struct MemLocation {
  int type; // cudaMemLocationTypeDevice 1, Host 2 ...
  int id;
};
struct MemPoolProps {
  int allocType;   // cudaMemAllocationTypePinned 1
  int handleTypes; // cudaMemAllocationHandleType
  MemLocation location;
};
struct MemAccessDesc {
  MemLocation location;
  int flags;
};

CudaRuntime::MemPool *poolOf(cudaMemPool_t pool) {
  for (CudaRuntime::MemPool &p : rt().pools)
    if (reinterpret_cast<cudaMemPool_t>(&p) == pool)
      return &p;
  return nullptr;
}
cudaMemPool_t handleOf(CudaRuntime::MemPool *pool) {
  return reinterpret_cast<cudaMemPool_t>(pool);
}
bool isDevice0(const MemLocation *l) { return l && l->type == 1 && l->id == 0; }
// Another device is an invalid one; another kind of location (host, NUMA
// node) is not simulated.
cudaError_t locationError(const MemLocation *l) {
  return fail(l && l->type == 1 ? cudaErrorInvalidDevice
                                : cudaErrorNotSupported);
}

cudaError_t apiDeviceGetDefaultMemPool(cudaMemPool_t *pool, int device) {
  if (cudaError_t e = checkDevice(device))
    return e;
  if (!pool)
    return fail(cudaErrorInvalidValue);
  *pool = handleOf(&rt().pools.front());
  return cudaSuccess;
}
cudaError_t apiDeviceGetMemPool(cudaMemPool_t *pool, int device) {
  if (cudaError_t e = checkDevice(device))
    return e;
  if (!pool)
    return fail(cudaErrorInvalidValue);
  *pool = handleOf(rt().currentPool);
  return cudaSuccess;
}
cudaError_t apiDeviceSetMemPool(int device, cudaMemPool_t pool) {
  if (cudaError_t e = checkDevice(device))
    return e;
  CudaRuntime::MemPool *p = poolOf(pool);
  if (!p)
    return fail(cudaErrorInvalidValue);
  rt().currentPool = p;
  return cudaSuccess;
}
// CUDA 13's location-based forms (cudaMemGetDefaultMemPool and friends):
// the device's pools for device 0; other locations are not simulated.
cudaError_t apiMemGetDefaultMemPool(cudaMemPool_t *pool, MemLocation *l, int) {
  if (!isDevice0(l))
    return locationError(l);
  return apiDeviceGetDefaultMemPool(pool, 0);
}
cudaError_t apiMemGetMemPool(cudaMemPool_t *pool, MemLocation *l, int) {
  if (!isDevice0(l))
    return locationError(l);
  return apiDeviceGetMemPool(pool, 0);
}
cudaError_t apiMemSetMemPool(MemLocation *l, int, cudaMemPool_t pool) {
  if (!isDevice0(l))
    return locationError(l);
  return apiDeviceSetMemPool(0, pool);
}
cudaError_t apiMemPoolCreate(cudaMemPool_t *pool, const MemPoolProps *props) {
  if (!pool || !props || props->allocType != 1)
    return fail(cudaErrorInvalidValue);
  if (!isDevice0(&props->location))
    return locationError(&props->location);
  rt().pools.emplace_back();
  *pool = handleOf(&rt().pools.back());
  return cudaSuccess;
}
cudaError_t apiMemPoolDestroy(cudaMemPool_t pool) {
  CudaRuntime::MemPool *p = poolOf(pool);
  if (!p || p == &rt().pools.front())
    return fail(cudaErrorInvalidValue);
  if (rt().currentPool == p)
    rt().currentPool = &rt().pools.front();
  return cudaSuccess;
}
cudaError_t apiMemPoolTrimTo(cudaMemPool_t pool, size_t) {
  return poolOf(pool) ? cudaSuccess : fail(cudaErrorInvalidValue);
}
// cudaMemPoolAttr 1-3 are ints, 4-8 64-bit; 6 and 8 (the high-water marks)
// may only be reset to 0; 5 and 7 are read-only.
cudaError_t apiMemPoolGetAttribute(cudaMemPool_t pool, int attr, void *value) {
  CudaRuntime::MemPool *p = poolOf(pool);
  if (!p || !value || attr < 1 || attr > 8)
    return fail(cudaErrorInvalidValue);
  const bool flags[] = {p->reuseFollowEvents, p->reuseAllowOpportunistic,
                        p->reuseAllowInternalDependencies};
  const uint64_t sizes[] = {p->releaseThreshold, p->reservedBytes,
                            p->reservedHigh, p->usedBytes, p->usedHigh};
  if (attr <= 3)
    *static_cast<int *>(value) = flags[attr - 1];
  else
    *static_cast<uint64_t *>(value) = sizes[attr - 4];
  return cudaSuccess;
}
cudaError_t apiMemPoolSetAttribute(cudaMemPool_t pool, int attr, void *value) {
  CudaRuntime::MemPool *p = poolOf(pool);
  if (!p || !value || attr < 1 || attr > 8 || attr == 5 || attr == 7)
    return fail(cudaErrorInvalidValue);
  if (attr <= 3) {
    bool v = *static_cast<int *>(value) != 0;
    (attr == 1   ? p->reuseFollowEvents
     : attr == 2 ? p->reuseAllowOpportunistic
                 : p->reuseAllowInternalDependencies) = v;
    return cudaSuccess;
  }
  uint64_t v = *static_cast<uint64_t *>(value);
  if (attr == 4) {
    p->releaseThreshold = v;
    return cudaSuccess;
  }
  if (v != 0)
    return fail(cudaErrorInvalidValue);
  (attr == 6 ? p->reservedHigh : p->usedHigh) = 0;
  return cudaSuccess;
}
cudaError_t apiMemPoolSetAccess(cudaMemPool_t pool, const MemAccessDesc *list,
                                size_t count) {
  if (!poolOf(pool) || (count && !list))
    return fail(cudaErrorInvalidValue);
  for (size_t i = 0; i < count; ++i)
    if (list[i].location.type != 1 || list[i].location.id != 0)
      return fail(cudaErrorInvalidDevice);
  return cudaSuccess;
}
cudaError_t apiMemPoolGetAccess(int *flags, cudaMemPool_t pool,
                                MemLocation *location) {
  if (!flags || !poolOf(pool) || !location)
    return fail(cudaErrorInvalidValue);
  if (!isDevice0(location))
    return fail(cudaErrorInvalidDevice);
  *flags = 3; // cudaMemAccessFlagsProtReadWrite: the owning device
  return cudaSuccess;
}

cudaError_t poolAllocate(void **ptr, size_t size, CudaRuntime::MemPool *pool) {
  if (cudaError_t e = sticky())
    return e;
  if (!ptr || !pool)
    return fail(cudaErrorInvalidValue);
  if (core::CudaError e =
          core::deviceAllocationError(rt().arch(), size, rt().deviceBytesInUse);
      e != core::CudaError::cudaSuccess)
    return fail(cudaError_t(e));
  uint64_t base = rt().device().memory().allocate(size, "cudaMallocAsync");
  rt().deviceBytesInUse += size;
  rt().poolAllocations[base] = {pool, size};
  pool->usedBytes += size;
  pool->reservedBytes += size;
  pool->usedHigh = std::max(pool->usedHigh, pool->usedBytes);
  pool->reservedHigh = std::max(pool->reservedHigh, pool->reservedBytes);
  *ptr = reinterpret_cast<void *>(base);
  return cudaSuccess;
}
// On a capturing stream: a graph's allocation and free nodes.
cudaError_t apiMallocAsync(void **ptr, size_t size, cudaStream_t stream) {
  if (capturing(stream))
    return captureMalloc(ptr, size, stream);
  return poolAllocate(ptr, size, rt().currentPool);
}
cudaError_t apiMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t pool,
                                   cudaStream_t stream) {
  if (capturing(stream))
    return captureMalloc(ptr, size, stream);
  return poolAllocate(ptr, size, poolOf(pool));
}
cudaError_t apiFreeAsync(void *ptr, cudaStream_t stream) {
  if (capturing(stream))
    return captureFree(ptr, stream);
  if (cudaError_t e = sticky())
    return e;
  if (!ptr)
    return cudaSuccess;
  auto it = rt().poolAllocations.find(reinterpret_cast<uint64_t>(ptr));
  if (it == rt().poolAllocations.end()) {
    // cudaMalloc'd memory may be freed in stream order too.
    if (rt().device().memory().find(reinterpret_cast<uint64_t>(ptr), 1))
      return cudaSuccess;
    return fail(cudaErrorInvalidValue);
  }
  auto [pool, size] = it->second;
  pool->usedBytes -= size;
  rt().deviceBytesInUse -= std::min<uint64_t>(size, rt().deviceBytesInUse);
  // Freed bytes stay reserved up to the release threshold, as the pool
  // keeps them for reuse; the rest goes back at the next synchronization,
  // which is now.
  pool->reservedBytes = std::max(
      pool->usedBytes,
      std::min(pool->reservedBytes, pool->usedBytes + pool->releaseThreshold));
  rt().poolAllocations.erase(it);
  return cudaSuccess;
}

} // namespace

EntryPoints queryEntryPoints() {
  return {
      {"cudaGetDeviceFlags", serialized<apiGetDeviceFlags>()},
      {"cudaSetDeviceFlags", serialized<apiSetDeviceFlags>()},
      {"cudaInitDevice", serialized<apiInitDevice>()},
      {"cudaSetValidDevices", serialized<apiSetValidDevices>()},
      {"cudaChooseDevice", serialized<apiChooseDevice>()},
      {"cudaDeviceGetPCIBusId", serialized<apiDeviceGetPCIBusId>()},
      {"cudaDeviceGetByPCIBusId", serialized<apiDeviceGetByPCIBusId>()},
      {"cudaDeviceGetCacheConfig", serialized<apiDeviceGetCacheConfig>()},
      {"cudaDeviceSetCacheConfig", serialized<apiDeviceSetCacheConfig>()},
      {"cudaDeviceGetSharedMemConfig",
       serialized<apiDeviceGetSharedMemConfig>()},
      {"cudaDeviceSetSharedMemConfig",
       serialized<apiDeviceSetSharedMemConfig>()},
      {"cudaFuncSetSharedMemConfig", serialized<apiFuncSetSharedMemConfig>()},
      {"cudaDeviceGetStreamPriorityRange",
       serialized<apiDeviceGetStreamPriorityRange>()},
      {"cudaDeviceGetLimit", serialized<apiDeviceGetLimit>()},
      {"cudaDeviceSetLimit", serialized<apiDeviceSetLimit>()},
      {"cudaDeviceCanAccessPeer", serialized<apiDeviceCanAccessPeer>()},
      {"cudaDeviceEnablePeerAccess", serialized<apiDeviceEnablePeerAccess>()},
      {"cudaDeviceDisablePeerAccess", serialized<apiDeviceDisablePeerAccess>()},
      {"cudaDeviceGetP2PAttribute", serialized<apiDeviceGetP2PAttribute>()},
      {"cudaDeviceFlushGPUDirectRDMAWrites",
       serialized<apiDeviceFlushGPUDirectRDMAWrites>()},
      {"cudaCtxResetPersistingL2Cache",
       serialized<apiCtxResetPersistingL2Cache>()},
      {"cudaFuncGetName", serialized<apiFuncGetName>()},
      {"cudaDeviceGetHostAtomicCapabilities",
       serialized<apiDeviceGetHostAtomicCapabilities>()},
      {"cudaDeviceGetP2PAtomicCapabilities",
       serialized<apiDeviceGetP2PAtomicCapabilities>()},
      {"cudaDeviceGetDefaultMemPool", serialized<apiDeviceGetDefaultMemPool>()},
      {"cudaDeviceGetMemPool", serialized<apiDeviceGetMemPool>()},
      {"cudaDeviceSetMemPool", serialized<apiDeviceSetMemPool>()},
      {"cudaMemGetDefaultMemPool", serialized<apiMemGetDefaultMemPool>()},
      {"cudaMemGetMemPool", serialized<apiMemGetMemPool>()},
      {"cudaMemSetMemPool", serialized<apiMemSetMemPool>()},
      {"cudaMemPoolCreate", serialized<apiMemPoolCreate>()},
      {"cudaMemPoolDestroy", serialized<apiMemPoolDestroy>()},
      {"cudaMemPoolTrimTo", serialized<apiMemPoolTrimTo>()},
      {"cudaMemPoolGetAttribute", serialized<apiMemPoolGetAttribute>()},
      {"cudaMemPoolSetAttribute", serialized<apiMemPoolSetAttribute>()},
      {"cudaMemPoolSetAccess", serialized<apiMemPoolSetAccess>()},
      {"cudaMemPoolGetAccess", serialized<apiMemPoolGetAccess>()},
      {"cudaMallocAsync", serialized<apiMallocAsync>()},
      {"cudaMallocFromPoolAsync", serialized<apiMallocFromPoolAsync>()},
      {"cudaFreeAsync", serialized<apiFreeAsync>()},
  };
}

} // namespace kcheck::host::entry
