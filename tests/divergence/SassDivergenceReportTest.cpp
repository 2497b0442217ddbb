// The prediction JSON and `kcheck compare` with the divergence metrics:
// SASS branch divergence only where a launch predicts it, the per-op active
// lanes per launch and line, and kcheck's own SIMT counts, which no
// measurement has and so are never compared with one.
#include "core/Compare.h"
#include "core/Report.h"
#include "core/ReportFile.h"

#include <gtest/gtest.h>

namespace kcheck::core {
namespace {

const std::string kDivergent =
    "smsp__sass_branch_targets_threads_divergent.sum";
const std::string kSharedLdLanes =
    "smsp__sass_thread_inst_executed_op_shared_ld_pred_on.sum";

PredictionReport prediction() {
  PredictionReport r;
  r.arch = "sm_90";
  r.file = "p.cu";
  for (int i = 0; i < 2; ++i) {
    LaunchReport l;
    l.index = i;
    l.kernel = "k" + std::to_string(i);
    l.simulated = true;
    l.metrics[Metric::SharedLdInst] = 10;
    l.metrics[Metric::SharedLdPredOn] = 250;
    l.simt = {12, 300};
    LineReport line{"p.cu", 7, {}, {12, 300}};
    line.metrics[Metric::SharedLdInst] = 10;
    line.metrics[Metric::SharedLdPredOn] = 250;
    l.lines = l.innermostLines = {line};
    r.launches.push_back(l);
  }
  // Launch 0: every divergent body predicated, so 0 is predicted.
  r.launches[0].alsoPredicted.push_back(Metric::BranchTargetsDivergent);
  return r;
}

ReportFile measurement(uint64_t divergent) {
  ReportFile m;
  m.schema = "kcheck-measurement/1";
  m.file = "p.cu";
  for (int i = 0; i < 2; ++i) {
    ReportLaunch l;
    l.index = i;
    l.kernel = "k" + std::to_string(i);
    l.hasMetrics = true;
    l.metrics = {{"smsp__sass_inst_executed_op_shared_ld.sum", 10},
                 {kDivergent, divergent}};
    l.lines = {{"p.cu",
                7,
                {{"smsp__sass_inst_executed_op_shared_ld.sum", 10},
                 {kSharedLdLanes, 250},
                 {kDivergent, divergent}}}};
    m.launches.push_back(l);
  }
  return m;
}

TEST(SassDivergenceReport, WrittenOnlyWherePredicted) {
  ReportLoadResult r = loadReport(toJson(prediction()));
  ASSERT_TRUE(r.report) << r.error;
  const auto &launches = r.report->launches;
  EXPECT_EQ(findMetric(launches[0].metrics, kDivergent), 0u);
  EXPECT_FALSE(findMetric(launches[1].metrics, kDivergent));
  for (const ReportLaunch &l : launches) {
    // Never per line (the prediction is per launch), always the lanes and
    // kcheck's SIMT counts.
    EXPECT_FALSE(findMetric(l.lines[0].metrics, kDivergent));
    EXPECT_EQ(findMetric(l.metrics, kSharedLdLanes), 250u);
    EXPECT_EQ(findMetric(l.innermostLines[0].metrics, kSharedLdLanes), 250u);
    EXPECT_EQ(findMetric(l.metrics, kSimtWarpInstName), 12u);
    EXPECT_EQ(findMetric(l.lines[0].metrics, kSimtActiveLanesName), 300u);
  }
}

TEST(SassDivergenceReport, ComparedWherePredictedSimtNever) {
  ReportLoadResult r = loadReport(toJson(prediction()));
  ASSERT_TRUE(r.report) << r.error;
  ProgramComparison c = compareReports(*r.report, measurement(1));
  ASSERT_EQ(c.launches.size(), 2u);
  auto has = [](const LaunchComparison &l, const std::string &name) {
    for (const MetricComparison &m : l.metrics)
      if (m.metric == name)
        return true;
    return false;
  };
  EXPECT_TRUE(has(c.launches[0], kDivergent));
  EXPECT_FALSE(c.launches[0].agrees()); // predicted 0, measured 1
  EXPECT_FALSE(has(c.launches[1], kDivergent));
  EXPECT_TRUE(c.launches[1].agrees());
  for (const LaunchComparison &l : c.launches) {
    EXPECT_FALSE(has(l, std::string(kSimtWarpInstName)));
    ASSERT_TRUE(l.linesCompared);
    bool lanes = false;
    for (const LineComparison &line : l.lines) {
      EXPECT_EQ(line.metric.find("kcheck__"), std::string::npos);
      EXPECT_NE(line.metric, kDivergent);
      lanes |= line.metric == kSharedLdLanes && line.agrees();
    }
    EXPECT_TRUE(lanes);
  }
  EXPECT_TRUE(compareReports(*r.report, measurement(0)).launches[0].agrees());
}

TEST(SassDivergenceReport, Labels) {
  EXPECT_EQ(metricLabel(kDivergent), "divergent branches");
  EXPECT_EQ(metricLabel(kSharedLdLanes), "shared ld pred-on");
  EXPECT_EQ(
      metricLabel("smsp__sass_thread_inst_executed_op_global_st_pred_on.sum"),
      "global st pred-on");
  EXPECT_EQ(metricLabel(kSimtActiveLanesName), "kcheck SIMT lanes");
}

TEST(SassDivergenceReport, PredOnIsNoProfilerMetric) {
  // A measurement derives the per-op lanes per SASS instruction; the
  // profiler has no counter of that name to ask for.
  EXPECT_FALSE(isProfilerMetric(Metric::SharedLdPredOn));
  EXPECT_FALSE(isProfilerMetric(Metric::GlobalStPredOn));
  EXPECT_TRUE(isProfilerMetric(Metric::SharedLdInst));
  EXPECT_TRUE(isProfilerMetric(Metric::BranchTargetsDivergent));
  EXPECT_FALSE(isPredicted(Metric::BranchTargetsDivergent));
  EXPECT_TRUE(isPredicted(Metric::GlobalLdPredOn));
}

} // namespace
} // namespace kcheck::core
