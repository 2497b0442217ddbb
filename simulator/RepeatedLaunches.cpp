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

RepeatedLaunches::Entry *RepeatedLaunches::entryFor(
    const DecodedKernel &kernel, const core::LaunchConfig &config,
    const std::vector<KernelArg> &args, const Limits &limits) {
  for (Entry &e : entries_)
    if (sameLaunch(e, kernel, config, args, limits))
      return &e;
  return nullptr;
}

uint64_t RepeatedLaunches::imageBytes() const {
  uint64_t bytes = 0;
  for (const Entry &e : entries_)
    for (const Images *images : {&e.before, &e.after})
      for (const auto &[index, image] : *images)
        bytes += DeviceMemory::imageBytes(*image);
  return bytes;
}

RepeatedLaunches::Replay
RepeatedLaunches::replay(const DecodedKernel &kernel,
                         const core::LaunchConfig &config,
                         const std::vector<KernelArg> &args,
                         const Limits &limits, DeviceMemory &memory) {
  const Entry *e = entryFor(kernel, config, args, limits);
  if (!e ||
      (kernel.usesTextures() && memory.textures.generation() != e->textures))
    return {};
  if (!e->readsWhatItWrites &&
      std::none_of(e->touched.begin(), e->touched.end(), [&](int index) {
        return memory.lastChange(index) > e->clockAfter;
      }))
    return {&e->result, false};
  if (e->before.empty() && e->after.empty())
    return {};
  // Every allocation it touched holds what it held then: by its image, or,
  // one it only read and was not imaged (past the budget), by not having
  // changed since the earlier launch ended.
  for (int index : e->touched) {
    auto image = std::find_if(e->before.begin(), e->before.end(),
                              [&](const auto &i) { return i.first == index; });
    if (image != e->before.end() ? !memory.holds(index, *image->second)
                                 : memory.lastChange(index) > e->clockAfter)
      return {};
  }
  for (const auto &[index, image] : e->after)
    memory.restore(index, *image);
  return {&e->result, true};
}

void RepeatedLaunches::prepare(const DecodedKernel &kernel,
                               const core::LaunchConfig &config,
                               const std::vector<KernelArg> &args,
                               const Limits &limits,
                               const DeviceMemory &memory) {
  pending_.clear();
  const Entry *e = entryFor(kernel, config, args, limits);
  if (!e)
    return;
  // Its images of before and after are replaced: count them as free.
  uint64_t kept = imageBytes();
  for (const Images *images : {&e->before, &e->after})
    for (const auto &[index, image] : *images)
      kept -= DeviceMemory::imageBytes(*image);
  // What it writes must be imaged, with room for the images after, about as
  // large; what it only reads is, as the budget allows (the rest is known
  // unchanged by the change clock, not by content).
  uint64_t bytes = 0;
  for (int index : e->written)
    bytes += 2 * memory.backedBytesOf(index);
  if (bytes > kMaxImageBytesPerLaunch || kept + bytes > kMaxImageBytes)
    return;
  for (int index : e->touched) {
    bool written =
        std::binary_search(e->written.begin(), e->written.end(), index);
    if (!written) {
      uint64_t more = memory.backedBytesOf(index);
      if (bytes + more > kMaxImageBytesPerLaunch ||
          kept + bytes + more > kMaxImageBytes)
        continue;
      bytes += more;
    }
    auto image = memory.image(index);
    if (!image) { // host-backed: host code changes it unseen
      pending_.clear();
      return;
    }
    pending_.emplace_back(index, std::move(image));
  }
}

void RepeatedLaunches::remember(const DecodedKernel &kernel,
                                const core::LaunchConfig &config,
                                const std::vector<KernelArg> &args,
                                const Limits &limits,
                                const DeviceMemory::AccessLog &log,
                                const DeviceMemory &memory,
                                const LaunchResult &result) {
  Images before = std::move(pending_);
  pending_.clear();
  auto same = [&](const Entry &e) {
    return sameLaunch(e, kernel, config, args, limits);
  };
  entries_.erase(std::remove_if(entries_.begin(), entries_.end(), same),
                 entries_.end());
  if (!result.error.empty() || result.sanitizer)
    return;
  Entry e;
  e.kernel = &kernel;
  e.config = config;
  e.args = args;
  e.limits = limits;
  std::set_union(log.read.begin(), log.read.end(), log.written.begin(),
                 log.written.end(), std::back_inserter(e.touched));
  for (int index : log.read)
    if (std::binary_search(log.written.begin(), log.written.end(), index))
      e.readsWhatItWrites = true;
  e.written = log.written;
  // The images taken before it are its input where they cover what it
  // wrote, and only what it touched (a data-dependent launch may touch
  // others than the earlier one).
  bool imaged = std::all_of(before.begin(), before.end(), [&](const auto &i) {
    return std::binary_search(e.touched.begin(), e.touched.end(), i.first);
  });
  for (int index : log.written)
    imaged &= std::any_of(before.begin(), before.end(),
                          [&](const auto &i) { return i.first == index; });
  if (imaged) {
    Images after;
    uint64_t bytes = 0;
    for (const auto &[index, image] : before)
      bytes += DeviceMemory::imageBytes(*image);
    for (int index : log.written) {
      after.emplace_back(index, memory.image(index));
      bytes += DeviceMemory::imageBytes(*after.back().second);
    }
    if (bytes <= kMaxImageBytesPerLaunch) {
      e.before = std::move(before);
      e.after = std::move(after);
    }
  }
  e.clockAfter = memory.changeClock();
  e.textures = memory.textures.generation();
  e.result = result;
  entries_.push_back(std::move(e));
  if (entries_.size() > kMaxEntries)
    entries_.pop_front();
}

} // namespace kcheck::sim
