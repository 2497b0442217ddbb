// --checks=LIST: clang-tidy style globs over the check ids.
#include "checks/Registry.h"

#include <gtest/gtest.h>

using namespace kcheck::checks;

namespace {

const std::vector<std::string> kIds = {"bank-conflict", "uncoalesced-access",
                                       "divergent-branch",
                                       "barrier-divergence"};

std::vector<std::string> disabled(const std::string &list) {
  std::string error;
  std::vector<std::string> out = disabledChecks(list, kIds, error);
  EXPECT_EQ(error, "") << list;
  return out;
}

std::string errorOf(const std::string &list) {
  std::string error;
  disabledChecks(list, kIds, error);
  return error;
}

} // namespace

TEST(CheckGlobsTest, RemovalAndSelection) {
  EXPECT_EQ(disabled("-divergent-branch"),
            (std::vector<std::string>{"divergent-branch"}));
  EXPECT_EQ(disabled("-*,bank-conflict"),
            (std::vector<std::string>{"uncoalesced-access", "divergent-branch",
                                      "barrier-divergence"}));
  // A list that starts with a positive glob selects: the same as -*,...
  EXPECT_EQ(disabled("bank-conflict"), disabled("-*,bank-conflict"));
  EXPECT_EQ(disabled("*"), std::vector<std::string>{});
}

TEST(CheckGlobsTest, GlobsApplyInOrder) {
  EXPECT_EQ(disabled("-*divergence*,barrier-*"), (std::vector<std::string>{}));
  EXPECT_EQ(disabled("*-divergence"),
            (std::vector<std::string>{"bank-conflict", "uncoalesced-access",
                                      "divergent-branch"}));
  EXPECT_EQ(disabled("-*,*-*ce*,-bank-*"),
            (std::vector<std::string>{"bank-conflict", "divergent-branch"}));
  EXPECT_EQ(
      disabled(" -divergent-branch , -barrier-divergence "),
      (std::vector<std::string>{"divergent-branch", "barrier-divergence"}));
}

TEST(CheckGlobsTest, AGlobThatMatchesNothingIsAnError) {
  EXPECT_NE(errorOf("-*,bank-conflicts")
                .find("'bank-conflicts' in --checks "
                      "matches no check"),
            std::string::npos);
  EXPECT_NE(errorOf("-nope*").find("'nope*'"), std::string::npos);
  EXPECT_NE(errorOf("bank-conflict,").find("empty glob"), std::string::npos);
  EXPECT_NE(errorOf("").find("empty glob"), std::string::npos);
}
