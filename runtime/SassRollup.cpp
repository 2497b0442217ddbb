#include "runtime/SassRollup.h"

#include "core/Metrics.h"

#include <algorithm>
#include <array>
#include <iterator>
#include <map>

namespace kcheck::runtime {

const std::vector<std::string> &sassPerPcMetrics() {
  static const std::vector<std::string> kNames = {
      "smsp__sass_inst_executed",
      "smsp__sass_thread_inst_executed_pred_on",
      "smsp__sass_inst_executed_op_shared_ld",
      "smsp__sass_inst_executed_op_shared_st",
      "smsp__sass_inst_executed_op_global_ld",
      "smsp__sass_inst_executed_op_global_st",
      "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared",
      "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal",
      "smsp__sass_sectors_mem_global",
      "smsp__sass_sectors_mem_global_ideal",
      "smsp__sass_branch_targets_threads_divergent",
  };
  return kNames;
}

namespace {

constexpr size_t kLineMetricCount = 19;

uint64_t valueOf(const SassPcRecord &r, const char *name) {
  return core::findMetric(r.values, name).value_or(0);
}

// The line metrics' names, in the order of lineValues.
std::vector<std::string> lineMetricNames() {
  using core::Metric;
  // The per-launch names first (the ones predictions carry), then totals.
  return {
      std::string(core::metricName(Metric::SharedLdInst)),
      std::string(core::metricName(Metric::SharedLdWavefronts)),
      std::string(core::metricName(Metric::SharedStInst)),
      std::string(core::metricName(Metric::SharedStWavefronts)),
      std::string(core::metricName(Metric::GlobalLdInst)),
      std::string(core::metricName(Metric::GlobalLdSectors)),
      std::string(core::metricName(Metric::GlobalStInst)),
      std::string(core::metricName(Metric::GlobalStSectors)),
      std::string(core::metricName(Metric::BranchTargetsDivergent)),
      "smsp__sass_inst_executed.sum",
      "smsp__sass_thread_inst_executed_pred_on.sum",
      "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared.sum",
      "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal.sum",
      "smsp__sass_sectors_mem_global.sum",
      "smsp__sass_sectors_mem_global_ideal.sum",
      "smsp__sass_thread_inst_executed_op_shared_ld_pred_on.sum",
      "smsp__sass_thread_inst_executed_op_shared_st_pred_on.sum",
      "smsp__sass_thread_inst_executed_op_global_ld_pred_on.sum",
      "smsp__sass_thread_inst_executed_op_global_st_pred_on.sum",
  };
}

// One PC's contribution to its lines, in the order of lineMetricNames.
std::array<uint64_t, kLineMetricCount> lineValues(const SassPcRecord &pc) {
  const uint64_t sharedLd =
      valueOf(pc, "smsp__sass_inst_executed_op_shared_ld");
  const uint64_t sharedSt =
      valueOf(pc, "smsp__sass_inst_executed_op_shared_st");
  const uint64_t globalLd =
      valueOf(pc, "smsp__sass_inst_executed_op_global_ld");
  const uint64_t globalSt =
      valueOf(pc, "smsp__sass_inst_executed_op_global_st");
  const uint64_t wavefronts =
      valueOf(pc, "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared");
  const uint64_t sectors = valueOf(pc, "smsp__sass_sectors_mem_global");
  const uint64_t predOn =
      valueOf(pc, "smsp__sass_thread_inst_executed_pred_on");
  const uint64_t add[] = {
      sharedLd,
      sharedLd ? wavefronts : 0,
      sharedSt,
      sharedSt ? wavefronts : 0,
      globalLd,
      globalLd ? sectors : 0,
      globalSt,
      globalSt ? sectors : 0,
      valueOf(pc, "smsp__sass_branch_targets_threads_divergent"),
      valueOf(pc, "smsp__sass_inst_executed"),
      predOn,
      wavefronts,
      valueOf(pc, "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal"),
      sectors,
      valueOf(pc, "smsp__sass_sectors_mem_global_ideal"),
      sharedLd ? predOn : 0,
      sharedSt ? predOn : 0,
      globalLd ? predOn : 0,
      globalSt ? predOn : 0,
  };
  static_assert(std::size(add) == kLineMetricCount);
  std::array<uint64_t, kLineMetricCount> out;
  std::copy(std::begin(add), std::end(add), out.begin());
  return out;
}

} // namespace

std::vector<core::ReportLine>
rollUpToLines(const std::vector<SassPcRecord> &records,
              const LocatePc &locate) {
  const std::vector<std::string> names = lineMetricNames();
  // Records arrive one per (PC, metric); merge them per PC first.
  using PcKey = std::tuple<uint32_t, std::string, uint32_t>;
  std::map<PcKey, std::map<std::string, uint64_t>> perPc;
  for (const SassPcRecord &r : records)
    for (const auto &[n, v] : r.values)
      perPc[{r.cubinCrc, r.function, r.pcOffset}][n] += v;

  std::map<std::pair<std::string, unsigned>, std::vector<uint64_t>> perLine;
  for (const auto &[key, values] : perPc) {
    SassPcRecord pc{std::get<0>(key), std::get<1>(key), std::get<2>(key), {}};
    for (const auto &[n, v] : values)
      pc.values.emplace_back(n, v);
    const std::array<uint64_t, kLineMetricCount> add = lineValues(pc);
    std::vector<SourceLine> where =
        locate(pc.cubinCrc, pc.function, pc.pcOffset);
    if (where.empty())
      where.push_back(SourceLine{});
    for (const SourceLine &loc : where) {
      std::vector<uint64_t> &sums = perLine[{loc.file, loc.line}];
      sums.resize(names.size());
      for (size_t i = 0; i < names.size(); ++i)
        sums[i] += add[i];
    }
  }
  std::vector<core::ReportLine> lines;
  for (const auto &[key, sums] : perLine) {
    core::ReportLine line;
    line.file = key.first;
    line.line = key.second;
    for (size_t i = 0; i < names.size(); ++i)
      line.metrics.emplace_back(names[i], sums[i]);
    lines.push_back(std::move(line));
  }
  return lines;
}

} // namespace kcheck::runtime
