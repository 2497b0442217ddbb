#include "driver/Progress.h"

#include <cstdio>
#include <unistd.h>

namespace kcheck::driver {

namespace {
constexpr auto kQuietPeriod = std::chrono::seconds(1);
constexpr auto kRedrawPeriod = std::chrono::milliseconds(100);
} // namespace

Progress::Progress(bool enabled) : enabled_(enabled && isatty(STDERR_FILENO)) {}

Progress::~Progress() { endLaunch(); }

void Progress::beginLaunch(std::string label) {
  endLaunch();
  label_ = std::move(label);
  start_ = Clock::now();
}

void Progress::update(uint64_t done, uint64_t total) {
  if (!enabled_)
    return;
  Clock::time_point now = Clock::now();
  if (now - start_ < kQuietPeriod ||
      (drawn_ && now - lastDraw_ < kRedrawPeriod))
    return;
  lastDraw_ = now;
  drawn_ = true;
  double percent = total ? 100.0 * double(done) / double(total) : 100.0;
  // \r and clear-to-end-of-line: the line is redrawn in place.
  std::fprintf(stderr, "\rkcheck: %s: %llu / %llu blocks (%.0f%%)\033[K",
               label_.c_str(), (unsigned long long)done,
               (unsigned long long)total, percent);
  std::fflush(stderr);
}

void Progress::endLaunch() {
  if (!drawn_)
    return;
  drawn_ = false;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
}

} // namespace kcheck::driver
