#include "driver/Options.h"

#include "simulator/engine/BlockRunner.h"

#include <algorithm>
#include <fstream>
#include <thread>
#include <unistd.h>

namespace kcheck::driver {

core::ModelOptions modelOptionsFor(const Options &o,
                                   const core::ArchSpec &arch) {
  core::ModelOptions m = core::defaultModelOptions(arch);
  if (o.bankModeBytes)
    m.bankModeBytes = *o.bankModeBytes;
  if (o.l1Cache)
    m.l1Cache = *o.l1Cache;
  return m;
}

uint64_t defaultMaxMemoryBytes() {
  static const uint64_t bytes = [] {
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    uint64_t machine = pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page)
                                             : uint64_t(4) << 30;
    // cgroup v2, then v1: a container's limit ("max": none).
    for (const char *path : {"/sys/fs/cgroup/memory.max",
                             "/sys/fs/cgroup/memory/memory.limit_in_bytes"}) {
      std::ifstream in(path);
      uint64_t limit = 0;
      if (in >> limit && limit > 0)
        machine = std::min(machine, limit);
    }
    return std::max<uint64_t>(machine / 2, uint64_t(512) << 20);
  }();
  return bytes;
}

sim::Limits launchLimits(const Options &o) {
  sim::Limits limits;
  limits.maxWarpSteps = o.stepBudget;
  limits.maxZeroFillWarpSteps = o.zeroFillStepBudget;
  limits.maxLaunchSteps = o.maxLaunchSteps;
  limits.maxMemoryBytes = o.maxMemoryBytes;
  if (o.timeBudgetSeconds > 0) {
    limits.budgetSeconds = o.timeBudgetSeconds;
    limits.deadline =
        o.startedAt + std::chrono::duration_cast<std::chrono::nanoseconds>(
                          std::chrono::duration<double>(o.timeBudgetSeconds));
  }
  return limits;
}

unsigned simulationThreads(const Options &o) {
  return o.jobs ? o.jobs
                : std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
}

} // namespace kcheck::driver
