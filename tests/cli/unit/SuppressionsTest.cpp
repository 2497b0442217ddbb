// // kcheck-ignore(ID): reason: parsing the comments and removing the
// findings they name (pure functions, no compile).
#include "driver/Suppressions.h"

#include <gtest/gtest.h>

using namespace kcheck::driver;
using kcheck::core::Diagnostic;
using kcheck::core::Severity;

namespace {

const std::vector<std::string> kIds = {"bank-conflict", "uncoalesced-access",
                                       "divergent-branch"};

Diagnostic finding(unsigned line, std::string id,
                   Severity severity = Severity::Warning) {
  Diagnostic d;
  d.severity = severity;
  d.loc = {"k.cu", line, 5}; // the main file as the user named it
  d.message = "m";
  d.checkId = std::move(id);
  return d;
}

SuppressionSet parse(const std::string &source) {
  return parseSuppressions(source, "k.cu", kIds);
}

} // namespace

TEST(SuppressionsTest, TrailingCommentOrOwnLineBefore) {
  SuppressionSet set = parse(
      "a = s[2 * t]; // kcheck-ignore(bank-conflict): measured, 1 % of time\n"
      "  // kcheck-ignore(uncoalesced-access, divergent-branch): gather\n"
      "b = g[p[i]];\n");
  EXPECT_TRUE(set.problems.empty());
  ASSERT_EQ(set.suppressions.size(), 2u);
  EXPECT_EQ(set.suppressions[0].line, 1u);
  EXPECT_EQ(set.suppressions[0].col, 18u);
  EXPECT_EQ(set.suppressions[0].reason, "measured, 1 % of time");
  EXPECT_EQ(set.suppressions[1].written, 2u);
  EXPECT_EQ(set.suppressions[1].line, 3u);
  EXPECT_EQ(
      set.suppressions[1].checkIds,
      (std::vector<std::string>{"uncoalesced-access", "divergent-branch"}));
}

TEST(SuppressionsTest, MalformedCommentsAreWarningsAndSuppressNothing) {
  SuppressionSet set = parse("x; // kcheck-ignore(bank-conflict)\n"
                             "x; // kcheck-ignore(bank-conflict):   \n"
                             "x; // kcheck-ignore(*): everything\n"
                             "x; // kcheck-ignore(bank-*): globs\n"
                             "x; // kcheck-ignore(bank-conflicts): typo\n"
                             "x; // kcheck-ignore: no ids\n"
                             "x; // kcheck-ignore(bank-conflict: unclosed\n"
                             "x; // kcheck-ignore(bank-conflict,): empty id\n");
  EXPECT_TRUE(set.suppressions.empty());
  ASSERT_EQ(set.problems.size(), 8u);
  for (unsigned i = 0; i < 8; ++i) {
    EXPECT_EQ(set.problems[i].loc.line, i + 1);
    EXPECT_EQ(set.problems[i].loc.col, 7u);
    EXPECT_EQ(set.problems[i].severity, Severity::Warning);
    EXPECT_EQ(set.problems[i].checkId, "kcheck-ignore");
  }
  EXPECT_NE(set.problems[0].message.find("needs a reason"), std::string::npos);
  EXPECT_NE(set.problems[1].message.find("needs a reason"), std::string::npos);
  EXPECT_NE(set.problems[2].message.find("not '*'"), std::string::npos);
  EXPECT_NE(set.problems[3].message.find("not 'bank-*'"), std::string::npos);
  EXPECT_NE(set.problems[4].message.find("unknown check 'bank-conflicts'"),
            std::string::npos);
  EXPECT_NE(set.problems[5].message.find("needs the ids"), std::string::npos);
  EXPECT_NE(set.problems[6].message.find("not closed"), std::string::npos);
  EXPECT_NE(set.problems[7].message.find("empty check id"), std::string::npos);
}

TEST(SuppressionsTest, OnlyRealCommentsThatAreDirectives) {
  SuppressionSet set =
      parse("const char *s = \"// kcheck-ignore(bank-conflict): no\";\n"
            "/* // kcheck-ignore(bank-conflict): in a block comment\n"
            "   */ x; // prose about kcheck-ignore, or kcheck-ignore (x)\n"
            "c = '\"'; // kcheck-ignore(bank-conflict): after a quote char\n"
            "// kcheck-ignore comments: prose that names them\n");
  EXPECT_TRUE(set.problems.empty());
  ASSERT_EQ(set.suppressions.size(), 1u);
  EXPECT_EQ(set.suppressions[0].line, 4u);
}

TEST(SuppressionsTest, RemovesNamedFindingsAndCountsThem) {
  SuppressionSet set =
      parse("// kcheck-ignore(bank-conflict): padded in v2\n"
            "x;\n"
            "y; // kcheck-ignore(uncoalesced-access): gather\n");
  std::vector<Diagnostic> diags = {
      finding(2, "bank-conflict"),
      finding(2, "bank-conflict"),
      finding(2, "uncoalesced-access"),
      finding(3, "uncoalesced-access"),
      finding(3, "uncoalesced-access", Severity::Remark),
      finding(4, "bank-conflict")};
  SuppressionOutcome out = applySuppressions(
      set, diags, "k.cu", {"bank-conflict", "uncoalesced-access"});
  EXPECT_EQ(out.suppressed, 3u); // the remark is removed, not counted
  ASSERT_EQ(out.diagnostics.size(), 2u);
  EXPECT_EQ(out.diagnostics[0].loc.line, 2u);
  EXPECT_EQ(out.diagnostics[0].checkId, "uncoalesced-access");
  EXPECT_EQ(out.diagnostics[1].loc.line, 4u);
  EXPECT_EQ(suppressedSummary(out.suppressed),
            "3 findings suppressed by kcheck-ignore");
  // A finding in another file of the same name is not the main file's: its
  // line 2 is not the comment's (file names were once compared by base name).
  Diagnostic elsewhere = finding(2, "bank-conflict");
  elsewhere.loc.file = "include/k.cu";
  EXPECT_EQ(
      applySuppressions(set, {elsewhere}, "k.cu", {"bank-conflict"}).suppressed,
      0u);
  EXPECT_EQ(suppressedSummary(1), "1 finding suppressed by kcheck-ignore");
}

TEST(SuppressionsTest, UnusedSuppressionIsANoteOnlyForChecksThatRan) {
  SuppressionSet set = parse(
      "x; // kcheck-ignore(bank-conflict, divergent-branch): both fixed\n");
  // Only a remark on the line: the suppression is unused.
  SuppressionOutcome out =
      applySuppressions(set, {finding(1, "bank-conflict", Severity::Remark)},
                        "k.cu", {"bank-conflict"});
  ASSERT_EQ(out.diagnostics.size(), 1u);
  EXPECT_EQ(out.diagnostics[0].severity, Severity::Note);
  EXPECT_EQ(out.diagnostics[0].message,
            "unused suppression: no [bank-conflict] finding on line 1");
  EXPECT_EQ(out.suppressed, 0u);
  // divergent-branch did not run: its half of the comment is not "unused".
  out = applySuppressions(set, {finding(1, "bank-conflict")}, "k.cu",
                          {"bank-conflict"});
  EXPECT_TRUE(out.diagnostics.empty());
  EXPECT_EQ(out.suppressed, 1u);
}

TEST(SuppressionsTest, OtherFilesAreUntouched) {
  SuppressionSet set = parse("x; // kcheck-ignore(bank-conflict): why\n");
  Diagnostic inHeader = finding(1, "bank-conflict");
  inHeader.loc.file = "include/tile.h";
  SuppressionOutcome out =
      applySuppressions(set, {inHeader}, "k.cu", {"bank-conflict"});
  EXPECT_EQ(out.suppressed, 0u);
  ASSERT_EQ(out.diagnostics.size(), 2u); // the finding, the unused note
}
