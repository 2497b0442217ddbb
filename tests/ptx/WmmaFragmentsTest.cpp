// The wmma fragments (analyzer/ptx/WmmaFragments.h) against brute force over
// the 32 lanes, for every form mma.h defines: each element of A, B and the
// accumulator is held by exactly one lane's distinct registers; the
// registers a product gathers for a lane's accumulator element hold exactly
// its row of A and its column of B; f16 m16n16k16 is the layout measured on
// the H100; the sub-byte forms' words are their registers; names parse to
// their forms.
#include "analyzer/ptx/WmmaFragments.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <tuple>

namespace kcheck::analyzer::wmma {
namespace {

std::vector<Form> allForms() {
  std::vector<Form> forms;
  for (Element e : {Element::F16, Element::BF16, Element::S8, Element::U8})
    for (auto [m, n] : {std::pair{16u, 16u}, {32u, 8u}, {8u, 32u}})
      forms.push_back({m, n, 16, e});
  forms.push_back({16, 16, 8, Element::TF32});
  forms.push_back({8, 8, 4, Element::F64});
  forms.push_back({8, 8, 32, Element::S4});
  forms.push_back({8, 8, 32, Element::U4});
  forms.push_back({8, 8, 128, Element::B1});
  return forms;
}

std::string nameOf(const Form &f) {
  return "m" + std::to_string(f.m) + "n" + std::to_string(f.n) + "k" +
         std::to_string(f.k) + " type " + std::to_string(int(f.ab));
}

// (lane, register, element) of each (row, col) of matrix x.
std::map<std::pair<int, int>, std::tuple<int, unsigned, unsigned>>
owners(const Form &f, Matrix x, bool &duplicate) {
  std::map<std::pair<int, int>, std::tuple<int, unsigned, unsigned>> at;
  duplicate = false;
  std::vector<Group> gs = groups(f, x);
  for (int lane = 0; lane < 32; ++lane) {
    unsigned index = 0;
    for (unsigned gi = 0; gi < gs.size(); ++gi)
      for (const Position &p : gs[gi].elements) {
        auto key = std::pair{p.row.at(lane), p.col.at(lane)};
        duplicate |= at.count(key) != 0;
        at[key] = {lane, gi, index++};
      }
  }
  return at;
}

TEST(WmmaFragments, EveryElementIsHeldOnce) {
  for (const Form &f : allForms()) {
    unsigned rows[3] = {f.m, f.k, f.m}, cols[3] = {f.k, f.n, f.n};
    for (Matrix x : {Matrix::A, Matrix::B, Matrix::C}) {
      bool duplicate;
      auto at = owners(f, x, duplicate);
      EXPECT_FALSE(duplicate) << nameOf(f) << " matrix " << int(x);
      unsigned r = rows[int(x)], c = cols[int(x)];
      EXPECT_EQ(at.size(), size_t(r) * c) << nameOf(f) << " matrix " << int(x);
      for (const auto &[pos, owner] : at) {
        EXPECT_GE(pos.first, 0);
        EXPECT_LT(unsigned(pos.first), r) << nameOf(f);
        EXPECT_GE(pos.second, 0);
        EXPECT_LT(unsigned(pos.second), c) << nameOf(f);
      }
      // The registers are the distinct ones the intrinsics count.
      unsigned elements = 0;
      for (const Group &g : groups(f, x))
        elements += unsigned(g.elements.size());
      unsigned perRegister = x == Matrix::C ? 1 : f.chunk();
      EXPECT_EQ(elements / perRegister, f.distinct(x)) << nameOf(f);
      EXPECT_GE(f.registers(x), f.distinct(x));
    }
  }
}

TEST(WmmaFragments, ProductsGatherTheRowAndColumnTheyNeed) {
  for (const Form &form : allForms()) {
    // A transposed form (m8n32k16) is computed as its transpose.
    const Form f = form.transposed() ? form.transposedForm() : form;
    std::vector<Group> a = groups(f, Matrix::A), b = groups(f, Matrix::B);
    std::vector<Group> c = groups(f, Matrix::C);
    std::vector<AccumulatorElement> acc = f.accumulatorElements();
    for (int lane = 0; lane < 32; ++lane) {
      int g = lane / 4, t = lane % 4;
      std::vector<Position> mine;
      for (const Group &gr : c)
        for (const Position &p : gr.elements)
          mine.push_back(p);
      ASSERT_EQ(mine.size(), acc.size()) << nameOf(f);
      for (size_t i = 0; i < acc.size(); ++i) {
        int row = mine[i].row.at(lane), col = mine[i].col.at(lane);
        for (unsigned q = 0; q < 4; ++q) {
          int src = 4 * g + int(q); // A's row: lanes of group g
          for (const RegisterSpan &s :
               f.aRowRegisters(acc[i].tileM, acc[i].rowBit, q))
            for (unsigned e = 0; e < s.count; ++e) {
              const Position &p = a[s.reg].elements[e];
              EXPECT_EQ(p.row.at(src), row) << nameOf(f) << " lane " << lane;
              EXPECT_EQ(p.col.at(src), int(s.firstK + e)) << nameOf(f);
            }
          int column = 2 * t + int(acc[i].colBit);
          int bsrc = 4 * column + int(q); // B's column: lanes 4 * column + q
          for (const RegisterSpan &s : f.bColumnRegisters(acc[i].tileN, q))
            for (unsigned e = 0; e < s.count; ++e) {
              const Position &p = b[s.reg].elements[e];
              EXPECT_EQ(p.col.at(bsrc), col) << nameOf(f) << " lane " << lane;
              EXPECT_EQ(p.row.at(bsrc), int(s.firstK + e)) << nameOf(f);
            }
        }
        // Every k of the row and the column, once.
        std::set<unsigned> ks;
        for (unsigned q = 0; q < 4; ++q)
          for (const RegisterSpan &s :
               f.aRowRegisters(acc[i].tileM, acc[i].rowBit, q))
            for (unsigned e = 0; e < s.count; ++e)
              ks.insert(s.firstK + e);
        EXPECT_EQ(ks.size(), f.k) << nameOf(f);
      }
    }
  }
}

// The layout measured on the H100 for f16 m16n16k16 (WmmaLowering.cpp):
// A registers r hold A[g + 8(r%2)][2t + 8(r/2) + {0,1}], B registers
// B[2t + 8(r%2) + {0,1}][g + 8(r/2)], accumulator i
// [g + 8((i%4)/2)][8(i/4) + 2t + i%2].
TEST(WmmaFragments, F16IsTheMeasuredLayout) {
  Form f{16, 16, 16, Element::F16};
  std::vector<Group> a = groups(f, Matrix::A), b = groups(f, Matrix::B);
  std::vector<Group> c = groups(f, Matrix::C);
  for (int lane = 0; lane < 32; ++lane) {
    int g = lane / 4, t = lane % 4;
    for (int r = 0; r < 4; ++r)
      for (int h = 0; h < 2; ++h) {
        EXPECT_EQ(a[r].elements[h].row.at(lane), g + 8 * (r % 2));
        EXPECT_EQ(a[r].elements[h].col.at(lane), 2 * t + 8 * (r / 2) + h);
        EXPECT_EQ(b[r].elements[h].row.at(lane), 2 * t + 8 * (r % 2) + h);
        EXPECT_EQ(b[r].elements[h].col.at(lane), g + 8 * (r / 2));
      }
    for (int i = 0; i < 8; ++i) {
      const Position &p = c[i / 2].elements[i % 2];
      EXPECT_EQ(p.row.at(lane), g + 8 * ((i % 4) / 2));
      EXPECT_EQ(p.col.at(lane), 8 * (i / 4) + 2 * t + i % 2);
    }
  }
}

// m8n32k16 is m32n8k16 transposed: its accumulators pair along m (a
// column-major C is accessed in pairs, as measured on the H200).
TEST(WmmaFragments, M8n32IsTheTransposeOfM32n8) {
  Form f{8, 32, 16, Element::F16};
  ASSERT_TRUE(f.transposed());
  for (const Group &g : groups(f, Matrix::C)) {
    EXPECT_TRUE(adjacent(g, /*rowMajor=*/false));
    EXPECT_FALSE(adjacent(g, /*rowMajor=*/true));
  }
  EXPECT_EQ(f.distinct(Matrix::A), 2u); // the m32n8k16 B's two registers
  EXPECT_EQ(f.distinct(Matrix::B), 8u);
}

// A 16-bit pair that is not adjacent in memory is accessed in the
// transposed 8 x 8 block, where it is; the transpose is an involution.
TEST(WmmaFragments, TransposedAccessOfAPair) {
  Form f{16, 16, 16, Element::F16};
  for (Matrix x : {Matrix::A, Matrix::B})
    for (const Group &g : groups(f, x)) {
      bool rowMajor = !adjacent(g, true); // the layout where it is not
      Group t{
          {transposedAccess(g.elements[0]), transposedAccess(g.elements[1])}};
      EXPECT_TRUE(adjacent(t, rowMajor));
      for (int lane = 0; lane < 32; ++lane)
        for (int s = 0; s < 2; ++s) {
          // Lane 4(2t + s) + g/2's element g%2 is this lane's element s.
          int g8 = lane / 4, t4 = lane % 4;
          int src = 4 * (2 * t4 + s) + g8 / 2;
          const Position &mine = g.elements[s];
          const Position &theirs = t.elements[g8 % 2];
          EXPECT_EQ(theirs.row.at(src), mine.row.at(lane));
          EXPECT_EQ(theirs.col.at(src), mine.col.at(lane));
          Position back = transposedAccess(t.elements[s]);
          EXPECT_EQ(back.row.at(lane), mine.row.at(lane));
          EXPECT_EQ(back.col.at(lane), mine.col.at(lane));
        }
    }
}

// A sub-byte form's loads access words (Form::words): register r of a lane
// is the one word holding its elements of register r, in order from the
// lowest bits: A's k (B's k) = chunk * word column (row) + element.
TEST(WmmaFragments, SubByteRegistersAreWords) {
  for (const Form &f : allForms()) {
    if (!isSubByte(f.ab))
      continue;
    for (Matrix x : {Matrix::A, Matrix::B}) {
      std::vector<Group> elements = groups(f, x), words = groups(f.words(), x);
      ASSERT_EQ(elements.size(), words.size()) << nameOf(f);
      for (int lane = 0; lane < 32; ++lane)
        for (size_t r = 0; r < words.size(); ++r) {
          ASSERT_EQ(words[r].elements.size(), 1u);
          ASSERT_EQ(elements[r].elements.size(), f.chunk());
          const Position &w = words[r].elements[0];
          for (unsigned e = 0; e < f.chunk(); ++e) {
            const Position &p = elements[r].elements[e];
            int k = x == Matrix::A ? p.col.at(lane) : p.row.at(lane);
            int wk = x == Matrix::A ? w.col.at(lane) : w.row.at(lane);
            int other = x == Matrix::A ? p.row.at(lane) : p.col.at(lane);
            int wOther = x == Matrix::A ? w.row.at(lane) : w.col.at(lane);
            EXPECT_EQ(k, wk * int(f.chunk()) + int(e)) << nameOf(f);
            EXPECT_EQ(other, wOther) << nameOf(f);
          }
        }
    }
  }
}

TEST(WmmaFragments, IntrinsicNames) {
  auto load =
      parseIntrinsic("llvm.nvvm.wmma.m32n8k16.load.a.col.stride.bf16.p3");
  ASSERT_TRUE(load);
  EXPECT_EQ(load->form.m, 32u);
  EXPECT_EQ(load->form.ab, Element::BF16);
  EXPECT_FALSE(load->rowMajor);
  EXPECT_TRUE(load->stride);
  EXPECT_EQ(load->matrix, Matrix::A);
  auto mma = parseIntrinsic("llvm.nvvm.wmma.m16n16k16.mma.row.col.f16.f32");
  ASSERT_TRUE(mma);
  EXPECT_TRUE(mma->mma);
  EXPECT_EQ(mma->dType, Element::F16);
  EXPECT_EQ(mma->cType, Element::F32);
  auto sat = parseIntrinsic("llvm.nvvm.wmma.m8n32k16.mma.col.row.u8.satfinite");
  ASSERT_TRUE(sat);
  EXPECT_TRUE(sat->satfinite);
  EXPECT_EQ(sat->form.ab, Element::U8);
  auto c = parseIntrinsic("llvm.nvvm.wmma.m16n16k8.store.d.row.stride.f32.p0");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->form.ab, Element::TF32);
  EXPECT_TRUE(parseIntrinsic("llvm.nvvm.wmma.m8n8k4.mma.row.row.f64"));
  // mma.h's experimental sub-byte forms.
  auto s4 = parseIntrinsic("llvm.nvvm.wmma.m8n8k32.mma.row.col.s4.satfinite");
  ASSERT_TRUE(s4);
  EXPECT_EQ(s4->form.ab, Element::S4);
  EXPECT_EQ(s4->cType, Element::S32);
  EXPECT_TRUE(s4->satfinite);
  EXPECT_EQ(s4->bitOp, Intrinsic::BitOp::None);
  auto b1 = parseIntrinsic("llvm.nvvm.wmma.m8n8k128.mma.and.popc.row.col.b1");
  ASSERT_TRUE(b1);
  EXPECT_EQ(b1->form.ab, Element::B1);
  EXPECT_EQ(b1->bitOp, Intrinsic::BitOp::And);
  auto bx = parseIntrinsic("llvm.nvvm.wmma.m8n8k128.mma.xor.popc.row.col.b1");
  ASSERT_TRUE(bx);
  EXPECT_EQ(bx->bitOp, Intrinsic::BitOp::Xor);
  auto la = parseIntrinsic("llvm.nvvm.wmma.m8n8k128.load.a.row.stride.b1.p0");
  ASSERT_TRUE(la);
  EXPECT_EQ(la->element, Element::B1);
  auto lc = parseIntrinsic("llvm.nvvm.wmma.m8n8k32.load.c.col.stride.s32.p3");
  ASSERT_TRUE(lc);
  EXPECT_EQ(lc->form.ab, Element::S4);
  EXPECT_EQ(lc->element, Element::S32);
  EXPECT_FALSE(parseIntrinsic("llvm.nvvm.wmma.m8n8k32.mma.row.col.b1"));
  EXPECT_FALSE(
      parseIntrinsic("llvm.nvvm.wmma.m16n16k16.load.a.row.stride.f64"));
}

} // namespace
} // namespace kcheck::analyzer::wmma
