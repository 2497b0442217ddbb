// The CUPTI sessions libkcheck_inject.so measures with (Injection.cpp):
// per-launch metrics through the Range Profiler (RangeSession.cpp) and
// per-PC values through the SASS Metrics API (SassSession.cpp). Internal to
// kcheck_inject, which alone builds with CUPTI's headers.
#pragma once

#include "runtime/CuptiMessages.h"
#include "runtime/SassRollup.h"

#include <cuda.h>
#include <cupti.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_sass_metrics.h>
#include <cupti_target.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace kcheck::runtime {

inline std::string cuptiError(const char *call, CUptiResult r) {
  const char *text = "?";
  cuptiGetResultString(r, &text);
  return cuptiFailureMessage(call, int(r), text);
}

// A CUPTI parameter struct: zeroed, with its structSize set.
template <class T> T params(size_t structSize) {
  T p{};
  p.structSize = structSize;
  return p;
}

// In a session's member function: on failure, the error and whether the
// environment is to blame, and false.
#define KCHECK_CUPTI(call)                                                     \
  do {                                                                         \
    CUptiResult r_ = (call);                                                   \
    if (r_ != CUPTI_SUCCESS) {                                                 \
      error = cuptiError(#call, r_);                                           \
      environmentFailure = isEnvironmentFailure(int(r_));                      \
      return false;                                                            \
    }                                                                          \
  } while (0)

// What both sessions share: the failure they report, and the two steps
// both begin with.
class CuptiSession {
public:
  bool environmentFailure = false;
  std::string error;

protected:
  // Whether `dev` supports profiler API `api`; when not, the error is
  // `why`, an environment failure.
  bool deviceSupports(CUdevice dev, CUpti_Profiler_API api, const char *why);
  // The device's chip name, as the profiler host calls it.
  bool chipName(CUdevice dev, const char *&name);
};

// Range Profiler + Profiler Host: per-launch metrics.
class RangeSession : public CuptiSession {
public:
  size_t passes = 0;

  bool setUp(CUcontext ctx, CUdevice dev,
             const std::vector<std::string> &metricNames, size_t batch);

  // Before a launch: ranges are collected between Start and Stop.
  bool begin();

  bool full() const { return owners_.size() >= batch_; }
  void addRange(int launchIndex) { owners_.push_back(launchIndex); }
  bool pending() const { return !owners_.empty(); }

  // Stop, decode and evaluate the batch; values[i] belongs to launch
  // owners[i]. Re-arms the counter data image for the next batch.
  bool collect(std::vector<std::pair<int, std::vector<double>>> &values) {
    return decode(values, /*afterFault=*/false);
  }

  // After launch `faulted` faulted: decode the ranges of the launches before
  // it. The context is broken by then, so CUPTI may refuse; the faulting
  // launch's own range, if CUPTI kept one, is ignored.
  bool
  collectBeforeFault(int faulted,
                     std::vector<std::pair<int, std::vector<double>>> &values);

  std::vector<int> unread() const { return owners_; }

private:
  bool decode(std::vector<std::pair<int, std::vector<double>>> &values,
              bool afterFault);

  // (Re)initialises the counter data image and binds it with the config.
  bool configure();

  std::vector<const char *> metricPtrs_;
  std::vector<uint8_t> availability_, config_, counterData_;
  CUpti_Profiler_Host_Object *host_ = nullptr;
  CUpti_RangeProfiler_Object *profiler_ = nullptr;
  size_t batch_ = 1;
  bool started_ = false;
  std::vector<int> owners_;
};

// SASS Metrics API: per-PC values of the launches after enable().
class SassSession : public CuptiSession {
public:
  bool enable(CUcontext ctx, CUdevice dev);

  bool flush(std::vector<SassPcRecord> &out);

private:
  CUcontext ctx_ = nullptr;
  std::map<uint64_t, std::string> ids_;
};

} // namespace kcheck::runtime
