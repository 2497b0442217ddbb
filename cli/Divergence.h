// The `divergence` view of a Session: one warning per source line whose
// thread-dependent branch split warps in some launch, explained by the
// condition as written and what makes it thread-dependent, with the numbers
// (warp executions, divergent ones, lanes on each side, divergent warps per
// loop iteration); one error per __syncthreads() that part of a warp's live
// threads skipped; and a per-launch SIMT-efficiency summary with the lines
// whose loads, stores and branches ran with idle lanes.
//
// Two divergence figures, never mixed: kcheck's source-level one (the IR's
// branches as the simulation executed them) and, where a rule measured on the
// H100 supports it, a prediction of Nsight Compute's
// smsp__sass_branch_targets_threads_divergent.sum (ptxas predicates short
// loop-free bodies, so those branches cost no SASS branch divergence), which
// the Session writes into the launch's metrics only where it is predicted.
#pragma once

#include "cli/Session.h"
#include "core/Diagnostic.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kcheck::cli {

/// The largest branch region (IR instructions between a thread-dependent
/// branch and its reconvergence point, loop- and barrier-free) for which the
/// SASS prediction is 0: every source-divergent branch of kernels/ and of the
/// seed corpus is at most this size, and the H100 measures 0 divergent branch
/// targets on all of them (kernels/h100/exact.csv, corpus seed_exact.csv).
inline constexpr unsigned kPredicatedRegionMaxInstructions = 10;

/// [divergent-branch] warnings and [barrier-divergence] errors; with
/// `remarks`, also a remark for each thread-dependent branch that stayed
/// warp-uniform in every launch and each statically warp-uniform one.
std::vector<core::Diagnostic> divergenceDiagnostics(const Session &session,
                                                    bool remarks);

/// kcheck's prediction of a simulated launch's
/// smsp__sass_branch_targets_threads_divergent.sum: 0 when every branch that
/// split a warp in the simulation is one ptxas predicates (a short body with
/// no loop, barrier or global-memory value merged after it, and no loop
/// exit; docs/models.md, "Divergence"); nullopt (not predicted) otherwise,
/// or when the launch was not simulated or has no static branch facts.
std::optional<uint64_t>
predictSassDivergentTargets(const SimulatedLaunch &launch,
                            const std::string &mainFile);

/// "  branches : ...", "  SIMT efficiency : ..." and the per-line idle-lane
/// rows of one launch.
std::string divergenceSummaryRows(const Session &session, size_t launch);

} // namespace kcheck::cli
