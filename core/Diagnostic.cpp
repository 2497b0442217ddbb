#include "core/Diagnostic.h"

namespace kcheck::core {

std::string_view severityName(Severity s) {
  switch (s) {
  case Severity::Note:
    return "note";
  case Severity::Remark:
    return "remark";
  case Severity::Warning:
    return "warning";
  case Severity::Error:
    return "error";
  }
  return "note";
}

} // namespace kcheck::core
