// The `divergence` view of a Session: one warning per source line whose
// thread-dependent branch split warps in some launch, explained by the
// condition as written and what makes it thread-dependent, with the numbers
// (warp executions, divergent ones, lanes on each side, divergent warps per
// loop iteration); one error per __syncthreads() that part of a warp's live
// threads skipped; and a per-launch SIMT-efficiency summary.
//
// Two divergence figures, never mixed: kcheck's source-level one (the IR's
// branches as the simulation executed them) and, where a rule measured on the
// H100 supports it, a prediction of Nsight Compute's
// smsp__sass_branch_targets_threads_divergent.sum (ptxas predicates short
// loop-free bodies, so those branches cost no SASS branch divergence).
#pragma once

#include "cli/Session.h"
#include "core/Diagnostic.h"

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

/// "  branches : ..." and "  SIMT efficiency : ..." rows of one launch.
std::string divergenceSummaryRows(const Session &session, size_t launch);

} // namespace kcheck::cli
