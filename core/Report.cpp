#include "core/Report.h"

#include <map>

#include "core/Json.h"

#include <algorithm>

namespace kcheck::core {

namespace {

Json dimJson(const Dim3 &d) { return Json::array({d.x, d.y, d.z}); }

Json metricsJson(const Counters &c, const SimtCounts &simt,
                 const std::vector<Metric> &alsoPredicted = {}) {
  Json m = Json::object();
  for (unsigned i = 0; i < kMetricCount; ++i)
    if (isPredicted(Metric(i)) ||
        std::find(alsoPredicted.begin(), alsoPredicted.end(), Metric(i)) !=
            alsoPredicted.end())
      m[metricName(Metric(i))] = c.v[i];
  m[kSimtWarpInstName] = simt.warpInst;
  m[kSimtActiveLanesName] = simt.activeLanes;
  return m;
}

Json linesJson(const std::vector<LineReport> &lines) {
  Json out = Json::array();
  for (const LineReport &line : lines)
    out.push_back({{"file", line.file},
                   {"line", line.line},
                   {"metrics", metricsJson(line.metrics, line.simt)}});
  return out;
}

Json cudaHeadersJson(const CudaHeaders &h) {
  if (h.toolkit)
    return {{"mode", "toolkit"},
            {"version", h.version},
            {"path", h.path},
            {"found_by", h.foundBy}};
  return {{"mode", "bundled"}, {"reason", h.whyBundled}};
}

} // namespace

bool LaunchReport::predicts(Metric m) const {
  return isPredicted(m) || std::find(alsoPredicted.begin(), alsoPredicted.end(),
                                     m) != alsoPredicted.end();
}

Json launchIdentityJson(int index, const std::string &kernel,
                        const std::string &signature,
                        const LaunchConfig &config) {
  return {{"index", index},
          {"kernel", kernel},
          {"signature", signature},
          {"grid", dimJson(config.grid)},
          {"block", dimJson(config.block)},
          {"dynamic_shared_bytes", config.dynamicSharedBytes}};
}

void countDeviceLaunchesInTheirRoots(std::vector<LaunchReport> &launches) {
  std::map<int, size_t> byIndex;
  for (size_t i = 0; i < launches.size(); ++i)
    byIndex[launches[i].index] = i;
  std::map<size_t, std::vector<int>> included; // root -> launches
  for (size_t i = 0; i < launches.size(); ++i) {
    if (!launches[i].launchedFrom || !launches[i].simulated)
      continue;
    size_t root = i;
    bool viaGraph = false;
    while (launches[root].launchedFrom) {
      viaGraph |= launches[root].launchedFrom->graph;
      auto parent = byIndex.find(launches[root].launchedFrom->launch);
      if (parent == byIndex.end())
        break;
      root = parent->second;
    }
    if (root == i || launches[root].launchedFrom || viaGraph)
      continue;
    LaunchReport &r = launches[root];
    r.metrics += launches[i].metrics;
    r.simt += launches[i].simt;
    // Predicted for the sum only where predicted for each part.
    const std::vector<Metric> &child = launches[i].alsoPredicted;
    r.alsoPredicted.erase(
        std::remove_if(r.alsoPredicted.begin(), r.alsoPredicted.end(),
                       [&](Metric m) {
                         return std::find(child.begin(), child.end(), m) ==
                                child.end();
                       }),
        r.alsoPredicted.end());
    included[root].push_back(launches[i].index);
  }
  for (auto &[root, list] : included) {
    // "#2, #3, #4", or "#26 to #2073" for a run of more than three.
    std::string names;
    bool consecutive = list.back() - list.front() == int(list.size()) - 1;
    if (list.size() > 3 && consecutive)
      names = "#" + std::to_string(list.front()) + " to #" +
              std::to_string(list.back());
    else
      for (size_t k = 0; k < list.size() && k < 8; ++k)
        names += (k ? ", #" : "#") + std::to_string(list[k]);
    if (list.size() > 8 && !consecutive)
      names += ", ...";
    launches[root].notes.push_back(
        "its counters include the " + std::to_string(list.size()) +
        " launch(es) its grid made from the device (" + names +
        "), as Nsight Compute counts the launch; its lines are its own");
  }
}

Json reportJson(const PredictionReport &report) {
  Json launches = Json::array();
  for (const LaunchReport &l : report.launches) {
    Json launch = launchIdentityJson(l.index, l.kernel, l.signature, l.config);
    launch["simulated"] = l.simulated;
    if (l.simulated) {
      launch["metrics"] = metricsJson(l.metrics, l.simt, l.alsoPredicted);
      launch["lines"] = linesJson(l.lines);
      launch["lines_innermost"] = linesJson(l.innermostLines);
    }
    if (l.launchedFrom)
      launch["launched_from"] = {{"launch", l.launchedFrom->launch},
                                 {"file", l.launchedFrom->where.file},
                                 {"line", l.launchedFrom->where.line},
                                 {"depth", l.launchedFrom->depth}};
    if (l.launchedFrom && l.launchedFrom->graph)
      launch["launched_from"]["graph"] = true;
    launch["notes"] = l.notes;
    launches.push_back(std::move(launch));
  }
  return {{"schema", report.schema},
          {"arch", report.arch},
          {"file", report.file},
          {"cuda_headers", cudaHeadersJson(report.cudaHeaders)},
          {"launches", std::move(launches)},
          {"notes", report.notes}};
}

std::string toJson(const PredictionReport &report) {
  return jsonText(reportJson(report)) + "\n";
}

} // namespace kcheck::core
