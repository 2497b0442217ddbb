// ArchSpec records and ModelOptions validation.
#include "core/ArchSpec.h"

#include <gtest/gtest.h>

using namespace kcheck::core;

TEST(ArchSpecTest, EveryKnownNameResolves) {
  for (const std::string &name : knownArchNames()) {
    std::optional<ArchSpec> a = findArch(name);
    ASSERT_TRUE(a.has_value()) << name;
    EXPECT_EQ(a->name, name);
    EXPECT_EQ(validateModelOptions(*a, a->options), "") << name;
    EXPECT_EQ(a->sharedBanks, a->shared.banks);
  }
  EXPECT_FALSE(findArch("sm_99").has_value());
}

TEST(ArchSpecTest, GenerationsCarryTheirRules) {
  EXPECT_EQ(findArch("sm_10")->shared.banks, 16u);
  EXPECT_EQ(findArch("sm_13")->shared.issue, SharedIssue::HalfWarp);
  EXPECT_EQ(findArch("sm_11")->global.rules, GlobalRules::HalfWarpSequential);
  EXPECT_EQ(findArch("sm_12")->global.rules, GlobalRules::HalfWarpSegments);
  EXPECT_TRUE(findArch("sm_20")->options.l1Cache);
  EXPECT_EQ(findArch("sm_21")->global.l1LineBytes, 128u);
  EXPECT_FALSE(findArch("sm_30")->options.l1Cache);
  EXPECT_TRUE(findArch("sm_37")->shared.eightByteBankMode);
  EXPECT_EQ(findArch("sm_35")->options.bankModeBytes, 4u);
  EXPECT_EQ(findArch("sm_62")->global.requests, GlobalRequests::Per128Bytes);
  ArchSpec h100 = *findArch("sm_90");
  EXPECT_EQ(h100.shared.banks, 32u);
  EXPECT_EQ(h100.shared.wide, SharedWideAccess::HalfWarpPhasesH100);
  EXPECT_EQ(h100.global.requests, GlobalRequests::OnePerInstruction);
  EXPECT_EQ(h100.sectorBytes, 32u);
}

TEST(ArchSpecTest, ValidatesOptions) {
  ArchSpec kepler = *findArch("sm_35"), h100 = *findArch("sm_90"),
           tesla = *findArch("sm_13");
  EXPECT_EQ(validateModelOptions(kepler, {8, false}), "");
  EXPECT_EQ(validateModelOptions(kepler, {4, true}), "");
  EXPECT_NE(validateModelOptions(h100, {8, false}), "");
  EXPECT_NE(validateModelOptions(h100, {16, false}), "");
  EXPECT_EQ(validateModelOptions(h100, {4, true}), "");
  EXPECT_NE(validateModelOptions(tesla, {4, true}), "");
  EXPECT_NE(validateModelOptions(tesla, {8, false}), "");
  EXPECT_EQ(defaultModelOptions(tesla).l1Cache, false);
}
