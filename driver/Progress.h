// A progress line on stderr for long simulations: "blocks done / total" of
// the current launch, redrawn about ten times a second once a launch has run
// for a second, and erased when it ends. Silent when stderr is not a
// terminal or with --quiet, so pipes and logs never see it.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace kcheck::driver {

class Progress {
public:
  /// `enabled`: the caller's choice (not --quiet); stderr must also be a TTY.
  explicit Progress(bool enabled);
  ~Progress();
  Progress(const Progress &) = delete;
  Progress &operator=(const Progress &) = delete;

  /// A launch starts; `label` names it on the line ("launch #2 reduce_v1").
  void beginLaunch(std::string label);
  /// Blocks done of the current launch's total (cheap when nothing to draw).
  void update(uint64_t done, uint64_t total);
  /// The launch ended: erase the line if one was drawn.
  void endLaunch();

private:
  using Clock = std::chrono::steady_clock;
  bool enabled_;
  bool drawn_ = false;
  std::string label_;
  Clock::time_point start_, lastDraw_;
};

} // namespace kcheck::driver
