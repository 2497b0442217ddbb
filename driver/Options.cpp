#include "driver/Options.h"

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

} // namespace kcheck::driver
