// Source rewrites that may remove a finding, proposed from the AST of one
// parse. A candidate is only a guess: driver/Fixes re-simulates the edited file
// and offers the candidate only when the finding's counters improve, stating
// the before/after figures. Each recipe lives in analyzer/fixes/RECIPE.cpp.
#pragma once

#include "analyzer/fixes/TextEdits.h"
#include "core/SourceLoc.h"

#include "clang/Basic/SourceLocation.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace clang {
class ASTConsumer;
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace kcheck::analyzer {

struct FixCandidate {
  // Stable name of the rewrite: "pad-shared-array", "xor-swizzle",
  // "sequential-addressing", "shared-transpose", "vectorize-load".
  std::string recipe;
  // The check whose finding it answers: "bank-conflict", "uncoalesced-access".
  std::string checkId;
  std::string kernel; // the function it edits, as SubscriptFact::function
  // The lines of the findings it answers (main file, 1-based). A candidate is
  // tried for a finding on any of them.
  std::vector<unsigned> lines;
  std::string title;           // "pad 'tile' from [32][32] to [32][33]"
  std::vector<TextEdit> edits; // on the main file, non-overlapping
};

/// Every recipe's candidates for one kernel defined in the main file.
/// Recipes: analyzer/fixes/*.cpp, one function each below.
void proposePadSharedArray(clang::ASTContext &ctx,
                           const clang::FunctionDecl &kernel,
                           std::vector<FixCandidate> &out);
void proposeXorSwizzle(clang::ASTContext &ctx,
                       const clang::FunctionDecl &kernel,
                       std::vector<FixCandidate> &out);
void proposeSequentialAddressing(clang::ASTContext &ctx,
                                 const clang::FunctionDecl &kernel,
                                 std::vector<FixCandidate> &out);
void proposeSharedTranspose(clang::ASTContext &ctx,
                            const clang::FunctionDecl &kernel,
                            std::vector<FixCandidate> &out);
void proposeVectorizeLoad(clang::ASTContext &ctx,
                          const clang::FunctionDecl &kernel,
                          std::vector<FixCandidate> &out);

/// The consumer (for compileDevice's extra consumers) that runs every recipe
/// on each __global__ function defined in the main file (template
/// instantiations included) and appends the distinct candidates to `out`.
std::unique_ptr<clang::ASTConsumer>
makeFixCandidatesConsumer(std::vector<FixCandidate> &out);

/// Where recipes may edit one kernel: the main-file text of its expressions
/// and declarations, as written. Text that is not written in the main file as
/// contiguous characters of its own has no edit: (part of) a macro body, an
/// included file, or a macro argument its macro expands more than once (an
/// edit there would change the other expansion too).
class KernelSource {
public:
  KernelSource(clang::ASTContext &ctx, const clang::FunctionDecl &kernel);
  /// The text `range` (a token range) is written as; nullopt as above.
  std::optional<std::string> text(clang::SourceRange range) const;
  /// An edit replacing that text; nullopt as above.
  std::optional<TextEdit> replace(clang::SourceRange range,
                                  std::string replacement) const;
  /// The 1-based main-file line `loc` (or the macro call it is in) is on; 0
  /// outside the main file.
  unsigned line(clang::SourceLocation loc) const;

private:
  // Main-file bytes [begin, end) of `range`, when written there (and, with
  // `checkExpansions`, expanded once).
  std::optional<std::pair<unsigned, unsigned>>
  bytes(clang::SourceRange range, bool checkExpansions) const;
  clang::ASTContext &ctx_;
  // Main-file byte range -> the distinct expansions (raw begin locations) of
  // the kernel's expressions written there: more than one means a macro
  // argument expanded twice.
  std::map<std::pair<unsigned, unsigned>, std::set<uint64_t>> expansions_;
};

} // namespace kcheck::analyzer
