// Which of compute-sanitizer's checks the engine keeps shadow state for
// (simulator/engine/Sanitizer.h); none costs nothing.
#pragma once

namespace kcheck::sim {

struct SanitizerOptions {
  bool memcheck = false, initcheck = false, racecheck = false,
       synccheck = false;
  bool any() const { return memcheck || initcheck || racecheck || synccheck; }
};

} // namespace kcheck::sim
