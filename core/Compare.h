// Prediction vs measurement: joins two reports (core/ReportFile.h) on the
// launch index (the program's launch order) and on the metric name, and per
// source line on (file name without directories, line). Agreement is exact:
// the counters compared are deterministic counts (DESIGN.md), so any
// difference is a finding. Either side may be a prediction or a measurement,
// so two measurements (kcheck-profile vs Nsight Compute) compare the same way.
#pragma once

#include "core/ReportFile.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kcheck::core {

struct MetricComparison {
  std::string metric;
  uint64_t predicted = 0;
  uint64_t measured = 0;
  bool agrees() const { return predicted == measured; }
};

struct LineComparison {
  std::string file; // without directories
  unsigned line = 0;
  std::string metric;
  uint64_t predicted = 0; // a line absent on one side counts as 0 there
  uint64_t measured = 0;
  bool agrees() const { return predicted == measured; }
};

struct LaunchComparison {
  int index = 0;
  std::string kernel;  // the predicted side's name (else the measured one's)
  std::string problem; // non-empty: the launch could not be compared fully
  std::vector<MetricComparison> metrics;
  bool linesCompared = false;     // both sides have per-line values
  unsigned linesInOtherFiles = 0; // measured lines of files not predicted
  std::vector<LineComparison> lines;
  bool agrees() const;
};

struct ProgramComparison {
  std::string name;          // the program's file name
  std::string predictedPath; // where the two reports came from
  std::string measuredPath;
  std::vector<LaunchComparison> launches;
};

struct ComparisonSummary {
  unsigned launches = 0, launchesAgreeing = 0;
  unsigned values = 0, valuesAgreeing = 0;         // per launch and metric
  unsigned lineValues = 0, lineValuesAgreeing = 0; // per line and metric
  bool allAgree() const {
    return launchesAgreeing == launches && lineValuesAgreeing == lineValues;
  }
};

ProgramComparison compareReports(const ReportFile &predicted,
                                 const ReportFile &measured);
ComparisonSummary summarize(const std::vector<ProgramComparison> &programs);

/// "shared ld wavefronts" for the DESIGN.md metrics, else the name itself.
std::string_view metricLabel(std::string_view metric);
/// The kernel's name without "void ", template arguments or parameters.
std::string kernelBaseName(std::string_view kernel);

/// A table per program (launch, metric, predicted, measured, delta), the
/// differing lines, and a summary. `allLines` also lists agreeing lines.
std::string comparisonText(const std::vector<ProgramComparison> &programs,
                           bool allLines);
std::string comparisonJson(const std::vector<ProgramComparison> &programs);
/// A Markdown page: one row per launch, a cell per metric; `commandLine` is
/// recorded so the page says how to regenerate it.
std::string comparisonMarkdown(const std::vector<ProgramComparison> &programs,
                               std::string_view commandLine);

} // namespace kcheck::core
