// The `coalescing` view of a Session: one warning per source line, global
// array and direction (load/store) whose warps move clearly more 32-byte
// sectors than their bytes need, explained by notes (the index expression,
// the launches it happens in, the lanes' address pattern in a representative
// warp, how much of each sector is used), then a per-launch summary.
//
// The ideal is Nsight Compute's "L2 Theoretical Sectors Global Ideal" (see
// sim::GlobalAccessStats), so a line is flagged exactly where its source
// view shows sectors above the ideal by more than kExcessThresholdPercent.
#pragma once

#include "core/Diagnostic.h"
#include "driver/Session.h"

#include <string>
#include <vector>

namespace kcheck::checks {

/// A launch's accesses on a line count as uncoalesced when they move at
/// least this many percent more sectors than the ideal: a misaligned warp or
/// a stride of 2 costs 25% or 100% more, while the odd ragged edge of a row
/// (one extra sector in 32) stays quiet.
inline constexpr unsigned kExcessThresholdPercent = 10;

/// Warnings [uncoalesced-access]; with `remarks`, also a remark for every
/// other global access line saying why it is not a finding (coalesced,
/// broadcast, excess below the threshold).
std::vector<core::Diagnostic>
coalescingDiagnostics(const driver::Session &session, bool remarks);

/// The warp that explains each [uncoalesced-access] finding (the worst over
/// the launches where the access is uncoalesced), at the finding's location,
/// in the order of coalescingDiagnostics: what an emitter draws as lanes ->
/// sectors.
struct UncoalescedWarp {
  core::SourceLoc loc;
  core::Subject subject; // the finding's (Diagnostic::subject)
  sim::GlobalWarp warp;
  unsigned sectorBytes = 32;
};
std::vector<UncoalescedWarp>
uncoalescedWorstWarps(const driver::Session &session);

/// "  global loads : N instructions, N requests, N sectors, N ideal, ..."
/// rows of one launch.
std::string coalescingSummaryRows(const driver::Session &session,
                                  size_t launch);

} // namespace kcheck::checks
