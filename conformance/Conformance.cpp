#include "conformance/Conformance.h"

#include "analyzer/ptx/WmmaFragments.h"
#include "conformance/PtxMatrixForms.h"
#include "core/ArchSpec.h"
#include "core/DeviceFacts.h"
#include "host/RuntimeConformance.h"
#include "simulator/engine/DeviceRuntime.h"

#include <algorithm>
#include <map>
#include <regex>
#include <set>
#include <sstream>

namespace kcheck::conformance {

size_t Family::count(Status s) const {
  return size_t(std::count_if(entries.begin(), entries.end(),
                              [s](const Entry &e) { return e.status == s; }));
}

namespace {

// Enumerators that name no entry: a count or the base of a range, which the
// runtime never takes or returns as such.
struct Marker {
  const char *name, *why;
};
constexpr Marker kEnumMarkers[] = {
    {"cudaDevAttrMax",
     "the count of attributes, not one: cudaDeviceGetAttribute "
     "answers cudaErrorInvalidValue, as the H200 does"},
};
// An enumerator that is a marker: excluded, with the reason.
void excludeMarker(Entry &entry, const std::string &name) {
  for (const Marker &m : kEnumMarkers)
    if (name == m.name) {
      entry.status = Status::Excluded;
      entry.note = m.why;
    }
}

Family runtimeFunctions(const ToolkitInventory &inv) {
  Family f;
  f.name = "CUDA runtime API functions";
  f.source = "every function `cuda_runtime_api.h` declares";
  f.provider = "`host/` (the entry points of `CudaRuntime::entryPoints()` "
               "and the host glue); exclusions in "
               "`host/RuntimeExclusions.def`";
  std::vector<std::string> provided = host::providedRuntimeFunctions();
  std::set<std::string> providedSet(provided.begin(), provided.end());
  std::set<std::string> declared(inv.runtimeFunctions.begin(),
                                 inv.runtimeFunctions.end());
  std::set<std::string> deprecated(inv.deprecatedRuntimeFunctions.begin(),
                                   inv.deprecatedRuntimeFunctions.end());
  for (const std::string &name : inv.runtimeFunctions) {
    Entry e;
    e.name = name;
    const host::RuntimeExclusion *x = host::runtimeExclusion(name);
    if (providedSet.count(name)) {
      e.status = Status::Provided;
      if (x)
        f.stale.push_back(name + ": provided and excluded");
    } else if (x) {
      e.status = Status::Excluded;
      e.note = std::string(x->why);
    }
    if (deprecated.count(name))
      e.note = e.note.empty() ? "deprecated" : "deprecated; " + e.note;
    f.entries.push_back(std::move(e));
  }
  for (const host::RuntimeExclusion &x : host::runtimeExclusions())
    if (!declared.count(std::string(x.name)))
      f.stale.push_back(
          std::string(x.name) +
          ": excluded, but the toolkit declares no such function");
  return f;
}

Family deviceAttributes(const ToolkitInventory &inv) {
  Family f;
  f.name = "cudaDeviceAttr values";
  f.source = "`enum cudaDeviceAttr` in `driver_types.h`";
  f.provider = "`core/DeviceAttributes.def` (both host paths); sm_90 "
               "values measured on the H200";
  std::optional<core::ArchSpec> sm90 = core::findArch("sm_90");
  for (const Enumerator &e : inv.deviceAttributes) {
    Entry entry;
    entry.name = e.name + " (" + std::to_string(e.value) + ")";
    for (const core::DeviceAttribute &a : core::deviceAttributes())
      if (a.number == e.value) {
        if (a.runtimeName != e.name) {
          f.stale.push_back(e.name + ": row " + std::to_string(a.number) +
                            " is named " + std::string(a.runtimeName));
          continue;
        }
        entry.status = Status::Provided;
        entry.note =
            "sm_90: " +
            std::to_string(*core::deviceAttributeValue(*sm90, a.number));
      }
    excludeMarker(entry, e.name);
    f.entries.push_back(std::move(entry));
  }
  return f;
}

Family deviceProperties(const ToolkitInventory &inv) {
  Family f;
  f.name = "cudaDeviceProp fields";
  f.source = "`struct cudaDeviceProp` in `driver_types.h` (an array's "
             "elements one by one)";
  f.provider = "`core/DeviceProperties.def`, filled by the host glue and "
               "read by the static evaluator";
  std::optional<core::ArchSpec> sm90 = core::findArch("sm_90");
  std::set<std::string> declared(inv.devicePropertyFields.begin(),
                                 inv.devicePropertyFields.end());
  for (const std::string &field : inv.devicePropertyFields) {
    Entry e;
    e.name = field;
    for (const core::DeviceProperty &p : core::deviceProperties())
      if (p.field == field) {
        e.status = Status::Provided;
        using K = core::DeviceProperty::Kind;
        if (p.kind == K::Name)
          e.note = "\"" + sm90->deviceName + "\"";
        else if (p.kind == K::Zeroed)
          e.note = "zero (the simulated device has none)";
        else
          e.note = "sm_90: " + std::to_string(*devicePropertyValue(*sm90, p));
        if (p.kind == K::Attribute)
          e.note += " (attribute " + std::to_string(p.attribute) + ")";
      }
    f.entries.push_back(std::move(e));
  }
  return f;
}

Family errors(const ToolkitInventory &inv) {
  Family f;
  f.name = "cudaError_t codes";
  f.source = "`enum cudaError` in `driver_types.h`";
  f.provider = "`core/CudaErrors.def` (names and messages as the H200 "
               "prints them)";
  for (const Enumerator &e : inv.errors) {
    Entry entry;
    entry.name = e.name + " (" + std::to_string(e.value) + ")";
    if (host::cudaErrorText(int(e.value)).name == e.name)
      entry.status = Status::Provided;
    excludeMarker(entry, e.name);
    f.entries.push_back(std::move(entry));
  }
  return f;
}

Family wmmaBuiltins(const ToolkitInventory &inv) {
  Family f;
  f.name = "wmma builtins (mma.h)";
  f.source = "every warp-matrix builtin `crt/mma.hpp` calls";
  f.provider = "`analyzer/ptx/WmmaLowering.cpp` and `WmmaFragments.h` (the "
               "intrinsics Clang emits for them); checked by "
               "`tests/conformance/programs/wmma_forms.cu` and "
               "`wmma_subbyte.cu` on the H200";
  std::regex shape(R"(m(\d+)n(\d+)k(\d+))");
  for (const std::string &name : inv.wmmaBuiltins) {
    Entry e;
    e.name = name;
    std::smatch m;
    if (std::regex_search(name, m, shape)) {
      unsigned mm = unsigned(std::stoul(m[1])), n = unsigned(std::stoul(m[2])),
               k = unsigned(std::stoul(m[3]));
      if (analyzer::wmma::isLoweredShape(mm, n, k))
        e.status = Status::Provided;
    }
    f.entries.push_back(std::move(e));
  }
  return f;
}

struct MatrixExclusion {
  const char *pattern, *reason;
};
// A vector: the table may be empty.
const std::vector<MatrixExclusion> kMatrixExclusions = {
#define KCHECK_PTX_MATRIX_EXCLUDED(pattern, reason) {pattern, reason},
#include "conformance/PtxMatrixExclusions.def"
};

// The PTX ISA's matrix forms: provided when kcheck's PTX lowering runs the
// form's statement; else excluded by a row of PtxMatrixExclusions.def. A row
// that excludes a form the lowering runs is stale.
Family ptxMatrixFormsFamily() {
  Family f;
  f.name = "PTX matrix forms (sm_80 to sm_90)";
  f.source = "the PTX ISA 9.0's mma.sync, ldmatrix, stmatrix and movmatrix "
             "forms (`conformance/PtxMatrixForms.cpp`; no header lists them)";
  f.provider = "`analyzer/ptx/PtxLowerMma.cpp`, `PtxLowerMmaQuadPairs.cpp` "
               "and `PtxLowerTensor.cpp`, each form's statement lowered; "
               "values checked by "
               "`tests/conformance/programs/ptx_matrix_forms.cu` and "
               "`mma_m8n8k4.cu` on the H200";
  for (const PtxMatrixForm &form : conformance::ptxMatrixForms()) {
    Entry e;
    e.name = form.name;
    std::string why;
    bool lowered = lowersPtxMatrixForm(form, why);
    const MatrixExclusion *excluded = nullptr;
    for (const MatrixExclusion &x : kMatrixExclusions)
      if (std::regex_search(form.name, std::regex(x.pattern)))
        excluded = &x;
    if (lowered) {
      e.status = Status::Provided;
      if (excluded)
        f.stale.push_back(form.name + " (excluded by " +
                          std::string(excluded->pattern) + ")");
    } else if (excluded) {
      e.status = Status::Excluded;
      e.note = excluded->reason;
    } else {
      e.note = "not lowered: " + why;
    }
    if (form.minSm != 80)
      e.note = "sm_" + std::to_string(form.minSm) + "+" +
               (e.note.empty() ? "" : "; " + e.note);
    f.entries.push_back(std::move(e));
  }
  return f;
}

struct Unexecuted {
  const char *pattern, *reason;
};
constexpr Unexecuted kUnexecuted[] = {
#define KCHECK_UNEXECUTED(pattern, reason) {pattern, reason},
#include "conformance/DeviceExclusions.def"
};

// One family per origin: Clang's builtins, libdevice's functions.
Family deviceFunctions(const ToolkitInventory &inv,
                       const DeviceCallResults &calls,
                       DeviceFunction::Origin origin) {
  Family f;
  f.deviceFunctions = true;
  bool builtins = origin == DeviceFunction::Origin::ClangBuiltin;
  f.name = builtins ? "NVPTX builtins (Clang 22, sm_90)"
                    : "libdevice functions (__nv_*)";
  f.source = builtins ? "Clang's NVPTX builtin table (`__nvvm_*`, "
                        "`__hmma_*`, ...), with the features each requires"
                      : "`__clang_cuda_libdevice_declares.h`, what the CUDA "
                        "math headers and Clang's wrappers call";
  f.provider = "the engine (`simulator/engine/Decode*.cpp`) and the IR "
               "pipeline's lowering (`analyzer/ptx/`); each called by "
               "`tests/conformance/programs/nvvm_calls.cu` (generated), "
               "values compared with the H200's; exclusions in "
               "`conformance/DeviceExclusions.def`";
  std::vector<std::regex> patterns;
  for (const Unexecuted &u : kUnexecuted)
    patterns.emplace_back(u.pattern);
  for (const DeviceFunction &fn : inv.deviceFunctions) {
    if (fn.origin != origin)
      continue;
    Entry e;
    e.name = fn.name;
    auto decoded = calls.decoded.find(fn.name);
    auto rejected = calls.rejected.find(fn.name);
    if (!fn.available) {
      e.status = Status::Excluded;
      e.note = "requires " + fn.features +
               ": Clang rejects it for sm_90, the newest architecture kcheck "
               "models";
    } else if (rejected != calls.rejected.end()) {
      e.status = Status::Excluded;
      e.note = "Clang 22 does not compile it: " + rejected->second;
    } else if (decoded == calls.decoded.end()) {
      e.note = "not called by nvvm_calls.cu: regenerate it with "
               "`kcheck-conformance --nvvm-program`";
    } else if (decoded->second.empty()) {
      e.status = Status::Provided;
    } else {
      std::string error = decoded->second;
      size_t at = error.find("unsupported construct: ");
      std::string construct =
          at == std::string::npos ? error : error.substr(at + 23);
      construct = construct.substr(0, construct.find(" at "));
      for (size_t i = 0; i < patterns.size(); ++i)
        if (std::regex_search(construct, patterns[i])) {
          e.status = Status::Excluded;
          e.note = std::string(kUnexecuted[i].reason) + "; kcheck names `" +
                   construct + "` and its line";
          break;
        }
      if (e.status == Status::Missing)
        e.note = "the engine: " + construct;
    }
    f.entries.push_back(std::move(e));
  }
  return f;
}

struct DeviceRuntimeExclusion {
  const char *name, *reason;
};
constexpr DeviceRuntimeExclusion kDeviceRuntimeExclusions[] = {
#define KCHECK_DEVICE_RUNTIME_EXCLUDED(name, reason) {name, reason},
#include "conformance/DeviceRuntimeExclusions.def"
};

Family deviceRuntime(const ToolkitInventory &inv) {
  Family f;
  f.deviceFunctions = true;
  f.name = "CUDA device runtime (dynamic parallelism)";
  f.source = "the entry points `cuda_device_runtime_api.h` declares for "
             "sm_90 device code (CDP2)";
  f.provider = "the engine (`simulator/engine/DeviceRuntime.def`) and "
               "`simulator/DeviceLaunches`; each called by "
               "`tests/conformance/programs/dynamic_parallelism.cu` "
               "(cudaGraphSetConditional by `graph_conditionals.cu`); "
               "exclusions in `conformance/DeviceRuntimeExclusions.def`";
  std::set<std::string> provided;
  for (const sim::DeviceRuntimeFunction &r : sim::deviceRuntimeFunctions())
    // Not the toolkit's: what the PTX lowering calls for a special register
    // (%current_graph_exec), covered with the PTX instructions.
    if (!r.symbol.starts_with("__kcheck_"))
      provided.insert(std::string(r.symbol));
  std::map<std::string, std::string> excluded;
  for (const DeviceRuntimeExclusion &x : kDeviceRuntimeExclusions)
    excluded[x.name] = x.reason;
  std::set<std::string> declared(inv.deviceRuntimeFunctions.begin(),
                                 inv.deviceRuntimeFunctions.end());
  for (const std::string &name : inv.deviceRuntimeFunctions) {
    Entry e;
    e.name = name;
    auto x = excluded.find(name);
    if (provided.count(name)) {
      e.status = Status::Provided;
      if (x != excluded.end())
        f.stale.push_back(name + ": provided and excluded");
    } else if (x != excluded.end()) {
      e.status = Status::Excluded;
      e.note = x->second;
    }
    f.entries.push_back(std::move(e));
  }
  for (const std::string &name : provided)
    if (!declared.count(name))
      f.stale.push_back(name + ": provided, but the toolkit declares no such "
                               "function");
  for (const auto &[name, why] : excluded)
    if (!declared.count(name))
      f.stale.push_back(name + ": excluded, but the toolkit declares no "
                               "such function");
  return f;
}

const char *statusText(Status s) {
  switch (s) {
  case Status::Provided:
    return "provided";
  case Status::Excluded:
    return "excluded";
  case Status::Missing:
    return "**missing**";
  }
  return "";
}

} // namespace

std::vector<Family> conformanceFamilies(const ToolkitInventory &inventory,
                                        const DeviceCallResults &calls) {
  return {
      runtimeFunctions(inventory),
      deviceAttributes(inventory),
      deviceProperties(inventory),
      errors(inventory),
      wmmaBuiltins(inventory),
      ptxMatrixFormsFamily(),
      deviceFunctions(inventory, calls, DeviceFunction::Origin::ClangBuiltin),
      deviceFunctions(inventory, calls, DeviceFunction::Origin::Libdevice),
      deviceRuntime(inventory)};
}

std::string conformanceFailures(const std::vector<Family> &families) {
  std::ostringstream out;
  for (const Family &f : families) {
    for (const Entry &e : f.entries)
      if (e.status == Status::Missing)
        out << f.name << ": " << e.name
            << " is neither provided nor excluded\n";
    for (const std::string &s : f.stale)
      out << f.name << ": stale row " << s << "\n";
  }
  return out.str();
}

std::string conformanceMarkdown(const ToolkitInventory &inventory,
                                const std::vector<Family> &families) {
  std::ostringstream out;
  out << "# Conformance: what kcheck provides of the CUDA toolkit\n\n"
         "Generated by `build/kcheck-conformance > docs/conformance.md` from "
         "the installed toolkit (CUDA "
      << inventory.cudaVersion / 1000 << "."
      << inventory.cudaVersion % 1000 / 10
      << ") and kcheck's tables; `tests/conformance` fails when an entry of "
         "the toolkit is neither provided nor excluded, or when this page is "
         "out of date. An excluded entry is named, with its reason, when a "
         "program meets it.\n\n"
         "| family | what exists (from the toolkit) | provided | excluded | "
         "missing |\n|---|---|---|---|---|\n";
  for (const Family &f : families)
    out << "| " << f.name << " | " << f.source << " | "
        << f.count(Status::Provided) << " | " << f.count(Status::Excluded)
        << " | " << f.count(Status::Missing) << " |\n";
  for (const Family &f : families) {
    out << "\n## " << f.name << "\n\nFrom " << f.source << "; provided by "
        << f.provider << ". " << f.entries.size()
        << " entries: " << f.count(Status::Provided) << " provided, "
        << f.count(Status::Excluded) << " excluded, "
        << f.count(Status::Missing) << " missing.\n\n"
        << "| entry | status | note |\n|---|---|---|\n";
    for (const Entry &e : f.entries)
      out << "| `" << e.name << "` | " << statusText(e.status) << " | "
          << e.note << " |\n";
  }
  return out.str();
}

} // namespace kcheck::conformance
