// The conditional branches of a simulated launch: each decoded branch (its
// dynamic counts) matched with the static facts of the same IR branch
// (analyzer/facts/BranchUniformity.h), and the SASS branch-divergence
// prediction that SassBranchRule (simulator/models) makes from them.
#pragma once

#include "driver/Session.h"
#include "simulator/models/SassBranchRule.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kcheck::driver {

struct LaunchBranch {
  const analyzer::StaticBranch *facts = nullptr; // null: no static match
  const sim::BranchStats *stats = nullptr;
  core::SourceLoc loc; // the user line it is reported on
};

/// The decoded branches of a simulated launch, in pc order, each matched
/// with the static branch of the same IR instruction (both lists follow
/// function order; the location chain confirms the match). Empty when the
/// launch did not run.
std::vector<LaunchBranch> launchBranches(const SimulatedLaunch &launch,
                                         const std::string &mainFile);
std::vector<LaunchBranch> launchBranches(const Session &s, size_t launch);

/// The static facts as the SASS branch rule takes them.
sim::BranchRegion branchRegion(const analyzer::StaticBranch &facts);

/// Whether ptxas is predicted to predicate `b` (no SASS branch).
bool predictedPredicated(const analyzer::StaticBranch &b);

/// kcheck's prediction of a simulated launch's
/// smsp__sass_branch_targets_threads_divergent.sum (sim::
/// predictSassDivergentTargets); nullopt when not predicted, or when the
/// launch was not simulated or has no static branch facts.
std::optional<uint64_t>
predictSassDivergentTargets(const SimulatedLaunch &launch,
                            const std::string &mainFile);

} // namespace kcheck::driver
