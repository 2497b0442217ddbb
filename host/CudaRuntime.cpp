#include "host/CudaRuntime.h"

#include "host/CudaGraph.h"
#include "host/CudaTextures.h"
#include "host/RuntimeConformance.h"

#include "simulator/engine/AddressWindows.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <sys/mman.h>

namespace kcheck::host {

namespace {
// The runtime JIT'd code on this thread reaches (see CudaRuntime.h: the C
// entry points have no context parameter). Set only by CudaRuntime::Scope.
thread_local CudaRuntime *currentRuntime = nullptr;
// The runtime of the program being run (the outermost Scope): what the
// threads the program starts reach.
std::atomic<CudaRuntime *> programRuntime{nullptr};
} // namespace

SimulatedDevice::~SimulatedDevice() = default;

CudaRuntime::CudaRuntime(const core::ArchSpec &arch, SimulatedDevice &device)
    : arch_(arch), device_(device), kernelQueries_(makeKernelQueries(*this)),
      deviceGraphs_(makeDeviceGraphs()) {
  device_.setDeviceRuntimeServices(kernelQueries_.get(), deviceGraphs_.get());
}

CudaRuntime::~CudaRuntime() {
  device_.setDeviceRuntimeServices(nullptr, nullptr);
  for (const auto &[base, bytes] : hostMappings_)
    munmap(base, bytes);
}

bool CudaRuntime::isPinnedHost(const void *p) const {
  auto it = hostMappings_.upper_bound(const_cast<void *>(p));
  if (it == hostMappings_.begin())
    return false;
  --it;
  return static_cast<const char *>(p) <
         static_cast<const char *>(it->first) + it->second;
}

void *CudaRuntime::mapHostMemory(uint64_t bytes) {
  uint64_t mapped = (std::max<uint64_t>(bytes, 1) + 4095) / 4096 * 4096;
  void *p = mmap(nullptr, mapped, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED)
    return nullptr;
  // The kernel resolves a generic address by range (AddressWindows.h): the
  // mapping must lie above the shared and local windows, where only global
  // memory is. Linux maps near the top of the 47-bit space.
  uint64_t at = reinterpret_cast<uint64_t>(p);
  if (at < sim::kGlobalHeapBase || device_.memory().find(at, 1) ||
      device_.memory().find(at + mapped - 1, 1)) {
    munmap(p, mapped);
    return nullptr;
  }
  hostMappings_[p] = mapped;
  return p;
}

bool CudaRuntime::unmapHostMemory(void *base) {
  auto it = hostMappings_.find(base);
  if (it == hostMappings_.end())
    return false;
  // The address stays reserved (see mapHostMemory); its pages go back and
  // read as zeros again (not unmapped: a kernel that still reads there
  // must not crash kcheck).
  madvise(base, it->second, MADV_DONTNEED);
  return true;
}

CudaRuntime::Scope::Scope(CudaRuntime &runtime) : previous_(currentRuntime) {
  currentRuntime = &runtime;
  if (!previous_)
    programRuntime = &runtime;
}
CudaRuntime::Scope::~Scope() {
  currentRuntime = previous_;
  if (!previous_)
    programRuntime = nullptr;
}

CudaRuntime *CudaRuntime::current() {
  return currentRuntime ? currentRuntime : programRuntime.load();
}

bool CudaRuntime::onProgramThread() { return currentRuntime != nullptr; }

std::recursive_mutex &CudaRuntime::entryLock() {
  static std::recursive_mutex lock;
  return lock;
}

void CudaRuntime::stop(Stop why) {
  stopped_ = std::move(why);
  if (!stopTarget_ || !onProgramThread()) {
    // Nowhere to unwind to: a thread the program started (an OpenMP worker)
    // cannot jump to the program thread's stop target, and without a target
    // (host code runs only inside a guarded call) it is kcheck's bug. End
    // with the message rather than return into the program; the launches
    // reported so far are lost (a worker's stop is rare: an unsupported
    // call).
    std::fprintf(stderr, "kcheck: error: %s\n", stopped_->message.c_str());
    std::_Exit(3);
  }
  // Skips the frames of host code (and of the entry point that stopped):
  // nothing in them is needed again, and exit() itself would not unwind them.
  std::longjmp(*stopTarget_, 1);
}

int faultErrorCode(const sim::Fault &f) {
  switch (f.cause) {
  case sim::FaultCause::Memory:
    return f.kind.find("misaligned") != std::string::npos
               ? 716                 // cudaErrorMisalignedAddress
               : 700;                // cudaErrorIllegalAddress
  case sim::FaultCause::Trap:        // an assert, or __trap(): "unspecified"
    return f.gpuOutput.empty() ? 719 /* cudaErrorLaunchFailure */
                               : 710 /* cudaErrorAssert */;
  case sim::FaultCause::Unreachable: // NVPTX lowers it to a trap
    return 719;
  case sim::FaultCause::WarpMemberMask: // measured: kernels/sanitize
    return 715;                         // cudaErrorIllegalInstruction
  }
  return 999; // cudaErrorUnknown
}

const char *faultErrorName(const sim::Fault &f) {
  return cudaErrorText(faultErrorCode(f)).name;
}

void CudaRuntime::unsupported(const char *name) {
  Stop why;
  why.kind = Stop::Kind::Unsupported;
  why.message = std::string("the program calls ") + name +
                ", which kcheck's simulated CUDA runtime does not provide";
  // A runtime function left out on purpose says why (docs/conformance.md).
  if (const RuntimeExclusion *x = runtimeExclusion(name))
    why.message += std::string(": ") + std::string(x->why);
  stop(std::move(why));
}

core::SharedPreference
CudaRuntime::sharedPreference(const std::string &deviceName) const {
  core::SharedPreference p;
  auto cache = cacheConfigs.find(deviceName);
  p.cacheConfig = cache != cacheConfigs.end() ? cache->second : cacheConfig;
  auto carveout = carveouts.find(deviceName);
  if (carveout != carveouts.end())
    p.carveoutPercent = carveout->second;
  return p;
}

std::optional<uint64_t> CudaRuntime::variableAddress(const void *hostShadow,
                                                     uint64_t offset,
                                                     uint64_t count) {
  auto it = variables.find(hostShadow);
  if (it == variables.end() || offset + count > it->second.bytes)
    return std::nullopt;
  return device_.symbolAddress(it->second.deviceName, it->second.bytes) +
         offset;
}

} // namespace kcheck::host
