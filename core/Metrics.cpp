#include "core/Metrics.h"

#include <cstdio>

namespace kcheck::core {

namespace {
constexpr std::array<std::string_view, kMetricCount> kNames = {
    "smsp__sass_inst_executed_op_shared_ld.sum",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "smsp__sass_inst_executed_op_shared_st.sum",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "smsp__sass_inst_executed_op_global_ld.sum",
    "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "smsp__sass_inst_executed_op_global_st.sum",
    "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_st.sum",
    "smsp__sass_branch_targets_threads_divergent.sum",
    "smsp__sass_thread_inst_executed_op_shared_ld_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_shared_st_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_global_ld_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_global_st_pred_on.sum",
};
} // namespace

std::string_view metricName(Metric m) { return kNames[unsigned(m)]; }

std::optional<Metric> metricFromName(std::string_view name) {
  for (unsigned i = 0; i < kMetricCount; ++i)
    if (kNames[i] == name)
      return Metric(i);
  return std::nullopt;
}

std::string averageText(uint64_t total, uint64_t count) {
  if (count == 0)
    return "0";
  if (total % count == 0)
    return std::to_string(total / count);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", double(total) / double(count));
  return buf;
}

} // namespace kcheck::core
