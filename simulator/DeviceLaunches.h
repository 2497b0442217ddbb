// The CUDA device runtime of one grid (dynamic parallelism, CDP2 on sm_90):
// what the engine's DeviceRuntime calls mean, from the CUDA C++ Programming
// Guide's "CUDA Dynamic Parallelism". Assumptions:
// - A child grid may run as soon as it is launched or as late as the end of
//   its parent grid, which completes only once its children have; the
//   parent cannot wait for it (no device-side cudaDeviceSynchronize from
//   sm_90). Here every child runs after its parent grid's last block, in
//   the order the launches were made (blocks in launch order, a block's
//   warps as the engine schedules them), each child's own children before
//   the next child: a schedule the GPU may choose, and the one in which a
//   block's launches into one stream run in order, as they must.
// - cudaStreamTailLaunch's launches run after the grid's other work;
//   cudaStreamFireAndForget and streams the grid creates are ordered like
//   the NULL stream (a valid order for both).
// - The parameter buffer is global memory the parent writes with stores (as
//   the SASS does); it is read when the child starts.
// - cudaMemcpyAsync, cudaMemsetAsync and their 2D and 3D forms are work of
//   the stream, done in the same order as the launches (DeviceWork). The
//   sets write 0 whatever the value: so the H200 does with CUDA 13's
//   libcudadevrt, for each form and value tried (probes/device_query_costs.cu,
//   device_runtime_queries.cu), though each returns cudaSuccess.
// - Errors: a launch the GPU refuses (core::launchDimensionsRefused, more
//   dynamic shared memory than a block may have, a depth past 24 nesting
//   levels, more than cudaLimitDevRuntimePendingLaunchCount launches by one
//   grid) is not made and leaves its error for the thread's
//   cudaGetLastError. The launch-configuration form
//   (cudaGetParameterBufferV2, cudaLaunchDeviceV2) gives a buffer even for a
//   configuration the GPU refuses and refuses it at the launch, as the H200
//   does (device_launch_v2.cu); its buffer is as large as any kernel's
//   parameters may be (32764 bytes).
// - What libcudadevrt itself executes counts in the launch's memory
//   counters (Nsight Compute counts every instruction of the launch's
//   range; docs/validation/probes/device_runtime_costs.cu on the H200): a
//   refused launch's error path is 17 global loads of one sector; a copy
//   (cudaMemcpyAsync, 2D, 3D) of at least one byte 1 load and 96 stores of
//   one sector to set up the copy kernel, a set 1 load and 73 stores, then
//   the copy kernel's rows (DeviceRuntimeWork.cpp): each row of w bytes by
//   a warp whose lanes take b bytes each, b = 8, 4 or 2 (the widest
//   dividing w) where w >= 256, else 1, an instruction per 32 * b bytes of
//   the row over the sectors it spans; loads of the source, stores of the
//   destination. Fitted to 24 copies and sets of 1, 2 and 3 dimensions
//   (device_runtime_costs.cu, device_runtime_queries.cu,
//   device_query_costs.cu). Where a row does not start 32-byte aligned the
//   library takes another path, not measured: its rows' accesses are not
//   counted, and the launch says so. The other calls (streams, events,
//   cudaMalloc, launches) execute no global or shared access. No line: the
//   instructions are libcudadevrt's.
// - cudaGetErrorName and cudaGetErrorString look the code up in the
//   driver's table of 134 codes, one load each until found, then 2 more (a
//   code not in it: 135 loads; probes/device_error_text_costs.cu, each code
//   measured); their text is the host runtime's. cudaFuncGetAttributes writes
//   sharedSizeBytes to binaryVersion only (the rest of the struct is left as
//   it was), as the host answers them; the occupancy calculator answers as
//   the host's, whatever the flags, a block size below 1 being
//   cudaErrorInvalidValue with 0 blocks written and 4 loads; neither
//   executes any other access.
// - cudaGraphLaunch from a kernel queues the graph with the program's
//   runtime (DeviceGraphs), which runs a fire-and-forget one right after
//   the launching kernel's node and a tail launch after the launching
//   graph's work, in launch order, as the H200 orders them
//   (graph_device_launch.cu); no access of the library's is counted.
// - A device-updatable kernel node's updates (parameter bytes, grid,
//   enabled) change the node of its graph's one instantiation at once, so
//   a node after the updating kernel runs with them (the H200:
//   device_updatable_nodes.cu); an offset past the parameters is an invalid
//   value; no access of the library's is counted.
// - Cooperative groups' runtime calls answer as the H200 does
//   (probes/cg_runtime_calls.cu): in a cooperative launch the grid scope's
//   handle is 0x7ffffffffffff, its size the grid's threads and 1 grid, a
//   thread's rank its rank in the grid and grid rank 1; outside one, or
//   for another scope, handle 0 and cudaErrorUnknown with 0s written.
// - cudaGraphSetConditional sets the value of a handle of the graph being
//   launched (GraphConditionals); a handle of no graph being launched faults,
//   as the H200 does (an illegal address:
//   docs/validation/probes/set_conditional_costs.cu). Its own accesses are
//   counted as none: they cannot be measured (Nsight Compute profiles no
//   kernel node of a graph that can have conditional nodes, and outside one
//   the call faults).
#pragma once

#include "core/ArchSpec.h"
#include "core/Launch.h"
#include "core/Metrics.h"
#include "core/Occupancy.h"
#include "simulator/engine/BlockRunner.h"
#include "simulator/engine/DeviceMemory.h"
#include "simulator/engine/DeviceRuntime.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kcheck::sim {

/// The values of the conditional handles of the graph being launched
/// (cudaGraphConditionalHandleCreate), which its kernels set
/// (cudaGraphSetConditional) and its conditional nodes read; the host
/// runtime fills it for a graph launch and empties it after.
struct GraphConditionals {
  struct Value {
    uint32_t value = 0;
    bool defined = false; // by a default, a kernel or an earlier launch
  };
  std::map<uint64_t, Value> values;
};

/// What the device runtime's queries of a kernel (cudaFuncGetAttributes, the
/// occupancy calculator) need from whoever runs the program: the kernel's
/// resources as the program has set them, and its shared-memory preference.
class KernelQueries {
public:
  virtual ~KernelQueries();
  /// nullopt, with `why`, where they cannot be known.
  virtual std::optional<core::KernelResources>
  resources(const std::string &mangled, std::string &why) = 0;
  virtual core::SharedPreference
  sharedPreference(const std::string &mangled) = 0;
};

/// Device graph launch, as the program's runtime runs its graphs: a kernel's
/// cudaGraphLaunch queues the graph there (into the running graph's
/// fire-and-forget or tail work), cudaGetCurrentGraphExec reads which device
/// graph runs.
class DeviceGraphs {
public:
  virtual ~DeviceGraphs();
  /// The launch's status; empty `fault`, or why the kernel stops. `instId`:
  /// the call's instruction in the launch being simulated.
  virtual uint64_t launch(uint64_t exec, uint64_t stream, uint32_t instId,
                          std::string &fault) = 0;
  /// The device graph being run (0: none, or a graph the host launched
  /// that was not instantiated for device launch).
  virtual uint64_t current() = 0;
  /// A device-updatable kernel node's updates (cudaGraphKernelNodeSetParam
  /// and the others), for its graph's next runs of it: the status.
  virtual uint64_t setNodeParam(uint64_t node, uint64_t offset,
                                const std::vector<uint8_t> &bytes) = 0;
  virtual uint64_t setNodeGridDim(uint64_t node, core::Dim3 grid) = 0;
  virtual uint64_t setNodeEnabled(uint64_t node, bool enabled) = 0;
};

/// What a grid's device runtime answers from, beside the device.
struct DeviceRuntimeContext {
  // The handles a kernel may set (null: the launch is analysed without its
  // program, so any handle is taken and its value dropped).
  GraphConditionals *conditionals = nullptr;
  // Null: a kernel query stops the kernel, naming what is not known.
  KernelQueries *kernels = nullptr;
  // Null: a device graph launch stops the kernel (the static analysis does
  // not follow graphs launched from the device).
  DeviceGraphs *graphs = nullptr;
};

/// What a grid's threads asked the device runtime to do after it.
struct DeviceWork {
  enum class Kind : uint8_t { Launch, Copy, Set };
  Kind kind = Kind::Launch;
  std::string kernel; // Launch: mangled
  core::LaunchConfig config;
  uint64_t parameterBuffer = 0;
  // Copy / Set: `height` rows of `width` bytes in each of `depth` slices,
  // rows `dstPitch` (`srcPitch`) apart, slices `dstSlice` (`srcSlice`).
  uint64_t dst = 0, src = 0, width = 0, height = 1, depth = 1;
  uint64_t dstPitch = 0, dstSlice = 0, srcPitch = 0, srcSlice = 0;
  /// Calls `f(dst, src)` for each row's start, in order.
  template <class F> void forEachRow(F f) const {
    for (uint64_t z = 0; z < depth; ++z)
      for (uint64_t y = 0; y < height; ++y)
        f(dst + z * dstSlice + y * dstPitch, src + z * srcSlice + y * srcPitch);
  }
  // Who asked: the calling thread and the call's instruction.
  core::Dim3 block, thread;
  uint32_t instId = 0;
};

class GridDeviceRuntime : public DeviceRuntime {
public:
  /// `depth`: the grid's nesting depth (0: launched by the host).
  GridDeviceRuntime(const core::ArchSpec &arch, DeviceMemory &memory,
                    unsigned depth, DeviceRuntimeContext context = {});
  DeviceRuntimeAnswer call(const DeviceRuntimeCall &call) override;
  /// The work, in the order it runs (tail launches last).
  std::vector<DeviceWork> takeWork();
  /// The memory counters of libcudadevrt's own instructions so far.
  const core::Counters &libraryCounters() const { return library_; }
  /// The launch the grid is (cooperative groups' calls answer from it).
  void setLaunch(const core::LaunchConfig &config) { launch_ = config; }
  /// The calls whose library accesses are not counted (a copy's path not
  /// measured), each once: "cudaMemcpy2DAsync of rows not 32-byte aligned".
  const std::vector<std::string> &uncounted() const { return uncounted_; }

private:
  const core::ArchSpec &arch_;
  DeviceMemory &memory_;
  unsigned depth_;
  DeviceRuntimeContext context_;
  core::LaunchConfig launch_;
  // cudaStreamTailLaunch (cuda_device_runtime_api.h): its work runs after
  // the grid's other work; the other streams, cudaStreamFireAndForget (0x4)
  // among them, run in call order.
  static constexpr uint64_t kTailLaunch = 0x3;
  std::vector<DeviceWork> work_, tail_;
  std::vector<std::string> uncounted_;
  uint64_t launches_ = 0;
  // Each thread's last error (cudaGetLastError), by (block, thread).
  std::map<std::pair<uint64_t, uint64_t>, uint64_t> lastError_;
  uint64_t nextHandle_ = 0x100; // streams and events the grid creates
  // cudaGetParameterBufferV2's buffers and the launch each is for.
  struct BufferLaunch {
    std::string kernel;
    core::Dim3 grid, block;
    uint64_t sharedBytes = 0;
  };
  std::map<uint64_t, BufferLaunch> bufferLaunches_;
  core::Counters library_;
  uint64_t &lastError(const DeviceRuntimeCall &call);
  DeviceRuntimeAnswer launch(const DeviceRuntimeCall &call);
  // DeviceRuntimeWork.cpp: copies and sets of 1, 2 and 3 dimensions, error
  // names and strings, a kernel's attributes and occupancy.
  DeviceRuntimeAnswer copyOrSet(const DeviceRuntimeCall &call);
  DeviceRuntimeAnswer errorText(const DeviceRuntimeCall &call);
  DeviceRuntimeAnswer kernelQuery(const DeviceRuntimeCall &call);
  DeviceRuntimeAnswer setConditional(const DeviceRuntimeCall &call);
  DeviceRuntimeAnswer deviceGraph(const DeviceRuntimeCall &call);
  DeviceRuntimeAnswer nodeUpdate(const DeviceRuntimeCall &call);
  DeviceRuntimeAnswer cooperativeGroups(const DeviceRuntimeCall &call);
  // Counts libcudadevrt's accesses: `instructions` of `lanes` lanes in all.
  void addAccesses(bool load, uint64_t instructions, uint64_t sectors,
                   uint64_t lanes);
};

/// A device-side launch's arguments, read from its parameter buffer
/// (DecodedKernel::parameterPlaces).
std::vector<KernelArg> parameterBufferArguments(const DecodedKernel &kernel,
                                                const DeviceMemory &memory,
                                                uint64_t buffer);

/// Runs a grid's device work on `memory`: copies and sets here, launches
/// through `launch` (which simulates the child and, in turn, its work).
void runDeviceWork(const std::vector<DeviceWork> &work, DeviceMemory &memory,
                   const std::function<void(const DeviceWork &)> &launch);

} // namespace kcheck::sim
