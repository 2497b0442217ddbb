// Inline expectations in the analysed file itself, in Clang's -verify syntax:
//   // expected-warning {{2-way shared-memory bank conflict on 'sdata'}}
//   // expected-warning@+1 {{...}}   (@-N, @LINE too)
//   // expected-warning 2 {{...}}    (a count)
//   // expected-no-diagnostics
// Each expectation must be matched by a diagnostic of that severity on that
// line whose message contains the text, and every warning and error emitted
// must be expected. Notes are matched only when the file expects notes.
#pragma once

#include "core/Diagnostic.h"

#include <string>
#include <vector>

namespace kcheck::driver {

struct Expectation {
  core::Severity severity;
  unsigned line = 0;    // line the diagnostic must be on
  unsigned written = 0; // line the comment is on
  unsigned count = 1;
  std::string text;
};

struct ExpectationSet {
  std::vector<Expectation> expected;
  bool noDiagnostics = false;
  std::vector<std::string> parseErrors; // malformed directives, with lines
};

ExpectationSet parseExpectations(const std::string &sourceText);

/// Compares; returns the mismatches as Clang prints them ("error:
/// 'expected-warning' diagnostics expected but not seen: ..."). Empty: pass.
std::vector<std::string> verify(const ExpectationSet &expectations,
                                const std::vector<core::Diagnostic> &emitted,
                                const std::string &mainFile);

} // namespace kcheck::driver
