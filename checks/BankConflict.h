// The `bank-conflicts` view of a Session: one warning per source line and
// shared array whose accesses conflict, explained by notes (the index
// expression, the worst warp's lanes -> banks, the degree per loop
// iteration), then a per-launch summary.
#pragma once

#include "core/Diagnostic.h"
#include "driver/Session.h"

#include <string>
#include <vector>

namespace kcheck::checks {

std::vector<core::Diagnostic>
bankConflictDiagnostics(const driver::Session &session);

/// The worst warp behind each [bank-conflict] finding (the one with the most
/// wavefronts per ideal), at the finding's location and array, in the order
/// of bankConflictDiagnostics: what an emitter draws as lanes -> banks.
struct BankConflictWarp {
  core::SourceLoc loc;
  core::Subject subject; // the finding's (Diagnostic::subject)
  sim::WorstWarp warp;
};
std::vector<BankConflictWarp>
bankConflictWorstWarps(const driver::Session &session);
/// "  shared loads : N instructions, N wavefronts, N ideal, N excess" rows of
/// one launch.
std::string bankConflictSummaryRows(const driver::Session &session,
                                    size_t launch);

} // namespace kcheck::checks
