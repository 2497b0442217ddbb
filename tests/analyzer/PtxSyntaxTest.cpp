// The inline-PTX parser on the templates CUDA's headers and real kernels
// use (analyzer/ptx/PtxSyntax.h).
#include "analyzer/ptx/PtxSyntax.h"

#include <gtest/gtest.h>

namespace kcheck::analyzer::ptx {
namespace {

Program parseOk(const std::string &text) {
  std::string error;
  std::optional<Program> p = parse(text, error);
  EXPECT_TRUE(p) << error;
  return p ? *p : Program{};
}

TEST(PtxSyntax, ScopedDeclarationsAndSpecialRegister) {
  // cooperative_groups/details/memory.h, as LLVM numbers its operands.
  Program p =
      parseOk("{\n\t .reg .u32 start;\n\t .reg .u64 extended;\n\t "
              "mov.u32 start, %reserved_smem_offset_1;\n\t cvt.u64.u32 "
              "extended, start;\n\t cvta.shared.u64 $0, extended;\n\t}");
  ASSERT_EQ(p.registers.size(), 2u);
  EXPECT_EQ(p.registers[0].type, "u32");
  EXPECT_EQ(p.registers[1].names, std::vector<std::string>{"extended"});
  ASSERT_EQ(p.statements.size(), 3u);
  EXPECT_EQ(p.statements[0].parts, (std::vector<std::string>{"mov", "u32"}));
  EXPECT_EQ(p.statements[0].operands[1].kind, Operand::Kind::Register);
  EXPECT_EQ(p.statements[0].operands[1].name, "%reserved_smem_offset_1");
  EXPECT_EQ(p.statements[2].operands[0].kind, Operand::Kind::AsmOperand);
  EXPECT_EQ(p.statements[2].operands[0].index, 0u);
}

TEST(PtxSyntax, VectorUnpackInsideScope) {
  // cuda_fp16.hpp's __low2half.
  Program p = parseOk("{.reg .f16 low,high;\n mov.b32 {low,high}, $1;\n "
                      "mov.b16 $0, low;}");
  ASSERT_EQ(p.statements.size(), 2u);
  const Operand &v = p.statements[0].operands[0];
  ASSERT_EQ(v.kind, Operand::Kind::Vector);
  ASSERT_EQ(v.elements.size(), 2u);
  EXPECT_EQ(v.elements[1].name, "high");
}

TEST(PtxSyntax, AddressesWithOffsetsAndVectors) {
  Program p = parseOk("ld.global.nc.v4.f32 {$0,$1,$2,$3}, [$4+16];");
  ASSERT_EQ(p.statements.size(), 1u);
  const Statement &s = p.statements[0];
  EXPECT_EQ(s.operands[0].elements.size(), 4u);
  const Operand &a = s.operands[1];
  ASSERT_EQ(a.kind, Operand::Kind::Address);
  EXPECT_EQ(a.value, 16);
  ASSERT_EQ(a.elements.size(), 1u);
  EXPECT_EQ(a.elements[0].index, 4u);
  Program q = parseOk("st.shared.u32 [$0+-4], $1;");
  EXPECT_EQ(q.statements[0].operands[0].value, -4);
}

TEST(PtxSyntax, GuardPairAndImmediates) {
  Program p = parseOk("{ .reg .pred p; setp.ne.b32 p, $0, 0;\n"
                      "@p cp.async.ca.shared.global [$1], [$2], 16; }");
  ASSERT_EQ(p.statements.size(), 2u);
  EXPECT_EQ(p.statements[1].guard, std::optional<std::string>("p"));
  EXPECT_FALSE(p.statements[1].guardNegated);
  EXPECT_EQ(p.statements[1].operands[2].value, 16);
  Program q = parseOk("shfl.sync.down.b32 $0|$1, $2, $3, 0x1f, 0xffffffff;");
  EXPECT_EQ(q.statements[0].operands[0].kind, Operand::Kind::Pair);
  EXPECT_EQ(q.statements[0].operands[4].value, 0xffffffffll);
  Program f = parseOk("mul.f32 $0, $1, 0f3F800000;");
  EXPECT_TRUE(f.statements[0].operands[2].isFloatBits);
  EXPECT_EQ(f.statements[0].operands[2].value, 0x3F800000);
  Program n = parseOk("@!p mov.b32 $0, -1;");
  EXPECT_TRUE(n.statements[0].guardNegated);
  EXPECT_EQ(n.statements[0].operands[1].value, -1);
}

TEST(PtxSyntax, RangesCommentsAndTypeWidths) {
  Program p = parseOk(".reg .b32 r<3>; // three registers\nmov.b32 r2, $0;");
  EXPECT_EQ(p.registers[0].names, (std::vector<std::string>{"r0", "r1", "r2"}));
  EXPECT_EQ(typeBits("f16x2"), 32u);
  EXPECT_EQ(typeBits("bf16"), 16u);
  EXPECT_EQ(typeBits("pred"), 1u);
  EXPECT_EQ(typeBits("u64"), 64u);
  EXPECT_EQ(typeBits("global"), 0u);
}

TEST(PtxSyntax, RejectsWhatItCannotRead) {
  std::string error;
  EXPECT_FALSE(parse("mov.b32 $0, $1", error)); // no ';'
  EXPECT_NE(error.find("without ';'"), std::string::npos);
  EXPECT_FALSE(parse("L1: bra L1;", error) &&
               parse("L1:", error)); // labels are not straight-line code
  EXPECT_FALSE(parse("add.s32 $0, $1, #;", error));
}

} // namespace
} // namespace kcheck::analyzer::ptx
