// A report as read from (or written to) a JSON file: a prediction
// ("kcheck-prediction/1") or a measurement ("kcheck-measurement/1"), both in
// the shape of DESIGN.md. Unlike core::Counters, metrics are an open list of
// (name, value), because a measurement may carry metrics the simulator does
// not predict. Counter values are integers; they are kept as uint64_t.
#pragma once

#include "core/Launch.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kcheck::core {

using MetricList = std::vector<std::pair<std::string, uint64_t>>;

/// The value of `name` in `metrics`, if present.
std::optional<uint64_t> findMetric(const MetricList &metrics,
                                   std::string_view name);

struct ReportLine {
  std::string file;
  unsigned line = 0;
  MetricList metrics;
};

struct ReportLaunch {
  int index = 0;
  std::string kernel;
  std::string signature;
  LaunchConfig config;
  bool hasMetrics = false; // false: not simulated / not measured (see error)
  MetricList metrics;
  std::vector<ReportLine> lines;
  // Predictions: "lines_innermost", each instruction on its innermost line
  // only (as kcheck-profile measures); "lines" is Nsight Compute's view.
  std::vector<ReportLine> innermostLines;
  std::vector<std::string> notes;
  std::string error; // a measurement's fault or lost counters, if any
  // A prediction's launch made by a kernel ("launched_from"): counted in
  // its host launch's metrics, as a measurement has it; not compared alone.
  bool launchedByKernel = false;
};

struct ReportFile {
  std::string schema; // "kcheck-prediction/1" or "kcheck-measurement/1"
  std::string arch;
  std::string file;
  std::string device; // measurements: the GPU's name
  std::vector<ReportLaunch> launches;
  std::vector<std::string> notes;
  std::vector<std::string> errors; // measurements: whole-program problems
};

struct ReportLoadResult {
  std::optional<ReportFile> report;
  std::string error;
};

/// Parses a prediction or measurement file. Unknown keys are ignored so
/// later schema additions do not break older readers.
ReportLoadResult loadReport(std::string_view jsonText);
ReportLoadResult loadReportFile(const std::string &path);

/// Writes the DESIGN.md shape; `hasMetrics` is written as "simulated" for a
/// prediction and as "measured" for a measurement.
std::string toJson(const ReportFile &report);

} // namespace kcheck::core
