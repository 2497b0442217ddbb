#include "core/ReportFile.h"

#include "core/Json.h"
#include "core/Report.h"

#include <fstream>
#include <sstream>

namespace kcheck::core {

std::optional<uint64_t> findMetric(const MetricList &metrics,
                                   std::string_view name) {
  for (const auto &[n, v] : metrics)
    if (n == name)
      return v;
  return std::nullopt;
}

namespace {

bool isMeasurement(std::string_view schema) {
  return schema.rfind("kcheck-measurement/", 0) == 0;
}

void readStrings(const Json &obj, std::string_view key,
                 std::vector<std::string> &out) {
  const Json *v = jsonMember(obj, key);
  if (!v || !v->is_array())
    return;
  for (const Json &s : *v)
    if (s.is_string())
      out.push_back(s.get<std::string>());
}

bool readDim(const Json &obj, std::string_view key, Dim3 &d) {
  const Json *v = jsonMember(obj, key);
  if (!v)
    return true;
  if (!v->is_array() || v->size() != 3)
    return false;
  uint32_t *parts[3] = {&d.x, &d.y, &d.z};
  for (size_t i = 0; i < 3; ++i) {
    std::optional<uint64_t> n = jsonUint64((*v)[i]);
    if (!n || *n > 0xffffffffu)
      return false;
    *parts[i] = uint32_t(*n);
  }
  return true;
}

// Metric values are counts; a value that is not a non-negative integer is an
// error rather than silently rounded.
bool readMetrics(const Json &obj, MetricList &out, std::string &error) {
  if (!obj.is_object()) {
    error = "\"metrics\" is not an object";
    return false;
  }
  for (const auto &[name, value] : obj.items()) {
    std::optional<uint64_t> n = jsonUint64(value);
    if (!n) {
      error = "metric '" + name + "' is not a non-negative integer";
      return false;
    }
    out.emplace_back(name, *n);
  }
  return true;
}

// A launch's "lines" or "lines_innermost"; "" or why it is not one.
std::string readLines(const Json &l, const char *key,
                      std::vector<ReportLine> &into) {
  const Json *lines = jsonMember(l, key);
  if (!lines || !lines->is_array())
    return "";
  for (const Json &ln : *lines) {
    ReportLine line;
    line.file = jsonString(ln, "file");
    const Json *no = jsonMember(ln, "line");
    line.line = no ? unsigned(jsonUint64(*no).value_or(0)) : 0;
    std::string error;
    if (const Json *m = jsonMember(ln, "metrics");
        m && !readMetrics(*m, line.metrics, error))
      return "line " + std::to_string(line.line) + ": " + error;
    into.push_back(std::move(line));
  }
  return "";
}

// One object of "launches"; "" or why it is not one.
std::string readLaunch(const Json &l, size_t position, ReportLaunch &launch) {
  if (!l.is_object())
    return "not an object";
  const Json *index = jsonMember(l, "index");
  std::optional<int64_t> idx = index ? jsonInt64(*index) : std::nullopt;
  launch.index = idx ? int(*idx) : int(position);
  launch.kernel = jsonString(l, "kernel");
  launch.signature = jsonString(l, "signature");
  launch.error = jsonString(l, "error");
  if (!readDim(l, "grid", launch.config.grid) ||
      !readDim(l, "block", launch.config.block))
    return "grid/block is not an array of 3 integers";
  if (const Json *shm = jsonMember(l, "dynamic_shared_bytes"))
    launch.config.dynamicSharedBytes = jsonUint64(*shm).value_or(0);
  readStrings(l, "notes", launch.notes);
  launch.launchedByKernel = jsonMember(l, "launched_from") != nullptr;
  if (const Json *m = jsonMember(l, "metrics")) {
    std::string error;
    if (!readMetrics(*m, launch.metrics, error))
      return error;
    launch.hasMetrics = true;
  }
  for (auto [key, into] :
       {std::pair{"lines", &launch.lines},
        std::pair{"lines_innermost", &launch.innermostLines}})
    if (std::string error = readLines(l, key, *into); !error.empty())
      return error;
  return "";
}

} // namespace

ReportLoadResult loadReport(std::string_view jsonText) {
  ReportLoadResult r;
  JsonParseResult parsed = parseJson(jsonText);
  if (!parsed.value) {
    r.error = "not valid JSON: " + parsed.error;
    return r;
  }
  const Json &root = *parsed.value;
  if (!root.is_object()) {
    r.error = "the top level is not an object";
    return r;
  }
  ReportFile rep;
  rep.schema = jsonString(root, "schema");
  if (rep.schema.rfind("kcheck-prediction/", 0) != 0 &&
      !isMeasurement(rep.schema)) {
    r.error = "unknown schema '" + rep.schema +
              "' (want kcheck-prediction/1 or kcheck-measurement/1)";
    return r;
  }
  rep.arch = jsonString(root, "arch");
  rep.file = jsonString(root, "file");
  rep.device = jsonString(root, "device");
  readStrings(root, "notes", rep.notes);
  readStrings(root, "errors", rep.errors);
  const Json *launches = jsonMember(root, "launches");
  if (!launches || !launches->is_array()) {
    r.error = "no \"launches\" array";
    return r;
  }
  for (const Json &l : *launches) {
    ReportLaunch launch;
    if (std::string error = readLaunch(l, rep.launches.size(), launch);
        !error.empty()) {
      r.error = "launch #" + std::to_string(rep.launches.size()) + ": " + error;
      return r;
    }
    rep.launches.push_back(std::move(launch));
  }
  r.report = std::move(rep);
  return r;
}

ReportLoadResult loadReportFile(const std::string &path) {
  std::ifstream in(path);
  if (!in) {
    ReportLoadResult r;
    r.error = "cannot read '" + path + "'";
    return r;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  ReportLoadResult r = loadReport(ss.str());
  if (!r.report)
    r.error = path + ": " + r.error;
  return r;
}

namespace {

Json metricsJson(const MetricList &metrics) {
  Json m = Json::object();
  for (const auto &[name, value] : metrics)
    m[name] = value;
  return m;
}

Json linesJson(const std::vector<ReportLine> &lines) {
  Json out = Json::array();
  for (const ReportLine &line : lines)
    out.push_back({{"file", line.file},
                   {"line", line.line},
                   {"metrics", metricsJson(line.metrics)}});
  return out;
}

} // namespace

std::string toJson(const ReportFile &report) {
  const bool measured = isMeasurement(report.schema);
  Json launches = Json::array();
  for (const ReportLaunch &l : report.launches) {
    Json launch = launchIdentityJson(l.index, l.kernel, l.signature, l.config);
    launch[measured ? "measured" : "simulated"] = l.hasMetrics;
    if (!l.error.empty())
      launch["error"] = l.error;
    if (l.hasMetrics) {
      launch["metrics"] = metricsJson(l.metrics);
      launch["lines"] = linesJson(l.lines);
      if (!l.innermostLines.empty())
        launch["lines_innermost"] = linesJson(l.innermostLines);
    }
    launch["notes"] = l.notes;
    launches.push_back(std::move(launch));
  }
  Json doc = {
      {"schema", report.schema}, {"arch", report.arch}, {"file", report.file}};
  if (!report.device.empty())
    doc["device"] = report.device;
  doc["launches"] = std::move(launches);
  doc["notes"] = report.notes;
  if (measured)
    doc["errors"] = report.errors;
  return jsonText(doc) + "\n";
}

} // namespace kcheck::core
