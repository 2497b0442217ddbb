#include "host/RuntimeConformance.h"

#include "host/CudaRuntime.h"
#include "host/HostGlue.h"

#include <algorithm>

namespace kcheck::host {

namespace {
// Each family's reason, kWhyFAMILY, for the rows below.
#define KCHECK_RUNTIME_FAMILY(FAMILY, WHY)                                     \
  constexpr std::string_view kWhy##FAMILY = WHY;
#define KCHECK_RUNTIME_EXCLUDED(NAME, FAMILY)
#include "host/RuntimeExclusions.def"
#undef KCHECK_RUNTIME_EXCLUDED
#undef KCHECK_RUNTIME_FAMILY
} // namespace

const std::vector<RuntimeExclusion> &runtimeExclusions() {
  static const std::vector<RuntimeExclusion> rows = {
#define KCHECK_RUNTIME_FAMILY(FAMILY, WHY)
#define KCHECK_RUNTIME_EXCLUDED(NAME, FAMILY) {#NAME, #FAMILY, kWhy##FAMILY},
#include "host/RuntimeExclusions.def"
#undef KCHECK_RUNTIME_EXCLUDED
#undef KCHECK_RUNTIME_FAMILY
  };
  return rows;
}

const RuntimeExclusion *runtimeExclusion(std::string_view name) {
  for (const RuntimeExclusion &r : runtimeExclusions())
    if (r.name == name)
      return &r;
  return nullptr;
}

std::vector<std::string> providedRuntimeFunctions() {
  std::vector<std::string> names;
  for (const auto &[name, address] : CudaRuntime::entryPoints())
    names.emplace_back(name);
  for (const std::string &name : hostGlueFunctions())
    names.push_back(name);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

} // namespace kcheck::host
