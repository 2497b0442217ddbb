// A finding as compilers print it: `file:line:col: warning: message [check]`
// followed by its notes. Emitters (text, JSON, SARIF) live at the edge (cli/).
#pragma once

#include "core/SourceLoc.h"

#include <string>
#include <vector>

namespace kcheck::core {

enum class Severity { Note, Remark, Warning, Error };

std::string_view severityName(Severity s);

struct Diagnostic {
  Severity severity = Severity::Warning;
  SourceLoc loc;
  std::string message; // lowercase start, no trailing period (Clang style)
  std::string checkId; // stable id, e.g. "bank-conflict"; empty for notes
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
