#include "runtime/SassRollup.h"

#include <gtest/gtest.h>

using namespace kcheck;
using namespace kcheck::runtime;

namespace {

// Records as CUPTI 13.0 gave them for research/cupti.md §5's k_smem (stride
// 2): one record per (PC, metric), an STS at 0x120 (line 5), an LDS at
// 0x260 (line 10) and an STG at 0x2c0 (line 11). 512 warps.
std::vector<SassPcRecord> kSmemRecords() {
  auto rec = [](uint32_t pc, const char *m, uint64_t v) {
    return SassPcRecord{0x403bc637u, "_Z6k_smemPfi", pc, {{m, v}}};
  };
  return {
      rec(0x120, "smsp__sass_inst_executed", 2048),
      rec(0x120, "smsp__sass_inst_executed_op_shared_st", 2048),
      rec(0x120, "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared", 2048),
      rec(0x120, "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal", 2048),
      rec(0x260, "smsp__sass_inst_executed", 32768),
      rec(0x260, "smsp__sass_inst_executed_op_shared_ld", 32768),
      rec(0x260, "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared", 65536),
      rec(0x260, "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal",
          32768),
      rec(0x2c0, "smsp__sass_inst_executed", 512),
      rec(0x2c0, "smsp__sass_inst_executed_op_global_st", 512),
      rec(0x2c0, "smsp__sass_sectors_mem_global", 2048),
      rec(0x2c0, "smsp__sass_sectors_mem_global_ideal", 2048),
      rec(0x300, "smsp__sass_inst_executed", 7), // no line information
  };
}

std::vector<SourceLine> kernCuh(uint32_t crc, const std::string &f,
                                uint32_t pc) {
  if (crc != 0x403bc637u || f != "_Z6k_smemPfi")
    return {};
  switch (pc) {
  case 0x120:
    return {SourceLine{"/src/kern.cuh", 5}};
  case 0x260:
    return {SourceLine{"/src/kern.cuh", 10}};
  case 0x2c0:
    return {SourceLine{"/src/kern.cuh", 11}};
  default:
    return {};
  }
}

} // namespace

TEST(SassRollup, SplitsSharedAndGlobalByOpcode) {
  std::vector<core::ReportLine> lines = rollUpToLines(kSmemRecords(), kernCuh);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0].line, 0u); // unknown PC: kept, not dropped
  EXPECT_EQ(core::findMetric(lines[0].metrics, "smsp__sass_inst_executed.sum"),
            7u);
  const core::ReportLine &sts = lines[1], &lds = lines[2], &stg = lines[3];
  EXPECT_EQ(sts.line, 5u);
  EXPECT_EQ(
      core::findMetric(
          sts.metrics,
          "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum"),
      2048u);
  EXPECT_EQ(
      core::findMetric(
          sts.metrics,
          "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
      0u);
  EXPECT_EQ(lds.line, 10u);
  EXPECT_EQ(
      core::findMetric(
          lds.metrics,
          "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
      65536u);
  EXPECT_EQ(core::findMetric(
                lds.metrics,
                "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal.sum"),
            32768u);
  EXPECT_EQ(core::findMetric(
                stg.metrics,
                "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_st.sum"),
            2048u);
  EXPECT_EQ(core::findMetric(stg.metrics,
                             "smsp__sass_inst_executed_op_global_st.sum"),
            512u);
}

TEST(SassRollup, SumsPcsOfOneLine) {
  std::vector<SassPcRecord> r = kSmemRecords();
  auto sameLine = [](uint32_t, const std::string &, uint32_t) {
    return std::vector<SourceLine>{SourceLine{"k.cu", 3}};
  };
  std::vector<core::ReportLine> lines = rollUpToLines(r, sameLine);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(core::findMetric(lines[0].metrics, "smsp__sass_inst_executed.sum"),
            2048u + 32768u + 512u + 7u);
}

TEST(SassRollup, CreditsEveryLineOfAPc) {
  // The first instruction of an inlined call counts on the call line and on
  // the callee's line (CubinLineTable::linesAt), with its whole value.
  auto twoLines = [](uint32_t, const std::string &, uint32_t pc) {
    if (pc == 0x260)
      return std::vector<SourceLine>{{"k.cu", 3}, {"inl.h", 40}};
    return std::vector<SourceLine>{{"k.cu", 3}};
  };
  std::vector<core::ReportLine> lines = rollUpToLines(kSmemRecords(), twoLines);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].file, "inl.h");
  EXPECT_EQ(core::findMetric(lines[0].metrics, "smsp__sass_inst_executed.sum"),
            32768u);
  EXPECT_EQ(core::findMetric(lines[1].metrics, "smsp__sass_inst_executed.sum"),
            2048u + 32768u + 512u + 7u);
}

TEST(SassRollup, PredicatedOnLanesPerMemoryOp) {
  auto rec = [](uint32_t pc, const char *m, uint64_t v) {
    return SassPcRecord{1u, "k", pc, {{m, v}}};
  };
  std::vector<SassPcRecord> r = {
      rec(0x10, "smsp__sass_inst_executed_op_shared_ld", 10),
      rec(0x10, "smsp__sass_thread_inst_executed_pred_on", 200),
      rec(0x20, "smsp__sass_inst_executed_op_global_st", 4),
      rec(0x20, "smsp__sass_thread_inst_executed_pred_on", 128),
      rec(0x30, "smsp__sass_thread_inst_executed_pred_on", 999), // an FADD
  };
  auto one = [](uint32_t, const std::string &, uint32_t) {
    return std::vector<SourceLine>{{"k.cu", 1}};
  };
  std::vector<core::ReportLine> lines = rollUpToLines(r, one);
  ASSERT_EQ(lines.size(), 1u);
  const auto &m = lines[0].metrics;
  EXPECT_EQ(core::findMetric(
                m, "smsp__sass_thread_inst_executed_op_shared_ld_pred_on.sum"),
            200u);
  EXPECT_EQ(core::findMetric(
                m, "smsp__sass_thread_inst_executed_op_global_st_pred_on.sum"),
            128u);
  EXPECT_EQ(core::findMetric(
                m, "smsp__sass_thread_inst_executed_op_global_ld_pred_on.sum"),
            0u);
  EXPECT_EQ(core::findMetric(m, "smsp__sass_thread_inst_executed_pred_on.sum"),
            200u + 128u + 999u);
}
