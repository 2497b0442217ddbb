#include "core/Compare.h"

#include "core/SourcePath.h"

#include "core/Json.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

namespace kcheck::core {

bool LaunchComparison::agrees() const {
  if (!problem.empty() || metrics.empty())
    return false;
  for (const MetricComparison &m : metrics)
    if (!m.agrees())
      return false;
  for (const LineComparison &l : lines)
    if (!l.agrees())
      return false;
  return true;
}

std::string_view metricLabel(std::string_view metric) {
  static constexpr std::pair<std::string_view, std::string_view> kLabels[] = {
      {"smsp__sass_inst_executed_op_shared_ld.sum", "shared ld inst"},
      {"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
       "shared ld wavefronts"},
      {"smsp__sass_inst_executed_op_shared_st.sum", "shared st inst"},
      {"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
       "shared st wavefronts"},
      {"smsp__sass_inst_executed_op_global_ld.sum", "global ld inst"},
      {"smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum",
       "global ld sectors"},
      {"smsp__sass_inst_executed_op_global_st.sum", "global st inst"},
      {"smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_st.sum",
       "global st sectors"},
      {"smsp__sass_branch_targets_threads_divergent.sum", "divergent branches"},
      {"smsp__sass_branch_targets.sum", "branch targets"},
      {"smsp__sass_inst_executed.sum", "warp inst"},
      {"smsp__sass_thread_inst_executed.sum", "thread inst"},
      {"smsp__sass_thread_inst_executed_pred_on.sum", "pred-on thread inst"},
      {"smsp__sass_thread_inst_executed_op_shared_ld_pred_on.sum",
       "shared ld pred-on"},
      {"smsp__sass_thread_inst_executed_op_shared_st_pred_on.sum",
       "shared st pred-on"},
      {"smsp__sass_thread_inst_executed_op_global_ld_pred_on.sum",
       "global ld pred-on"},
      {"smsp__sass_thread_inst_executed_op_global_st_pred_on.sum",
       "global st pred-on"},
      // kcheck's own (core::SimtCounts): compared only between predictions.
      {"kcheck__simt_warp_inst_executed.sum", "kcheck SIMT warp inst"},
      {"kcheck__simt_thread_inst_executed.sum", "kcheck SIMT lanes"},
  };
  for (const auto &[name, label] : kLabels)
    if (name == metric)
      return label;
  return metric;
}

std::string kernelBaseName(std::string_view kernel) {
  std::string_view k = kernel;
  if (k.rfind("void ", 0) == 0)
    k.remove_prefix(5);
  size_t cut = k.find_first_of("(<");
  if (cut != std::string_view::npos)
    k = k.substr(0, cut);
  while (!k.empty() && k.back() == ' ')
    k.remove_suffix(1);
  return std::string(k);
}

namespace {

std::set<std::string> lineMetricNames(const ReportLaunch &l) {
  std::set<std::string> names;
  for (const ReportLine &line : l.lines)
    for (const auto &[n, v] : line.metrics)
      names.insert(n);
  return names;
}

void compareLines(const ReportLaunch &predicted, const ReportLaunch &m,
                  LaunchComparison &out) {
  // kcheck-profile credits SASS instructions to lines as Nsight Compute's
  // source page does (runtime/CubinLineTable.h), which is the prediction's
  // `lines` view; `lines_innermost` is for reading, not for comparing.
  ReportLaunch p;
  p.lines = predicted.lines;
  if (p.lines.empty() || m.lines.empty())
    return;
  std::set<std::string> pNames = lineMetricNames(p),
                        mNames = lineMetricNames(m);
  // The predicted side's metric order, restricted to names both sides have.
  std::vector<std::string> names;
  for (const auto &[n, v] : p.lines.front().metrics)
    if (mNames.count(n))
      names.push_back(n);
  for (const std::string &n : pNames)
    if (mNames.count(n) &&
        std::find(names.begin(), names.end(), n) == names.end())
      names.push_back(n);
  if (names.empty())
    return;
  out.linesCompared = true;
  using Key = std::pair<std::string, unsigned>;
  // (file, line) -> metric -> {predicted, measured}
  std::map<Key, std::map<std::string, std::pair<uint64_t, uint64_t>>> joined;
  for (const ReportLine &line : p.lines)
    for (const std::string &n : names)
      joined[{baseName(line.file), line.line}][n].first +=
          findMetric(line.metrics, n).value_or(0);
  // Lines of files the prediction does not cover are the CUDA headers'
  // (sm_32_intrinsics.hpp's __ldg): kcheck compiles against its own stub
  // headers, whose line numbers are not NVIDIA's, and reports the user's
  // files only. Those measured lines are counted, not compared.
  std::set<std::string> predictedFiles;
  for (const ReportLine &line : p.lines)
    predictedFiles.insert(baseName(line.file));
  for (const ReportLine &line : m.lines) {
    if (!predictedFiles.count(baseName(line.file))) {
      ++out.linesInOtherFiles;
      continue;
    }
    for (const std::string &n : names)
      joined[{baseName(line.file), line.line}][n].second +=
          findMetric(line.metrics, n).value_or(0);
  }
  for (const auto &[key, values] : joined) {
    bool allZero = true;
    for (const auto &[n, pm] : values)
      allZero &= pm.first == 0 && pm.second == 0;
    if (allZero)
      continue; // a line with no memory traffic on either side
    for (const std::string &n : names) {
      auto it = values.find(n);
      out.lines.push_back(
          {key.first, key.second, n, it->second.first, it->second.second});
    }
  }
}

LaunchComparison compareLaunch(const ReportLaunch *p, const ReportLaunch *m) {
  LaunchComparison c;
  c.index = p ? p->index : m->index;
  c.kernel = kernelBaseName(p && !p->kernel.empty() ? p->kernel
                            : m                     ? m->kernel
                                                    : std::string());
  if (!p) {
    c.problem = "no predicted launch with this index";
    return c;
  }
  if (!m) {
    c.problem = "no measured launch with this index";
    return c;
  }
  std::string pk = kernelBaseName(p->kernel), mk = kernelBaseName(m->kernel);
  if (!pk.empty() && !mk.empty() && pk != mk) {
    c.problem = "different kernels: predicted " + pk + ", measured " + mk;
    return c;
  }
  if (!p->hasMetrics || !m->hasMetrics) {
    c.problem = !p->hasMetrics ? "not predicted" : "not measured";
    const std::string &why =
        !p->hasMetrics ? (p->notes.empty() ? p->error : p->notes[0]) : m->error;
    if (!why.empty())
      c.problem += ": " + why;
    return c;
  }
  for (const auto &[name, value] : p->metrics)
    if (std::optional<uint64_t> mv = findMetric(m->metrics, name))
      c.metrics.push_back({name, value, *mv});
  if (c.metrics.empty())
    c.problem = "no metric in common";
  else if (!m->error.empty())
    c.problem = "measured with an error: " + m->error;
  compareLines(*p, *m, c);
  return c;
}

std::string delta(uint64_t predicted, uint64_t measured) {
  if (predicted == measured)
    return "0";
  return predicted > measured ? "+" + std::to_string(predicted - measured)
                              : "-" + std::to_string(measured - predicted);
}

} // namespace

ProgramComparison compareReports(const ReportFile &predicted,
                                 const ReportFile &measured) {
  ProgramComparison pc;
  pc.name = baseName(!predicted.file.empty() ? predicted.file : measured.file);
  std::map<int, const ReportLaunch *> pBy, mBy;
  for (const ReportLaunch &l : predicted.launches)
    if (!l.launchedByKernel) // in its host launch's counts
      pBy[l.index] = &l;
  for (const ReportLaunch &l : measured.launches)
    mBy[l.index] = &l;
  std::set<int> indices;
  for (const auto &[i, l] : pBy)
    indices.insert(i);
  for (const auto &[i, l] : mBy)
    indices.insert(i);
  for (int i : indices) {
    auto p = pBy.find(i), m = mBy.find(i);
    pc.launches.push_back(compareLaunch(p == pBy.end() ? nullptr : p->second,
                                        m == mBy.end() ? nullptr : m->second));
  }
  return pc;
}

ComparisonSummary summarize(const std::vector<ProgramComparison> &programs) {
  ComparisonSummary s;
  for (const ProgramComparison &p : programs)
    for (const LaunchComparison &l : p.launches) {
      ++s.launches;
      s.launchesAgreeing += l.agrees();
      for (const MetricComparison &m : l.metrics) {
        ++s.values;
        s.valuesAgreeing += m.agrees();
      }
      for (const LineComparison &m : l.lines) {
        ++s.lineValues;
        s.lineValuesAgreeing += m.agrees();
      }
    }
  return s;
}

namespace {

std::string format(const char *fmt, auto... args) {
  char buf[512];
  std::snprintf(buf, sizeof buf, fmt, args...);
  return buf;
}

std::string summaryLine(const ComparisonSummary &s) {
  std::string out =
      format("exact: %u/%u launches agree (%u/%u metric values)",
             s.launchesAgreeing, s.launches, s.valuesAgreeing, s.values);
  if (s.lineValues)
    out += format("; lines: %u/%u line values agree", s.lineValuesAgreeing,
                  s.lineValues);
  return out;
}

} // namespace

std::string comparisonText(const std::vector<ProgramComparison> &programs,
                           bool allLines) {
  std::string out;
  for (const ProgramComparison &p : programs) {
    out += p.name;
    if (!p.predictedPath.empty())
      out += " (predicted " + p.predictedPath + ", measured " + p.measuredPath +
             ")";
    out += "\n";
    out += format("  %-7s %-24s %-22s %14s %14s %12s\n", "launch", "kernel",
                  "metric", "predicted", "measured", "delta");
    for (const LaunchComparison &l : p.launches) {
      std::string idx = "#" + std::to_string(l.index);
      std::string kernel =
          l.kernel.size() > 24 ? l.kernel.substr(0, 23) + "~" : l.kernel;
      if (!l.problem.empty())
        out += format("  %-7s %-24s %s  DIFF\n", idx.c_str(), kernel.c_str(),
                      l.problem.c_str());
      bool first = l.problem.empty();
      for (const MetricComparison &m : l.metrics) {
        out += format(
            "  %-7s %-24s %-22s %14llu %14llu %12s%s\n",
            first ? idx.c_str() : "", first ? kernel.c_str() : "",
            std::string(metricLabel(m.metric)).c_str(),
            (unsigned long long)m.predicted, (unsigned long long)m.measured,
            delta(m.predicted, m.measured).c_str(), m.agrees() ? "" : "  DIFF");
        first = false;
      }
      unsigned agreeing = 0;
      for (const LineComparison &ln : l.lines) {
        agreeing += ln.agrees();
        if (!allLines && ln.agrees())
          continue;
        std::string where = ln.file + ":" + std::to_string(ln.line);
        out += format(
            "  %-7s   line %-19s %-20s %14llu %14llu %12s%s\n", "",
            where.c_str(), std::string(metricLabel(ln.metric)).c_str(),
            (unsigned long long)ln.predicted, (unsigned long long)ln.measured,
            delta(ln.predicted, ln.measured).c_str(),
            ln.agrees() ? "" : "  DIFF");
      }
      if (l.linesCompared)
        out += format("  %-7s   lines: %u/%zu line values agree\n", "",
                      agreeing, l.lines.size());
      if (l.linesInOtherFiles)
        out += format("  %-7s   (%u measured lines in CUDA headers or other "
                      "files kcheck does not report: not compared)\n",
                      "", l.linesInOtherFiles);
    }
    out += "  " + summaryLine(summarize({p})) + "\n\n";
  }
  if (programs.size() > 1)
    out += "total " + summaryLine(summarize(programs)) + "\n";
  return out;
}

namespace {

Json launchComparisonJson(const LaunchComparison &l) {
  Json launch = {
      {"index", l.index}, {"kernel", l.kernel}, {"agrees", l.agrees()}};
  if (!l.problem.empty())
    launch["problem"] = l.problem;
  Json metrics = Json::array();
  for (const MetricComparison &m : l.metrics)
    metrics.push_back({{"metric", m.metric},
                       {"predicted", m.predicted},
                       {"measured", m.measured},
                       {"agrees", m.agrees()}});
  launch["metrics"] = std::move(metrics);
  Json lines = Json::array();
  for (const LineComparison &ln : l.lines)
    lines.push_back({{"file", ln.file},
                     {"line", ln.line},
                     {"metric", ln.metric},
                     {"predicted", ln.predicted},
                     {"measured", ln.measured},
                     {"agrees", ln.agrees()}});
  launch["lines"] = std::move(lines);
  return launch;
}

} // namespace

std::string comparisonJson(const std::vector<ProgramComparison> &programs) {
  Json out = Json::array();
  for (const ProgramComparison &p : programs) {
    Json launches = Json::array();
    for (const LaunchComparison &l : p.launches)
      launches.push_back(launchComparisonJson(l));
    out.push_back({{"file", p.name},
                   {"predicted", p.predictedPath},
                   {"measured", p.measuredPath},
                   {"launches", std::move(launches)}});
  }
  ComparisonSummary s = summarize(programs);
  Json doc = {{"schema", "kcheck-comparison/1"},
              {"programs", std::move(out)},
              {"summary",
               {{"launches", s.launches},
                {"launches_agreeing", s.launchesAgreeing},
                {"values", s.values},
                {"values_agreeing", s.valuesAgreeing},
                {"line_values", s.lineValues},
                {"line_values_agreeing", s.lineValuesAgreeing}}}};
  return jsonText(doc) + "\n";
}

std::string comparisonMarkdown(const std::vector<ProgramComparison> &programs,
                               std::string_view commandLine) {
  ComparisonSummary total = summarize(programs);
  std::string out = "# Predicted vs measured\n\n";
  out += "Generated by `kcheck compare --format markdown`; do not edit by "
         "hand. A cell shows the value when prediction and measurement "
         "agree exactly, and **predicted ≠ measured** when they differ.\n\n";
  out += "**" + summaryLine(total) + ".**\n\n";
  out += "| program | launches exact | metric values exact | line values "
         "exact |\n|---|---|---|---|\n";
  for (const ProgramComparison &p : programs) {
    ComparisonSummary s = summarize({p});
    out += format("| %s | %u/%u | %u/%u | %u/%u |\n", p.name.c_str(),
                  s.launchesAgreeing, s.launches, s.valuesAgreeing, s.values,
                  s.lineValuesAgreeing, s.lineValues);
  }
  out += "\nRegenerate with:\n\n    " + std::string(commandLine) + "\n";
  for (const ProgramComparison &p : programs) {
    out += "\n## " + p.name + "\n\n";
    // Columns: the union of the compared metrics, in first-seen order.
    std::vector<std::string> columns;
    for (const LaunchComparison &l : p.launches)
      for (const MetricComparison &m : l.metrics)
        if (std::find(columns.begin(), columns.end(), m.metric) ==
            columns.end())
          columns.push_back(m.metric);
    out += "| # | kernel | exact |";
    for (const std::string &c : columns)
      out += " " + std::string(metricLabel(c)) + " |";
    out += "\n|---|---|---|";
    for (size_t i = 0; i < columns.size(); ++i)
      out += "---|";
    out += "\n";
    std::vector<std::string> lineNotes;
    for (const LaunchComparison &l : p.launches) {
      out += format("| %d | `%s` | %s |", l.index, l.kernel.c_str(),
                    l.agrees() ? "yes" : "**no**");
      for (const std::string &c : columns) {
        auto it = std::find_if(
            l.metrics.begin(), l.metrics.end(),
            [&](const MetricComparison &m) { return m.metric == c; });
        if (it == l.metrics.end())
          out += " – |";
        else if (it->agrees())
          out += " " + std::to_string(it->measured) + " |";
        else
          out += " **" + std::to_string(it->predicted) + " ≠ " +
                 std::to_string(it->measured) + "** |";
      }
      out += "\n";
      if (!l.problem.empty())
        lineNotes.push_back(
            format("launch %d: %s", l.index, l.problem.c_str()));
      if (l.linesCompared) {
        unsigned agreeing = 0;
        std::string differing;
        for (const LineComparison &ln : l.lines) {
          agreeing += ln.agrees();
          if (!ln.agrees() && differing.size() < 400)
            differing += format(" line %u %s %llu ≠ %llu;", ln.line,
                                std::string(metricLabel(ln.metric)).c_str(),
                                (unsigned long long)ln.predicted,
                                (unsigned long long)ln.measured);
        }
        lineNotes.push_back(format("launch %d: %u/%zu line values exact",
                                   l.index, agreeing, l.lines.size()) +
                            (differing.empty() ? "" : "; differ:" + differing));
      }
    }
    if (!lineNotes.empty()) {
      out += "\n";
      for (const std::string &n : lineNotes)
        out += "- " + n + "\n";
    }
  }
  return out;
}

} // namespace kcheck::core
