// The prediction report: per launch and per source line, under Nsight
// Compute's metric names, and its JSON form (schema "kcheck-prediction/1",
// DESIGN.md). A measurement uses the same shape ("kcheck-measurement/1").
#pragma once

#include "core/Launch.h"
#include "core/Metrics.h"
#include "core/SourceLoc.h"

#include "core/JsonFwd.h"

#include <optional>
#include <string>
#include <vector>

namespace kcheck::core {

struct LineReport {
  std::string file;
  unsigned line = 0;
  Counters metrics;
  SimtCounts simt; // JSON: the kcheck__simt_* keys of "metrics"
};

/// Where a kernel launched a launch (dynamic parallelism).
struct DeviceLaunchOrigin {
  int launch = 0; // the launching grid's LaunchReport::index
  SourceLoc where;
  unsigned depth = 1; // nesting depth: 1 for a child of a host launch
  // A kernel of a graph the launching kernel launched (device graph
  // launch): Nsight Compute profiles it in no launch, so its counts are not
  // in its root's.
  bool graph = false;
};

struct LaunchReport {
  int index = 0;         // the program's launch order
  std::string kernel;    // "reduce_v5<256>"
  std::string signature; // "void reduce_v5<256>(float *, float *)"
  LaunchConfig config;
  bool simulated = false; // false: see notes for why not
  Counters metrics;
  // Metrics beyond isPredicted()'s that were predicted for this launch (SASS
  // branch divergence where the SASS branch rule decides it); the others
  // are left out of the JSON rather than written as 0.
  std::vector<Metric> alsoPredicted;
  SimtCounts simt;
  // Nsight Compute's source view, which also credits an inlined call's first
  // line to the call line; sorted by file, line.
  std::vector<LineReport> lines;
  // Each instruction on its innermost main-file line only (the SASS line
  // table's view, and kcheck-profile's); JSON "lines_innermost".
  std::vector<LineReport> innermostLines;
  std::vector<std::string> notes;
  // Launched by a kernel, not by host code.
  std::optional<DeviceLaunchOrigin> launchedFrom;

  /// Predicted for this launch: isPredicted()'s metrics and alsoPredicted.
  bool predicts(Metric m) const;
};

/// Adds each launch a kernel made (LaunchReport::launchedFrom) into the
/// metrics of the host launch it descends from, as Nsight Compute counts a
/// launch: the grid and every grid it launched from the device (measured
/// on the H200: dynamic_parallelism.cu's parents' stores include their
/// children's; ncu lists no child launch). The launches keep their own
/// entries (their lines, their findings).
void countDeviceLaunchesInTheirRoots(std::vector<LaunchReport> &launches);

/// The members every launch object of the schema starts with: index,
/// kernel, signature, grid, block, dynamic_shared_bytes (predictions,
/// measurements, SARIF properties).
Json launchIdentityJson(int index, const std::string &kernel,
                        const std::string &signature,
                        const LaunchConfig &config);

// The CUDA headers the device side was compiled against.
struct CudaHeaders {
  bool toolkit = false;      // the CUDA toolkit's; else kcheck's bundled ones
  std::string version;       // toolkit: "13.0"
  std::string path;          // toolkit: its root
  std::string foundBy;       // toolkit: "--cuda-path", "CUDA_PATH", ...
  std::string whyBundled;    // bundled: why no toolkit was used
  bool bundledAsked = false; // bundled because --bundled-headers said so
};

struct PredictionReport {
  std::string schema = "kcheck-prediction/1";
  std::string arch;
  std::string file;
  CudaHeaders cudaHeaders;
  std::vector<LaunchReport> launches;
  std::vector<std::string> notes; // about the program as a whole
};

/// The report as a JSON value (the commands add their findings and fixes).
Json reportJson(const PredictionReport &report);
/// Its text, with a final newline.
std::string toJson(const PredictionReport &report);

} // namespace kcheck::core
