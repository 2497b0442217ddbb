#include "host/CudaRuntime.h"

#include <cstdio>
#include <cstdlib>

namespace kcheck::host {

namespace {
// The runtime JIT'd code on this thread reaches (see CudaRuntime.h: the C
// entry points have no context parameter). Set only by CudaRuntime::Scope.
thread_local CudaRuntime *currentRuntime = nullptr;
} // namespace

SimulatedDevice::~SimulatedDevice() = default;

CudaRuntime::CudaRuntime(const core::ArchSpec &arch, SimulatedDevice &device)
    : arch_(arch), device_(device) {}

CudaRuntime::~CudaRuntime() {
  for (void *p : hostAllocations)
    std::free(p);
}

CudaRuntime::Scope::Scope(CudaRuntime &runtime) : previous_(currentRuntime) {
  currentRuntime = &runtime;
}
CudaRuntime::Scope::~Scope() { currentRuntime = previous_; }

CudaRuntime *CudaRuntime::current() { return currentRuntime; }

void CudaRuntime::stop(Stop why) {
  stopped_ = std::move(why);
  if (!stopTarget_) {
    // Host code runs only inside a guarded call, so this is kcheck's bug;
    // still end with the message rather than return into the program.
    std::fprintf(stderr, "kcheck: error: %s\n", stopped_->message.c_str());
    std::_Exit(3);
  }
  // Skips the frames of host code (and of the entry point that stopped):
  // nothing in them is needed again, and exit() itself would not unwind them.
  std::longjmp(*stopTarget_, 1);
}

void CudaRuntime::unsupported(const char *name) {
  Stop why;
  why.kind = Stop::Kind::Unsupported;
  why.message = std::string("the program calls ") + name +
                ", which kcheck's simulated CUDA runtime does not provide";
  stop(std::move(why));
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
