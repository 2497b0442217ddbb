// SassBranchRule against a brute-force statement of the rule: every region
// of the small domain (flags x instruction counts around the bound), alone
// and in pairs of branches, split or not, with or without static facts.
#include "simulator/models/SassBranchRule.h"

#include <gtest/gtest.h>

#include <vector>

using namespace kcheck::sim;

namespace {

std::vector<BranchRegion> allRegions() {
  std::vector<BranchRegion> out;
  for (unsigned bits = 0; bits < 16; ++bits)
    for (unsigned n = 0; n <= kPredicatedRegionMaxInstructions + 2; ++n) {
      BranchRegion r;
      r.leavesLoop = bits & 1;
      r.hasLoop = bits & 2;
      r.hasBarrier = bits & 4;
      r.mergesGlobalLoad = bits & 8;
      r.instructions = n;
      out.push_back(r);
    }
  return out;
}

// The rule as docs/models.md states it: ptxas predicates a short body with
// no loop exit, loop, barrier or merged global load.
bool predicated(const BranchRegion &r) {
  return !r.leavesLoop && !r.hasLoop && !r.hasBarrier && !r.mergesGlobalLoad &&
         r.instructions <= kPredicatedRegionMaxInstructions;
}

} // namespace

TEST(SassBranchRule, ReasonIsNoneExactlyWhenPredicated) {
  for (const BranchRegion &r : allRegions())
    EXPECT_EQ(realBranchReason(r) == RealBranchReason::None, predicated(r));
}

TEST(SassBranchRule, ReasonNamesTheFirstRuleThatHolds) {
  for (const BranchRegion &r : allRegions()) {
    RealBranchReason want = r.leavesLoop   ? RealBranchReason::ExitsLoop
                            : r.hasLoop    ? RealBranchReason::BodyHasLoop
                            : r.hasBarrier ? RealBranchReason::BodyHasBarrier
                            : r.instructions > kPredicatedRegionMaxInstructions
                                ? RealBranchReason::BodyTooLong
                            : r.mergesGlobalLoad
                                ? RealBranchReason::MergesGlobalLoad
                                : RealBranchReason::None;
    EXPECT_EQ(realBranchReason(r), want);
  }
}

TEST(SassBranchRule, LaunchPredictedZeroOnlyWhenEverySplitIsPredicated) {
  std::vector<std::optional<BranchRegion>> regions = {std::nullopt};
  for (const BranchRegion &r : allRegions())
    regions.push_back(r);
  for (const auto &a : regions)
    for (const auto &b : regions)
      for (unsigned split = 0; split < 4; ++split) {
        std::vector<SimulatedBranch> branches = {{a, bool(split & 1)},
                                                 {b, bool(split & 2)}};
        bool want = true;
        for (const SimulatedBranch &br : branches)
          if (br.splitAWarp && !(br.region && predicated(*br.region)))
            want = false;
        std::optional<uint64_t> got = predictSassDivergentTargets(branches);
        ASSERT_EQ(got.has_value(), want);
        if (got) {
          EXPECT_EQ(*got, 0u);
        }
      }
  EXPECT_EQ(predictSassDivergentTargets({}), std::optional<uint64_t>(0));
}
