// mma.sync.aligned.m8n8k4 with f16 operands (sm_70's form, which sm_90 still
// runs): the warp computes four products, one per quad pair (QP q: lanes
// 4q..4q+3 and 4q+16..4q+19), each D = A*B + C of its own 8x4 A, 4x8 B and
// 8x8 C. Fragment layouts, from the PTX ISA's "Matrix Fragments for
// mma.m8n8k4 with .f16 floating point type", with t = lane%4 and h = 1 for
// lanes 16..31 (element i of a lane's fragment; A and B two f16 to a
// register, four per lane):
//   A .row: A[t + 4h][i]          A .col: A[i + 4h][t]
//   B .row: B[t][i + 4h]          B .col: B[i][t + 4h]
//   C/D .f16 (8 elements, two to a register): C[t + 4h][i]
//   C/D .f32 (8 registers): C[(t&1) + (i&2) + 4h][(i&4) + (t&2) + (i&1)]
// (an f16 D with an f32 C is not a form; an f32 D with an f16 C is).
// Each lane gathers, with shuffles within its quad pair, the A rows and B
// columns its own D elements need, and sums k = 0..3 in order in float (the
// tensor core's rounding of f16 accumulation may differ in the last bit; the
// conformance program's values are exact).
#include "analyzer/ptx/PtxLowerer.h"

#include "llvm/IR/Intrinsics.h"

#include <array>
#include <map>
#include <tuple>

namespace kcheck::analyzer::ptx {

using namespace llvm;

bool Lowerer::lowerMmaQuadPairs(const Statement &st) {
  std::vector<std::string> layouts, types;
  for (const std::string &p : st.parts) {
    if (p == "row" || p == "col")
      layouts.push_back(p);
    else if (p == "f16" || p == "f32")
      types.push_back(p);
  }
  if (layouts.size() != 2 || types.size() != 4 || types[1] != "f16" ||
      types[2] != "f16")
    return fail("mma form m8n8k4 (f16 operands: .alayout.blayout.dtype."
                "f16.f16.ctype)");
  bool aRow = layouts[0] == "row", bRow = layouts[1] == "row";
  bool dHalf = types[0] == "f16", cHalf = types[3] == "f16";
  if (dHalf && !cHalf) // ptxas: ".dtype must be '.f32' when .ctype is '.f32'"
    return fail("mma form m8n8k4 .f16 D with .f32 C (not a form: ptxas "
                "refuses it)");
  if (st.operands.size() != 4)
    return fail("mma operands");
  auto elements = [](const Operand &o) {
    return o.kind == Operand::Kind::Vector ? o.elements
                                           : std::vector<Operand>{o};
  };
  std::vector<Operand> dEl = elements(st.operands[0]),
                       aEl = elements(st.operands[1]),
                       bEl = elements(st.operands[2]),
                       cEl = elements(st.operands[3]);
  if (aEl.size() != 2 || bEl.size() != 2 || dEl.size() != (dHalf ? 4 : 8) ||
      cEl.size() != (cHalf ? 4 : 8))
    return fail("mma operands");
  Value *aIn[2], *bIn[2];
  for (unsigned r = 0; r < 2; ++r) {
    aIn[r] = read(aEl[r], 32), bIn[r] = read(bEl[r], 32);
    if (!aIn[r] || !bIn[r])
      return fail("mma A or B operand");
  }
  std::vector<Value *> cIn;
  for (const Operand &o : cEl) {
    cIn.push_back(read(o, 32));
    if (!cIn.back())
      return fail("mma C operand");
  }

  Type *i32 = b_.getInt32Ty(), *f32 = b_.getFloatTy();
  Value *lane = intrinsicCall("llvm.nvvm.read.ptx.sreg.laneid", i32, {});
  Value *t = b_.CreateAnd(lane, 3), *h = b_.CreateLShr(lane, 4);
  Value *pairBase = b_.CreateAnd(lane, 12); // 4q
  auto c = [&](unsigned v) { return b_.getInt32(v); };

  // The two registers of `regs` held by lane 4q + within + 16 * high of this
  // lane's quad pair, shuffled once per (within, high) (constants are
  // uniqued, so equal constant positions share their shuffles).
  std::map<std::tuple<Value *, Value *, Value *>, std::array<Value *, 2>> got;
  auto fetch = [&](Value *const regs[2], Value *within, Value *high) {
    auto &slot = got[{regs[0], within, high}];
    if (!slot[0]) {
      Value *src =
          b_.CreateAdd(b_.CreateAdd(pairBase, within), b_.CreateShl(high, 4));
      for (unsigned r = 0; r < 2; ++r)
        slot[r] = intrinsicCall("llvm.nvvm.shfl.sync.idx.i32", i32,
                                {c(~0u), regs[r], src, c(31)});
    }
    return slot;
  };
  // Element `e` (0..3) of a lane's two f16x2 registers, as a float.
  auto element = [&](const std::array<Value *, 2> &regs, Value *e) {
    Value *reg = b_.CreateSelect(b_.CreateICmpUGE(e, c(2)), regs[1], regs[0]);
    Value *shift = b_.CreateShl(b_.CreateAnd(e, 1), 4);
    Value *bitsValue =
        b_.CreateTrunc(b_.CreateLShr(reg, shift), b_.getInt16Ty());
    return b_.CreateFPExt(toFloat(bitsValue, "f16"), f32);
  };
  // A[row][0..3] and B[0..3][col] of this lane's quad pair.
  auto aRowOf = [&](Value *row) {
    Value *high = b_.CreateLShr(row, 2), *r4 = b_.CreateAnd(row, 3);
    std::array<Value *, 4> v;
    for (unsigned k = 0; k < 4; ++k)
      v[k] = aRow ? element(fetch(aIn, r4, high), c(k))
                  : element(fetch(aIn, c(k), high), r4);
    return v;
  };
  auto bColOf = [&](Value *col) {
    Value *high = b_.CreateLShr(col, 2), *c4 = b_.CreateAnd(col, 3);
    std::array<Value *, 4> v;
    for (unsigned k = 0; k < 4; ++k)
      v[k] = bRow ? element(fetch(bIn, c(k), high), c4)
                  : element(fetch(bIn, c4, high), c(k));
    return v;
  };

  // C[row][col] of this lane's quad pair as a float: the lane's own
  // element `i` when C has D's layout; else (an f16 C, an f32 D) shuffled
  // from lane 4q + row%4 + 16(row/4), which holds C's row `row`.
  auto halfOf = [&](Value *reg, Value *odd) {
    Value *bitsValue = b_.CreateTrunc(b_.CreateLShr(reg, b_.CreateShl(odd, 4)),
                                      b_.getInt16Ty());
    return b_.CreateFPExt(toFloat(bitsValue, "f16"), f32);
  };
  auto cAt = [&](unsigned i, Value *row, Value *col) -> Value * {
    if (cHalf == dHalf)
      return cHalf ? halfOf(cIn[i / 2], c(i % 2))
                   : b_.CreateBitCast(cIn[i], f32);
    Value *src = b_.CreateAdd(b_.CreateAdd(pairBase, b_.CreateAnd(row, 3)),
                              b_.CreateShl(b_.CreateLShr(row, 2), 4));
    Value *reg = nullptr, *index = b_.CreateLShr(col, 1);
    for (unsigned r = 0; r < 4; ++r) {
      Value *v = intrinsicCall("llvm.nvvm.shfl.sync.idx.i32", i32,
                               {c(~0u), cIn[r], src, c(31)});
      reg = reg ? b_.CreateSelect(b_.CreateICmpEQ(index, c(r)), v, reg) : v;
    }
    return halfOf(reg, b_.CreateAnd(col, 1));
  };

  // This lane's D elements in D's layout, each the k-ordered sum over its
  // quad pair's A row and B column (gathered once per distinct row/column).
  // An f16 D: row t + 4h, columns 0..7; an f32 D: rows (t&1) + 4h + {0, 2},
  // columns (t&2) + {0, 1, 4, 5}.
  std::vector<Value *> rowsOfD, colsOfD;
  Value *h4 = b_.CreateShl(h, 2);
  if (dHalf) {
    rowsOfD.push_back(b_.CreateAdd(t, h4));
    for (unsigned i = 0; i < 8; ++i)
      colsOfD.push_back(c(i));
  } else {
    Value *r0 = b_.CreateAdd(b_.CreateAnd(t, 1), h4);
    rowsOfD = {r0, b_.CreateAdd(r0, c(2))};
    Value *c0 = b_.CreateAnd(t, 2);
    for (unsigned j : {0u, 1u, 4u, 5u})
      colsOfD.push_back(b_.CreateAdd(c0, c(j)));
  }
  std::vector<std::array<Value *, 4>> aRows, bCols;
  for (Value *row : rowsOfD)
    aRows.push_back(aRowOf(row));
  for (Value *col : colsOfD)
    bCols.push_back(bColOf(col));
  std::vector<Value *> out;
  for (unsigned i = 0; i < 8; ++i) {
    unsigned ri = dHalf ? 0 : (i & 2) >> 1;
    unsigned ci = dHalf ? i : ((i & 4) >> 1) | (i & 1);
    Value *row = rowsOfD[ri], *col = colsOfD[ci];
    const std::array<Value *, 4> &ar = aRows[ri], &bc = bCols[ci];
    Value *sum = cAt(i, row, col);
    for (unsigned k = 0; k < 4; ++k)
      sum = b_.CreateIntrinsic(Intrinsic::fma, {f32}, {ar[k], bc[k], sum});
    out.push_back(sum);
  }
  if (dHalf) {
    for (unsigned r = 0; r < 4; ++r) {
      Value *lo = b_.CreateZExt(fromFloat(out[2 * r], "f16"), i32);
      Value *hi = b_.CreateZExt(fromFloat(out[2 * r + 1], "f16"), i32);
      if (!write(dEl[r], b_.CreateOr(lo, b_.CreateShl(hi, 16))))
        return false;
    }
    return true;
  }
  for (unsigned i = 0; i < 8; ++i)
    if (!write(dEl[i], b_.CreateBitCast(out[i], i32)))
      return false;
  return true;
}

} // namespace kcheck::analyzer::ptx
