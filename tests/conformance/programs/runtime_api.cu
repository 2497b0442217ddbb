// Conformance program for the CUDA runtime API (docs/conformance.md),
// written from the Runtime API reference: each check states what the
// specification says a one-device runtime answers, and the program checks it
// on whatever runs it: the GPU (nvcc) or kcheck's simulated runtime
// (kcheck run). It prints one line per failed check and a summary.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

static int checks = 0, failures = 0;
#define CHECK(cond, what)                                                      \
  do {                                                                         \
    ++checks;                                                                  \
    if (!(cond)) {                                                             \
      ++failures;                                                              \
      std::printf("FAILED %s (line %d)\n", what, __LINE__);                    \
    }                                                                          \
  } while (0)
#define OK(call) CHECK((call) == cudaSuccess, #call)
#define IS(call, error) CHECK((call) == error, #call " is " #error)

__device__ int deviceTable[7];
__global__ void fill(int *p, int n, int value) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = value + i;
}

static void devices() {
  int count = 0, device = -1;
  OK(cudaGetDeviceCount(&count));
  CHECK(count >= 1, "at least one device");
  OK(cudaGetDevice(&device));
  CHECK(device == 0, "device 0 is current");
  IS(cudaSetDevice(count), cudaErrorInvalidDevice);
  OK(cudaSetDevice(0));
  OK(cudaInitDevice(0, 0, 0));
  IS(cudaInitDevice(count, 0, 0), cudaErrorInvalidDevice);
  int valid[] = {0};
  OK(cudaSetValidDevices(valid, 1));
  cudaDeviceProp p;
  std::memset(&p, 0, sizeof p);
  OK(cudaGetDeviceProperties(&p, 0));
  IS(cudaGetDeviceProperties(&p, count), cudaErrorInvalidDevice);
  int chosen = -1;
  OK(cudaChooseDevice(&chosen, &p));
  CHECK(chosen >= 0 && chosen < count, "cudaChooseDevice picks a device");
  char bus[32] = {0};
  OK(cudaDeviceGetPCIBusId(bus, sizeof bus, 0));
  int byBus = -1;
  OK(cudaDeviceGetByPCIBusId(&byBus, bus));
  CHECK(byBus == 0, "the PCI bus id names device 0");
  IS(cudaDeviceGetByPCIBusId(&byBus, "not a bus id"), cudaErrorInvalidValue);
  unsigned flags = 0;
  OK(cudaGetDeviceFlags(&flags));
  CHECK(flags & cudaDeviceMapHost, "devices map host memory");
  OK(cudaSetDeviceFlags(cudaDeviceScheduleSpin));
  OK(cudaGetDeviceFlags(&flags));
  CHECK((flags & cudaDeviceScheduleMask) == cudaDeviceScheduleSpin,
        "the schedule flag set is read back");
  IS(cudaSetDeviceFlags(0x12345), cudaErrorInvalidValue);
  int version = 0;
  OK(cudaRuntimeGetVersion(&version));
  CHECK(version >= 12000, "runtime version");
  OK(cudaDriverGetVersion(&version));
  CHECK(version >= 12000, "driver version");
}

// Each attribute equals the cudaDeviceProp field the runtime fills from it.
static void attributes() {
  cudaDeviceProp p;
  OK(cudaGetDeviceProperties(&p, 0));
  struct Pair {
    cudaDeviceAttr attr;
    long long field;
  } pairs[] = {
      {cudaDevAttrMaxThreadsPerBlock, p.maxThreadsPerBlock},
      {cudaDevAttrMaxBlockDimX, p.maxThreadsDim[0]},
      {cudaDevAttrMaxBlockDimY, p.maxThreadsDim[1]},
      {cudaDevAttrMaxBlockDimZ, p.maxThreadsDim[2]},
      {cudaDevAttrMaxGridDimX, p.maxGridSize[0]},
      {cudaDevAttrMaxGridDimY, p.maxGridSize[1]},
      {cudaDevAttrMaxGridDimZ, p.maxGridSize[2]},
      {cudaDevAttrMaxSharedMemoryPerBlock, (long long)p.sharedMemPerBlock},
      {cudaDevAttrTotalConstantMemory, (long long)p.totalConstMem},
      {cudaDevAttrWarpSize, p.warpSize},
      {cudaDevAttrMaxPitch, (long long)p.memPitch},
      {cudaDevAttrMaxRegistersPerBlock, p.regsPerBlock},
      {cudaDevAttrTextureAlignment, (long long)p.textureAlignment},
      {cudaDevAttrMultiProcessorCount, p.multiProcessorCount},
      {cudaDevAttrIntegrated, p.integrated},
      {cudaDevAttrCanMapHostMemory, p.canMapHostMemory},
      {cudaDevAttrMaxTexture1DWidth, p.maxTexture1D},
      {cudaDevAttrMaxTexture2DWidth, p.maxTexture2D[0]},
      {cudaDevAttrMaxTexture2DHeight, p.maxTexture2D[1]},
      {cudaDevAttrMaxTexture3DWidth, p.maxTexture3D[0]},
      {cudaDevAttrMaxTexture3DDepth, p.maxTexture3D[2]},
      {cudaDevAttrMaxTexture2DLayeredLayers, p.maxTexture2DLayered[2]},
      {cudaDevAttrSurfaceAlignment, (long long)p.surfaceAlignment},
      {cudaDevAttrConcurrentKernels, p.concurrentKernels},
      {cudaDevAttrEccEnabled, p.ECCEnabled},
      {cudaDevAttrPciBusId, p.pciBusID},
      {cudaDevAttrPciDeviceId, p.pciDeviceID},
      {cudaDevAttrPciDomainId, p.pciDomainID},
      {cudaDevAttrTccDriver, p.tccDriver},
      {cudaDevAttrGlobalMemoryBusWidth, p.memoryBusWidth},
      {cudaDevAttrL2CacheSize, p.l2CacheSize},
      {cudaDevAttrMaxThreadsPerMultiProcessor, p.maxThreadsPerMultiProcessor},
      {cudaDevAttrAsyncEngineCount, p.asyncEngineCount},
      {cudaDevAttrUnifiedAddressing, p.unifiedAddressing},
      {cudaDevAttrMaxTexture1DLayeredWidth, p.maxTexture1DLayered[0]},
      {cudaDevAttrMaxTexture2DGatherWidth, p.maxTexture2DGather[0]},
      {cudaDevAttrMaxTexture3DWidthAlt, p.maxTexture3DAlt[0]},
      {cudaDevAttrTexturePitchAlignment, (long long)p.texturePitchAlignment},
      {cudaDevAttrMaxTextureCubemapWidth, p.maxTextureCubemap},
      {cudaDevAttrMaxTextureCubemapLayeredLayers,
       p.maxTextureCubemapLayered[1]},
      {cudaDevAttrMaxSurface1DWidth, p.maxSurface1D},
      {cudaDevAttrMaxSurface2DHeight, p.maxSurface2D[1]},
      {cudaDevAttrMaxSurface3DDepth, p.maxSurface3D[2]},
      {cudaDevAttrMaxSurface2DLayeredLayers, p.maxSurface2DLayered[2]},
      {cudaDevAttrMaxSurfaceCubemapLayeredWidth, p.maxSurfaceCubemapLayered[0]},
      {cudaDevAttrMaxTexture2DLinearPitch, p.maxTexture2DLinear[2]},
      {cudaDevAttrMaxTexture2DMipmappedHeight, p.maxTexture2DMipmap[1]},
      {cudaDevAttrComputeCapabilityMajor, p.major},
      {cudaDevAttrComputeCapabilityMinor, p.minor},
      {cudaDevAttrMaxTexture1DMipmappedWidth, p.maxTexture1DMipmap},
      {cudaDevAttrStreamPrioritiesSupported, p.streamPrioritiesSupported},
      {cudaDevAttrGlobalL1CacheSupported, p.globalL1CacheSupported},
      {cudaDevAttrLocalL1CacheSupported, p.localL1CacheSupported},
      {cudaDevAttrMaxSharedMemoryPerMultiprocessor,
       (long long)p.sharedMemPerMultiprocessor},
      {cudaDevAttrMaxRegistersPerMultiprocessor, p.regsPerMultiprocessor},
      {cudaDevAttrManagedMemory, p.managedMemory},
      {cudaDevAttrIsMultiGpuBoard, p.isMultiGpuBoard},
      {cudaDevAttrHostNativeAtomicSupported, p.hostNativeAtomicSupported},
      {cudaDevAttrPageableMemoryAccess, p.pageableMemoryAccess},
      {cudaDevAttrConcurrentManagedAccess, p.concurrentManagedAccess},
      {cudaDevAttrComputePreemptionSupported, p.computePreemptionSupported},
      {cudaDevAttrCooperativeLaunch, p.cooperativeLaunch},
      {cudaDevAttrMaxSharedMemoryPerBlockOptin,
       (long long)p.sharedMemPerBlockOptin},
      {cudaDevAttrMaxBlocksPerMultiprocessor, p.maxBlocksPerMultiProcessor},
      {cudaDevAttrMaxPersistingL2CacheSize, p.persistingL2CacheMaxSize},
      {cudaDevAttrMaxAccessPolicyWindowSize, p.accessPolicyMaxWindowSize},
      {cudaDevAttrReservedSharedMemoryPerBlock,
       (long long)p.reservedSharedMemPerBlock},
      {cudaDevAttrMemoryPoolsSupported, p.memoryPoolsSupported},
      {cudaDevAttrMemoryPoolSupportedHandleTypes,
       p.memoryPoolSupportedHandleTypes},
      {cudaDevAttrClusterLaunch, p.clusterLaunch},
      {cudaDevAttrIpcEventSupport, p.ipcEventSupported},
      {cudaDevAttrNumaConfig, p.deviceNumaConfig},
      {cudaDevAttrNumaId, p.deviceNumaId},
      {cudaDevAttrMpsEnabled, p.mpsEnabled},
      {cudaDevAttrGpuPciDeviceId, (long long)p.gpuPciDeviceID},
  };
  int mismatched = 0;
  for (const Pair &pair : pairs) {
    int v = -12345;
    if (cudaDeviceGetAttribute(&v, pair.attr, 0) != cudaSuccess ||
        v != pair.field) {
      std::printf("attribute %d: %d, cudaDeviceProp %lld\n", int(pair.attr), v,
                  pair.field);
      ++mismatched;
    }
  }
  CHECK(mismatched == 0, "attributes equal their cudaDeviceProp fields");
  // Every enumerator below cudaDevAttrMax is answered.
  int unanswered = 0;
  for (int a = 1; a < cudaDevAttrMax; ++a) {
    int v;
    if (cudaDeviceGetAttribute(&v, cudaDeviceAttr(a), 0) != cudaSuccess) {
      std::printf("attribute %d: not answered\n", a);
      ++unanswered;
    }
    cudaGetLastError();
  }
  CHECK(unanswered == 0, "every attribute number below cudaDevAttrMax");
  int v;
  IS(cudaDeviceGetAttribute(&v, cudaDeviceAttr(0), 0), cudaErrorInvalidValue);
  IS(cudaDeviceGetAttribute(&v, cudaDevAttrMax, 0), cudaErrorInvalidValue);
  IS(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 1),
     cudaErrorInvalidDevice);
  IS(cudaDeviceGetAttribute(nullptr, cudaDevAttrWarpSize, 0),
     cudaErrorInvalidValue);
  cudaGetLastError();
}

static void errors() {
  CHECK(!std::strcmp(cudaGetErrorName(cudaErrorInvalidValue),
                     "cudaErrorInvalidValue"),
        "error names");
  CHECK(!std::strcmp(cudaGetErrorString(cudaErrorMemoryAllocation),
                     "out of memory"),
        "error strings");
  CHECK(!std::strcmp(cudaGetErrorName(cudaErrorPeerAccessUnsupported),
                     "cudaErrorPeerAccessUnsupported"),
        "every error is named");
  CHECK(!std::strcmp(cudaGetErrorName(cudaError_t(5555)),
                     "unrecognized error code"),
        "an unknown code");
  IS(cudaMalloc(nullptr, 16), cudaErrorInvalidValue);
  IS(cudaGetLastError(), cudaErrorInvalidValue);
  IS(cudaGetLastError(), cudaSuccess);
  IS(cudaPeekAtLastError(), cudaSuccess);
  // More than the device has (the H200: docs/validation/data/
  // h200-runtime-facts.tsv, cudaMalloc.huge), not a sticky error.
  void *huge = nullptr;
  IS(cudaMalloc(&huge, size_t(1) << 50), cudaErrorMemoryAllocation);
  IS(cudaGetLastError(), cudaErrorMemoryAllocation);
  IS(cudaMalloc(&huge, 16), cudaSuccess);
  OK(cudaFree(huge));
}

static void settings() {
  size_t value = 0;
  OK(cudaDeviceGetLimit(&value, cudaLimitStackSize));
  CHECK(value > 0, "a stack size");
  OK(cudaDeviceSetLimit(cudaLimitStackSize, 4096));
  OK(cudaDeviceGetLimit(&value, cudaLimitStackSize));
  CHECK(value == 4096, "the stack size set is read back");
  OK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 16 << 20));
  OK(cudaDeviceGetLimit(&value, cudaLimitMallocHeapSize));
  CHECK(value == (16 << 20), "the heap size set is read back");
  IS(cudaDeviceSetLimit(cudaLimit(99), 1), cudaErrorInvalidValue);
  cudaFuncCache cache;
  OK(cudaDeviceSetCacheConfig(cudaFuncCachePreferL1));
  OK(cudaDeviceGetCacheConfig(&cache));
  CHECK(cache == cudaFuncCachePreferL1, "the cache configuration set");
  OK(cudaDeviceSetCacheConfig(cudaFuncCachePreferNone));
  cudaSharedMemConfig banks;
  OK(cudaDeviceGetSharedMemConfig(&banks));
  CHECK(banks == cudaSharedMemBankSizeFourByte, "4-byte banks");
  OK(cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeEightByte));
  OK(cudaFuncSetSharedMemConfig(fill, cudaSharedMemBankSizeDefault));
  OK(cudaFuncSetCacheConfig(fill, cudaFuncCachePreferShared));
  int least = 1, greatest = 1;
  OK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  CHECK(least == 0 && greatest < 0, "stream priorities: 0 to negative");
  // One device: no peer.
  int can = -1;
  OK(cudaDeviceCanAccessPeer(&can, 0, 0));
  CHECK(can == 0, "a device is not its own peer");
  IS(cudaDeviceEnablePeerAccess(0, 0), cudaErrorPeerAccessUnsupported);
  IS(cudaDeviceDisablePeerAccess(0), cudaErrorPeerAccessNotEnabled);
  int p2p = 0;
  IS(cudaDeviceGetP2PAttribute(&p2p, cudaDevP2PAttrAccessSupported, 0, 0),
     cudaErrorInvalidDevice);
  OK(cudaDeviceFlushGPUDirectRDMAWrites(
      cudaFlushGPUDirectRDMAWritesTargetCurrentDevice,
      cudaFlushGPUDirectRDMAWritesToOwner));
  OK(cudaCtxResetPersistingL2Cache());
  const char *name = nullptr;
  OK(cudaFuncGetName(&name, fill));
  CHECK(name && !std::strcmp(name, "_Z4fillPiii"), "the kernel's mangled name");
  cudaChannelFormatDesc d =
      cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
  CHECK(d.x == 32 && d.y == 0 && d.f == cudaChannelFormatKindFloat,
        "a channel description");
  cudaGetLastError();
}

static int hostCalls = 0;
static void CUDART_CB hostFunction(void *data) { hostCalls += *(int *)data; }
static void CUDART_CB callback(cudaStream_t, cudaError_t status, void *data) {
  if (status == cudaSuccess)
    hostCalls += *(int *)data;
}

static void streams() {
  int least, greatest;
  cudaDeviceGetStreamPriorityRange(&least, &greatest);
  cudaStream_t s, t;
  OK(cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, greatest - 10));
  int priority = 1;
  OK(cudaStreamGetPriority(s, &priority));
  CHECK(priority == greatest, "a priority past the range is clamped");
  unsigned flags = 7;
  OK(cudaStreamGetFlags(s, &flags));
  CHECK(flags == cudaStreamNonBlocking, "stream flags");
  OK(cudaStreamGetFlags(0, &flags));
  CHECK(flags == cudaStreamDefault, "the NULL stream's flags");
  int device = -1;
  OK(cudaStreamGetDevice(s, &device));
  CHECK(device == 0, "a stream's device");
  OK(cudaStreamCreate(&t));
  unsigned long long a = 0, b = 0;
  OK(cudaStreamGetId(s, &a));
  OK(cudaStreamGetId(t, &b));
  CHECK(a != b, "streams have distinct ids");
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusActive;
  OK(cudaStreamIsCapturing(s, &capture));
  CHECK(capture == cudaStreamCaptureStatusNone, "not capturing");
  capture = cudaStreamCaptureStatusActive;
  OK(cudaStreamGetCaptureInfo(s, &capture));
  CHECK(capture == cudaStreamCaptureStatusNone, "capture info: none");
  cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
  OK(cudaThreadExchangeStreamCaptureMode(&mode));
  CHECK(mode == cudaStreamCaptureModeGlobal, "the default capture mode");
  OK(cudaThreadExchangeStreamCaptureMode(&mode));
  cudaStreamAttrValue value;
  std::memset(&value, 0, sizeof value);
  value.priority = greatest;
  OK(cudaStreamSetAttribute(t, cudaStreamAttributePriority, &value));
  std::memset(&value, 0x5a, sizeof value);
  OK(cudaStreamGetAttribute(t, cudaStreamAttributePriority, &value));
  CHECK(value.priority == greatest, "the priority attribute set");
  value.syncPolicy = cudaSyncPolicyYield;
  OK(cudaStreamSetAttribute(t, cudaStreamAttributeSynchronizationPolicy,
                            &value));
  OK(cudaStreamCopyAttributes(s, t));
  std::memset(&value, 0, sizeof value);
  OK(cudaStreamGetAttribute(s, cudaStreamAttributeSynchronizationPolicy,
                            &value));
  CHECK(value.syncPolicy == cudaSyncPolicyYield, "copied attributes");
  int two = 2, three = 3;
  OK(cudaLaunchHostFunc(s, hostFunction, &two));
  OK(cudaStreamAddCallback(s, callback, &three, 0));
  OK(cudaStreamSynchronize(s));
  CHECK(hostCalls == 5, "host functions and callbacks ran");
  IS(cudaStreamAddCallback(s, callback, &three, 1), cudaErrorInvalidValue);
  OK(cudaStreamQuery(s));
  // Events.
  cudaEvent_t e1, e2, untimed;
  OK(cudaEventCreate(&e1));
  OK(cudaEventCreate(&e2));
  OK(cudaEventCreateWithFlags(&untimed, cudaEventDisableTiming));
  float ms = -1;
  OK(cudaEventQuery(e1));
  IS(cudaEventElapsedTime(&ms, e1, e2), cudaErrorInvalidResourceHandle);
  OK(cudaEventRecord(e1, s));
  OK(cudaEventRecordWithFlags(e2, s, cudaEventRecordDefault));
  OK(cudaEventRecord(untimed, s));
  OK(cudaEventSynchronize(e2));
  OK(cudaEventElapsedTime(&ms, e1, e2));
  CHECK(ms >= 0, "elapsed time");
  IS(cudaEventElapsedTime(&ms, e1, untimed), cudaErrorInvalidResourceHandle);
  OK(cudaStreamWaitEvent(t, e2, 0));
  OK(cudaEventDestroy(e1));
  OK(cudaEventDestroy(e2));
  OK(cudaEventDestroy(untimed));
  OK(cudaStreamDestroy(s));
  OK(cudaStreamDestroy(t));
  cudaAsyncCallbackHandle_t handle;
  cudaError_t e = cudaDeviceRegisterAsyncNotification(
      0,
      [](cudaAsyncNotificationInfo_t *, void *, cudaAsyncCallbackHandle_t) {},
      nullptr, &handle);
  std::printf("cudaDeviceRegisterAsyncNotification: %s\n", cudaGetErrorName(e));
  if (e == cudaSuccess)
    OK(cudaDeviceUnregisterAsyncNotification(0, handle));
  cudaGetLastError();
}

static void pools() {
  cudaMemPool_t pool, current, mine;
  OK(cudaDeviceGetDefaultMemPool(&pool, 0));
  OK(cudaDeviceGetMemPool(&current, 0));
  CHECK(pool == current, "the default pool is current");
  cudaMemLocation location = {cudaMemLocationTypeDevice, 0};
  OK(cudaMemGetDefaultMemPool(&current, &location,
                              cudaMemAllocationTypePinned));
  CHECK(pool == current, "the location's default pool");
  OK(cudaMemGetMemPool(&current, &location, cudaMemAllocationTypePinned));
  OK(cudaMemSetMemPool(&location, cudaMemAllocationTypePinned, current));
  unsigned long long threshold = 1 << 20, read = 0;
  OK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold,
                             &threshold));
  OK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &read));
  CHECK(read == threshold, "the release threshold set");
  int reuse = 0;
  OK(cudaMemPoolGetAttribute(pool, cudaMemPoolReuseAllowOpportunistic, &reuse));
  CHECK(reuse == 1, "opportunistic reuse by default");
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location = location;
  OK(cudaMemPoolCreate(&mine, &props));
  OK(cudaDeviceSetMemPool(0, mine));
  OK(cudaDeviceGetMemPool(&current, 0));
  CHECK(current == mine, "the pool set is current");
  cudaMemAccessDesc access = {location, cudaMemAccessFlagsProtReadWrite};
  OK(cudaMemPoolSetAccess(mine, &access, 1));
  cudaMemAccessFlags flags;
  OK(cudaMemPoolGetAccess(&flags, mine, &location));
  CHECK(flags == cudaMemAccessFlagsProtReadWrite, "the owner's access");
  cudaStream_t s;
  OK(cudaStreamCreate(&s));
  int *a = nullptr, *b = nullptr;
  const int n = 1000;
  OK(cudaMallocAsync((void **)&a, n * sizeof(int), s));
  OK(cudaMallocFromPoolAsync((void **)&b, n * sizeof(int), pool, s));
  unsigned long long used = 0;
  OK(cudaMemPoolGetAttribute(mine, cudaMemPoolAttrUsedMemCurrent, &used));
  CHECK(used >= n * sizeof(int), "the pool's used bytes");
  fill<<<(n + 255) / 256, 256, 0, s>>>(a, n, 7);
  OK(cudaMemcpyAsync(b, a, n * sizeof(int), cudaMemcpyDeviceToDevice, s));
  int host[n];
  OK(cudaMemcpyAsync(host, b, sizeof host, cudaMemcpyDeviceToHost, s));
  OK(cudaStreamSynchronize(s));
  CHECK(host[0] == 7 && host[n - 1] == 7 + n - 1, "pool memory holds data");
  OK(cudaFreeAsync(a, s));
  OK(cudaFreeAsync(b, s));
  OK(cudaStreamSynchronize(s));
  OK(cudaMemPoolGetAttribute(mine, cudaMemPoolAttrUsedMemCurrent, &used));
  CHECK(used == 0, "freed in stream order");
  OK(cudaMemPoolTrimTo(mine, 0));
  OK(cudaDeviceSetMemPool(0, pool));
  OK(cudaMemPoolDestroy(mine));
  OK(cudaStreamDestroy(s));
}

static void memory() {
  int *d = nullptr;
  OK(cudaMalloc(&d, 64 * sizeof(int)));
  void *pinned = nullptr, *mapped = nullptr, *managed = nullptr;
  OK(cudaMallocHost(&pinned, 4096));
  OK(cudaHostAlloc(&mapped, 4096, cudaHostAllocMapped));
  OK(cudaMallocManaged(&managed, 4096));
  void *plain = std::malloc(4096);
  cudaPointerAttributes a;
  OK(cudaPointerGetAttributes(&a, d + 3));
  CHECK(a.type == cudaMemoryTypeDevice && a.device == 0 &&
            a.hostPointer == nullptr,
        "device memory");
  OK(cudaPointerGetAttributes(&a, pinned));
  CHECK(a.type == cudaMemoryTypeHost && a.hostPointer == pinned &&
            a.devicePointer == pinned,
        "page-locked memory");
  OK(cudaPointerGetAttributes(&a, managed));
  CHECK(a.type == cudaMemoryTypeManaged && a.devicePointer == managed,
        "managed memory");
  OK(cudaPointerGetAttributes(&a, plain));
  CHECK(a.type == cudaMemoryTypeUnregistered && a.devicePointer == nullptr,
        "pageable memory");
  unsigned flags = 0;
  OK(cudaHostGetFlags(&flags, mapped));
  CHECK(flags & cudaHostAllocMapped, "cudaHostAlloc's flags");
  IS(cudaHostGetFlags(&flags, plain), cudaErrorInvalidValue);
  void *devicePointer = nullptr;
  OK(cudaHostGetDevicePointer(&devicePointer, mapped, 0));
  CHECK(devicePointer == mapped, "mapped memory's device pointer");
  size_t size = 0;
  OK(cudaGetSymbolSize(&size, deviceTable));
  CHECK(size == sizeof deviceTable, "a symbol's size");
  int table[7] = {1, 2, 3, 4, 5, 6, 7}, back[7] = {0};
  OK(cudaMemcpyToSymbolAsync(deviceTable, table, sizeof table, 0,
                             cudaMemcpyHostToDevice, 0));
  OK(cudaMemcpyFromSymbolAsync(back, deviceTable, sizeof back, 0,
                               cudaMemcpyDeviceToHost, 0));
  OK(cudaDeviceSynchronize());
  CHECK(back[6] == 7, "symbols copied both ways");
  IS(cudaMemcpyToSymbol(deviceTable, table, 64, 0), cudaErrorInvalidValue);
  // Peer copies within the one device.
  int *e = nullptr;
  OK(cudaMalloc(&e, 64 * sizeof(int)));
  fill<<<1, 64>>>(d, 64, 100);
  OK(cudaMemcpyPeer(e, 0, d, 0, 64 * sizeof(int)));
  OK(cudaMemcpyPeerAsync(e, 0, d, 0, 64 * sizeof(int), 0));
  int h[64];
  OK(cudaMemcpy(h, e, sizeof h, cudaMemcpyDefault));
  CHECK(h[63] == 163, "a peer copy");
  // Pitched 2D and 3D memory.
  void *p2 = nullptr;
  size_t pitch = 0;
  OK(cudaMallocPitch(&p2, &pitch, 100, 8));
  CHECK(pitch >= 100 && pitch % 32 == 0, "a pitch");
  OK(cudaMemset2D(p2, pitch, 0x11, 100, 8));
  OK(cudaMemset2DAsync(p2, pitch, 0x22, 50, 8, 0));
  unsigned char rows[8][100];
  OK(cudaMemcpy2D(rows, 100, p2, pitch, 100, 8, cudaMemcpyDeviceToHost));
  CHECK(rows[7][49] == 0x22 && rows[7][50] == 0x11, "2D set and copy");
  OK(cudaMemcpy2DAsync(p2, pitch, rows, 100, 100, 8, cudaMemcpyHostToDevice,
                       0));
  cudaExtent extent = make_cudaExtent(40, 4, 3);
  cudaPitchedPtr p3, q3;
  OK(cudaMalloc3D(&p3, extent));
  OK(cudaMalloc3D(&q3, extent));
  CHECK(p3.pitch >= 40 && p3.xsize == 40 && p3.ysize == 4,
        "a 3D pitched pointer");
  OK(cudaMemset3D(p3, 0x33, extent));
  OK(cudaMemset3DAsync(p3, 0x44, make_cudaExtent(40, 4, 1), 0));
  cudaMemcpy3DParms c = {};
  c.srcPtr = p3;
  c.dstPtr = q3;
  c.extent = extent;
  c.kind = cudaMemcpyDeviceToDevice;
  OK(cudaMemcpy3D(&c));
  unsigned char box[3][4][40];
  cudaMemcpy3DParms down = {};
  down.srcPtr = q3;
  down.dstPtr = make_cudaPitchedPtr(box, 40, 40, 4);
  down.extent = extent;
  down.kind = cudaMemcpyDeviceToHost;
  OK(cudaMemcpy3DAsync(&down, 0));
  OK(cudaDeviceSynchronize());
  CHECK(box[0][3][39] == 0x44 && box[2][0][0] == 0x33, "3D set and copy");
  cudaMemcpy3DPeerParms peer = {};
  peer.srcPtr = q3;
  peer.dstPtr = p3;
  peer.extent = extent;
  OK(cudaMemcpy3DPeer(&peer));
  OK(cudaMemcpy3DPeerAsync(&peer, 0));
  size_t freeBytes = 0, total = 0;
  OK(cudaMemGetInfo(&freeBytes, &total));
  CHECK(freeBytes <= total && total > 0, "memory info");
  IS(cudaFree(plain), cudaErrorInvalidValue);
  OK(cudaFree(nullptr));
  OK(cudaFree(d));
  OK(cudaFree(e));
  OK(cudaFree(p2));
  OK(cudaFree(p3.ptr));
  OK(cudaFree(q3.ptr));
  OK(cudaFreeHost(pinned));
  OK(cudaFreeHost(mapped));
  OK(cudaFree(managed));
  std::free(plain);
}

static void launches() {
  int *d = nullptr;
  OK(cudaMalloc(&d, 256 * sizeof(int)));
  cudaLaunchAttribute attributes[2];
  attributes[0].id = cudaLaunchAttributeCooperative;
  attributes[0].val.cooperative = 1;
  attributes[1].id = cudaLaunchAttributePriority;
  attributes[1].val.priority = 0;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(2);
  config.blockDim = dim3(128);
  config.attrs = attributes;
  config.numAttrs = 2;
  OK(cudaLaunchKernelEx(&config, fill, d, 256, 5));
  int h[256];
  OK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  CHECK(h[0] == 5 && h[255] == 260, "cudaLaunchKernelEx ran the kernel");
  OK(cudaFree(d));
}

struct Big {
  double d;
  char c;
  int v[5];
};
__global__ void params(char a, double b, int *c, Big d, short e, float4 f) {
  if (c)
    *c = a + int(b) + d.v[0] + e + int(f.x);
}

__global__ void __launch_bounds__(128) bounded(float *p) {
  __shared__ float s[64];
  if (threadIdx.x < 64)
    s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  if (p)
    p[threadIdx.x] = s[(threadIdx.x + 1) % 64];
}

// Kernel queries and the launch calls behind <<<>>>.
static void kernels() {
  cudaDeviceProp p;
  OK(cudaGetDeviceProperties(&p, 0));
  cudaFuncAttributes f;
  OK(cudaFuncGetAttributes(&f, bounded));
  CHECK(f.maxThreadsPerBlock == 128, "launch bounds");
  CHECK(f.sharedSizeBytes == 64 * sizeof(float), "static shared bytes");
  OK(cudaFuncSetAttribute(bounded, cudaFuncAttributeMaxDynamicSharedMemorySize,
                          64 * 1024));
  OK(cudaFuncGetAttributes(&f, bounded));
  CHECK(f.maxDynamicSharedSizeBytes == 64 * 1024, "the dynamic limit set");
  int blocks = 0;
  OK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, bounded, 128, 0));
  CHECK(blocks > 0, "resident blocks");
  int withFlags = 0;
  OK(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
      &withFlags, bounded, 128, 0, cudaOccupancyDefault));
  CHECK(withFlags == blocks, "the same with default flags");
  IS(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, bounded, 0, 0),
     cudaErrorInvalidValue);
  // The dynamic shared memory left to each of 2 resident blocks: the SM's
  // shared memory split in two, less the static part, within the limit.
  size_t available = 0;
  OK(cudaOccupancyAvailableDynamicSMemPerBlock(&available, bounded, 2, 128));
  CHECK(available == f.maxDynamicSharedSizeBytes ||
            available == p.sharedMemPerMultiprocessor / 2 / 128 * 128 -
                             f.sharedSizeBytes,
        "available dynamic shared memory");
  OK(cudaFuncSetAttribute(bounded,
                          cudaFuncAttributePreferredSharedMemoryCarveout, 100));
  OK(cudaFuncGetAttributes(&f, bounded));
  CHECK(f.preferredShmemCarveout == 100, "the carveout preference set");
  IS(cudaFuncSetAttribute(bounded,
                          cudaFuncAttributePreferredSharedMemoryCarveout, 101),
     cudaErrorInvalidValue);
  // Parameters in the parameter buffer, each at its alignment.
  const size_t offsets[] = {0, 8, 16, 24, 56, 64},
               sizes[] = {1, 8, 8, 32, 2, 16};
  int laidOut = 0;
  for (size_t i = 0; i < 6; ++i) {
    size_t offset = 0, size = 0;
    if (cudaFuncGetParamInfo((const void *)params, i, &offset, &size) ==
            cudaSuccess &&
        offset == offsets[i] && size == sizes[i])
      ++laidOut;
  }
  CHECK(laidOut == 6, "parameter offsets and sizes");
  size_t offset, size;
  IS(cudaFuncGetParamInfo((const void *)params, 6, &offset, &size),
     cudaErrorInvalidValue);
  // Atomics: none to the host over PCIe; no peer.
  cudaAtomicOperation ops[] = {cudaAtomicOperationIntegerAdd,
                               cudaAtomicOperationCAS,
                               cudaAtomicOperationFloatAdd};
  unsigned caps[3] = {7, 7, 7};
  OK(cudaDeviceGetHostAtomicCapabilities(caps, ops, 3, 0));
  int hostNative = 0;
  OK(cudaDeviceGetAttribute(&hostNative, cudaDevAttrHostNativeAtomicSupported,
                            0));
  CHECK(hostNative || (caps[0] == 0 && caps[1] == 0 && caps[2] == 0),
        "no host atomics without host-native atomics");
  IS(cudaDeviceGetP2PAtomicCapabilities(caps, ops, 3, 0, 0),
     cudaErrorInvalidDevice);
  // A kernel that wants most of the L1: 8 KB of shared memory for 2 blocks.
  OK(cudaFuncSetCacheConfig(fill, cudaFuncCachePreferL1));
  OK(cudaOccupancyAvailableDynamicSMemPerBlock(&available, fill, 2, 128));
  CHECK(available == 4096, "the L1 preference's 8 KB carveout");
  float *d = nullptr;
  OK(cudaMalloc(&d, 128 * sizeof(float)));
  OK(cudaMemsetAsync(d, 0, 128 * sizeof(float), 0));
  void *args[] = {&d};
  OK(cudaLaunchKernel((const void *)bounded, dim3(1), dim3(128), args, 0, 0));
  OK(cudaLaunchCooperativeKernel((const void *)bounded, dim3(1), dim3(128),
                                 args, 0, 0));
  // What the launch refuses, each an invalid value from CUDA 12 on: too
  // many threads, more than the launch bounds, an empty grid, more dynamic
  // shared memory than the kernel may have without opting in.
  IS(cudaLaunchKernel((const void *)bounded, dim3(1), dim3(1025), args, 0, 0),
     cudaErrorInvalidValue);
  IS(cudaLaunchKernel((const void *)bounded, dim3(1), dim3(256), args, 0, 0),
     cudaErrorInvalidValue);
  IS(cudaLaunchKernel((const void *)bounded, dim3(0), dim3(128), args, 0, 0),
     cudaErrorInvalidValue);
  IS(cudaLaunchKernel((const void *)fill, dim3(1), dim3(32), args, 60000, 0),
     cudaErrorInvalidValue);
  IS(cudaLaunchKernel((const void *)fill, dim3(1, 65536), dim3(32), args, 0, 0),
     cudaErrorInvalidValue);
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(1);
  config.blockDim = dim3(128);
  OK(cudaLaunchKernelExC(&config, (const void *)bounded, args));
  float h[128];
  OK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  CHECK(h[0] == 1 && h[127] == 0, "the kernel's results");
  void *address = nullptr;
  OK(cudaGetSymbolAddress(&address, deviceTable));
  cudaPointerAttributes a;
  OK(cudaPointerGetAttributes(&a, address));
  CHECK(a.type == cudaMemoryTypeDevice, "a symbol is device memory");
  cudaStream_t s;
  OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  void *managed = nullptr;
  OK(cudaMallocManaged(&managed, 256));
  OK(cudaStreamAttachMemAsync(s, managed, 0, cudaMemAttachSingle));
  OK(cudaStreamSynchronize(s));
  OK(cudaFree(managed));
  OK(cudaFree(d));
  OK(cudaStreamDestroy(s));
  cudaGetLastError();
}

int main() {
  devices();
  attributes();
  errors();
  settings();
  streams();
  pools();
  memory();
  launches();
  kernels();
  OK(cudaDeviceReset());
  std::printf("runtime_api: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
