// Matrix data movement: ldmatrix (one 16-byte shared load per lane, the
// row it addresses, then the fragments each lane holds gathered with
// shuffles), stmatrix (the inverse: each lane's row gathered, then one
// 16-byte shared store), movmatrix (a transpose between the lanes'
// registers). mma.sync is PtxLowerMma.cpp.
#include "analyzer/ptx/PtxLowerer.h"

#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"

#include <algorithm>
#include <functional>

namespace kcheck::analyzer::ptx {

using namespace llvm;

// The 32-bit word `word` (a value per lane, 0..3) of the 16-byte row that
// lane `srcLane` loaded (rows[0..3]).
static Value *wordFrom(IRBuilder<> &b,
                       const std::function<Value *(Value *, Value *)> &shfl,
                       Value *rows[4], Value *srcLane, Value *word) {
  Value *r = nullptr;
  for (unsigned k = 0; k < 4; ++k) {
    Value *s = shfl(rows[k], srcLane);
    r = r ? b.CreateSelect(b.CreateICmpEQ(word, b.getInt32(k)), s, r) : s;
  }
  return r;
}

bool Lowerer::lowerLdmatrix(const Statement &st) {
  // ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared[::cta].b16 d, [a]
  bool isLoad = st.parts[0] == "ldmatrix";
  unsigned num = hasPart(st, "x4") ? 4 : hasPart(st, "x2") ? 2 : 1;
  bool trans = hasPart(st, "trans");
  if (!hasPart(st, "m8n8") || typeOf(st) != "b16" || st.operands.size() != 2)
    return fail("matrix shape or type");
  if (!isLoad)
    return lowerStmatrix(st, num, trans);
  const Operand &d = st.operands[0];
  if (d.kind != Operand::Kind::Vector ? num != 1 : d.elements.size() != num)
    return fail("ldmatrix destination");
  Value *ptr = address(st.operands[1], 3);
  if (!ptr)
    return fail("address");
  // Each lane loads the 16-byte row it addresses (lanes 8m..8m+7 give the
  // rows of matrix m), as LDSM reads them.
  LoadInst *row = b_.CreateAlignedLoad(FixedVectorType::get(b_.getInt32Ty(), 4),
                                       ptr, Align(16));
  tag(row, st);
  Value *rows[4];
  for (unsigned k = 0; k < 4; ++k)
    rows[k] = b_.CreateExtractElement(row, k);
  Value *lane =
      intrinsicCall("llvm.nvvm.read.ptx.sreg.laneid", b_.getInt32Ty(), {});
  auto shfl = [&](Value *v, Value *src) {
    return intrinsicCall("llvm.nvvm.shfl.sync.idx.i32", b_.getInt32Ty(),
                         {b_.getInt32(~0u), v, src, b_.getInt32(31)});
  };
  std::vector<Value *> fragments;
  Value *quad = b_.CreateAnd(lane, 3), *group = b_.CreateLShr(lane, 2);
  for (unsigned m = 0; m < num; ++m) {
    Value *base = b_.getInt32(8 * m);
    if (!trans) {
      // Lane l holds word l%4 of row l/4.
      fragments.push_back(
          wordFrom(b_, shfl, rows, b_.CreateAdd(base, group), quad));
      continue;
    }
    // Transposed: lane l holds column l/4, rows 2(l%4) and 2(l%4)+1.
    Value *word = b_.CreateLShr(group, 1);
    Value *shift = b_.CreateShl(b_.CreateAnd(group, 1), 4);
    Value *r0 = b_.CreateAdd(base, b_.CreateShl(quad, 1));
    Value *lo = b_.CreateLShr(wordFrom(b_, shfl, rows, r0, word), shift);
    Value *hi = b_.CreateLShr(
        wordFrom(b_, shfl, rows, b_.CreateAdd(r0, b_.getInt32(1)), word),
        shift);
    fragments.push_back(b_.CreateOr(
        b_.CreateAnd(lo, 0xffff), b_.CreateShl(b_.CreateAnd(hi, 0xffff), 16)));
  }
  if (num == 1)
    return write(d.kind == Operand::Kind::Vector ? d.elements[0] : d,
                 fragments[0]);
  for (unsigned m = 0; m < num; ++m)
    if (!write(d.elements[m], fragments[m]))
      return false;
  return true;
}

// stmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared[::cta].b16 [a], r: the
// inverse of ldmatrix. Lane l (l < 8*num) gives the address of row l%8 of
// matrix l/8 and stores that 16-byte row, gathered from the lanes' fragments
// of the matrix: without .trans, word q of row r is lane 4r+q's; with it, row
// r is column r of the fragments' matrix (the lanes 4c + r/2, half r%2, for
// the columns c). One 16-byte shared store per lane, as STSM writes rows.
bool Lowerer::lowerStmatrix(const Statement &st, unsigned num, bool trans) {
  const Operand &data = st.operands[1];
  if (data.kind != Operand::Kind::Vector ? num != 1
                                         : data.elements.size() != num)
    return fail("stmatrix source");
  std::vector<Value *> frags;
  for (unsigned m = 0; m < num; ++m) {
    Value *v =
        read(data.kind == Operand::Kind::Vector ? data.elements[m] : data, 32);
    if (!v)
      return fail("stmatrix source");
    frags.push_back(v);
  }
  Value *lane =
      intrinsicCall("llvm.nvvm.read.ptx.sreg.laneid", b_.getInt32Ty(), {});
  auto shfl = [&](Value *v, Value *src) {
    return intrinsicCall("llvm.nvvm.shfl.sync.idx.i32", b_.getInt32Ty(),
                         {b_.getInt32(~0u), v, src, b_.getInt32(31)});
  };
  Value *matrix = b_.CreateLShr(lane, 3), *r = b_.CreateAnd(lane, 7);
  // The fragment of this lane's matrix in lane `src` (every lane shuffles
  // every matrix's register; each keeps its own matrix's).
  auto fragFrom = [&](Value *src) {
    Value *out = nullptr;
    for (unsigned m = 0; m < num; ++m) {
      Value *v = shfl(frags[m], src);
      out =
          out ? b_.CreateSelect(b_.CreateICmpEQ(matrix, b_.getInt32(m)), v, out)
              : v;
    }
    return out;
  };
  Value *words[4];
  for (unsigned w = 0; w < 4; ++w) {
    if (!trans) {
      words[w] = fragFrom(b_.CreateAdd(b_.CreateShl(r, 2), b_.getInt32(w)));
      continue;
    }
    Value *src = b_.CreateLShr(r, 1);
    Value *shift = b_.CreateShl(b_.CreateAnd(r, 1), 4);
    Value *lo =
        b_.CreateLShr(fragFrom(b_.CreateAdd(b_.getInt32(8 * w), src)), shift);
    Value *hi = b_.CreateLShr(
        fragFrom(b_.CreateAdd(b_.getInt32(8 * w + 4), src)), shift);
    words[w] = b_.CreateOr(b_.CreateAnd(lo, 0xffff),
                           b_.CreateShl(b_.CreateAnd(hi, 0xffff), 16));
  }
  Value *row = PoisonValue::get(FixedVectorType::get(b_.getInt32Ty(), 4));
  for (unsigned w = 0; w < 4; ++w)
    row = b_.CreateInsertElement(row, words[w], w);
  // Lanes past the matrices' rows give no address and store nothing.
  bool guarded = num < 4;
  if (guarded)
    beginGuarded(b_.CreateICmpULT(lane, b_.getInt32(8 * num)));
  Value *ptr = address(st.operands[0], 3);
  if (!ptr)
    return fail("address");
  tag(b_.CreateAlignedStore(row, ptr, Align(16)), st);
  if (guarded)
    endGuarded();
  return true;
}

// movmatrix.sync.aligned.m8n8.trans.b16 d, a: the 8x8 matrix of 16-bit
// elements in the lanes' fragments (lane l: row l/4, columns 2(l%4) and
// 2(l%4)+1) transposed: d's element (r, c) is a's (c, r).
bool Lowerer::lowerMovmatrix(const Statement &st) {
  if (!hasPart(st, "m8n8") || !hasPart(st, "trans") || typeOf(st) != "b16" ||
      st.operands.size() != 2)
    return fail("movmatrix form");
  Value *a = read(st.operands[1], 32);
  if (!a)
    return fail("movmatrix source");
  Value *lane =
      intrinsicCall("llvm.nvvm.read.ptx.sreg.laneid", b_.getInt32Ty(), {});
  auto shfl = [&](Value *v, Value *src) {
    return intrinsicCall("llvm.nvvm.shfl.sync.idx.i32", b_.getInt32Ty(),
                         {b_.getInt32(~0u), v, src, b_.getInt32(31)});
  };
  Value *row = b_.CreateLShr(lane, 2), *quad = b_.CreateAnd(lane, 3);
  // d(row, 2q + j) = a(2q + j, row): lane 4(2q + j) + row/2, half row%2.
  Value *shift = b_.CreateShl(b_.CreateAnd(row, 1), 4);
  Value *half[2];
  for (unsigned j = 0; j < 2; ++j) {
    Value *src = b_.CreateAdd(
        b_.CreateShl(b_.CreateAdd(b_.CreateShl(quad, 1), b_.getInt32(j)), 2),
        b_.CreateLShr(row, 1));
    half[j] = b_.CreateAnd(b_.CreateLShr(shfl(a, src), shift), 0xffff);
  }
  return write(st.operands[0], b_.CreateOr(half[0], b_.CreateShl(half[1], 16)));
}

} // namespace kcheck::analyzer::ptx
