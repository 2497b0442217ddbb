// A launch that repeats an earlier one on unchanged input is not simulated
// again: its result is the earlier one's. Benchmarks run a kernel in warm-up
// and timing loops (most HeCBench programs 10 to 100 times), and one launch of
// a data-dependent kernel over every block can take a minute.
//
// Why this is exact, not a guess: the engine is deterministic (blocks in a
// fixed order, `clock()` a step count, results independent of --jobs), so a
// launch's result is a function of its kernel, configuration, arguments,
// limits and the global memory it reads. The earlier launch's access log
// (DeviceMemory::AccessLog) says which allocations it read and wrote; a later
// launch with the same kernel, configuration, arguments and limits reuses the
// result when
// - the earlier launch wrote none of the allocations it read (atomics and
//   in-place updates read what they write: never reused), and
// - none of the allocations it read or wrote changed since it ended (host
//   copies and other launches move DeviceMemory's change clock).
// Then the memory it reads is the same, so are its stores, and the bytes they
// would write already hold those values. Launches that fault or stop, run
// with sanitizer checks, or print (device printf that must appear again) are
// never remembered.
#pragma once

#include "core/Launch.h"
#include "simulator/Predictor.h"

#include <deque>
#include <vector>

namespace kcheck::sim {

class RepeatedLaunches {
public:
  /// The result of an earlier launch this one repeats, or null.
  const LaunchResult *find(const DecodedKernel &kernel,
                           const core::LaunchConfig &config,
                           const std::vector<KernelArg> &args,
                           const Limits &limits,
                           const DeviceMemory &memory) const;
  /// Remembers a launch just simulated (`log`: its DeviceMemory access log),
  /// unless its result may not be reused.
  void remember(const DecodedKernel &kernel, const core::LaunchConfig &config,
                const std::vector<KernelArg> &args, const Limits &limits,
                const DeviceMemory::AccessLog &log, const DeviceMemory &memory,
                const LaunchResult &result);

private:
  struct Entry {
    const DecodedKernel *kernel = nullptr;
    core::LaunchConfig config;
    std::vector<KernelArg> args;
    Limits limits;
    std::vector<int> touched; // allocations read or written
    uint64_t clockAfter = 0;  // DeviceMemory::changeClock() when it ended
    LaunchResult result;
  };
  bool sameLaunch(const Entry &e, const DecodedKernel &kernel,
                  const core::LaunchConfig &config,
                  const std::vector<KernelArg> &args,
                  const Limits &limits) const;

  // The latest launch of each distinct key, newest last; a few suffice for
  // the loops benchmarks run (each entry holds a launch's per-instruction
  // statistics).
  static constexpr size_t kMaxEntries = 16;
  std::deque<Entry> entries_;
};

} // namespace kcheck::sim
