// A finding as compilers print it: `file:line:col: warning: message [check]`
// followed by its notes. Emitters (text, JSON, SARIF) live at the edge (cli/).
#pragma once

#include "core/SourceLoc.h"

#include <string>
#include <vector>

namespace kcheck::core {

enum class Severity { Note, Remark, Warning, Error };

std::string_view severityName(Severity s);

/// What a finding is about, as data, so that an emitter pairs it with what it
/// draws (the worst warp of that access) without reading the message.
struct Subject {
  enum class Space { None, Shared, Global, Local };
  enum class Direction { None, Load, Store, Atomic };
  std::string array; // as the message names it; empty: none or unknown
  Space space = Space::None;
  Direction direction = Direction::None;
  bool operator==(const Subject &) const = default;
};

struct Diagnostic {
  Severity severity = Severity::Warning;
  SourceLoc loc;
  std::string message; // lowercase start, no trailing period (Clang style)
  std::string checkId; // stable id, e.g. "bank-conflict"; empty for notes
  Subject subject;
  std::vector<Diagnostic> notes;

  /// Appends a note at this diagnostic's location.
  void addNote(std::string text) {
    Diagnostic n;
    n.severity = Severity::Note;
    n.loc = loc;
    n.message = std::move(text);
    notes.push_back(std::move(n));
  }
};

} // namespace kcheck::core
