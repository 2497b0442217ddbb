// The names of the engine's event vocabulary (Events.h).
#include "simulator/engine/Events.h"

namespace kcheck::sim {

EventSink::~EventSink() = default;

const char *toString(MemSpace space) {
  switch (space) {
  case MemSpace::Global:
    return "global";
  case MemSpace::Shared:
    return "shared";
  case MemSpace::Local:
    return "local";
  case MemSpace::Constant:
    return "constant";
  case MemSpace::Param:
    return "param";
  }
  return "?";
}

const char *toString(AccessKind kind) {
  switch (kind) {
  case AccessKind::Load:
    return "load";
  case AccessKind::Store:
    return "store";
  case AccessKind::Atomic:
    return "atomic";
  }
  return "?";
}

} // namespace kcheck::sim
