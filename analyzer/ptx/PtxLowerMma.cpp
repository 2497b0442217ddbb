// mma.sync: the warp-level tensor-core product D = A*B + C of the PTX ISA's
// "Warp-level Matrix Multiply-Accumulate Instructions", math only (no memory
// access). Forms lowered (conformance/PtxMatrixForms.cpp lists them with the
// others):
//   m16n8k8, m16n8k16  .row.col  f16 -> f16 or f32, bf16 -> f32
//   m16n8k32  .row.col  e4m3/e5m2 -> f16 or f32 (sm_89)
//   m16n8k4, m16n8k8   .row.col  tf32 -> f32
//   m8n8k16, m16n8k16, m16n8k32  .row.col[.satfinite]  s8/u8 -> s32
//   m8n8k32, m16n8k32, m16n8k64  .row.col[.satfinite]  s4/u4 -> s32
//   m8n8k128, m16n8k128, m16n8k256  .row.col  b1 -> s32 (.xor/.and.popc)
//   m8n8k4, m16n8k4, m16n8k8, m16n8k16  .row.col  f64 -> f64
// and m8n8k4 with f16 operands, every layout (PtxLowerMmaQuadPairs.cpp).
// Every one of these fragment layouts is the same rule with E elements per
// 32-bit register (2 for 16-bit types, 1 for tf32 and f64 (a 64-bit
// register), 4 for 8-bit, 8 for 4-bit, 32 for b1): with g = lane/4 and t =
// lane%4, A element (row, k) is in lane (row%8)*4 + (k%4E)/E, register
// (k/4E)*(M/8) + row/8, element k%E; B element (k, col) in lane col*4 +
// (k%4E)/E, register k/4E, element k%E; C and D element i of a lane is (g +
// 8*(i/2), 2t + i%2) (M=16) or (g, 2t + i) (M=8). Each lane gathers the A rows
// and B columns its D elements need with shuffles and sums k in order: in float
// for the float types (the tensor core's rounding may differ in the last bits),
// in double for f64, wrapping in 32 bits for the integer types (.satfinite:
// clamped; b1's product of two bits is their xor or and, summed: the popc).
// tf32 operands are f32 registers of which the tensor core reads the upper
// 19 bits.
#include "analyzer/ptx/PtxLowerer.h"

#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"

#include <cctype>
#include <cstdio>
#include <map>
#include <optional>
#include <set>

namespace kcheck::analyzer::ptx {

using namespace llvm;

namespace {

struct MmaForm {
  unsigned m = 0, n = 8, k = 0;
  std::string d, a, b, c; // types
  bool satfinite = false;
  std::string bitOp;   // b1: "xor" or "and" (then popc)
  unsigned perReg = 1; // A/B elements per 32-bit register
  bool isInt() const {
    return a == "s8" || a == "u8" || a == "s4" || a == "u4" || a == "b1";
  }
  bool isF64() const { return a == "f64"; }
  unsigned aRegs() const { return m * k / 32 / perReg; }
  unsigned bRegs() const { return k * n / 32 / perReg; }
  unsigned accElems() const { return m * n / 32; }
};

std::optional<MmaForm> parseForm(const Statement &st, std::string &why) {
  MmaForm f;
  static const std::set<std::string> typeNames = {
      "f16", "bf16", "tf32", "f32", "f64",  "s8",  "u8",
      "s32", "s4",   "u4",   "b1",  "e4m3", "e5m2"};
  std::vector<std::string> types;
  bool rowCol = false; // the layouts: .row.col, the one these forms allow
  for (size_t i = 0; i < st.parts.size(); ++i) {
    const std::string &p = st.parts[i];
    if (typeNames.count(p))
      types.push_back(p);
    else if (p == "satfinite")
      f.satfinite = true;
    else if (p == "xor" || p == "and")
      f.bitOp = p;
    else if (p == "row" || p == "col")
      rowCol = rowCol || (p == "row" && i + 1 < st.parts.size() &&
                          st.parts[i + 1] == "col");
    else if (p.size() > 1 && p[0] == 'm' && std::isdigit((unsigned char)p[1]))
      if (std::sscanf(p.c_str(), "m%un%uk%u", &f.m, &f.n, &f.k) != 3)
        f.m = 0;
  }
  if (!rowCol) {
    why = "mma layout (only .row.col)";
    return std::nullopt;
  }
  if (types.size() != 4) {
    why = "mma types";
    return std::nullopt;
  }
  f.d = types[0], f.a = types[1], f.b = types[2], f.c = types[3];
  auto shape = [&](unsigned m, unsigned k) {
    return f.m == m && f.n == 8 && f.k == k;
  };
  bool ok = false;
  if (f.a == "f16" || f.a == "bf16") {
    f.perReg = 2;
    // D and C of one type (f16 only with f16 operands): ptxas refuses a mix.
    ok = f.b == f.a && (shape(16, 8) || shape(16, 16)) && f.d == f.c &&
         (f.d == "f32" || (f.d == "f16" && f.a == "f16"));
  } else if (f.a == "tf32") {
    ok = f.b == "tf32" && f.d == "f32" && f.c == "f32" &&
         (shape(16, 4) || shape(16, 8));
  } else if (f.a == "s8" || f.a == "u8") {
    f.perReg = 4;
    ok = (f.b == "s8" || f.b == "u8") && f.d == "s32" && f.c == "s32" &&
         (shape(8, 16) || shape(16, 16) || shape(16, 32));
  } else if (f.a == "s4" || f.a == "u4") {
    f.perReg = 8;
    ok = (f.b == "s4" || f.b == "u4") && f.d == "s32" && f.c == "s32" &&
         (shape(8, 32) || shape(16, 32) || shape(16, 64));
  } else if (f.a == "b1") {
    f.perReg = 32;
    ok = f.b == "b1" && f.d == "s32" && f.c == "s32" && !f.bitOp.empty() &&
         hasPart(st, "popc") && !f.satfinite &&
         (shape(8, 128) || shape(16, 128) || shape(16, 256));
  } else if (f.a == "e4m3" || f.a == "e5m2") {
    f.perReg = 4;
    ok = (f.b == "e4m3" || f.b == "e5m2") && shape(16, 32) && f.d == f.c &&
         (f.d == "f32" || f.d == "f16");
  } else if (f.isF64()) {
    ok = f.b == "f64" && f.d == "f64" && f.c == "f64" &&
         (shape(8, 4) || shape(16, 4) || shape(16, 8) || shape(16, 16));
  }
  if (!ok || (f.satfinite && !f.isInt())) {
    why = "mma form m" + std::to_string(f.m) + "n" + std::to_string(f.n) + "k" +
          std::to_string(f.k) + " ." + f.d + "." + f.a + "." + f.b + "." + f.c +
          " (not lowered yet: docs/conformance.md, PTX matrix forms)";
    return std::nullopt;
  }
  return f;
}

} // namespace

bool Lowerer::lowerMmaSync(const Statement &st) {
  if (hasPart(st, "m8n8k4") && hasPart(st, "f16"))
    return lowerMmaQuadPairs(st); // PtxLowerMmaQuadPairs.cpp
  std::string why;
  std::optional<MmaForm> form = parseForm(st, why);
  if (!form)
    return fail(why);
  const MmaForm &f = *form;
  if (st.operands.size() != 4)
    return fail("mma operands");
  const Operand &d = st.operands[0], &a = st.operands[1], &bo = st.operands[2],
                &c = st.operands[3];
  auto elements = [](const Operand &o) {
    return o.kind == Operand::Kind::Vector ? o.elements
                                           : std::vector<Operand>{o};
  };
  std::vector<Operand> dEl = elements(d), aEl = elements(a), bEl = elements(bo),
                       cEl = elements(c);
  bool packedC = f.c == "f16", packedD = f.d == "f16";
  unsigned acc = f.accElems();
  if (aEl.size() != f.aRegs() || bEl.size() != f.bRegs() ||
      cEl.size() != (packedC ? acc / 2 : acc) ||
      dEl.size() != (packedD ? acc / 2 : acc))
    return fail("mma operands");
  unsigned regBits = f.isF64() ? 64 : 32;
  std::vector<Value *> aIn, bIn;
  for (const Operand &o : aEl)
    aIn.push_back(read(o, regBits));
  for (const Operand &o : bEl)
    bIn.push_back(read(o, regBits));
  for (Value *v : aIn)
    if (!v)
      return fail("mma A operand");
  for (Value *v : bIn)
    if (!v)
      return fail("mma B operand");

  Type *i32 = b_.getInt32Ty();
  Value *lane = intrinsicCall("llvm.nvvm.read.ptx.sreg.laneid", i32, {});
  Value *group = b_.CreateLShr(lane, 2), *quad = b_.CreateAnd(lane, 3);
  auto shfl32 = [&](Value *v, Value *src) {
    return intrinsicCall("llvm.nvvm.shfl.sync.idx.i32", i32,
                         {b_.getInt32(~0u), v, src, b_.getInt32(31)});
  };
  auto shfl = [&](Value *v, Value *src) -> Value * {
    if (regBits == 32)
      return shfl32(v, src);
    Value *lo = shfl32(b_.CreateTrunc(v, i32), src);
    Value *hi = shfl32(b_.CreateTrunc(b_.CreateLShr(v, 32), i32), src);
    return b_.CreateOr(b_.CreateZExt(lo, b_.getInt64Ty()),
                       b_.CreateShl(b_.CreateZExt(hi, b_.getInt64Ty()), 32));
  };
  // Element `e` of a register, as the math type (float, double or i32).
  Type *math = f.isF64() ? b_.getDoubleTy() : f.isInt() ? i32 : b_.getFloatTy();
  auto element = [&](Value *reg, unsigned e, const std::string &type) {
    if (f.isF64())
      return b_.CreateBitCast(reg, b_.getDoubleTy());
    if (type == "tf32")
      return b_.CreateBitCast(b_.CreateAnd(reg, 0xffffe000u), b_.getFloatTy());
    unsigned w = 32 / f.perReg;
    Value *bitsValue =
        b_.CreateTrunc(b_.CreateLShr(reg, w * e), b_.getIntNTy(w));
    if (f.isInt())
      return type[0] == 's' ? b_.CreateSExt(bitsValue, i32)
                            : b_.CreateZExt(bitsValue, i32);
    if (type == "e4m3" || type == "e5m2") // every fp8 value is a float's
      return b_.CreateFPTrunc(
          decodeFp8(b_, b_.CreateZExt(bitsValue, i32), type), b_.getFloatTy());
    Type *half = type == "bf16" ? b_.getBFloatTy() : b_.getHalfTy();
    return b_.CreateFPExt(b_.CreateBitCast(bitsValue, half), b_.getFloatTy());
  };
  unsigned span = 4 * f.perReg; // k covered by a register's four lanes
  // A's row (g + 8h) and B's column `col` (a value per lane), k = 0..K-1:
  // each register shuffled once from each of the four lanes that hold it.
  auto gather = [&](Value *owner, const std::vector<Value *> &regsIn,
                    auto regOf, const std::string &type) {
    std::vector<Value *> line(f.k);
    std::map<std::pair<unsigned, unsigned>, Value *> shuffled;
    for (unsigned k = 0; k < f.k; ++k) {
      unsigned lane4 = (k % span) / f.perReg, reg = regOf(k);
      Value *&got = shuffled[{reg, lane4}];
      if (!got)
        got = shfl(regsIn[reg],
                   b_.CreateAdd(b_.CreateShl(owner, 2), b_.getInt32(lane4)));
      line[k] = element(got, k % f.perReg, type);
    }
    return line;
  };
  auto aRow = [&](unsigned h) {
    return gather(
        group, aIn, [&](unsigned k) { return (k / span) * (f.m / 8) + h; },
        f.a);
  };
  auto bCol = [&](Value *col) {
    return gather(
        col, bIn, [&](unsigned k) { return k / span; }, f.b);
  };
  // C's elements as the math type.
  std::vector<Value *> cIn;
  for (unsigned i = 0; i < acc; ++i) {
    Value *v;
    if (packedC) {
      Value *word = read(cEl[i / 2], 32);
      if (!word)
        return fail("mma C operand");
      v = b_.CreateFPExt(
          toFloat(b_.CreateTrunc(b_.CreateLShr(word, 16 * (i % 2)),
                                 b_.getInt16Ty()),
                  "f16"),
          b_.getFloatTy());
    } else {
      Value *reg = read(cEl[i], regBits);
      if (!reg)
        return fail("mma C operand");
      v = f.isInt() ? reg : b_.CreateBitCast(reg, math);
    }
    cIn.push_back(v);
  }
  std::vector<Value *> rows[2] = {aRow(0),
                                  f.m == 16 ? aRow(1) : std::vector<Value *>{}};
  Value *col0 = b_.CreateShl(quad, 1);
  std::vector<Value *> cols[2] = {bCol(col0),
                                  bCol(b_.CreateAdd(col0, b_.getInt32(1)))};
  std::vector<Value *> out(acc);
  for (unsigned i = 0; i < acc; ++i) {
    const std::vector<Value *> &r = rows[f.m == 16 ? i / 2 : 0];
    const std::vector<Value *> &cl = cols[i % 2];
    if (f.isInt()) {
      // In 64 bits, then wrapped or (.satfinite) clamped to s32.
      Type *i64 = b_.getInt64Ty();
      Value *sum = b_.CreateSExt(cIn[i], i64);
      for (unsigned k = 0; k < f.k; ++k) {
        // b1: popc of the bits' xor or and, bit by bit.
        Value *product = f.bitOp == "xor"   ? b_.CreateXor(r[k], cl[k])
                         : f.bitOp == "and" ? b_.CreateAnd(r[k], cl[k])
                                            : b_.CreateMul(r[k], cl[k]);
        sum = b_.CreateAdd(sum, b_.CreateSExt(product, i64));
      }
      if (f.satfinite) {
        sum = b_.CreateBinaryIntrinsic(Intrinsic::smax, sum,
                                       b_.getInt64(INT32_MIN));
        sum = b_.CreateBinaryIntrinsic(Intrinsic::smin, sum,
                                       b_.getInt64(INT32_MAX));
      }
      out[i] = b_.CreateTrunc(sum, i32);
      continue;
    }
    Value *sum = cIn[i];
    for (unsigned k = 0; k < f.k; ++k)
      sum = b_.CreateIntrinsic(Intrinsic::fma, {math}, {r[k], cl[k], sum});
    out[i] = sum;
  }
  if (packedD) {
    for (unsigned r = 0; r < acc / 2; ++r) {
      Value *lo = b_.CreateZExt(fromFloat(out[2 * r], "f16"), i32);
      Value *hi = b_.CreateZExt(fromFloat(out[2 * r + 1], "f16"), i32);
      if (!write(dEl[r], b_.CreateOr(lo, b_.CreateShl(hi, 16))))
        return false;
    }
    return true;
  }
  for (unsigned i = 0; i < acc; ++i) {
    Value *bitsValue =
        f.isInt() ? out[i] : b_.CreateBitCast(out[i], b_.getIntNTy(regBits));
    if (!write(dEl[i], bitsValue))
      return false;
  }
  return true;
}

} // namespace kcheck::analyzer::ptx
