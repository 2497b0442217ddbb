#include "simulator/DeviceLaunches.h"

#include "core/CudaErrors.h"
#include "core/DeviceFacts.h"
#include "core/RuntimeRules.h"
#include "simulator/engine/MallocHeap.h"

#include <cstdio>
#include <cstring>

namespace kcheck::sim {

namespace {

using core::CudaError;
using Op = bc::DeviceRuntimeOp;

uint64_t code(CudaError e) { return uint64_t(int(e)); }

// libcudadevrt's own accesses for a refused launch (DeviceLaunches.h).
constexpr uint64_t kRefusedLaunchLoads = 17;

// The Programming Guide's nesting limit: 24 levels of launches.
constexpr unsigned kMaxDepth = 24;
// The largest parameter list a kernel may have (CUDA 12.1 and later).
constexpr uint64_t kLargestParameterBuffer = 32764;
// cudaLimit's numbers.
constexpr int kCudaLimitPendingLaunches = 4, kCudaLimitMallocHeap = 2;

} // namespace

GridDeviceRuntime::GridDeviceRuntime(const core::ArchSpec &arch,
                                     DeviceMemory &memory, unsigned depth,
                                     DeviceRuntimeContext context)
    : arch_(arch), memory_(memory), depth_(depth), context_(context) {}

KernelQueries::~KernelQueries() = default;
DeviceGraphs::~DeviceGraphs() = default;

uint64_t &GridDeviceRuntime::lastError(const DeviceRuntimeCall &call) {
  return lastError_[{call.block.x + (uint64_t(call.block.y) << 21) +
                         (uint64_t(call.block.z) << 42),
                     call.thread.x + (uint64_t(call.thread.y) << 21) +
                         (uint64_t(call.thread.z) << 42)}];
}

DeviceRuntimeAnswer GridDeviceRuntime::launch(const DeviceRuntimeCall &call) {
  DeviceWork w;
  w.kernel = *call.kernel;
  w.parameterBuffer = call.values[0];
  w.config.grid = call.dims[0];
  w.config.block = call.dims[1];
  w.config.dynamicSharedBytes = call.values[1];
  w.config.deviceDepth = depth_ + 1;
  w.block = call.block, w.thread = call.thread, w.instId = call.instId;
  core::DeviceFacts f = core::deviceFacts(arch_);
  CudaError error = CudaError::cudaSuccess;
  // The host's rule (core::launchRefusal), with the device's opt-in maximum
  // as the kernel's limit; the device runtime answers it as an invalid
  // configuration.
  if (core::launchRefusal(arch_, w.config, 0, uint64_t(f.sharedPerBlockOptin)))
    error = CudaError::cudaErrorInvalidConfiguration;
  else if (depth_ + 1 > kMaxDepth)
    error = CudaError::cudaErrorLaunchMaxDepthExceeded;
  else if (launches_ >=
           *core::defaultDeviceLimit(arch_, kCudaLimitPendingLaunches))
    error = CudaError::cudaErrorLaunchPendingCountExceeded;
  if (error != CudaError::cudaSuccess) {
    lastError(call) = code(error);
    addAccesses(true, kRefusedLaunchLoads, kRefusedLaunchLoads,
                kRefusedLaunchLoads);
    return {code(error), {}};
  }
  ++launches_;
  (call.values[2] == kTailLaunch ? tail_ : work_).push_back(std::move(w));
  return {0, {}};
}

DeviceRuntimeAnswer GridDeviceRuntime::call(const DeviceRuntimeCall &call) {
  const uint64_t ok = 0;
  const uint64_t *v = call.values;
  switch (call.op) {
  case Op::GetParameterBuffer: {
    // Aligned as asked (Clang asks for 64 bytes), at least one byte.
    uint64_t bytes = std::max<uint64_t>(v[1], 1);
    return {memory_.allocate(bytes, "the parameter buffer of a device-side "
                                    "launch"),
            {}};
  }
  case Op::LaunchDevice:
  case Op::LaunchDevicePtsz:
    return launch(call);
  case Op::GetParameterBufferV2: {
    uint64_t buffer =
        memory_.allocate(kLargestParameterBuffer,
                         "the parameter buffer of a device-side launch");
    if (buffer)
      bufferLaunches_[buffer] = {*call.kernel, call.dims[0], call.dims[1],
                                 v[0]};
    return {buffer};
  }
  case Op::LaunchDeviceV2:
  case Op::LaunchDeviceV2Ptsz: {
    auto it = bufferLaunches_.find(v[0]);
    if (it == bufferLaunches_.end())
      return {0,
              {},
              "cudaLaunchDeviceV2 of a buffer no cudaGetParameterBufferV2 "
              "gave: what the GPU does with it is not measured, so kcheck "
              "stops the kernel here"};
    DeviceRuntimeCall c = call;
    c.kernel = &it->second.kernel;
    c.values[0] = v[0];                   // the buffer
    c.values[1] = it->second.sharedBytes; // dynamic shared memory
    c.values[2] = v[1];                   // the stream
    c.dims[0] = it->second.grid, c.dims[1] = it->second.block;
    return launch(c);
  }
  case Op::GetLastError: {
    uint64_t &e = lastError(call);
    uint64_t was = e;
    e = 0;
    return {was, {}};
  }
  case Op::PeekAtLastError:
    return {lastError(call), {}};
  case Op::GetDeviceCount:
    return {ok, 1};
  case Op::GetDevice:
    return {ok, 0};
  case Op::DeviceGetAttribute: {
    if (v[1] != 0)
      return {code(CudaError::cudaErrorInvalidDevice), {}};
    std::optional<int64_t> value =
        core::deviceAttributeValue(arch_, int(int32_t(v[0])));
    if (!value)
      return {code(CudaError::cudaErrorInvalidValue), {}};
    return {ok, uint64_t(*value)};
  }
  case Op::DeviceGetLimit: {
    std::optional<uint64_t> value =
        core::defaultDeviceLimit(arch_, int(int32_t(v[0])));
    if (int(int32_t(v[0])) == kCudaLimitMallocHeap)
      value = memory_.mallocHeapBytes();
    if (!value)
      return {code(CudaError::cudaErrorUnsupportedLimit), {}};
    return {ok, *value};
  }
  case Op::DeviceGetCacheConfig:     // cudaFuncCachePreferNone
  case Op::DeviceGetSharedMemConfig: // cudaSharedMemBankSizeFourByte
    return {ok, call.op == Op::DeviceGetCacheConfig ? 0u : 1u};
  case Op::RuntimeGetVersion: // the toolkit's: CUDA 13.0
    return {ok, 13000};
  case Op::StreamCreateWithFlags:
    // The guide asks for cudaStreamNonBlocking; the H200 also takes
    // cudaStreamDefault (dynamic_parallelism.cu's device_events_17).
    if (v[0] > 1)
      return {code(CudaError::cudaErrorInvalidValue), {}};
    return {ok, nextHandle_++};
  case Op::EventCreateWithFlags:
    return {ok, nextHandle_++};
  case Op::StreamDestroy:
  case Op::EventDestroy:
  case Op::StreamWaitEvent:
  case Op::StreamWaitEventPtsz:
  case Op::EventRecord:
  case Op::EventRecordPtsz:
    // In-order work: every wait is already met when the work runs.
    return {ok, {}};
  case Op::Malloc: {
    // The device heap of in-kernel malloc (the Programming Guide: device
    // cudaMalloc allocates from it).
    std::optional<uint64_t> p = memory_.mallocHeap().allocate(v[0]);
    if (!p)
      return {code(CudaError::cudaErrorMemoryAllocation), 0};
    return {ok, *p};
  }
  case Op::Free:
    if (v[0] && !memory_.mallocHeap().release(v[0]))
      return {code(CudaError::cudaErrorInvalidDevicePointer), {}};
    return {ok, {}};
  case Op::MemcpyAsync:
  case Op::MemcpyAsyncPtsz:
  case Op::MemsetAsync:
  case Op::MemsetAsyncPtsz:
  case Op::Memcpy2DAsync:
  case Op::Memcpy2DAsyncPtsz:
  case Op::Memcpy3DAsync:
  case Op::Memcpy3DAsyncPtsz:
  case Op::Memset2DAsync:
  case Op::Memset2DAsyncPtsz:
  case Op::Memset3DAsync:
  case Op::Memset3DAsyncPtsz:
    return copyOrSet(call);
  case Op::GetErrorName:
  case Op::GetErrorString:
    return errorText(call);
  case Op::FuncGetAttributes:
  case Op::OccupancyMaxActiveBlocksPerMultiprocessor:
  case Op::OccupancyMaxActiveBlocksPerMultiprocessorWithFlags:
    return kernelQuery(call);
  case Op::GraphSetConditional:
    return setConditional(call);
  case Op::GraphLaunch:
  case Op::CurrentGraphExec:
    return deviceGraph(call);
  case Op::CGGetIntrinsicHandle:
  case Op::CGGetSize:
  case Op::CGGetRank:
    return cooperativeGroups(call);
  case Op::KernelNodeSetParam:
  case Op::KernelNodeSetEnabled:
  case Op::KernelNodeSetGridDim:
  case Op::KernelNodeUpdatesApply:
    return nodeUpdate(call);
  }
  return {code(CudaError::cudaErrorNotSupported), {}};
}

std::vector<DeviceWork> GridDeviceRuntime::takeWork() {
  std::vector<DeviceWork> all = std::move(work_);
  for (DeviceWork &w : tail_)
    all.push_back(std::move(w));
  work_.clear();
  tail_.clear();
  return all;
}

std::vector<KernelArg> parameterBufferArguments(const DecodedKernel &kernel,
                                                const DeviceMemory &memory,
                                                uint64_t buffer) {
  std::vector<KernelArg> args;
  const auto &places = kernel.parameterPlaces();
  const auto &slots = kernel.argSlots();
  for (size_t i = 0; i < places.size() && i < slots.size(); ++i) {
    KernelArg arg;
    std::vector<uint8_t> bytes(places[i].bytes);
    memory.read(buffer + places[i].offset, bytes.data(), bytes.size());
    if (slots[i].byvalBytes)
      arg.bytes = std::move(bytes);
    else
      std::memcpy(&arg.bits, bytes.data(), std::min<size_t>(8, bytes.size()));
    args.push_back(std::move(arg));
  }
  return args;
}

void runDeviceWork(const std::vector<DeviceWork> &work, DeviceMemory &memory,
                   const std::function<void(const DeviceWork &)> &launch) {
  for (const DeviceWork &w : work) {
    switch (w.kind) {
    case DeviceWork::Kind::Launch:
      launch(w);
      break;
    case DeviceWork::Kind::Copy: {
      std::vector<uint8_t> bytes(w.width);
      w.forEachRow([&](uint64_t dst, uint64_t src) {
        if (memory.read(src, bytes.data(), w.width))
          memory.write(dst, bytes.data(), w.width);
      });
      break;
    }
    case DeviceWork::Kind::Set: {
      std::vector<uint8_t> zeros(w.width, 0); // as the H200 sets (the .h)
      w.forEachRow([&](uint64_t dst, uint64_t) {
        memory.write(dst, zeros.data(), w.width);
      });
      break;
    }
    }
  }
}

} // namespace kcheck::sim
