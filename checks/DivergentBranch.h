// [divergent-branch]: one warning per source line whose thread-dependent
// branch split warps in some launch, explained by the condition as written
// and what makes it thread-dependent, with the numbers (warp executions,
// divergent ones, lanes on each side, divergent warps per loop iteration);
// and a per-launch SIMT-efficiency summary with the lines whose loads,
// stores and branches ran with idle lanes.
//
// Two divergence figures, never mixed: kcheck's source-level one (the IR's
// branches as the simulation executed them) and, where a rule measured on the
// H100 supports it, a prediction of Nsight Compute's
// smsp__sass_branch_targets_threads_divergent.sum (ptxas predicates short
// loop-free bodies, so those branches cost no SASS branch divergence), which
// the Session writes into the launch's metrics only where it is predicted
// (driver/LaunchBranches.h, simulator/models/SassBranchRule.h).
#pragma once

#include "core/Diagnostic.h"
#include "driver/Session.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kcheck::checks {

/// [divergent-branch] warnings; with `remarks`, also a remark for each
/// thread-dependent branch that stayed warp-uniform in every launch and each
/// statically warp-uniform one.
std::vector<core::Diagnostic>
divergentBranchDiagnostics(const driver::Session &session, bool remarks);

/// "  branches : ...", "  SIMT efficiency : ..." and the per-line idle-lane
/// rows of one launch.
std::string divergenceSummaryRows(const driver::Session &session,
                                  size_t launch);

} // namespace kcheck::checks
