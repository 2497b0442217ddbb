// kcheck's CUDA runtime: the subset of the CUDA runtime API (and of the
// registration and launch calls Clang's host code generation emits) that
// programs use, answered by a simulated device. Device memory is the
// simulator's DeviceMemory, so kernels see the bytes host code copied in and
// host code reads back what kernels stored; each launch is handed to the
// device with its real grid, block, dynamic shared size and arguments.
//
// JIT'd host code calls the runtime through C entry points looked up by name
// (entryPoints()). Those have the CUDA API's fixed signatures, with no room
// for a context pointer, so they reach the runtime through a thread_local
// pointer that CudaRuntime::Scope sets for exactly the duration of a run of
// host code (constructors, main, exit handlers). A CUDA call from a thread the
// program started itself finds no runtime and ends kcheck with a message.
//
// All work is synchronous: a launch is simulated when it is made, so streams
// are in order and every synchronization is a no-op. A capturing stream
// records its work as graph nodes instead, run at each cudaGraphLaunch.
#pragma once

#include "core/ArchSpec.h"
#include "core/Launch.h"
#include "core/Occupancy.h"
#include "core/Report.h"
#include "simulator/DeviceLaunches.h"
#include "simulator/engine/BlockRunner.h"
#include "simulator/engine/DeviceMemory.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <csetjmp>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kcheck::host {

namespace graph {
struct State; // CudaGraph.h
}
namespace texture {
struct State; // CudaTextures.h
}

/// How a launch went: `error` says why it failed ("" if it did not);
/// `fault` is set where the GPU would have faulted too (an illegal address, a
/// failed assert), as opposed to a limit of kcheck's.
struct LaunchOutcome {
  std::string error;
  std::optional<sim::Fault> fault;
};

/// What the runtime needs from the simulated GPU.
class SimulatedDevice {
public:
  virtual ~SimulatedDevice();
  virtual sim::DeviceMemory &memory() = 0;
  /// The device address of module variable `name` of `bytes` bytes
  /// (allocated and initialized from the device code on first use).
  virtual uint64_t symbolAddress(const std::string &name, uint64_t bytes) = 0;
  /// Simulates one launch of kernel `deviceName`; `args` as cudaLaunchKernel
  /// gets them (one pointer per parameter).
  /// `origin`: the kernel that made it, for a kernel of a graph launched
  /// from the device (reported among the launches made from the device).
  virtual LaunchOutcome
  launch(const std::string &deviceName, const core::LaunchConfig &config,
         void **args,
         const std::optional<core::DeviceLaunchOrigin> &origin = {}) = 0;
  /// While a launch is simulated: the origin of what its instruction
  /// `instId` launches (LaunchRunner::originOf).
  virtual std::optional<core::DeviceLaunchOrigin>
  originOfCall(uint32_t instId) = 0;
  /// What the compiler gave kernel `deviceName` (registers, static shared
  /// memory, launch bounds), for the occupancy API and
  /// cudaFuncGetAttributes; nullopt, with `why`, when it cannot be known.
  virtual std::optional<core::KernelResources>
  resources(const std::string &deviceName, std::string &why) = 0;
  /// The kernel's __launch_bounds__ maximum of threads per block, 0 when it
  /// has none: read from the device code, without the toolkit's compiler.
  virtual int launchBound(const std::string &deviceName) = 0;
  /// The kernel's __cluster_dims__ (nullopt: none).
  virtual std::optional<core::Dim3>
  clusterDims(const std::string &deviceName) = 0;
  /// Parameter `index` of the kernel: its offset and size in the
  /// parameter buffer (cudaFuncGetParamInfo), nullopt past the last.
  virtual std::optional<std::pair<uint64_t, uint64_t>>
  parameter(const std::string &deviceName, size_t index) = 0;
  /// For a __managed__ variable `deviceName` (kcheck_toolkit_compat.h marks
  /// it): its device symbol bound to the host shadow's `bytes` at `host`, so
  /// host and kernels share it; false for any other variable.
  virtual bool bindManaged(const std::string &deviceName, void *host,
                           uint64_t bytes) = 0;
  /// The conditional handles a launch's cudaGraphSetConditional may set:
  /// those of the graph being launched (CudaGraph.h), none otherwise.
  virtual sim::GraphConditionals &graphConditionals() = 0;
  /// Where the kernels' device-side queries (cudaFuncGetAttributes, the
  /// occupancy calculator) get the resources the runtime answers from, and
  /// where their device graph launches go.
  virtual void setDeviceRuntimeServices(sim::KernelQueries *queries,
                                        sim::DeviceGraphs *graphs) = 0;
};

/// Why a run of host code ended before returning from main.
struct Stop {
  enum class Kind {
    Exit,        // exit(), _Exit(), quick_exit(): `status`
    Abort,       // abort(), failed assert(): like SIGABRT
    Unsupported, // a call kcheck cannot answer: `message` names it
    Failed,      // a launch failed (fault, step budget): `message`
  };
  Kind kind = Kind::Exit;
  int status = 0;
  std::string message;
};

/// The cudaError_t a kernel's fault leaves, as the GPU reports it to the
/// program's next calls (cudaErrorAssert for a failed assert, ...), and its
/// name: one answer for both host paths (CudaErrors.def).
int faultErrorCode(const sim::Fault &fault);
const char *faultErrorName(const sim::Fault &fault);

class CudaRuntime;
/// The device runtime's kernel queries over runtime `r`'s view of each
/// kernel (its resources with the attributes the program set), as the host
/// calls answer them (CudaRuntimeApi.cpp).
std::unique_ptr<sim::KernelQueries> makeKernelQueries(CudaRuntime &r);
/// Device graph launch over the current runtime's graphs
/// (CudaRuntimeDeviceGraphs.cpp).
std::unique_ptr<sim::DeviceGraphs> makeDeviceGraphs();

class CudaRuntime {
public:
  CudaRuntime(const core::ArchSpec &arch, SimulatedDevice &device);
  ~CudaRuntime();
  CudaRuntime(const CudaRuntime &) = delete;
  CudaRuntime &operator=(const CudaRuntime &) = delete;

  /// Makes `runtime` the one the entry points reach on this thread.
  class Scope {
  public:
    explicit Scope(CudaRuntime &runtime);
    ~Scope();
    Scope(const Scope &) = delete;
    Scope &operator=(const Scope &) = delete;

  private:
    CudaRuntime *previous_;
  };
  /// The runtime of the current Scope on this thread; on a thread the
  /// program started (an OpenMP worker, a std::thread), the runtime of the
  /// program that started it; null outside any program run.
  static CudaRuntime *current();
  /// Whether this thread is the one that runs the program (holds a Scope).
  static bool onProgramThread();
  /// The lock every CUDA entry point holds while it runs: the program's
  /// threads reach one simulated device, one call at a time, in the order
  /// they take it (recursive: a host callback may call the runtime).
  static std::recursive_mutex &entryLock();

  /// Name and address of every C function the runtime defines for JIT'd
  /// code, CUDA API and process control (exit, abort, assert) alike.
  static std::vector<std::pair<const char *, void *>> entryPoints();

  /// Where stop() jumps to: set around each call into host code (null: none).
  void setStopTarget(std::jmp_buf *target) { stopTarget_ = target; }
  /// Records why host code stops and jumps to the stop target.
  [[noreturn]] void stop(Stop why);
  /// Stops with Stop::Kind::Unsupported for call `name`.
  [[noreturn]] void unsupported(const char *name);
  const std::optional<Stop> &stopped() const { return stopped_; }

  // The runtime's state, for the entry points (CudaRuntimeApi.cpp).
  const core::ArchSpec &arch() const { return arch_; }
  SimulatedDevice &device() { return device_; }
  int lastError = 0; // cudaGetLastError's (cudaError_t)
  // A kernel fault's error (cudaError_t): as on the GPU, the context is
  // unusable after it, and every later call that reaches the device returns
  // it (and makes it the last error again). 0: none.
  int stickyError = 0;
  /// The messages of the launches that faulted (with stickyError set, no
  /// later launch runs), for the run's errors.
  std::vector<std::string> launchFaults;
  /// What the runtime notes about the program's use of the API (a value
  /// the GPU leaves undefined), each once, for the run's notes.
  std::vector<std::string> notes;
  void noteOnce(const std::string &note) {
    if (std::find(notes.begin(), notes.end(), note) == notes.end())
      notes.push_back(note);
  }
  struct CallConfiguration {
    core::Dim3 grid, block;
    uint64_t sharedBytes = 0;
    void *stream = nullptr;
  };
  struct Variable {
    std::string deviceName;
    uint64_t bytes = 0;
    bool constant = false;
  };
  std::map<const void *, std::string> kernels; // host stub -> device name
  // cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, v)
  std::map<std::string, uint64_t> maxDynamicShared; // by device name
  // Device memory the program holds (cudaMalloc, cudaMallocAsync, less what
  // it freed): what core::deviceAllocationError counts against.
  uint64_t deviceBytesInUse = 0;
  /// Kernel `deviceName`'s opt-in, nullopt when the program set none.
  std::optional<uint64_t>
  dynamicSharedOptIn(const std::string &deviceName) const {
    auto it = maxDynamicShared.find(deviceName);
    return it == maxDynamicShared.end() ? std::nullopt
                                        : std::optional<uint64_t>(it->second);
  }
  // cudaFuncSetCacheConfig and cudaFuncAttributePreferredSharedMemory-
  // Carveout, by device name: the occupancy calculator's preference.
  std::map<std::string, int> cacheConfigs, carveouts;
  // cudaFuncAttributeNonPortableClusterSizeAllowed set, by device name.
  std::set<std::string> nonPortableClusters;
  /// The preference of kernel `deviceName` (its own cache configuration,
  /// else the device's).
  core::SharedPreference sharedPreference(const std::string &deviceName) const;
  std::map<const void *, Variable> variables; // host shadow -> variable
  struct Event {
    std::chrono::steady_clock::time_point time;
    bool recorded = false;
    unsigned flags = 0; // cudaEventDisableTiming (2) has no time to give
  };
  std::deque<Event> events; // handles are pointers to elements
  static constexpr size_t kAttributeBytes = 64; // cudaLaunchAttributeValue
  struct Stream {
    unsigned flags = 0; // cudaStreamNonBlocking
    int priority = 0;
    unsigned long long id = 0;
    std::map<int, std::array<char, kAttributeBytes>> attributes; // set ones
  };
  std::deque<Stream> streams;          // ditto (in order: no work to keep)
  unsigned long long nextStreamId = 3; // 0-2: the NULL, legacy, per-thread
  int captureMode = 0;                 // cudaStreamCaptureModeGlobal
  // Graphs, executable graphs, user objects and captures (CudaGraph.h),
  // made at the first graph call.
  std::unique_ptr<graph::State> graphs;
  // CUDA arrays, mipmapped arrays and the descriptors of texture and
  // surface objects (CudaTextures.h), made at the first such call.
  std::unique_ptr<texture::State> textures;
  uintptr_t notificationHandles = 0; // async-notification handles given
  // Device-wide settings a program reads back (CudaRuntimeQueries.cpp).
  unsigned deviceFlags = 8;       // cudaDeviceMapHost, as the H200 answers
  int cacheConfig = 0;            // cudaFuncCachePreferNone
  std::map<int, uint64_t> limits; // cudaLimit -> value, set ones only
  // Memory pools: the device's default and those the program created;
  // handles are pointers to elements. An allocation from a pool is a
  // cudaMalloc of the same size (all work is synchronous).
  struct MemPool {
    uint64_t releaseThreshold = 0, reservedBytes = 0, usedBytes = 0;
    uint64_t reservedHigh = 0, usedHigh = 0;
    bool reuseFollowEvents = true, reuseAllowOpportunistic = true,
         reuseAllowInternalDependencies = true;
  };
  std::deque<MemPool> pools = std::deque<MemPool>(1);
  MemPool *currentPool = &pools.front();
  std::map<uint64_t, std::pair<MemPool *, uint64_t>> poolAllocations;
  // cudaHostAlloc's flags by base (cudaHostGetFlags); cudaMallocHost's are
  // cudaHostAllocDefault.
  std::map<const void *, unsigned> hostAllocFlags;
  std::set<uint64_t> freed; // allocations cudaFree has released
  // Managed memory's hints, per 4 KB page of each managed allocation a hint
  // or query named, by base (CudaRuntimeManaged.cpp): what
  // cudaMemRangeGetAttribute reads back. A location is a
  // cudaMemLocationType (0: none) and its id.
  struct ManagedLocation {
    int type = 0, id = 0;
  };
  struct ManagedPage {
    bool readMostly = false;
    uint8_t accessedBy = 0; // bit 0: device 0, bit 1: the host
    ManagedLocation preferred, lastPrefetch;
  };
  std::map<uint64_t, std::vector<ManagedPage>> managedPages;
  /// Pages for page-locked or managed memory, zeroed, at an address no
  /// device allocation or address window uses (null: out of memory). Kept
  /// reserved until the runtime ends, so an address is never handed out
  /// twice (DeviceMemory never forgets an allocation).
  void *mapHostMemory(uint64_t bytes);
  /// Releases the pages of a mapHostMemory() block (false: not one).
  bool unmapHostMemory(void *base);
  /// Whether `p` is in a block of pinned host memory (mapHostMemory's).
  bool isPinnedHost(const void *p) const;
  /// The device address of a registered variable, or nullopt.
  std::optional<uint64_t> variableAddress(const void *hostShadow,
                                          uint64_t offset, uint64_t count);

private:
  const core::ArchSpec &arch_;
  SimulatedDevice &device_;
  std::jmp_buf *stopTarget_ = nullptr;
  std::optional<Stop> stopped_;
  std::map<void *, uint64_t> hostMappings_; // base -> bytes mapped
  // What the device's kernel queries and graph launches answer from (set
  // on the device).
  std::unique_ptr<sim::KernelQueries> kernelQueries_;
  std::unique_ptr<sim::DeviceGraphs> deviceGraphs_;
};

} // namespace kcheck::host
