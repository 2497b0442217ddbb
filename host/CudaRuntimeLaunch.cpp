// kcheck's CUDA runtime, launches: what the GPU refuses before running
// anything, as CUDA 13 answers (the H200: docs/validation/conformance-h200.md),
// cooperative launches' residency limit, cudaLaunchKernelEx's attributes,
// and a kernel's fault left for the program's next calls.
#include "host/CudaGraph.h"

#include "core/DeviceFacts.h"
#include "core/Occupancy.h"
#include "core/RuntimeRules.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace kcheck::host::entry {

cudaError_t
launchKernel(const void *func, dim3 grid, dim3 block, void **args,
             size_t shared, bool cooperative,
             const std::optional<core::Dim3> &cluster,
             const std::optional<core::DeviceLaunchOrigin> &origin) {
  CudaRuntime &r = rt();
  // After a fault nothing more runs on the device.
  if (cudaError_t e = sticky())
    return e;
  auto it = r.kernels.find(func);
  if (it == r.kernels.end())
    return fail(cudaErrorInvalidDeviceFunction);
  // What the GPU refuses before running anything (core::launchRefusal):
  // from CUDA 12 on an invalid value for bad dimensions or too much dynamic
  // shared memory, and a cooperative launch of more blocks than can be
  // resident at once. The occupancy for that needs the compiler's registers,
  // asked for only then (without a toolkit, the SMs' thread limit).
  core::LaunchConfig config{toDim3(grid), toDim3(block), shared};
  config.cooperative = cooperative;
  if (cluster)
    config.cluster = *cluster, config.explicitCluster = true;
  config.applyKernelCluster(r.device().clusterDims(it->second));
  config.nonPortableCluster = r.nonPortableClusters.count(it->second) != 0;
  std::optional<core::KernelResources> resources;
  if (cooperative) {
    std::string why;
    resources = r.device().resources(it->second, why);
  }
  if (std::optional<core::LaunchRefusal> refused = core::launchRefusal(
          r.arch(), config, r.device().launchBound(it->second),
          r.dynamicSharedOptIn(it->second), resources ? &*resources : nullptr))
    return fail(cudaError_t(refused->error));
  LaunchOutcome outcome = r.device().launch(it->second, config, args, origin);
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

namespace {

// A launch on a capturing stream becomes a kernel node, its arguments copied.
// `deviceUpdatable`: the node is device-updatable (only on a capturing
// stream, which the caller checks).
cudaError_t launchOn(cudaStream_t stream, const void *func, dim3 grid,
                     dim3 block, void **args, size_t shared, bool cooperative,
                     const std::optional<core::Dim3> &cluster = {},
                     bool deviceUpdatable = false) {
  if (!capturing(stream))
    return launchKernel(func, grid, block, args, shared, cooperative, cluster);
  cudaError_t error = cudaSuccess;
  std::optional<graph::Work> w = graph::kernelWork(
      func, grid, block, unsigned(shared), args, nullptr, error);
  if (!w)
    return fail(error);
  w->kernel.cooperative = cooperative;
  w->kernel.cluster = cluster;
  w->kernel.deviceUpdatable = deviceUpdatable;
  return capture(stream, std::move(*w));
}
cudaError_t apiLaunchKernel(const void *func, dim3 grid, dim3 block,
                            void **args, size_t shared, cudaStream_t stream) {
  return launchOn(stream, func, grid, block, args, shared, false);
}
// cudaLaunchKernelExC (what the cudaLaunchKernelEx template calls).
cudaError_t apiLaunchKernelExC(const LaunchConfigAbi *config, const void *func,
                               void **args) {
  if (!config || (config->numAttrs && !config->attrs))
    return fail(cudaErrorInvalidValue);
  bool cooperative = false;
  std::optional<core::Dim3> cluster;
  std::vector<cudaEvent_t> recordAfter;
  LaunchAttributeAbi *updatable = nullptr; // the attribute to return into
  for (unsigned i = 0; i < config->numAttrs; ++i) {
    const LaunchAttributeAbi &a = config->attrs[i];
    switch (a.id) {
    case 2: // cudaLaunchAttributeCooperative
      cooperative = a.value.integer != 0;
      break;
    case 4: // cudaLaunchAttributeClusterDimension
      cluster = core::Dim3{a.value.dim.x, a.value.dim.y, a.value.dim.z};
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
    case 13: // DeviceUpdatableKernelNode: graphs only (the reference; on
             // a stream that does not capture the H200 answers
             // cudaErrorNotSupported: device_updatable_launch.cu)
      if (a.value.integer != 0 && a.value.integer != 1)
        return fail(cudaErrorInvalidValue);
      if (a.value.integer) {
        if (!capturing(config->stream))
          return fail(cudaErrorNotSupported);
        updatable = const_cast<LaunchAttributeAbi *>(&a);
      }
      break;
    default: // an id CUDA 13 does not define
      return fail(cudaErrorInvalidValue);
    }
  }
  cudaError_t e = launchOn(config->stream, func, config->grid, config->block,
                           args, config->dynamicSmemBytes, cooperative, cluster,
                           updatable != nullptr);
  // The node's handle, into the attribute's devNode (at 8), as the H200
  // returns it; the node keeps the attribute for cudaGraphKernelNodeGet-
  // Attribute.
  if (updatable && e == cudaSuccess)
    if (graph::Node *n = lastCaptured(config->stream)) {
      cudaGraphNode_t h = graph::handle(n);
      std::memcpy(updatable->value.bytes + 8, &h, sizeof h);
      std::memcpy(n->work.kernel.attributes[13].data(), updatable->value.bytes,
                  CudaRuntime::kAttributeBytes);
    }
  for (cudaEvent_t event : recordAfter)
    if (e == cudaSuccess)
      e = recordEvent(event, config->stream);
  return e;
}
cudaError_t apiLaunchCooperativeKernel(const void *func, dim3 grid, dim3 block,
                                       void **args, size_t shared,
                                       cudaStream_t stream) {
  return launchOn(stream, func, grid, block, args, shared, true);
}

} // namespace

EntryPoints launchEntryPoints() {
  return {
      {"cudaLaunchKernel", serialized<apiLaunchKernel>()},
      {"cudaLaunchCooperativeKernel", serialized<apiLaunchCooperativeKernel>()},
      {"cudaLaunchKernelExC", serialized<apiLaunchKernelExC>()},
  };
}

} // namespace kcheck::host::entry
