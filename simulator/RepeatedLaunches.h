// A launch that repeats an earlier one on the same input is not simulated
// again: its result is the earlier one's. Benchmarks run a kernel in warm-up
// and timing loops (most HeCBench programs 10 to 100 times, some 10000), and
// one launch of a data-dependent kernel over every block can take a minute.
//
// Why this is exact, not a guess: the engine is deterministic (blocks in a
// fixed order, atomics in that order, `clock()` a step count, results
// independent of --jobs), so a launch's result and its stores are a function
// of its kernel, configuration, arguments, limits and the global memory it
// reads. The earlier launch's access log (DeviceMemory::AccessLog) says which
// allocations it read and wrote; a later launch with the same kernel,
// configuration, arguments and limits reuses the result when
// - the earlier launch wrote none of the allocations it read, and none of
//   the allocations it read or wrote changed since it ended (host copies and
//   other launches move DeviceMemory's change clock): the memory it reads is
//   the same, so are its stores, and the bytes they would write already hold
//   those values; or
// - otherwise (it reads what it writes: atomics, in-place updates; or what
//   it touches changed: a buffer the host clears before each launch), every
//   allocation it read or wrote holds exactly what it held when the earlier
//   launch began (DeviceMemory::Image, compared byte by byte with their
//   written and input-derived bits; an allocation it only read and that was
//   too large to image: unchanged since, by the change clock, which a host
//   copy of the same bytes does not move): then the earlier launch's images
//   of what it wrote are put back, as its stores would leave them. Images
//   are taken when a launch of a known kind is simulated (the earlier one
//   says which allocations to take), up to a memory budget.
// A launch that reads textures repeats one only while no texture or surface
// object was made or destroyed since (handles are never reused, but a
// destroyed one must fault). Launches that fault or stop, run with sanitizer
// checks, or print (device printf that must appear again) are never
// remembered.
#pragma once

#include "core/Launch.h"
#include "simulator/Predictor.h"

#include <deque>
#include <memory>
#include <vector>

namespace kcheck::sim {

class RepeatedLaunches {
public:
  /// Bytes of images one launch may keep, and all launches together.
  static constexpr uint64_t kMaxImageBytesPerLaunch = 64ull << 20;
  static constexpr uint64_t kMaxImageBytes = 256ull << 20;

  /// The result of an earlier launch this one repeats (null: none), and
  /// whether that launch read what it wrote: then `memory` was given the
  /// bytes it left.
  struct Replay {
    const LaunchResult *result = nullptr;
    bool restored = false;
  };
  Replay replay(const DecodedKernel &kernel, const core::LaunchConfig &config,
                const std::vector<KernelArg> &args, const Limits &limits,
                DeviceMemory &memory);
  /// Called before a launch replay() did not take is simulated: takes images
  /// of what an earlier launch of its kind that read what it wrote touched,
  /// for remember() to keep.
  void prepare(const DecodedKernel &kernel, const core::LaunchConfig &config,
               const std::vector<KernelArg> &args, const Limits &limits,
               const DeviceMemory &memory);
  /// Remembers a launch just simulated (`log`: its DeviceMemory access log),
  /// unless its result may not be reused.
  void remember(const DecodedKernel &kernel, const core::LaunchConfig &config,
                const std::vector<KernelArg> &args, const Limits &limits,
                const DeviceMemory::AccessLog &log, const DeviceMemory &memory,
                const LaunchResult &result);

private:
  using Images =
      std::vector<std::pair<int, std::shared_ptr<const DeviceMemory::Image>>>;
  struct Entry {
    const DecodedKernel *kernel = nullptr;
    core::LaunchConfig config;
    std::vector<KernelArg> args;
    Limits limits;
    std::vector<int> touched; // allocations read or written, ascending
    std::vector<int> written; // those written, ascending
    uint64_t clockAfter = 0;  // DeviceMemory::changeClock() when it ended
    uint64_t textures = 0;    // its TextureObjects::generation()
    // It read what it wrote: reusable only through images, before (of each
    // written allocation, and of those it only read as the budget allows)
    // and after (of each written one); none when the launch was the first
    // of its kind, or past the budget.
    bool readsWhatItWrites = false;
    Images before, after;
    LaunchResult result;
  };
  bool sameLaunch(const Entry &e, const DecodedKernel &kernel,
                  const core::LaunchConfig &config,
                  const std::vector<KernelArg> &args,
                  const Limits &limits) const;
  Entry *entryFor(const DecodedKernel &kernel, const core::LaunchConfig &config,
                  const std::vector<KernelArg> &args, const Limits &limits);
  uint64_t imageBytes() const;

  // The latest launch of each distinct key, newest last; a few suffice for
  // the loops benchmarks run (each entry holds a launch's per-instruction
  // statistics).
  static constexpr size_t kMaxEntries = 16;
  std::deque<Entry> entries_;
  // prepare()'s images, for the launch being simulated.
  Images pending_;
};

} // namespace kcheck::sim
