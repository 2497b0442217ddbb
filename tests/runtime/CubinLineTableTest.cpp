// CubinLineTable against a recorded cubin (fixtures/inlined_lines.cu, nvcc
// 13.0 -lineinfo); the expected rows are llvm-dwarfdump's reading of it.
#include "runtime/CubinLineTable.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <random>
#include <string>

using kcheck::runtime::CubinLineTable;
using kcheck::runtime::SourceLine;

namespace {

std::string readFixture(const std::string &name) {
  std::ifstream in(std::string(KCHECK_RUNTIME_FIXTURES) + "/" + name,
                   std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)),
                     std::istreambuf_iterator<char>());
}

// "file:line" with the file's directory left out, for short expectations.
std::vector<std::string> brief(const std::vector<SourceLine> &lines) {
  std::vector<std::string> out;
  for (const SourceLine &l : lines)
    out.push_back(l.file.substr(l.file.rfind('/') + 1) + ":" +
                  std::to_string(l.line));
  return out;
}

const char *kCount = "_Z5countPjPKhi";
const char *kWarpSum = "_Z8warp_sumPfPKf";
const char *kLastWarp = "_Z9last_warpPfPKf";

} // namespace

TEST(CubinLineTable, ReadsOneSequencePerFunction) {
  std::string error;
  auto table =
      CubinLineTable::parse(readFixture("inlined_lines.cubin"), &error);
  ASSERT_TRUE(table) << error;
  ASSERT_EQ(table->functions().size(), 3u);
  const auto &rows = table->functions().at(kCount);
  ASSERT_EQ(rows.size(), 9u); // end_sequence is not a row
  EXPECT_EQ(rows[0].address, 0x0u);
  EXPECT_EQ(rows[0].where.line, 5u);
  EXPECT_EQ(rows[5].address, 0xe0u);
  EXPECT_EQ(rows[5].where.line, 112u);
  EXPECT_NE(rows[5].where.file.find("device_atomic_functions.hpp"),
            std::string::npos);
  EXPECT_NE(rows[0].where.file.find("/inlined_lines.cu"), std::string::npos);
  EXPECT_EQ(table->functions().at(kWarpSum).size(), 23u);
}

TEST(CubinLineTable, CreditsEveryRowAtAnAddress) {
  auto table = CubinLineTable::parse(readFixture("inlined_lines.cubin"));
  ASSERT_TRUE(table);
  // Where the inlined atomicAdd begins, the call line and the callee line.
  EXPECT_EQ(brief(table->linesAt(kCount, 0xe0)),
            (std::vector<std::string>{"inlined_lines.cu:8",
                                      "device_atomic_functions.hpp:112"}));
  // The same call's atomic instruction, at its own row: the callee only.
  EXPECT_EQ(brief(table->linesAt(kCount, 0x100)),
            (std::vector<std::string>{"device_atomic_functions.hpp:112"}));
  // Between rows: the last row before the address.
  EXPECT_EQ(brief(table->linesAt(kCount, 0x90)),
            (std::vector<std::string>{"inlined_lines.cu:8"}));
  EXPECT_EQ(brief(table->linesAt(kCount, 0x1f0)),
            (std::vector<std::string>{"inlined_lines.cu:9"}));
  // Each unrolled shuffle starts its own inlined segment.
  for (uint32_t pc : {0xa0u, 0xc0u, 0xe0u, 0x100u, 0x120u})
    EXPECT_EQ(brief(table->linesAt(kWarpSum, pc)),
              (std::vector<std::string>{"inlined_lines.cu:14",
                                        "sm_30_intrinsics.hpp:440"}))
        << std::hex << pc;
  // An inlined body's first row shares its address with the call line; the
  // instructions after it, up to the next row, count on both lines
  // (reduce_v4's warpReduce: its first line's LDS, LDS, FADD, STS).
  for (uint32_t pc : {0xe0u, 0xf0u, 0x100u, 0x110u})
    EXPECT_EQ(brief(table->linesAt(kLastWarp, pc)),
              (std::vector<std::string>{"inlined_lines.cu:30",
                                        "inlined_lines.cu:20"}))
        << std::hex << pc;
  EXPECT_EQ(brief(table->linesAt(kLastWarp, 0x120)),
            (std::vector<std::string>{"inlined_lines.cu:21"}));
  EXPECT_TRUE(table->linesAt("no_such_kernel", 0).empty());
}

TEST(CubinLineTable, RejectsWhatIsNotACubin) {
  std::string error;
  EXPECT_FALSE(CubinLineTable::parse("", &error));
  EXPECT_FALSE(error.empty());
  EXPECT_FALSE(
      CubinLineTable::parse("not an ELF image at all, really", &error));
}

TEST(CubinLineTable, SurvivesTruncationAndCorruption) {
  const std::string image = readFixture("inlined_lines.cubin");
  ASSERT_FALSE(image.empty());
  for (size_t n = 0; n < image.size(); n += 13)
    (void)CubinLineTable::parse(image.substr(0, n)); // must not crash
  std::mt19937 random(7);
  for (int trial = 0; trial < 300; ++trial) {
    std::string bad = image;
    for (int k = 0; k < 8; ++k)
      bad[random() % bad.size()] = char(random());
    if (auto table = CubinLineTable::parse(bad))
      for (const auto &[function, rows] : table->functions())
        for (uint32_t pc = 0; pc < 0x200; pc += 16)
          (void)table->linesAt(function, pc);
  }
}

// Nsight Compute's own credits, per SASS instruction, recorded on the H100
// for four programs with inlined code (fixtures/ncu_credits/NAME.tsv, from
// the source page of the same nvcc 13.0 build as NAME.cubin).
TEST(CubinLineTable, MatchesNsightComputeSourcePage) {
  for (const char *name :
       {"reduce_cg", "reduce_v0_v8", "histogram", "blocks"}) {
    SCOPED_TRACE(name);
    auto table = CubinLineTable::parse(
        readFixture(std::string("ncu_credits/") + name + ".cubin"));
    ASSERT_TRUE(table);
    std::ifstream expected(std::string(KCHECK_RUNTIME_FIXTURES) +
                           "/ncu_credits/" + name + ".tsv");
    ASSERT_TRUE(expected);
    size_t checked = 0;
    for (std::string row; std::getline(expected, row);) {
      if (row.empty() || row[0] == '#')
        continue;
      std::vector<std::string> fields;
      for (size_t at = 0;;) {
        size_t tab = row.find('\t', at);
        fields.push_back(row.substr(at, tab - at));
        if (tab == std::string::npos)
          break;
        at = tab + 1;
      }
      ASSERT_GE(fields.size(), 3u) << row;
      std::vector<std::string> want(fields.begin() + 2, fields.end());
      std::vector<std::string> got = brief(table->linesAt(
          fields[0], uint32_t(std::stoul(fields[1], nullptr, 16))));
      std::sort(got.begin(), got.end());
      std::sort(want.begin(), want.end());
      EXPECT_EQ(got, want) << fields[0] << " " << fields[1];
      ++checked;
    }
    EXPECT_GT(checked, 100u);
  }
}
