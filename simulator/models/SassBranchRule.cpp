#include "simulator/models/SassBranchRule.h"

namespace kcheck::sim {

RealBranchReason realBranchReason(const BranchRegion &r) {
  if (r.leavesLoop)
    return RealBranchReason::ExitsLoop;
  if (r.hasLoop)
    return RealBranchReason::BodyHasLoop;
  if (r.hasBarrier)
    return RealBranchReason::BodyHasBarrier;
  if (r.instructions > kPredicatedRegionMaxInstructions)
    return RealBranchReason::BodyTooLong;
  if (r.mergesGlobalLoad)
    return RealBranchReason::MergesGlobalLoad;
  return RealBranchReason::None;
}

std::optional<uint64_t>
predictSassDivergentTargets(const std::vector<SimulatedBranch> &branches) {
  for (const SimulatedBranch &b : branches)
    if (b.splitAWarp &&
        (!b.region || realBranchReason(*b.region) != RealBranchReason::None))
      return std::nullopt;
  return 0;
}

} // namespace kcheck::sim
