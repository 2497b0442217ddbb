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
// - cudaMemcpyAsync and cudaMemsetAsync are work of the stream, done in the
//   same order as the launches.
// - Errors: a launch the GPU refuses (core::launchDimensionsRefused, more
//   dynamic shared memory than a block may have, a depth past 24 nesting
//   levels, more than cudaLimitDevRuntimePendingLaunchCount launches by one
//   grid) is not made and leaves its error for the thread's
//   cudaGetLastError.
// - What libcudadevrt itself executes counts in the launch's memory
//   counters (Nsight Compute counts every instruction of the launch's
//   range; docs/validation/probes/device_runtime_costs.cu on the H200): a
//   refused launch's error path is 17 global loads of one sector; a
//   cudaMemcpyAsync of n bytes 1 load and 96 stores of one sector to set up
//   the copy kernel, then ceil(n / 256) loads and stores, one per warp of
//   8-byte lanes, over the sectors [src, src + n) and [dst, dst + n) span;
//   a cudaMemsetAsync 1 load and 73 stores, then the stores alone. Measured
//   for sizes of 16, 256 and 4096 bytes at 256-byte aligned addresses; the
//   other calls (queries, streams, events, cudaMalloc, launches) execute no
//   global or shared access. No line: the instructions are libcudadevrt's.
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
#include "simulator/engine/BlockRunner.h"
#include "simulator/engine/DeviceMemory.h"
#include "simulator/engine/DeviceRuntime.h"

#include <functional>
#include <map>
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

/// What a grid's threads asked the device runtime to do after it.
struct DeviceWork {
  enum class Kind : uint8_t { Launch, Copy, Set };
  Kind kind = Kind::Launch;
  std::string kernel; // Launch: mangled
  core::LaunchConfig config;
  uint64_t parameterBuffer = 0;
  // Copy / Set
  uint64_t dst = 0, src = 0, bytes = 0;
  int value = 0;
  // Who asked: the calling thread and the call's instruction.
  core::Dim3 block, thread;
  uint32_t instId = 0;
};

class GridDeviceRuntime : public DeviceRuntime {
public:
  /// `depth`: the grid's nesting depth (0: launched by the host).
  /// `conditionals`: the handles a kernel may set (null: the launch is
  /// analysed without its program, so any handle is taken and its value
  /// dropped).
  GridDeviceRuntime(const core::ArchSpec &arch, DeviceMemory &memory,
                    unsigned depth, GraphConditionals *conditionals = nullptr);
  DeviceRuntimeAnswer call(const DeviceRuntimeCall &call) override;
  /// The work, in the order it runs (tail launches last).
  std::vector<DeviceWork> takeWork();
  /// The memory counters of libcudadevrt's own instructions so far.
  const core::Counters &libraryCounters() const { return library_; }

private:
  const core::ArchSpec &arch_;
  DeviceMemory &memory_;
  unsigned depth_;
  GraphConditionals *conditionals_;
  std::vector<DeviceWork> work_, tail_;
  uint64_t launches_ = 0;
  // Each thread's last error (cudaGetLastError), by (block, thread).
  std::map<std::pair<uint64_t, uint64_t>, uint64_t> lastError_;
  uint64_t nextHandle_ = 0x100; // streams and events the grid creates
  core::Counters library_;
  uint64_t &lastError(const DeviceRuntimeCall &call);
  DeviceRuntimeAnswer launch(const DeviceRuntimeCall &call);
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
