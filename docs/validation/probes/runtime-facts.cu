// Probe: what the CUDA runtime answers on one device, for kcheck's
// simulated runtime (docs/conformance.md). Prints "key<TAB>value" lines:
// every cudaDeviceAttr value 0..199, every cudaDeviceProp field, every error
// code's name and string, every cudaLimit, and how one-device calls answer
// (peers, other ordinals, pointer attributes, pools, bad arguments).
// Build: nvcc -arch=sm_90 -o runtime-facts runtime-facts.cu
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define PROP_SCALAR(n) std::printf("prop.%s\t%lld\n", #n, (long long)p.n);
#define PROP_ARRAY(n, k) for (int i = 0; i < k; ++i) std::printf("prop.%s[%d]\t%lld\n", #n, i, (long long)p.n[i]);
#define PROP_CHARS(n, k) { std::printf("prop.%s\t", #n); if (k == 256) std::printf("%s", p.n); else for (int i = 0; i < k; ++i) std::printf("%02x", (unsigned char)p.n[i]); std::printf("\n"); }
#define PROP_UUID(n) { std::printf("prop.%s\t", #n); for (int i = 0; i < 16; ++i) std::printf("%02x", (unsigned char)p.n.bytes[i]); std::printf("\n"); }
#define FIELDS \
  PROP_CHARS(name, 256) \
  PROP_UUID(uuid) \
  PROP_CHARS(luid, 8) \
  PROP_SCALAR(luidDeviceNodeMask) \
  PROP_SCALAR(totalGlobalMem) \
  PROP_SCALAR(sharedMemPerBlock) \
  PROP_SCALAR(regsPerBlock) \
  PROP_SCALAR(warpSize) \
  PROP_SCALAR(memPitch) \
  PROP_SCALAR(maxThreadsPerBlock) \
  PROP_ARRAY(maxThreadsDim, 3) \
  PROP_ARRAY(maxGridSize, 3) \
  PROP_SCALAR(totalConstMem) \
  PROP_SCALAR(major) \
  PROP_SCALAR(minor) \
  PROP_SCALAR(textureAlignment) \
  PROP_SCALAR(texturePitchAlignment) \
  PROP_SCALAR(multiProcessorCount) \
  PROP_SCALAR(integrated) \
  PROP_SCALAR(canMapHostMemory) \
  PROP_SCALAR(maxTexture1D) \
  PROP_SCALAR(maxTexture1DMipmap) \
  PROP_ARRAY(maxTexture2D, 2) \
  PROP_ARRAY(maxTexture2DMipmap, 2) \
  PROP_ARRAY(maxTexture2DLinear, 3) \
  PROP_ARRAY(maxTexture2DGather, 2) \
  PROP_ARRAY(maxTexture3D, 3) \
  PROP_ARRAY(maxTexture3DAlt, 3) \
  PROP_SCALAR(maxTextureCubemap) \
  PROP_ARRAY(maxTexture1DLayered, 2) \
  PROP_ARRAY(maxTexture2DLayered, 3) \
  PROP_ARRAY(maxTextureCubemapLayered, 2) \
  PROP_SCALAR(maxSurface1D) \
  PROP_ARRAY(maxSurface2D, 2) \
  PROP_ARRAY(maxSurface3D, 3) \
  PROP_ARRAY(maxSurface1DLayered, 2) \
  PROP_ARRAY(maxSurface2DLayered, 3) \
  PROP_SCALAR(maxSurfaceCubemap) \
  PROP_ARRAY(maxSurfaceCubemapLayered, 2) \
  PROP_SCALAR(surfaceAlignment) \
  PROP_SCALAR(concurrentKernels) \
  PROP_SCALAR(ECCEnabled) \
  PROP_SCALAR(pciBusID) \
  PROP_SCALAR(pciDeviceID) \
  PROP_SCALAR(pciDomainID) \
  PROP_SCALAR(tccDriver) \
  PROP_SCALAR(asyncEngineCount) \
  PROP_SCALAR(unifiedAddressing) \
  PROP_SCALAR(memoryBusWidth) \
  PROP_SCALAR(l2CacheSize) \
  PROP_SCALAR(persistingL2CacheMaxSize) \
  PROP_SCALAR(maxThreadsPerMultiProcessor) \
  PROP_SCALAR(streamPrioritiesSupported) \
  PROP_SCALAR(globalL1CacheSupported) \
  PROP_SCALAR(localL1CacheSupported) \
  PROP_SCALAR(sharedMemPerMultiprocessor) \
  PROP_SCALAR(regsPerMultiprocessor) \
  PROP_SCALAR(managedMemory) \
  PROP_SCALAR(isMultiGpuBoard) \
  PROP_SCALAR(multiGpuBoardGroupID) \
  PROP_SCALAR(hostNativeAtomicSupported) \
  PROP_SCALAR(pageableMemoryAccess) \
  PROP_SCALAR(concurrentManagedAccess) \
  PROP_SCALAR(computePreemptionSupported) \
  PROP_SCALAR(canUseHostPointerForRegisteredMem) \
  PROP_SCALAR(cooperativeLaunch) \
  PROP_SCALAR(sharedMemPerBlockOptin) \
  PROP_SCALAR(pageableMemoryAccessUsesHostPageTables) \
  PROP_SCALAR(directManagedMemAccessFromHost) \
  PROP_SCALAR(maxBlocksPerMultiProcessor) \
  PROP_SCALAR(accessPolicyMaxWindowSize) \
  PROP_SCALAR(reservedSharedMemPerBlock) \
  PROP_SCALAR(hostRegisterSupported) \
  PROP_SCALAR(sparseCudaArraySupported) \
  PROP_SCALAR(hostRegisterReadOnlySupported) \
  PROP_SCALAR(timelineSemaphoreInteropSupported) \
  PROP_SCALAR(memoryPoolsSupported) \
  PROP_SCALAR(gpuDirectRDMASupported) \
  PROP_SCALAR(gpuDirectRDMAFlushWritesOptions) \
  PROP_SCALAR(gpuDirectRDMAWritesOrdering) \
  PROP_SCALAR(memoryPoolSupportedHandleTypes) \
  PROP_SCALAR(deferredMappingCudaArraySupported) \
  PROP_SCALAR(ipcEventSupported) \
  PROP_SCALAR(clusterLaunch) \
  PROP_SCALAR(unifiedFunctionPointers) \
  PROP_SCALAR(deviceNumaConfig) \
  PROP_SCALAR(deviceNumaId) \
  PROP_SCALAR(mpsEnabled) \
  PROP_SCALAR(hostNumaId) \
  PROP_SCALAR(gpuPciDeviceID) \
  PROP_SCALAR(gpuPciSubsystemID) \
  PROP_SCALAR(hostNumaMultinodeIpcSupported)


static const char *err(cudaError_t e) { return cudaGetErrorName(e); }
#define SHOW(key, call) do { cudaError_t e_ = (call); std::printf("%s\t%s\n", key, err(e_)); cudaGetLastError(); } while (0)

__device__ int symbol[7];
__constant__ float constSymbol[3];
__global__ void kernel(int *p) { if (p) p[threadIdx.x] = threadIdx.x; }
__global__ void __launch_bounds__(128) bounded(float *p) { __shared__ float s[64]; s[threadIdx.x % 64] = 1; __syncthreads(); if (p) p[threadIdx.x] = s[(threadIdx.x + 1) % 64]; }

static void pointer(const char *what, const void *ptr) {
  cudaPointerAttributes a;
  std::memset(&a, 0x5a, sizeof a);
  cudaError_t e = cudaPointerGetAttributes(&a, ptr);
  std::printf("pointer.%s\t%s type=%d device=%d devicePointer=%s hostPointer=%s\n", what, err(e), int(a.type), a.device,
              a.devicePointer == ptr ? "same" : a.devicePointer ? "other" : "null",
              a.hostPointer == ptr ? "same" : a.hostPointer ? "other" : "null");
  cudaGetLastError();
}

int main() {
  unsigned flags = 77;
  SHOW("cudaGetDeviceFlags.before", cudaGetDeviceFlags(&flags));
  std::printf("cudaGetDeviceFlags.before.value\t%u\n", flags);
  int v = 0;
  for (int a = 0; a < 200; ++a) {
    v = -12345;
    cudaError_t e = cudaDeviceGetAttribute(&v, cudaDeviceAttr(a), 0);
    if (e == cudaSuccess) std::printf("attr.%d\t%d\n", a, v);
    else std::printf("attr.%d\t%s\n", a, err(e));
    cudaGetLastError();
  }
  SHOW("cudaDeviceGetAttribute.device1", cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 1));
  SHOW("cudaDeviceGetAttribute.device-1", cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, -1));
  SHOW("cudaDeviceGetAttribute.null", cudaDeviceGetAttribute(nullptr, cudaDevAttrWarpSize, 0));
  cudaDeviceProp p;
  std::memset(&p, 0, sizeof p);
  SHOW("cudaGetDeviceProperties", cudaGetDeviceProperties(&p, 0));
  FIELDS
  SHOW("cudaGetDeviceProperties.device1", cudaGetDeviceProperties(&p, 1));
  SHOW("cudaGetDeviceProperties.null", cudaGetDeviceProperties(nullptr, 0));
  for (int e = 0; e < 1100; ++e) {
    const char *n = cudaGetErrorName(cudaError_t(e));
    if (std::strcmp(n, "unrecognized error code") == 0) continue;
    std::printf("error.%d\t%s\t%s\n", e, n, cudaGetErrorString(cudaError_t(e)));
  }
  std::printf("error.unknown-name\t%s\n", cudaGetErrorName(cudaError_t(5555)));
  std::printf("error.unknown-string\t%s\n", cudaGetErrorString(cudaError_t(5555)));
  for (int l = 0; l < 24; ++l) {
    size_t value = 0;
    cudaError_t e = cudaDeviceGetLimit(&value, cudaLimit(l));
    std::printf("limit.%d\t%s\t%zu\n", l, err(e), value);
    cudaGetLastError();
  }
  int count = -1; SHOW("cudaGetDeviceCount", cudaGetDeviceCount(&count)); std::printf("deviceCount\t%d\n", count);
  int version = 0;
  cudaRuntimeGetVersion(&version); std::printf("runtimeVersion\t%d\n", version);
  cudaDriverGetVersion(&version); std::printf("driverVersion\t%d\n", version);
  SHOW("cudaSetDevice.1", cudaSetDevice(1));
  SHOW("cudaSetDevice.-1", cudaSetDevice(-1));
  SHOW("cudaSetDevice.0", cudaSetDevice(0));
  SHOW("cudaInitDevice.0", cudaInitDevice(0, 0, 0));
  SHOW("cudaInitDevice.1", cudaInitDevice(1, 0, 0));
  SHOW("cudaGetDeviceFlags.after", cudaGetDeviceFlags(&flags)); std::printf("cudaGetDeviceFlags.after.value\t%u\n", flags);
  SHOW("cudaSetDeviceFlags.spin", cudaSetDeviceFlags(cudaDeviceScheduleSpin));
  SHOW("cudaGetDeviceFlags.afterSet", cudaGetDeviceFlags(&flags)); std::printf("cudaGetDeviceFlags.afterSet.value\t%u\n", flags);
  SHOW("cudaSetDeviceFlags.bad", cudaSetDeviceFlags(0x12345));
  int can = -1;
  SHOW("cudaDeviceCanAccessPeer.00", cudaDeviceCanAccessPeer(&can, 0, 0)); std::printf("cudaDeviceCanAccessPeer.00.value\t%d\n", can);
  SHOW("cudaDeviceCanAccessPeer.01", cudaDeviceCanAccessPeer(&can, 0, 1));
  SHOW("cudaDeviceEnablePeerAccess.0", cudaDeviceEnablePeerAccess(0, 0));
  SHOW("cudaDeviceEnablePeerAccess.1", cudaDeviceEnablePeerAccess(1, 0));
  SHOW("cudaDeviceDisablePeerAccess.0", cudaDeviceDisablePeerAccess(0));
  SHOW("cudaDeviceDisablePeerAccess.1", cudaDeviceDisablePeerAccess(1));
  for (int a = 1; a <= 4; ++a) { v = -1; cudaError_t e = cudaDeviceGetP2PAttribute(&v, cudaDeviceP2PAttr(a), 0, 0); std::printf("p2p.%d.00\t%s\t%d\n", a, err(e), v); cudaGetLastError(); }
  int device = -1; SHOW("cudaChooseDevice", cudaChooseDevice(&device, &p)); std::printf("cudaChooseDevice.value\t%d\n", device);
  char bus[64] = {0}; SHOW("cudaDeviceGetPCIBusId", cudaDeviceGetPCIBusId(bus, sizeof bus, 0)); std::printf("cudaDeviceGetPCIBusId.value\t%s\n", bus);
  SHOW("cudaDeviceGetByPCIBusId", cudaDeviceGetByPCIBusId(&device, bus)); std::printf("cudaDeviceGetByPCIBusId.value\t%d\n", device);
  SHOW("cudaDeviceGetByPCIBusId.bad", cudaDeviceGetByPCIBusId(&device, "zzzz"));
  cudaSharedMemConfig smc; SHOW("cudaDeviceGetSharedMemConfig", cudaDeviceGetSharedMemConfig(&smc)); std::printf("cudaDeviceGetSharedMemConfig.value\t%d\n", int(smc));
  SHOW("cudaDeviceSetSharedMemConfig.8", cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeEightByte));
  cudaDeviceGetSharedMemConfig(&smc); std::printf("cudaDeviceGetSharedMemConfig.after8\t%d\n", int(smc));
  cudaFuncCache cc; SHOW("cudaDeviceGetCacheConfig", cudaDeviceGetCacheConfig(&cc)); std::printf("cudaDeviceGetCacheConfig.value\t%d\n", int(cc));
  SHOW("cudaDeviceSetCacheConfig.L1", cudaDeviceSetCacheConfig(cudaFuncCachePreferL1));
  cudaDeviceGetCacheConfig(&cc); std::printf("cudaDeviceGetCacheConfig.afterL1\t%d\n", int(cc));
  int lo = 0, hi = 0; SHOW("cudaDeviceGetStreamPriorityRange", cudaDeviceGetStreamPriorityRange(&lo, &hi)); std::printf("cudaDeviceGetStreamPriorityRange.value\t%d %d\n", lo, hi);
  size_t freeB = 0, totalB = 0; SHOW("cudaMemGetInfo", cudaMemGetInfo(&freeB, &totalB)); std::printf("cudaMemGetInfo.total\t%zu\n", totalB);
  SHOW("cudaDeviceSetLimit.stack", cudaDeviceSetLimit(cudaLimitStackSize, 4096));
  size_t lim = 0; cudaDeviceGetLimit(&lim, cudaLimitStackSize); std::printf("limit.stack.after4096\t%zu\n", lim);
  SHOW("cudaDeviceSetLimit.printf", cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 1 << 21));
  SHOW("cudaDeviceSetLimit.bad", cudaDeviceSetLimit(cudaLimit(99), 1));
  // Memory and pointers.
  int *d = nullptr; SHOW("cudaMalloc", cudaMalloc(&d, 1024));
  void *z = (void *)0x1; SHOW("cudaMalloc.0", cudaMalloc(&z, 0)); std::printf("cudaMalloc.0.value\t%s\n", z ? "nonnull" : "null");
  void *huge = nullptr; SHOW("cudaMalloc.huge", cudaMalloc(&huge, size_t(1) << 50));
  SHOW("cudaMalloc.nullout", cudaMalloc(nullptr, 16));
  void *pinned = nullptr; SHOW("cudaMallocHost", cudaMallocHost(&pinned, 4096));
  void *mapped = nullptr; SHOW("cudaHostAlloc.mapped", cudaHostAlloc(&mapped, 4096, cudaHostAllocMapped));
  void *managed = nullptr; SHOW("cudaMallocManaged", cudaMallocManaged(&managed, 4096));
  void *hostm = std::malloc(4096); int stackVar = 0;
  void *reg = std::malloc(8192); SHOW("cudaHostRegister", cudaHostRegister(reg, 8192, 0));
  void *pitched = nullptr; size_t pitch = 0; SHOW("cudaMallocPitch", cudaMallocPitch(&pitched, &pitch, 100, 10)); std::printf("cudaMallocPitch.pitch\t%zu\n", pitch);
  SHOW("cudaMallocPitch.width513", cudaMallocPitch(&pitched, &pitch, 513, 3)); std::printf("cudaMallocPitch.width513.pitch\t%zu\n", pitch);
  pointer("device", d); pointer("device+4", d + 1); pointer("pinned", pinned); pointer("mapped", mapped); pointer("managed", managed);
  pointer("malloc", hostm); pointer("stack", &stackVar); pointer("null", nullptr); pointer("registered", reg);
  void *devOfMapped = nullptr; SHOW("cudaHostGetDevicePointer", cudaHostGetDevicePointer(&devOfMapped, mapped, 0)); std::printf("cudaHostGetDevicePointer.same\t%d\n", devOfMapped == mapped);
  unsigned hf = 0; SHOW("cudaHostGetFlags", cudaHostGetFlags(&hf, mapped)); std::printf("cudaHostGetFlags.value\t%u\n", hf);
  SHOW("cudaHostGetFlags.malloc", cudaHostGetFlags(&hf, hostm));
  SHOW("cudaFree.null", cudaFree(nullptr));
  SHOW("cudaFree.host", cudaFree(hostm));
  SHOW("cudaFree.inner", cudaFree(d + 1));
  SHOW("cudaFreeHost.malloc", cudaFreeHost(hostm));
  SHOW("cudaMemcpy.baddir", cudaMemcpy(d, hostm, 16, cudaMemcpyKind(9)));
  SHOW("cudaMemcpy.default", cudaMemcpy(d, hostm, 16, cudaMemcpyDefault));
  SHOW("cudaMemcpy.h2h", cudaMemcpy(hostm, &stackVar, 4, cudaMemcpyHostToHost));
  SHOW("cudaMemcpy.wrongdir", cudaMemcpy(d, hostm, 16, cudaMemcpyDeviceToHost));
  SHOW("cudaMemset.host", cudaMemset(hostm, 0, 16));
  size_t ssize = 0; SHOW("cudaGetSymbolSize", cudaGetSymbolSize(&ssize, symbol)); std::printf("cudaGetSymbolSize.value\t%zu\n", ssize);
  void *saddr = nullptr; SHOW("cudaGetSymbolAddress", cudaGetSymbolAddress(&saddr, constSymbol)); pointer("symbol", saddr);
  SHOW("cudaMemcpyToSymbol.past", cudaMemcpyToSymbol(symbol, hostm, 32, 0));
  // Streams, events, pools.
  cudaStream_t s; SHOW("cudaStreamCreateWithPriority", cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, -5));
  int prio = 0; SHOW("cudaStreamGetPriority", cudaStreamGetPriority(s, &prio)); std::printf("cudaStreamGetPriority.value\t%d\n", prio);
  unsigned sf = 0; SHOW("cudaStreamGetFlags", cudaStreamGetFlags(s, &sf)); std::printf("cudaStreamGetFlags.value\t%u\n", sf);
  cudaStreamGetFlags(0, &sf); std::printf("cudaStreamGetFlags.default\t%u\n", sf);
  int sdev = -1; SHOW("cudaStreamGetDevice", cudaStreamGetDevice(s, &sdev)); std::printf("cudaStreamGetDevice.value\t%d\n", sdev);
  unsigned long long sid = 0; SHOW("cudaStreamGetId", cudaStreamGetId(s, &sid));
  SHOW("cudaStreamQuery", cudaStreamQuery(s));
  cudaEvent_t e1, e2; cudaEventCreate(&e1); cudaEventCreate(&e2);
  SHOW("cudaEventQuery.unrecorded", cudaEventQuery(e1));
  SHOW("cudaEventSynchronize.unrecorded", cudaEventSynchronize(e1));
  float ms = 0; SHOW("cudaEventElapsedTime.unrecorded", cudaEventElapsedTime(&ms, e1, e2));
  cudaEventRecord(e1); SHOW("cudaEventElapsedTime.one", cudaEventElapsedTime(&ms, e1, e2));
  cudaEvent_t nt; cudaEventCreateWithFlags(&nt, cudaEventDisableTiming); cudaEventRecord(nt); cudaEventRecord(e2); cudaEventSynchronize(e2);
  SHOW("cudaEventElapsedTime.notiming", cudaEventElapsedTime(&ms, e1, nt));
  cudaMemPool_t pool; SHOW("cudaDeviceGetDefaultMemPool", cudaDeviceGetDefaultMemPool(&pool, 0));
  for (int a = 1; a <= 8; ++a) { unsigned long long pv = 0; cudaError_t e = cudaMemPoolGetAttribute(pool, cudaMemPoolAttr(a), &pv); std::printf("pool.%d\t%s\t%llu\n", a, err(e), pv); cudaGetLastError(); }
  void *am = nullptr; SHOW("cudaMallocAsync", cudaMallocAsync(&am, 1000, s)); SHOW("cudaFreeAsync", cudaFreeAsync(am, s));
  cudaStreamSynchronize(s);
  // Kernels.
  cudaFuncAttributes fa; SHOW("cudaFuncGetAttributes", cudaFuncGetAttributes(&fa, bounded));
  std::printf("func.maxThreadsPerBlock\t%d\nfunc.sharedSizeBytes\t%zu\nfunc.numRegs\t%d\nfunc.ptxVersion\t%d\nfunc.binaryVersion\t%d\nfunc.maxDynamicSharedSizeBytes\t%d\nfunc.preferredShmemCarveout\t%d\nfunc.clusterDimMustBeSet\t%d\nfunc.requiredClusterWidth\t%d\nfunc.clusterSchedulingPolicyPreference\t%d\nfunc.nonPortableClusterSizeAllowed\t%d\n",
              fa.maxThreadsPerBlock, fa.sharedSizeBytes, fa.numRegs, fa.ptxVersion, fa.binaryVersion, fa.maxDynamicSharedSizeBytes, fa.preferredShmemCarveout, fa.clusterDimMustBeSet, fa.requiredClusterWidth, fa.clusterSchedulingPolicyPreference, fa.nonPortableClusterSizeAllowed);
  SHOW("cudaFuncGetAttributes.host", cudaFuncGetAttributes(&fa, (const void *)&pointer));
  const char *fname = nullptr; SHOW("cudaFuncGetName", cudaFuncGetName(&fname, bounded)); std::printf("cudaFuncGetName.value\t%s\n", fname ? fname : "(null)");
  void *args[] = {&d};
  SHOW("cudaLaunchKernel.1025", cudaLaunchKernel((const void *)kernel, dim3(1), dim3(1025), args, 0, 0));
  SHOW("cudaLaunchKernel.bounded256", cudaLaunchKernel((const void *)bounded, dim3(1), dim3(256), args, 0, 0));
  SHOW("cudaLaunchKernel.grid0", cudaLaunchKernel((const void *)kernel, dim3(0), dim3(32), args, 0, 0));
  SHOW("cudaLaunchKernel.shared300k", cudaLaunchKernel((const void *)kernel, dim3(1), dim3(32), args, 300000, 0));
  SHOW("cudaLaunchKernel.shared60k", cudaLaunchKernel((const void *)kernel, dim3(1), dim3(32), args, 60000, 0));
  SHOW("cudaLaunchKernel.gridY65536", cudaLaunchKernel((const void *)kernel, dim3(1, 65536), dim3(32), args, 0, 0));
  SHOW("cudaLaunchKernel.host", cudaLaunchKernel((const void *)&pointer, dim3(1), dim3(32), args, 0, 0));
  SHOW("cudaDeviceSynchronize", cudaDeviceSynchronize());
  int nb = -1; SHOW("cudaOccupancyMaxActiveBlocksPerMultiprocessor.0", cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, kernel, 0, 0)); std::printf("occupancy.block0\t%d\n", nb);
  size_t dyn = 0; SHOW("cudaOccupancyAvailableDynamicSMemPerBlock", cudaOccupancyAvailableDynamicSMemPerBlock(&dyn, bounded, 2, 128)); std::printf("occupancy.availableDynamic\t%zu\n", dyn);
  SHOW("cudaGetLastError.end", cudaGetLastError());
  return 0;
}
