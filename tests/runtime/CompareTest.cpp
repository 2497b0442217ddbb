#include "core/Compare.h"

#include <gtest/gtest.h>

using namespace kcheck::core;

namespace {

ReportFile load(const char *name) {
  ReportLoadResult r =
      loadReportFile(std::string(KCHECK_RUNTIME_FIXTURES "/") + name);
  EXPECT_TRUE(r.report) << r.error;
  return r.report.value_or(ReportFile{});
}

} // namespace

TEST(Compare, JoinsOnIndexMetricAndLine) {
  ProgramComparison c =
      compareReports(load("pred_small.json"), load("meas_small.json"));
  EXPECT_EQ(c.name, "small.cu");
  ASSERT_EQ(c.launches.size(), 2u);
  const LaunchComparison &l0 = c.launches[0];
  // Only metrics both sides have: the measured-only one is not compared.
  ASSERT_EQ(l0.metrics.size(), 2u);
  EXPECT_TRUE(l0.metrics[0].agrees());
  EXPECT_FALSE(l0.metrics[1].agrees());
  EXPECT_EQ(l0.metrics[1].predicted, 380u);
  EXPECT_EQ(l0.metrics[1].measured, 384u);
  // Lines join on the file's base name; a line only measured counts 0 on
  // the predicted side.
  ASSERT_TRUE(l0.linesCompared);
  ASSERT_EQ(l0.lines.size(), 4u);
  EXPECT_TRUE(l0.lines[0].agrees() && l0.lines[1].agrees());
  EXPECT_EQ(l0.lines[3].line, 40u);
  EXPECT_FALSE(l0.lines[3].agrees());
  EXPECT_FALSE(l0.agrees());
  // Launch 1 was not simulated: a difference, with the reason.
  EXPECT_NE(c.launches[1].problem.find("not predicted"), std::string::npos);
  EXPECT_FALSE(c.launches[1].agrees());
  ComparisonSummary s = summarize({c});
  EXPECT_EQ(s.launches, 2u);
  EXPECT_EQ(s.launchesAgreeing, 0u);
  EXPECT_EQ(s.values, 2u);
  EXPECT_EQ(s.valuesAgreeing, 1u);
  EXPECT_FALSE(s.allAgree());
}

TEST(Compare, AReportAgreesWithItself) {
  ReportFile m = load("meas_small.json");
  ProgramComparison c = compareReports(m, m);
  EXPECT_TRUE(summarize({c}).allAgree());
  EXPECT_NE(comparisonText({c}, false).find("exact: 2/2 launches agree"),
            std::string::npos);
}

TEST(Compare, MissingLaunchesAndOtherKernelsDiffer) {
  ReportFile p = load("meas_small.json"), m = p;
  m.launches.pop_back();
  m.launches[0].kernel = "other_kernel";
  ProgramComparison c = compareReports(p, m);
  ASSERT_EQ(c.launches.size(), 2u);
  EXPECT_NE(c.launches[0].problem.find("different kernels"), std::string::npos);
  EXPECT_NE(c.launches[1].problem.find("no measured launch"),
            std::string::npos);
}

TEST(Compare, OutputsMarkDifferences) {
  ProgramComparison c =
      compareReports(load("pred_small.json"), load("meas_small.json"));
  std::string text = comparisonText({c}, false);
  EXPECT_NE(text.find("shared ld wavefronts"), std::string::npos);
  EXPECT_NE(text.find("-4  DIFF"), std::string::npos);
  EXPECT_NE(text.find("line small.cu:40"), std::string::npos);
  std::string md = comparisonMarkdown({c}, "kcheck compare a b");
  EXPECT_NE(md.find("**380 ≠ 384**"), std::string::npos);
  EXPECT_NE(md.find("kcheck compare a b"), std::string::npos);
  std::string json = comparisonJson({c});
  EXPECT_NE(json.find("\"launches_agreeing\": 0"), std::string::npos);
}

TEST(Compare, KernelBaseName) {
  EXPECT_EQ(kernelBaseName("void reduce_v5<256>(float *, float *)"),
            "reduce_v5");
  EXPECT_EQ(kernelBaseName("reduce_v1"), "reduce_v1");
}
