#include "core/Report.h"

#include "core/Json.h"

#include <algorithm>

namespace kcheck::core {

namespace {

void writeDim(JsonWriter &w, const Dim3 &d) {
  w.beginArray();
  w.value(d.x);
  w.value(d.y);
  w.value(d.z);
  w.endArray();
}

void writeMetrics(JsonWriter &w, const Counters &c, const SimtCounts &simt,
                  const std::vector<Metric> &alsoPredicted = {}) {
  w.beginObject();
  for (unsigned i = 0; i < kMetricCount; ++i) {
    if (!isPredicted(Metric(i)) &&
        std::find(alsoPredicted.begin(), alsoPredicted.end(), Metric(i)) ==
            alsoPredicted.end())
      continue;
    w.key(metricName(Metric(i)));
    w.value(c.v[i]);
  }
  w.key(kSimtWarpInstName);
  w.value(simt.warpInst);
  w.key(kSimtActiveLanesName);
  w.value(simt.activeLanes);
  w.endObject();
}

void writeLines(JsonWriter &w, const std::vector<LineReport> &lines) {
  w.beginArray();
  for (const LineReport &line : lines) {
    w.beginObject();
    w.key("file");
    w.value(line.file);
    w.key("line");
    w.value(line.line);
    w.key("metrics");
    writeMetrics(w, line.metrics, line.simt);
    w.endObject();
  }
  w.endArray();
}

} // namespace

bool LaunchReport::predicts(Metric m) const {
  return isPredicted(m) || std::find(alsoPredicted.begin(), alsoPredicted.end(),
                                     m) != alsoPredicted.end();
}

void writeLaunchIdentity(JsonWriter &w, int index, const std::string &kernel,
                         const std::string &signature,
                         const LaunchConfig &config) {
  w.key("index");
  w.value(index);
  w.key("kernel");
  w.value(kernel);
  w.key("signature");
  w.value(signature);
  w.key("grid");
  writeDim(w, config.grid);
  w.key("block");
  writeDim(w, config.block);
  w.key("dynamic_shared_bytes");
  w.value(config.dynamicSharedBytes);
}

std::string toJson(const PredictionReport &report,
                   const std::function<void(JsonWriter &)> &members) {
  JsonWriter w;
  w.beginObject();
  w.key("schema");
  w.value(report.schema);
  w.key("arch");
  w.value(report.arch);
  w.key("file");
  w.value(report.file);
  w.key("cuda_headers");
  w.beginObject();
  w.key("mode");
  w.value(report.cudaHeaders.toolkit ? "toolkit" : "bundled");
  if (report.cudaHeaders.toolkit) {
    w.key("version");
    w.value(report.cudaHeaders.version);
    w.key("path");
    w.value(report.cudaHeaders.path);
    w.key("found_by");
    w.value(report.cudaHeaders.foundBy);
  } else {
    w.key("reason");
    w.value(report.cudaHeaders.whyBundled);
  }
  w.endObject();
  w.key("launches");
  w.beginArray();
  for (const LaunchReport &l : report.launches) {
    w.beginObject();
    writeLaunchIdentity(w, l.index, l.kernel, l.signature, l.config);
    w.key("simulated");
    w.value(l.simulated);
    if (l.simulated) {
      w.key("metrics");
      writeMetrics(w, l.metrics, l.simt, l.alsoPredicted);
      w.key("lines");
      writeLines(w, l.lines);
      w.key("lines_innermost");
      writeLines(w, l.innermostLines);
    }
    w.key("notes");
    w.beginArray();
    for (const std::string &n : l.notes)
      w.value(n);
    w.endArray();
    w.endObject();
  }
  w.endArray();
  w.key("notes");
  w.beginArray();
  for (const std::string &n : report.notes)
    w.value(n);
  w.endArray();
  if (members)
    members(w);
  w.endObject();
  return w.str() + "\n";
}

} // namespace kcheck::core
