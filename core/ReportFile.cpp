#include "core/ReportFile.h"

#include "core/Json.h"
#include "core/JsonReader.h"
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

std::string stringOf(const JsonValue &obj, std::string_view key) {
  const JsonValue *v = obj.find(key);
  return v && v->isString() ? v->text() : std::string();
}

void readStrings(const JsonValue &obj, std::string_view key,
                 std::vector<std::string> &out) {
  const JsonValue *v = obj.find(key);
  if (!v || !v->isArray())
    return;
  for (const JsonValue &s : v->items())
    if (s.isString())
      out.push_back(s.text());
}

bool readDim(const JsonValue &obj, std::string_view key, Dim3 &d) {
  const JsonValue *v = obj.find(key);
  if (!v)
    return true;
  if (!v->isArray() || v->items().size() != 3)
    return false;
  uint32_t *parts[3] = {&d.x, &d.y, &d.z};
  for (int i = 0; i < 3; ++i) {
    std::optional<uint64_t> n = v->items()[size_t(i)].asUint64();
    if (!n || *n > 0xffffffffu)
      return false;
    *parts[i] = uint32_t(*n);
  }
  return true;
}

// Metric values are counts; a value that is not a non-negative integer is an
// error rather than silently rounded.
bool readMetrics(const JsonValue &obj, MetricList &out, std::string &error) {
  if (!obj.isObject()) {
    error = "\"metrics\" is not an object";
    return false;
  }
  for (const auto &[name, value] : obj.members()) {
    std::optional<uint64_t> n = value.asUint64();
    if (!n) {
      error = "metric '" + name + "' is not a non-negative integer";
      return false;
    }
    out.emplace_back(name, *n);
  }
  return true;
}

} // namespace

ReportLoadResult loadReport(std::string_view jsonText) {
  ReportLoadResult r;
  JsonParseResult parsed = parseJson(jsonText);
  if (!parsed.value) {
    r.error = "not valid JSON: " + parsed.error;
    return r;
  }
  const JsonValue &root = *parsed.value;
  if (!root.isObject()) {
    r.error = "the top level is not an object";
    return r;
  }
  ReportFile rep;
  rep.schema = stringOf(root, "schema");
  if (rep.schema.rfind("kcheck-prediction/", 0) != 0 &&
      !isMeasurement(rep.schema)) {
    r.error = "unknown schema '" + rep.schema +
              "' (want kcheck-prediction/1 or kcheck-measurement/1)";
    return r;
  }
  rep.arch = stringOf(root, "arch");
  rep.file = stringOf(root, "file");
  rep.device = stringOf(root, "device");
  readStrings(root, "notes", rep.notes);
  readStrings(root, "errors", rep.errors);
  const JsonValue *launches = root.find("launches");
  if (!launches || !launches->isArray()) {
    r.error = "no \"launches\" array";
    return r;
  }
  for (const JsonValue &l : launches->items()) {
    std::string where = "launch #" + std::to_string(rep.launches.size()) + ": ";
    if (!l.isObject()) {
      r.error = where + "not an object";
      return r;
    }
    ReportLaunch launch;
    const JsonValue *index = l.find("index");
    std::optional<int64_t> idx = index ? index->asInt64() : std::nullopt;
    launch.index = idx ? int(*idx) : int(rep.launches.size());
    launch.kernel = stringOf(l, "kernel");
    launch.signature = stringOf(l, "signature");
    launch.error = stringOf(l, "error");
    if (!readDim(l, "grid", launch.config.grid) ||
        !readDim(l, "block", launch.config.block)) {
      r.error = where + "grid/block is not an array of 3 integers";
      return r;
    }
    if (const JsonValue *shm = l.find("dynamic_shared_bytes"))
      launch.config.dynamicSharedBytes = shm->asUint64().value_or(0);
    readStrings(l, "notes", launch.notes);
    if (const JsonValue *m = l.find("metrics")) {
      if (!readMetrics(*m, launch.metrics, r.error)) {
        r.error = where + r.error;
        return r;
      }
      launch.hasMetrics = true;
    }
    for (auto [key, into] :
         {std::pair{"lines", &launch.lines},
          std::pair{"lines_innermost", &launch.innermostLines}}) {
      const JsonValue *lines = l.find(key);
      if (!lines || !lines->isArray())
        continue;
      for (const JsonValue &ln : lines->items()) {
        ReportLine line;
        line.file = stringOf(ln, "file");
        const JsonValue *no = ln.find("line");
        line.line = no ? unsigned(no->asUint64().value_or(0)) : 0;
        if (const JsonValue *m = ln.find("metrics");
            m && !readMetrics(*m, line.metrics, r.error)) {
          r.error =
              where + "line " + std::to_string(line.line) + ": " + r.error;
          return r;
        }
        into->push_back(std::move(line));
      }
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

void writeMetrics(JsonWriter &w, const MetricList &metrics) {
  w.beginObject();
  for (const auto &[name, value] : metrics) {
    w.key(name);
    w.value(value);
  }
  w.endObject();
}

void writeStrings(JsonWriter &w, std::string_view key,
                  const std::vector<std::string> &list) {
  w.key(key);
  w.beginArray();
  for (const std::string &s : list)
    w.value(s);
  w.endArray();
}

} // namespace

std::string toJson(const ReportFile &report) {
  const bool measured = isMeasurement(report.schema);
  JsonWriter w;
  w.beginObject();
  w.key("schema");
  w.value(report.schema);
  w.key("arch");
  w.value(report.arch);
  w.key("file");
  w.value(report.file);
  if (!report.device.empty()) {
    w.key("device");
    w.value(report.device);
  }
  w.key("launches");
  w.beginArray();
  for (const ReportLaunch &l : report.launches) {
    w.beginObject();
    writeLaunchIdentity(w, l.index, l.kernel, l.signature, l.config);
    w.key(measured ? "measured" : "simulated");
    w.value(l.hasMetrics);
    if (!l.error.empty()) {
      w.key("error");
      w.value(l.error);
    }
    if (l.hasMetrics) {
      w.key("metrics");
      writeMetrics(w, l.metrics);
      for (auto [key, lines] :
           {std::pair{"lines", &l.lines},
            std::pair{"lines_innermost", &l.innermostLines}}) {
        if (lines->empty() && std::string_view(key) != "lines")
          continue;
        w.key(key);
        w.beginArray();
        for (const ReportLine &line : *lines) {
          w.beginObject();
          w.key("file");
          w.value(line.file);
          w.key("line");
          w.value(line.line);
          w.key("metrics");
          writeMetrics(w, line.metrics);
          w.endObject();
        }
        w.endArray();
      }
    }
    writeStrings(w, "notes", l.notes);
    w.endObject();
  }
  w.endArray();
  writeStrings(w, "notes", report.notes);
  if (measured)
    writeStrings(w, "errors", report.errors);
  w.endObject();
  return w.str() + "\n";
}

} // namespace kcheck::core
