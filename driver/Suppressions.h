// `// kcheck-ignore(check-id): reason` in the analysed file: the user's word
// that a finding is known and accepted (clang-tidy's NOLINT, made strict).
//
//   x = tile[threadIdx.x][k]; // kcheck-ignore(bank-conflict): 2 KB, cold path
//   // kcheck-ignore(uncoalesced-access,divergent-branch): gather by design
//   y = in[perm[i]];
//
// A comment after code suppresses the named checks' findings on its own line;
// a comment alone on its line, those on the next line. Rules, all strict so a
// suppression never hides more than it says:
//   - one or more check ids, comma-separated, each a known id: no globs, no
//     `*` (a typo or a wildcard would hide findings nobody looked at);
//   - a reason after `:` is mandatory;
//   - a malformed comment suppresses nothing and is itself a warning
//     [kcheck-ignore] at the comment, so it cannot go unnoticed;
//   - a suppression that matched no finding of a check that ran is reported
//     as a note (unused suppression), as clang-tidy does for NOLINT.
// Only `//` comments count (not `/* */`), only in the main file; a finding
// is matched by its line and check id, whatever its severity.
//
// Pure functions over the source text and the diagnostics: no LLVM, no I/O.
#pragma once

#include "core/Diagnostic.h"

#include <cstddef>
#include <string>
#include <vector>

namespace kcheck::driver {

struct Suppression {
  unsigned line = 0;    // the line whose findings it suppresses
  unsigned written = 0; // the line the comment is on
  unsigned col = 0;     // 1-based column of `kcheck-ignore`
  std::vector<std::string> checkIds;
  std::string reason;
};

struct SuppressionSet {
  std::vector<Suppression> suppressions;
  // Malformed comments: warnings [kcheck-ignore] at the comment.
  std::vector<core::Diagnostic> problems;
};

inline constexpr const char *kSuppressionCheckId = "kcheck-ignore";

/// The kcheck-ignore comments of `sourceText` (the file `file`, which the
/// problems' locations name); ids must be among `knownCheckIds`.
SuppressionSet parseSuppressions(const std::string &sourceText,
                                 const std::string &file,
                                 const std::vector<std::string> &knownCheckIds);

struct SuppressionOutcome {
  // What remains to report, in source order: the findings not suppressed,
  // the malformed-comment warnings, a note per unused suppression.
  std::vector<core::Diagnostic> diagnostics;
  size_t suppressed = 0; // findings that a kcheck-ignore removed
};

/// Removes the findings of `mainFile` that a suppression names. An id not
/// in `checksRun` (the command does not run it, or --checks disabled it)
/// never makes its suppression "unused".
SuppressionOutcome applySuppressions(const SuppressionSet &set,
                                     std::vector<core::Diagnostic> diagnostics,
                                     const std::string &mainFile,
                                     const std::vector<std::string> &checksRun);

/// "1 finding suppressed by kcheck-ignore", "3 findings ...".
std::string suppressedSummary(size_t suppressed);

} // namespace kcheck::driver
