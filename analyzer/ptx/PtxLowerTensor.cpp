// Tensor-core statements: ldmatrix (one 16-byte shared load per lane, the
// row it addresses, then the fragments each lane holds gathered with
// shuffles) and mma.sync (math only).
#include "analyzer/ptx/PtxLowerer.h"

#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"

#include <algorithm>
#include <functional>

namespace kcheck::analyzer::ptx {

using namespace llvm;

namespace {} // namespace

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
    return fail("stmatrix");
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

std::vector<Value *> mmaM16N8(IRBuilder<> &b, Module &module,
                              ArrayRef<Value *> aRegs, ArrayRef<Value *> bRegs,
                              ArrayRef<Value *> c, const std::string &abType,
                              unsigned kCount) {
  FunctionCallee laneid = module.getOrInsertFunction(
      "llvm.nvvm.read.ptx.sreg.laneid", b.getInt32Ty());
  FunctionCallee shflFn = module.getOrInsertFunction(
      "llvm.nvvm.shfl.sync.idx.i32", b.getInt32Ty(), b.getInt32Ty(),
      b.getInt32Ty(), b.getInt32Ty(), b.getInt32Ty());
  Value *lane = b.CreateCall(laneid);
  Value *group = b.CreateLShr(lane, 2), *quad = b.CreateAnd(lane, 3);
  auto shfl = [&](Value *v, Value *src) {
    return b.CreateCall(shflFn, {b.getInt32(~0u), v, src, b.getInt32(31)});
  };
  Type *halfType = abType == "bf16" ? b.getBFloatTy() : b.getHalfTy();
  auto halfOf = [&](Value *word, unsigned h) {
    Value *bitsValue =
        b.CreateTrunc(b.CreateLShr(word, 16 * h), b.getInt16Ty());
    return b.CreateFPExt(b.CreateBitCast(bitsValue, halfType), b.getFloatTy());
  };
  // A[row][k] for row = group (+8 when `high`): lane group*4 + (k%8)/2,
  // register (k >= 8 ? 2 : 0) + high, half k%2.
  auto aRow = [&](bool high) {
    std::vector<Value *> row(kCount);
    for (unsigned q = 0; q < 4; ++q) {
      Value *src = b.CreateAdd(b.CreateShl(group, 2), b.getInt32(q));
      for (unsigned kHalf = 0; kHalf < kCount / 8; ++kHalf) {
        Value *word = shfl(aRegs[kHalf * 2 + (high ? 1 : 0)], src);
        row[kHalf * 8 + 2 * q] = halfOf(word, 0);
        row[kHalf * 8 + 2 * q + 1] = halfOf(word, 1);
      }
    }
    return row;
  };
  // B[k][col]: lane col*4 + (k%8)/2, register k >= 8, half k%2.
  auto bCol = [&](Value *col) {
    std::vector<Value *> column(kCount);
    for (unsigned q = 0; q < 4; ++q) {
      Value *src = b.CreateAdd(b.CreateShl(col, 2), b.getInt32(q));
      for (unsigned kHalf = 0; kHalf < kCount / 8; ++kHalf) {
        Value *word = shfl(bRegs[kHalf], src);
        column[kHalf * 8 + 2 * q] = halfOf(word, 0);
        column[kHalf * 8 + 2 * q + 1] = halfOf(word, 1);
      }
    }
    return column;
  };
  std::vector<Value *> rows[2] = {aRow(false), aRow(true)};
  Value *col0 = b.CreateShl(quad, 1);
  std::vector<Value *> cols[2] = {bCol(col0),
                                  bCol(b.CreateAdd(col0, b.getInt32(1)))};
  std::vector<Value *> out(4);
  for (unsigned i = 0; i < 4; ++i) {
    Value *acc = c[i];
    for (unsigned k = 0; k < kCount; ++k)
      acc = b.CreateIntrinsic(Intrinsic::fma, {b.getFloatTy()},
                              {rows[i / 2][k], cols[i % 2][k], acc});
    out[i] = acc;
  }
  return out;
}

bool Lowerer::lowerMmaSync(const Statement &st) {
  // mma.sync.aligned.m16n8k{8,16}.row.col.DTYPE.{f16,bf16}.{f16,bf16}.CTYPE
  // d, a, b, c: tensor-core math, no memory access. Each lane gathers the A
  // rows and B columns its D elements need from the lanes that hold them
  // (PTX ISA, "Matrix fragments for mma.m16n8k16 / m16n8k8"), and the
  // products are summed in float: the sum's rounding may differ from the
  // tensor core's in the last bits.
  bool k16 = hasPart(st, "m16n8k16");
  if ((!k16 && !hasPart(st, "m16n8k8")) || !hasPart(st, "row") ||
      !hasPart(st, "col") || st.operands.size() != 4)
    return fail("mma shape or layout");
  std::vector<std::string> types = typesOf(st);
  if (types.size() != 4 || types[1] != types[2] ||
      (types[1] != "f16" && types[1] != "bf16") ||
      (types[0] != "f32" && types[0] != "f16") ||
      (types[3] != "f32" && types[3] != "f16"))
    return fail("mma types");
  const std::string &dType = types[0], &abType = types[1], &cType = types[3];
  unsigned aRegs = k16 ? 4 : 2, bRegs = k16 ? 2 : 1;
  unsigned cdRegs = cType == "f32" ? 4 : 2;
  const Operand &d = st.operands[0], &a = st.operands[1], &b = st.operands[2],
                &c = st.operands[3];
  if (d.kind != Operand::Kind::Vector || a.kind != Operand::Kind::Vector ||
      b.kind != Operand::Kind::Vector || c.kind != Operand::Kind::Vector ||
      a.elements.size() != aRegs || b.elements.size() != bRegs ||
      c.elements.size() != cdRegs ||
      d.elements.size() != (dType == "f32" ? 4u : 2u))
    return fail("mma operands");
  std::vector<Value *> aIn, bIn, cIn;
  for (const Operand &o : a.elements)
    aIn.push_back(read(o, 32));
  for (const Operand &o : b.elements)
    bIn.push_back(read(o, 32));
  for (Value *v : aIn)
    if (!v)
      return fail("mma A operand");
  for (Value *v : bIn)
    if (!v)
      return fail("mma B operand");
  for (const Operand &o : c.elements)
    if (!read(o, 32))
      return fail("mma C operand");
  // C elements i = 0..3 as floats: row group + 8*(i/2), column 2*quad + i%2.
  for (unsigned i = 0; i < 4; ++i) {
    if (cType == "f32") {
      cIn.push_back(toFloat(read(c.elements[i], 32), "f32"));
      continue;
    }
    Value *word = read(c.elements[i / 2], 32);
    cIn.push_back(
        b_.CreateFPExt(toFloat(b_.CreateTrunc(b_.CreateLShr(word, 16 * (i % 2)),
                                              b_.getInt16Ty()),
                               "f16"),
                       b_.getFloatTy()));
  }
  std::vector<Value *> out =
      mmaM16N8(b_, module_, aIn, bIn, cIn, abType, k16 ? 16 : 8);
  if (dType == "f32") {
    for (unsigned i = 0; i < 4; ++i)
      if (!write(d.elements[i], b_.CreateBitCast(out[i], b_.getInt32Ty())))
        return false;
    return true;
  }
  for (unsigned r = 0; r < 2; ++r) {
    Value *lo = b_.CreateZExt(fromFloat(out[2 * r], "f16"), b_.getInt32Ty());
    Value *hi =
        b_.CreateZExt(fromFloat(out[2 * r + 1], "f16"), b_.getInt32Ty());
    if (!write(d.elements[r], b_.CreateOr(lo, b_.CreateShl(hi, 16))))
      return false;
  }
  return true;
}

} // namespace kcheck::analyzer::ptx
