#include "driver/Options.h"

#include <algorithm>
#include <thread>

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

unsigned simulationThreads(const Options &o) {
  return o.jobs ? o.jobs
                : std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
}

} // namespace kcheck::driver
