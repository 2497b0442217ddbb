#include "core/Launch.h"

namespace kcheck::core {

std::string toString(const Dim3 &d) {
  return std::to_string(d.x) + "," + std::to_string(d.y) + "," +
         std::to_string(d.z);
}

} // namespace kcheck::core
