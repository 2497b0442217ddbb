// A position in the user's source, 1-based like compiler diagnostics.
#pragma once

#include <string>

namespace kcheck::core {

struct SourceLoc {
  std::string file; // as the user named it (or as Clang recorded it)
  unsigned line = 0;
  unsigned col = 0;
  bool valid() const { return line != 0; }
  bool operator==(const SourceLoc &) const = default;
  bool operator<(const SourceLoc &o) const {
    if (file != o.file)
      return file < o.file;
    if (line != o.line)
      return line < o.line;
    return col < o.col;
  }
};

} // namespace kcheck::core
