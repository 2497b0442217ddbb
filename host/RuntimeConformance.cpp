#include "host/RuntimeConformance.h"

#include "host/CudaRuntime.h"
#include "host/HostGlue.h"

#include <algorithm>

namespace kcheck::host {

const std::vector<RuntimeExclusion> &runtimeExclusions() {
  static const std::vector<RuntimeExclusion> rows = {
#define KCHECK_RUNTIME_FAMILY(FAMILY, WHY)
#define KCHECK_RUNTIME_EXCLUDED(NAME, FAMILY) {#NAME, #FAMILY, ""},
#include "host/RuntimeExclusions.def"
#undef KCHECK_RUNTIME_EXCLUDED
#undef KCHECK_RUNTIME_FAMILY
  };
  static const std::vector<RuntimeExclusion> withReasons = [] {
    struct Family {
      std::string_view name, why;
    };
    const Family families[] = {
#define KCHECK_RUNTIME_FAMILY(FAMILY, WHY) {#FAMILY, WHY},
#define KCHECK_RUNTIME_EXCLUDED(NAME, FAMILY)
#include "host/RuntimeExclusions.def"
#undef KCHECK_RUNTIME_EXCLUDED
#undef KCHECK_RUNTIME_FAMILY
    };
    std::vector<RuntimeExclusion> out = rows;
    for (RuntimeExclusion &r : out)
      for (const Family &f : families)
        if (f.name == r.family)
          r.why = f.why;
    return out;
  }();
  return withReasons;
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
