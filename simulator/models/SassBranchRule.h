// SassBranchRule: whether ptxas keeps a source-level branch that splits a
// warp as a real SASS branch (whose split Nsight Compute counts in
// smsp__sass_branch_targets_threads_divergent) or predicates its body (no
// SASS branch, nothing counted). Pure: facts about the branch's IR region in,
// a verdict out; no LLVM.
//
// Assumptions, each measured on the H100 (docs/models.md, "Divergence";
// kernels/h100/exact.csv, corpus seed_exact.csv,
// tests/divergence/inputs/sass_probes.cu):
// - A loop exit that splits a warp is the loop's own branch: the lanes that
//   left wait while the others iterate (a grid-stride loop's exit,
//   kernels/patterns/blocks.cu saxpy_grid_stride: 1 divergent target).
// - A body holding a loop or a barrier stays a branch.
// - A body of at most kPredicatedRegionMaxInstructions IR instructions is
//   predicated: every source-divergent branch of kernels/ and of the seed
//   corpus is at most that long, and the H100 measures 0 divergent targets
//   on all of them.
// - A body that loads from global (or generic) memory a value merged after
//   it (`v = c ? in[i] : 0.0f`) stays a branch (BSSY/BSYNC): 8 of the 10
//   such bodies measured; every body whose merged value came from shared
//   memory was predicated (reduce7's warpLevelSums).
// - Not modelled: switches, and bodies longer than the bound (not
//   predicted rather than guessed).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace kcheck::sim {

inline constexpr unsigned kPredicatedRegionMaxInstructions = 10;

/// The IR region between a conditional branch and its reconvergence point
/// (immediate post-dominator).
struct BranchRegion {
  bool leavesLoop = false; // a successor lies outside the loop holding it
  unsigned instructions = 0;
  bool hasLoop = false;
  bool hasBarrier = false;
  bool mergesGlobalLoad = false;
};

/// Why ptxas may keep a branch real, in the order the rule tests them.
enum class RealBranchReason {
  None, // predicated
  ExitsLoop,
  BodyHasLoop,
  BodyHasBarrier,
  BodyTooLong,
  MergesGlobalLoad,
};

RealBranchReason realBranchReason(const BranchRegion &region);

/// One conditional branch of a simulated launch: its region (nullopt when
/// no static facts matched it) and whether it split a warp.
struct SimulatedBranch {
  std::optional<BranchRegion> region;
  bool splitAWarp = false;
};

/// The launch's smsp__sass_branch_targets_threads_divergent.sum: 0 when
/// every branch that split a warp is one ptxas predicates; nullopt (not
/// predicted) when one may stay a real branch or has no static facts.
std::optional<uint64_t>
predictSassDivergentTargets(const std::vector<SimulatedBranch> &branches);

} // namespace kcheck::sim
