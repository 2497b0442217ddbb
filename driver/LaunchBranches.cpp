#include "driver/LaunchBranches.h"

namespace kcheck::driver {

namespace {

bool sameChain(const std::vector<core::SourceLoc> &a,
               const std::vector<core::SourceLoc> &b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].line != b[i].line || a[i].col != b[i].col)
      return false;
  return true;
}

} // namespace

std::vector<LaunchBranch> launchBranches(const SimulatedLaunch &sl,
                                         const std::string &mainFile) {
  std::vector<LaunchBranch> out;
  if (!sl.kernel || !sl.result.error.empty())
    return out;
  const auto &insts = sl.kernel->insts();
  size_t next = 0;
  for (size_t pc = 0; pc < insts.size() && pc < sl.result.perInst.size();
       ++pc) {
    if (!insts[pc].isConditionalBranch)
      continue;
    LaunchBranch b;
    b.stats = &sl.result.perInst[pc].branch;
    b.loc = sim::userLocation(insts[pc], mainFile);
    if (sl.branches)
      for (size_t k = next; k < sl.branches->size(); ++k)
        if (sameChain((*sl.branches)[k].inlineChain, insts[pc].inlineChain)) {
          b.facts = &(*sl.branches)[k];
          next = k + 1;
          break;
        }
    out.push_back(b);
  }
  return out;
}

std::vector<LaunchBranch> launchBranches(const Session &s, size_t li) {
  if (!s.report.launches[li].simulated)
    return {};
  return launchBranches(s.launches[li], s.mainFile);
}

sim::BranchRegion branchRegion(const analyzer::StaticBranch &b) {
  sim::BranchRegion r;
  r.leavesLoop = b.leavesLoop;
  r.instructions = b.regionInstructions;
  r.hasLoop = b.regionHasLoop;
  r.hasBarrier = b.regionHasBarrier;
  r.mergesGlobalLoad = b.regionMergesGlobalLoad;
  return r;
}

bool predictedPredicated(const analyzer::StaticBranch &b) {
  return sim::realBranchReason(branchRegion(b)) == sim::RealBranchReason::None;
}

std::optional<uint64_t>
predictSassDivergentTargets(const SimulatedLaunch &launch,
                            const std::string &mainFile) {
  if (!launch.kernel || !launch.result.error.empty() || !launch.branches)
    return std::nullopt;
  std::vector<sim::SimulatedBranch> branches;
  for (const LaunchBranch &b : launchBranches(launch, mainFile)) {
    sim::SimulatedBranch sb;
    if (b.facts)
      sb.region = branchRegion(*b.facts);
    sb.splitAWarp = b.stats->divergentExecutions != 0;
    branches.push_back(sb);
  }
  return sim::predictSassDivergentTargets(branches);
}

} // namespace kcheck::driver
