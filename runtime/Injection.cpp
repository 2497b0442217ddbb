// libkcheck_inject.so: loaded by the CUDA driver through CUDA_INJECTION64_PATH
// into the program kcheck-profile runs. It records every kernel launch in
// launch order and measures it with CUPTI (research/cupti.md):
//   KCHECK_PROFILE_MODE=launches  Range Profiler, AutoRange + KernelReplay:
//       one range per launch, the metrics of KCHECK_PROFILE_METRICS, read
//       every KCHECK_PROFILE_BATCH launches (dropped ranges are an error);
//   KCHECK_PROFILE_MODE=lines     SASS Metrics API for the one launch
//       KCHECK_PROFILE_LAUNCH: CUPTI 13.0 patches only the first kernel
//       function after enabling and stops after one flush, so kcheck-profile
//       runs the program once per launch.
// The result goes to KCHECK_PROFILE_OUTPUT as a kcheck-measurement/1 file,
// rewritten after every batch so a fault or crash keeps what was measured.
// Assumptions: one device and one context (launches elsewhere are reported,
// not measured); launches come through the driver's cuLaunchKernel family
// (the runtime API ends there).
#include "core/ReportFile.h"
#include "runtime/CuptiMessages.h"
#include "runtime/CuptiSessions.h"
#include "runtime/SassRollup.h"

#include <cuda.h>
#include <cupti.h>
#include <cupti_pcsampling.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_sass_metrics.h>
#include <cupti_target.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cxxabi.h>
#include <fstream>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace kcheck::runtime {
namespace {

std::string envOr(const char *name, const char *fallback) {
  const char *v = std::getenv(name);
  return v && *v ? v : fallback;
}

std::string cudaError(CUresult r) {
  const char *name = "?", *text = "?";
  cuGetErrorName(r, &name);
  cuGetErrorString(r, &text);
  return std::string(name) + " (" + text + ")";
}

std::string demangle(const char *mangled) {
  if (!mangled)
    return "";
  int status = 0;
  char *d = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
  std::string out = status == 0 && d ? d : mangled;
  std::free(d);
  return out;
}

// "void reduce_v5<256>(float*, float*)" -> "reduce_v5<256>"
std::string kernelName(const std::string &signature) {
  std::string s = signature;
  if (s.rfind("void ", 0) == 0)
    s = s.substr(5);
  int depth = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '<')
      ++depth;
    else if (s[i] == '>')
      --depth;
    else if (s[i] == '(' && depth == 0)
      return s.substr(0, i);
  }
  return s;
}

struct InjectionState {
  std::mutex mutex;
  bool perLine = false;
  int lineLaunch = -1; // lines mode: the launch whose PCs are measured
  size_t batch = 256;
  std::string outputPath;
  std::vector<std::string> metrics;
  core::ReportFile report;
  CUcontext context = nullptr; // the one context measured
  CUdevice device = 0;
  bool disabled = false; // after a fault or a setup failure
  bool rangeReady = false;
  RangeSession range;
  SassSession sass;
  // Module cubins by CRC, for the PC-to-line table, and their parsed line
  // tables (nullopt: unreadable, CUPTI's correlation is used instead).
  std::map<uint32_t, std::vector<char>> cubins;
  std::map<uint32_t, std::optional<CubinLineTable>> lineTables;

  void fail(const std::string &message) {
    report.errors.push_back(message);
    disabled = true;
    write();
  }

  void write() {
    std::ofstream out(outputPath, std::ios::trunc);
    out << core::toJson(report);
  }

  void store(const std::vector<std::pair<int, std::vector<double>>> &values) {
    for (const auto &[index, v] : values) {
      core::ReportLaunch &l = report.launches[size_t(index)];
      l.hasMetrics = true;
      for (size_t m = 0; m < metrics.size(); ++m)
        l.metrics.emplace_back(metrics[m], uint64_t(std::llround(v[m])));
    }
  }

  bool collectBatch() {
    std::vector<std::pair<int, std::vector<double>>> values;
    bool ok = range.collect(values);
    store(values);
    if (!ok)
      fail(range.error);
    else
      write();
    return ok;
  }

  // Launch `index` faulted (the context is now unusable): record it, then
  // try to keep the counters of the launches before it that were not read
  // yet. When CUPTI cannot decode them any more, the error says so with
  // kLostAfterFaultMarker and kcheck-profile measures them again.
  void faulted(size_t index, const std::string &what) {
    core::ReportLaunch &l = report.launches[index];
    l.error = what;
    fail("launch #" + std::to_string(index) + " (" + l.kernel + "): " + what);
    if (perLine || !rangeReady)
      return;
    std::vector<int> waiting = range.unread();
    std::erase(waiting, int(index));
    if (waiting.empty())
      return;
    std::vector<std::pair<int, std::vector<double>>> values;
    bool ok = range.collectBeforeFault(int(index), values);
    store(values);
    if (ok)
      report.notes.push_back("read the counters of " +
                             std::to_string(waiting.size()) +
                             " launches before the fault after it");
    else
      report.errors.push_back("CUPTI could not read " +
                              std::to_string(waiting.size()) +
                              " launches before the fault (" + range.error +
                              "): " + kLostAfterFaultMarker);
    write();
  }
};

// The CUPTI callback has a user pointer, but the atexit handler has none, so
// the state is reachable from one global (owned for the process's life).
InjectionState *gState = nullptr;

// CUPTI's correlation: one line per PC, the last line-table row at it.
std::optional<SourceLine> cuptiLine(const std::vector<char> &cubin,
                                    const std::string &function, uint32_t pc) {
  CUpti_GetSassToSourceCorrelationParams p{};
  p.size = CUpti_GetSassToSourceCorrelationParamsSize;
  p.cubin = cubin.data();
  p.cubinSize = cubin.size();
  p.functionName = function.c_str();
  p.pcOffset = pc;
  if (cuptiGetSassToSourceCorrelation(&p) != CUPTI_SUCCESS)
    return std::nullopt;
  SourceLine line;
  line.line = p.lineNumber;
  std::string dir = p.dirName ? p.dirName : "";
  std::string file = p.fileName ? p.fileName : "";
  line.file = dir.empty() ? file : dir + "/" + file;
  std::free(p.fileName);
  std::free(p.dirName);
  return line;
}

// The lines Nsight Compute's source view credits (CubinLineTable); CUPTI's
// single line where the cubin's line table cannot be read.
std::vector<SourceLine> locatePc(InjectionState &s, uint32_t crc,
                                 const std::string &function, uint32_t pc) {
  auto it = s.cubins.find(crc);
  if (it == s.cubins.end())
    return {};
  auto table = s.lineTables.find(crc);
  if (table == s.lineTables.end()) {
    std::string error;
    table =
        s.lineTables
            .emplace(crc,
                     CubinLineTable::parse(
                         std::string_view(it->second.data(), it->second.size()),
                         &error))
            .first;
    if (!table->second)
      s.report.notes.push_back(
          "the line table of a cubin could not be read (" + error +
          "): per-line values use CUPTI's one line per instruction, so "
          "lines of inlined calls can differ from Nsight Compute's");
  }
  if (table->second) {
    std::vector<SourceLine> lines = table->second->linesAt(function, pc);
    if (!lines.empty())
      return lines;
  }
  std::optional<SourceLine> one = cuptiLine(it->second, function, pc);
  return one ? std::vector<SourceLine>{*one} : std::vector<SourceLine>{};
}

struct LaunchParams {
  CUfunction function = nullptr;
  core::LaunchConfig config;
};

LaunchParams launchParams(CUpti_CallbackId cbid, const void *params) {
  LaunchParams p;
  auto fromClassic = [&](const auto *a) {
    p.function = a->f;
    p.config.grid = {a->gridDimX, a->gridDimY, a->gridDimZ};
    p.config.block = {a->blockDimX, a->blockDimY, a->blockDimZ};
    p.config.dynamicSharedBytes = a->sharedMemBytes;
  };
  switch (cbid) {
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
    fromClassic(static_cast<const cuLaunchKernel_params *>(params));
    break;
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
    fromClassic(static_cast<const cuLaunchCooperativeKernel_params *>(params));
    break;
  default: {
    const auto *a = static_cast<const cuLaunchKernelEx_params *>(params);
    p.function = a->f;
    if (a->config) {
      const CUlaunchConfig &c = *a->config;
      p.config.grid = {c.gridDimX, c.gridDimY, c.gridDimZ};
      p.config.block = {c.blockDimX, c.blockDimY, c.blockDimZ};
      p.config.dynamicSharedBytes = c.sharedMemBytes;
    }
  }
  }
  return p;
}

void onLaunchEnter(InjectionState &s, const CUpti_CallbackData &cb,
                   CUpti_CallbackId cbid) {
  core::ReportLaunch l;
  l.index = int(s.report.launches.size());
  *cb.correlationData = uint64_t(l.index) + 1;
  l.signature = demangle(cb.symbolName);
  l.kernel = kernelName(l.signature);
  l.config = launchParams(cbid, cb.functionParams).config;
  if (s.context == nullptr) {
    s.context = cb.context;
    cuCtxGetDevice(&s.device);
    char name[256] = {};
    cuDeviceGetName(name, sizeof name, s.device);
    s.report.device = name;
    int major = 0, minor = 0;
    cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                         s.device);
    cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                         s.device);
    s.report.arch = "sm_" + std::to_string(major * 10 + minor);
    // Not in InitializeInjection: the driver is not usable there yet.
    auto init = params<CUpti_Profiler_Initialize_Params>(
        CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
    if (CUptiResult r = cuptiProfilerInitialize(&init); r != CUPTI_SUCCESS)
      s.fail(cuptiError("cuptiProfilerInitialize", r));
  }
  if (cb.context != s.context)
    l.error = "launched on a second CUDA context: not measured";
  s.report.launches.push_back(std::move(l));
  if (s.disabled || cb.context != s.context)
    return;
  if (s.perLine) {
    if (s.report.launches.back().index == s.lineLaunch &&
        !s.sass.enable(s.context, s.device))
      s.fail(s.sass.error);
    return;
  }
  if (!s.rangeReady) {
    if (!s.range.setUp(s.context, s.device, s.metrics, s.batch))
      return s.fail(s.range.error);
    s.rangeReady = true;
    s.report.notes.push_back("CUPTI Range Profiler: kernel replay, " +
                             std::to_string(s.range.passes) +
                             " passes per launch");
  }
  if (!s.range.begin())
    s.fail(s.range.error);
}

void onLaunchExit(InjectionState &s, const CUpti_CallbackData &cb) {
  if (*cb.correlationData == 0)
    return;
  size_t index = size_t(*cb.correlationData - 1);
  core::ReportLaunch &l = s.report.launches[index];
  CUresult launched = *static_cast<const CUresult *>(cb.functionReturnValue);
  if (launched != CUDA_SUCCESS) {
    // Kernel replay runs the kernel inside the launch call, so a fault can
    // surface here; a launch refused for its configuration leaves the
    // context usable.
    CUresult context = s.disabled || cb.context != s.context
                           ? CUDA_SUCCESS
                           : cuCtxSynchronize();
    if (context != CUDA_SUCCESS)
      return s.faulted(index, "the launch failed: " + cudaError(launched));
    l.error = "the launch failed: " + cudaError(launched);
    return;
  }
  if (s.disabled || cb.context != s.context)
    return;
  bool measuredHere = !s.perLine || int(index) == s.lineLaunch;
  if (!s.perLine)
    s.range.addRange(int(index));
  // A fault surfaces at the next synchronisation; catch it at its launch.
  CUresult ran = measuredHere ? cuCtxSynchronize() : CUDA_SUCCESS;
  if (ran != CUDA_SUCCESS)
    return s.faulted(index, "the kernel faulted: " + cudaError(ran));
  if (s.perLine && measuredHere) {
    std::vector<SassPcRecord> records;
    if (!s.sass.flush(records))
      return s.fail(s.sass.error);
    l.lines = rollUpToLines(
        records, [&](uint32_t crc, const std::string &f, uint32_t pc) {
          return locatePc(s, crc, f, pc);
        });
    l.hasMetrics = true;
    s.disabled = true; // CUPTI 13.0 collects nothing more in this process
    s.write();
    return;
  }
  if (!s.perLine && s.range.full())
    s.collectBatch();
}

void onModuleLoaded(InjectionState &s, const CUpti_ResourceData &res) {
  const auto *mod =
      static_cast<const CUpti_ModuleResourceData *>(res.resourceDescriptor);
  if (!mod || !mod->pCubin || mod->cubinSize == 0)
    return;
  CUpti_GetCubinCrcParams crc{};
  crc.size = CUpti_GetCubinCrcParamsSize;
  crc.cubin = mod->pCubin;
  crc.cubinSize = mod->cubinSize;
  if (cuptiGetCubinCrc(&crc) != CUPTI_SUCCESS)
    return;
  // The SASS records carry the CRC's low 32 bits (research/cupti.md §3.2).
  s.cubins[uint32_t(crc.cubinCrc)] =
      std::vector<char>(mod->pCubin, mod->pCubin + mod->cubinSize);
}

void CUPTIAPI onCallback(void *user, CUpti_CallbackDomain domain,
                         CUpti_CallbackId cbid, const void *data) {
  auto &s = *static_cast<InjectionState *>(user);
  std::lock_guard<std::mutex> lock(s.mutex);
  if (domain == CUPTI_CB_DOMAIN_RESOURCE) {
    if (cbid == CUPTI_CBID_RESOURCE_MODULE_LOADED)
      onModuleLoaded(s, *static_cast<const CUpti_ResourceData *>(data));
    return;
  }
  const auto &cb = *static_cast<const CUpti_CallbackData *>(data);
  if (cb.callbackSite == CUPTI_API_ENTER)
    onLaunchEnter(s, cb, cbid);
  else
    onLaunchExit(s, cb);
}

void atExit() {
  InjectionState &s = *gState;
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!s.perLine && !s.disabled && s.range.pending())
    s.collectBatch();
  if (s.perLine && s.lineLaunch >= int(s.report.launches.size()))
    s.report.errors.push_back(
        "the program made only " + std::to_string(s.report.launches.size()) +
        " launches; launch #" + std::to_string(s.lineLaunch) + " never ran");
  s.write();
}

std::vector<std::string> splitList(const std::string &s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    size_t comma = s.find(',', start);
    std::string item = s.substr(start, comma - start);
    if (!item.empty())
      out.push_back(item);
    if (comma == std::string::npos)
      break;
    start = comma + 1;
  }
  return out;
}

} // namespace
} // namespace kcheck::runtime

extern "C" __attribute__((visibility("default"))) int InitializeInjection() {
  using namespace kcheck::runtime;
  if (gState)
    return 1;
  gState = new InjectionState; // lives until exit; atExit still uses it
  InjectionState &s = *gState;
  s.outputPath = envOr("KCHECK_PROFILE_OUTPUT", "kcheck-measurement.json");
  s.perLine = envOr("KCHECK_PROFILE_MODE", "launches") == "lines";
  s.lineLaunch = std::atoi(envOr("KCHECK_PROFILE_LAUNCH", "0").c_str());
  s.batch = size_t(
      std::max(1, std::atoi(envOr("KCHECK_PROFILE_BATCH", "256").c_str())));
  s.metrics = splitList(envOr("KCHECK_PROFILE_METRICS", ""));
  s.report.schema = "kcheck-measurement/1";
  if (!s.perLine && s.metrics.empty()) {
    s.fail("KCHECK_PROFILE_METRICS is empty");
    return 1;
  }
  CUpti_SubscriberHandle subscriber;
  CUptiResult r = cuptiSubscribe(&subscriber, onCallback, gState);
  if (r != CUPTI_SUCCESS) {
    s.fail(cuptiError("cuptiSubscribe", r));
    return 1;
  }
  for (CUpti_CallbackId id :
       {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz})
    cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, id);
  if (s.perLine)
    cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                        CUPTI_CBID_RESOURCE_MODULE_LOADED);
  std::atexit(atExit);
  s.write(); // an empty report until the first launch
  return 1;
}
