// What the files of kcheck's CUDA runtime entry points share (internal to
// host/): the CUDA API's types as kcheck's stub headers declare them (JIT'd
// host code is compiled against those or the toolkit's, which lay out alike
// what the entry points take: scalars, pointers, dim3, the enums' values),
// the runtime of the calling thread, and the error bookkeeping.
#pragma once

#include "host/CudaRuntime.h"

// The stubs mark host/device functions with Clang's CUDA attributes, which
// mean nothing here.
#define __host__
#define __device__
#include "analyzer/toolchain/cuda_stubs/cuda_runtime_api.h"
#undef __host__
#undef __device__

#include <utility>
#include <vector>

namespace kcheck::host::entry {

/// The runtime of this thread's CudaRuntime::Scope (or, on a thread the
/// program started, the program's); ends kcheck with a message when there
/// is none.
CudaRuntime &rt();

/// Records `e` as the last error (cudaGetLastError) and returns it.
cudaError_t fail(cudaError_t e);

/// A kernel fault's sticky error (CudaRuntime::stickyError), recorded as the
/// last error, or cudaSuccess: what every call that reaches the device
/// returns first.
cudaError_t sticky();

/// The CUDA API's dim3 as kcheck's launch geometry.
inline core::Dim3 toDim3(dim3 d) { return {d.x, d.y, d.z}; }

using EntryPoints = std::vector<std::pair<const char *, void *>>;

template <class F> void *address(F *f) { return reinterpret_cast<void *>(f); }

/// A CUDA entry point as JIT'd code calls it: under CudaRuntime::entryLock,
/// so that calls from the program's threads (OpenMP workers launching
/// kernels) reach the one simulated device one at a time.
template <auto F> struct Serialized;
template <class R, class... A, R (*F)(A...)> struct Serialized<F> {
  static R call(A... args) {
    std::lock_guard<std::recursive_mutex> lock(CudaRuntime::entryLock());
    return F(args...);
  }
};
template <auto F> void *serialized() {
  return reinterpret_cast<void *>(&Serialized<F>::call);
}

/// Allocation, copies, managed/mapped/registered host memory, symbols
/// (CudaRuntimeMemory.cpp).
EntryPoints memoryEntryPoints();
/// Managed memory's advice, prefetches, discards and range attributes
/// (CudaRuntimeManaged.cpp).
EntryPoints managedEntryPoints();
/// Batched copies (CudaRuntimeCopyBatches.cpp).
EntryPoints copyBatchEntryPoints();
/// Device settings and limits, peers, PCI identity, memory pools
/// (CudaRuntimeQueries.cpp).
EntryPoints queryEntryPoints();
/// Stream properties and attributes, host functions, capture queries
/// (CudaRuntimeStreams.cpp).
EntryPoints streamEntryPoints();
/// Launches: <<<>>>'s cudaLaunchKernel, cooperative launches,
/// cudaLaunchKernelEx (CudaRuntimeLaunch.cpp).
EntryPoints launchEntryPoints();

/// Stream capture and graphs: capture (CudaRuntimeCapture.cpp), making
/// graphs (CudaRuntimeGraphs.cpp), node parameters
/// (CudaRuntimeGraphParams.cpp), instantiating and launching
/// (CudaRuntimeGraphExec.cpp).
EntryPoints captureEntryPoints();
EntryPoints graphEntryPoints();
EntryPoints graphParamEntryPoints();
EntryPoints graphExecEntryPoints();
/// cudaGraphConditionalHandleCreate (CudaRuntimeGraphConditionals.cpp).
EntryPoints graphConditionalEntryPoints();

/// cudaLaunchConfig_t and cudaLaunchAttribute as driver_types.h lays them
/// out (kcheck's stub headers have no cudaLaunchKernelEx): an attribute is
/// its id, 4 bytes of padding and a 64-byte value.
struct LaunchAttributeAbi {
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
struct LaunchConfigAbi {
  dim3 grid, block;
  size_t dynamicSmemBytes;
  cudaStream_t stream;
  LaunchAttributeAbi *attrs;
  unsigned numAttrs;
};

/// cudaMemLocation as driver_types.h lays it out (the stubs' older
/// signatures take a device ordinal): a cudaMemLocationType (0 invalid, 1
/// device, 2 host, 3 host NUMA node, 4 the calling thread's NUMA node) and
/// an id; passed by value in one register.
struct MemLocationAbi {
  int type;
  int id;
};

/// A kernel launch as the device runs it, after the checks the GPU makes
/// before running anything (CudaRuntimeLaunch.cpp): what a stream's launch
/// and a graph's kernel node do.
/// `cluster`: cudaLaunchAttributeClusterDimension (nullopt: none).
/// `origin`: a kernel of a graph launched from the device, the kernel that
/// launched it.
cudaError_t
launchKernel(const void *func, dim3 grid, dim3 block, void **args,
             size_t shared, bool cooperative,
             const std::optional<core::Dim3> &cluster = {},
             const std::optional<core::DeviceLaunchOrigin> &origin = {});
/// CUDA arrays and mipmapped arrays (CudaRuntimeTextures.cpp).
EntryPoints textureEntryPoints();
/// Texture and surface objects (CudaRuntimeTextureObjects.cpp).
EntryPoints textureObjectEntryPoints();
/// Copies between CUDA arrays and memory (CudaRuntimeArrayCopies.cpp).
EntryPoints arrayCopyEntryPoints();
/// A live CUDA array as pitched memory (its texels row by row), the bytes of
/// one of its elements and its size in elements, rows and slices; false for
/// a handle that is not one.
bool arrayAsPitched(cudaArray_const_t array, cudaPitchedPtr &out,
                    uint64_t &elementBytes, cudaExtent &size);
/// A 3D copy of linear memory (CudaRuntimeMemory.cpp): cudaMemcpy3D's work
/// and a graph's copy node's.
cudaError_t copy3D(const cudaMemcpy3DParms &p);

/// cudaEventRecord's work (CudaRuntimeApi.cpp), for a launch's completion
/// event.
cudaError_t recordEvent(cudaEvent_t event, cudaStream_t stream);

/// A new stream (cudaStreamCreateWithPriority), priority clamped to the
/// device's range as the runtime clamps it.
cudaError_t createStream(cudaStream_t *stream, unsigned flags, int priority);
/// The record of `stream`, or null for the NULL, legacy and per-thread
/// streams (and for a handle that is not a stream).
CudaRuntime::Stream *streamOf(cudaStream_t stream);

} // namespace kcheck::host::entry
