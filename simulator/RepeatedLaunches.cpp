#include "simulator/RepeatedLaunches.h"

#include <algorithm>

namespace kcheck::sim {

namespace {

bool sameArgs(const std::vector<KernelArg> &a,
              const std::vector<KernelArg> &b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].bits != b[i].bits || a[i].bytes != b[i].bytes ||
        a[i].unseen != b[i].unseen)
      return false;
  return true;
}

bool sameLimits(const Limits &a, const Limits &b) {
  return a.maxWarpSteps == b.maxWarpSteps &&
         a.maxZeroFillWarpSteps == b.maxZeroFillWarpSteps &&
         a.maxLaunchSteps == b.maxLaunchSteps &&
         a.maxMemoryBytes == b.maxMemoryBytes;
}

} // namespace

bool RepeatedLaunches::sameLaunch(const Entry &e, const DecodedKernel &kernel,
                                  const core::LaunchConfig &config,
                                  const std::vector<KernelArg> &args,
                                  const Limits &limits) const {
  return e.kernel == &kernel && e.config.grid == config.grid &&
         e.config.block == config.block &&
         e.config.dynamicSharedBytes == config.dynamicSharedBytes &&
         e.config.cooperative == config.cooperative &&
         sameLimits(e.limits, limits) && sameArgs(e.args, args);
}

const LaunchResult *RepeatedLaunches::find(const DecodedKernel &kernel,
                                           const core::LaunchConfig &config,
                                           const std::vector<KernelArg> &args,
                                           const Limits &limits,
                                           const DeviceMemory &memory) const {
  for (const Entry &e : entries_) {
    if (!sameLaunch(e, kernel, config, args, limits))
      continue;
    for (int index : e.touched)
      if (memory.lastChange(index) > e.clockAfter)
        return nullptr;
    return &e.result;
  }
  return nullptr;
}

void RepeatedLaunches::remember(const DecodedKernel &kernel,
                                const core::LaunchConfig &config,
                                const std::vector<KernelArg> &args,
                                const Limits &limits,
                                const DeviceMemory::AccessLog &log,
                                const DeviceMemory &memory,
                                const LaunchResult &result) {
  auto same = [&](const Entry &e) {
    return sameLaunch(e, kernel, config, args, limits);
  };
  entries_.erase(std::remove_if(entries_.begin(), entries_.end(), same),
                 entries_.end());
  if (!result.error.empty() || result.sanitizer)
    return;
  for (int index : log.read) // it reads what it writes: its input changed
    if (std::binary_search(log.written.begin(), log.written.end(), index))
      return;
  Entry e;
  e.kernel = &kernel;
  e.config = config;
  e.args = args;
  e.limits = limits;
  e.touched = log.read;
  e.touched.insert(e.touched.end(), log.written.begin(), log.written.end());
  e.clockAfter = memory.changeClock();
  e.result = result;
  entries_.push_back(std::move(e));
  if (entries_.size() > kMaxEntries)
    entries_.pop_front();
}

} // namespace kcheck::sim
