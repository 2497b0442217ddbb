// Bitwise statements: and/or/xor/not/cnot, shifts, popc/clz/brev, bfind,
// bmsk, prmt (also libdevice's __byte_perm), lop3, shf.
#include "analyzer/ptx/PtxLowerer.h"

#include "llvm/IR/Intrinsics.h"

namespace kcheck::analyzer::ptx {

using namespace llvm;

Value *bytePermute(IRBuilder<> &b, Value *a, Value *bv, Value *selector) {
  // prmt.b32 d, a, b, c (default mode) and __byte_perm: byte i of d is byte
  // c[4i+2:4i] of {b, a}, sign-replicated when c[4i+3] is set.
  Value *both = b.CreateOr(b.CreateZExt(a, b.getInt64Ty()),
                           b.CreateShl(b.CreateZExt(bv, b.getInt64Ty()), 32));
  Value *d = b.getInt32(0);
  for (unsigned i = 0; i < 4; ++i) {
    Value *sel = b.CreateAnd(b.CreateLShr(selector, 4 * i), 7);
    Value *sign = b.CreateAnd(b.CreateLShr(selector, 4 * i + 3), 1);
    Value *byte = b.CreateTrunc(
        b.CreateLShr(both, b.CreateZExt(b.CreateShl(sel, 3), b.getInt64Ty())),
        b.getInt8Ty());
    Value *replicated =
        b.CreateSExt(b.CreateICmpSLT(byte, b.getInt8(0)), b.getInt8Ty());
    byte =
        b.CreateSelect(b.CreateICmpNE(sign, b.getInt32(0)), replicated, byte);
    d = b.CreateOr(d, b.CreateShl(b.CreateZExt(byte, b.getInt32Ty()), 8 * i));
  }
  return d;
}

namespace {

// and, or, xor, not, cnot, shl, shr, popc, clz, brev; null for other ops.
Value *logicOrShift(IRBuilder<> &b, const std::string &op, bool isSigned,
                    unsigned w, const std::vector<Value *> &a) {
  Type *t = b.getIntNTy(w);
  if (op == "and")
    return b.CreateAnd(a[0], a[1]);
  else if (op == "or")
    return b.CreateOr(a[0], a[1]);
  else if (op == "xor")
    return b.CreateXor(a[0], a[1]);
  else if (op == "not")
    return b.CreateNot(a[0]);
  else if (op == "cnot")
    return b.CreateZExt(b.CreateICmpEQ(a[0], ConstantInt::get(t, 0)), t);
  else if (op == "shl") // amounts >= width give 0 (clamped above)
    return b.CreateSelect(b.CreateICmpUGE(a[1], ConstantInt::get(t, w)),
                          ConstantInt::get(t, 0), b.CreateShl(a[0], a[1]));
  else if (op == "shr") {
    Value *big = b.CreateICmpUGE(a[1], ConstantInt::get(t, w));
    if (isSigned)
      return b.CreateAShr(
          a[0], b.CreateSelect(big, ConstantInt::get(t, w - 1), a[1]));
    else
      return b.CreateSelect(big, ConstantInt::get(t, 0),
                            b.CreateLShr(a[0], a[1]));
  } else if (op == "popc")
    return b.CreateUnaryIntrinsic(Intrinsic::ctpop, a[0]);
  else if (op == "clz")
    return b.CreateBinaryIntrinsic(Intrinsic::ctlz, a[0], b.getFalse());
  else if (op == "brev")
    return b.CreateUnaryIntrinsic(Intrinsic::bitreverse, a[0]);
  return nullptr;
}

// bmsk.clamp.b32 d, pos, width: width ones from bit pos.
Value *bitMask(IRBuilder<> &b, const std::vector<Value *> &a) {
  Value *pos = b.CreateZExt(
      b.CreateBinaryIntrinsic(Intrinsic::umin, a[0], b.getInt32(32)),
      b.getInt64Ty());
  Value *len = b.CreateZExt(a[1], b.getInt64Ty());
  Value *end = b.CreateBinaryIntrinsic(Intrinsic::umin, b.CreateAdd(pos, len),
                                       b.getInt64(32));
  Value *ones = b.CreateSub(b.CreateShl(b.getInt64(1), end),
                            b.CreateShl(b.getInt64(1), pos));
  return b.CreateTrunc(ones, b.getInt32Ty());
}

Value *findMostSignificantBit(IRBuilder<> &b, Value *x, Type *t, unsigned w,
                              bool isSigned, bool shiftAmount) {
  // bfind[.shiftamt].{u,s}{32,64} d, a: the most significant bit that
  // differs from the sign (u: any set bit), 0xffffffff when none;
  // .shiftamt gives w-1 minus that position.
  if (isSigned)
    x = b.CreateSelect(b.CreateICmpSLT(x, ConstantInt::get(t, 0)),
                       b.CreateNot(x), x);
  Value *lz = b.CreateZExtOrTrunc(
      b.CreateBinaryIntrinsic(Intrinsic::ctlz, x, b.getFalse()),
      b.getInt32Ty());
  Value *none = b.CreateICmpEQ(x, ConstantInt::get(t, 0));
  Value *pos = shiftAmount ? lz : b.CreateSub(b.getInt32(w - 1), lz);
  Value *d = b.CreateSelect(none, b.getInt32(~0u), pos);
  return d;
}

// lop3.b32 d, a, b, c, immLut: bit i of d = immLut[a_i b_i c_i].
Value *lookup3(IRBuilder<> &b, const std::vector<Value *> &a, uint64_t table,
               Type *t) {
  Value *d = ConstantInt::get(t, 0);
  for (unsigned m = 0; m < 8; ++m) {
    if (!((table >> m) & 1))
      continue;
    Value *x = (m & 4) ? a[0] : b.CreateNot(a[0]);
    Value *y = (m & 2) ? a[1] : b.CreateNot(a[1]);
    Value *z = (m & 1) ? a[2] : b.CreateNot(a[2]);
    d = b.CreateOr(d, b.CreateAnd(x, b.CreateAnd(y, z)));
  }
  return d;
}

Value *funnelShift(IRBuilder<> &b, const Statement &st,
                   const std::vector<Value *> &a) {
  // shf.{l,r}.{wrap,clamp}.b32 d, lo, hi, n
  bool left = st.parts.size() > 1 && st.parts[1] == "l";
  bool clamp =
      std::find(st.parts.begin(), st.parts.end(), "clamp") != st.parts.end();
  Value *n =
      clamp ? b.CreateBinaryIntrinsic(Intrinsic::umin, a[2], b.getInt32(32))
            : b.CreateAnd(a[2], 31);
  Value *both = b.CreateOr(b.CreateZExt(a[0], b.getInt64Ty()),
                           b.CreateShl(b.CreateZExt(a[1], b.getInt64Ty()), 32));
  Value *n64 = b.CreateZExt(n, b.getInt64Ty());
  return left ? b.CreateTrunc(b.CreateLShr(b.CreateShl(both, n64), 32),
                              b.getInt32Ty())
              : b.CreateTrunc(b.CreateLShr(both, n64), b.getInt32Ty());
}

} // namespace

bool Lowerer::lowerBitwise(const Statement &st) {
  const std::string &op = st.parts[0];
  std::string type = typeOf(st);
  unsigned w = typeBits(type);
  if (!w || st.operands.size() < 2)
    return fail("bitwise type");
  std::vector<Value *> a;
  for (size_t i = 1; i < st.operands.size(); ++i) {
    // Shift amounts and bit positions are 32-bit operands.
    bool amount = (op == "shl" || op == "shr") && i == 2;
    Value *v = read(st.operands[i], amount ? 32 : w);
    if (!v)
      return fail("operand");
    if (amount)
      v = b_.CreateZExtOrTrunc(
          b_.CreateBinaryIntrinsic(Intrinsic::umin, v, b_.getInt32(w)),
          b_.getIntNTy(w));
    a.push_back(v);
  }
  Type *t = b_.getIntNTy(w);
  Value *r = logicOrShift(b_, op, isSignedType(type), w, a);
  if (!r) {
    if (op == "bmsk" && w == 32 && a.size() == 2) {
      r = bitMask(b_, a);
    } else if (op == "prmt" && w == 32 && a.size() == 3) {
      if (st.parts.size() > 2 && st.parts[1] != "b32")
        return fail("prmt mode ." + st.parts[1]);
      r = bytePermute(b_, a[0], a[1], a[2]);
    } else if (op == "bfind" && a.size() == 1) {
      return write(st.operands[0],
                   findMostSignificantBit(b_, a[0], t, w, isSignedType(type),
                                          hasPart(st, "shiftamt")));
    } else if (op == "lop3" && a.size() == 4) {
      auto *lut = dyn_cast<ConstantInt>(a[3]);
      if (!lut)
        return fail("lop3 with a non-constant table");
      r = lookup3(b_, a, lut->getZExtValue(), t);
    } else if (op == "shf" && a.size() == 3 && w == 32) {
      r = funnelShift(b_, st, a);
    }
  }
  if (!r)
    return fail(op + " form");
  if (r->getType() != t)
    r = b_.CreateZExtOrTrunc(r, t);
  return write(st.operands[0], r);
}

// SIMD video instructions (CUDA's __vmaxs4, __vabsdiff2, __vset4...):
//   v{absdiff,add,sub,avrg,min,max,set}{2,4}.dtype.atype.btype{.sat}
//       {.add | .cmp} d, a, b, c;
// Each 16-bit (2) or 8-bit (4) lane of a and b, signed as its type says, is
// combined; .sat clamps to the lane's range (signed when dtype is s32); the
// lanes are packed into d, or with .add summed with c into one 32-bit value.
// (PTX ISA, "SIMD Video Instructions"; default masks and selectors only.)
bool Lowerer::lowerVideoSimd(const Statement &st) {
  const std::string &name = st.parts[0];
  unsigned lanes = name.back() == '2' ? 2 : 4, width = 32 / lanes;
  std::string op = name.substr(1, name.size() - 2);
  std::vector<std::string> types = typesOf(st);
  bool isSet = op == "set";
  if (st.operands.size() != 4 || types.size() != (isSet ? 2u : 3u))
    return fail("SIMD video form");
  bool aSigned = isSignedType(types[isSet ? 0 : 1]);
  bool bSigned = isSignedType(types[isSet ? 1 : 2]);
  bool dSigned = !isSet && isSignedType(types[0]);
  bool sat = hasPart(st, "sat"), accumulate = hasPart(st, "add");
  std::string cmp;
  for (const char *c : {"eq", "ne", "lt", "le", "gt", "ge"})
    if (hasPart(st, c))
      cmp = c;
  if (isSet == cmp.empty())
    return fail("SIMD video comparison");
  Value *a = read(st.operands[1], 32), *b = read(st.operands[2], 32);
  Value *c = read(st.operands[3], 32);
  if (!a || !b || !c)
    return fail("SIMD video operands");
  Type *i64 = b_.getInt64Ty();
  int64_t lo = dSigned ? -(int64_t(1) << (width - 1)) : 0;
  int64_t hi =
      dSigned ? (int64_t(1) << (width - 1)) - 1 : (int64_t(1) << width) - 1;
  Value *packed = b_.getInt32(0), *sum = b_.CreateSExt(c, i64);
  for (unsigned k = 0; k < lanes; ++k) {
    auto lane = [&](Value *v, bool isSigned) {
      Value *x =
          b_.CreateTrunc(b_.CreateLShr(v, k * width), b_.getIntNTy(width));
      return isSigned ? b_.CreateSExt(x, i64) : b_.CreateZExt(x, i64);
    };
    Value *x = lane(a, aSigned), *y = lane(b, bSigned), *r = nullptr;
    if (op == "absdiff") {
      Value *d = b_.CreateSub(x, y);
      r = b_.CreateSelect(b_.CreateICmpSLT(d, b_.getInt64(0)), b_.CreateNeg(d),
                          d);
    } else if (op == "add") {
      r = b_.CreateAdd(x, y);
    } else if (op == "sub") {
      r = b_.CreateSub(x, y);
    } else if (op == "avrg") { // rounds half up
      r = b_.CreateAShr(b_.CreateAdd(b_.CreateAdd(x, y), b_.getInt64(1)), 1);
    } else if (op == "min" || op == "max") {
      Value *less = b_.CreateICmpSLT(x, y);
      r = op == "min" ? b_.CreateSelect(less, x, y)
                      : b_.CreateSelect(less, y, x);
    } else if (isSet) {
      CmpInst::Predicate p = cmp == "eq"   ? CmpInst::ICMP_EQ
                             : cmp == "ne" ? CmpInst::ICMP_NE
                             : cmp == "lt" ? CmpInst::ICMP_SLT
                             : cmp == "le" ? CmpInst::ICMP_SLE
                             : cmp == "gt" ? CmpInst::ICMP_SGT
                                           : CmpInst::ICMP_SGE;
      r = b_.CreateZExt(b_.CreateICmp(p, x, y), i64);
    } else {
      return fail("SIMD video operation " + op);
    }
    if (sat) {
      r = b_.CreateSelect(b_.CreateICmpSLT(r, b_.getInt64(lo)), b_.getInt64(lo),
                          r);
      r = b_.CreateSelect(b_.CreateICmpSGT(r, b_.getInt64(hi)), b_.getInt64(hi),
                          r);
    }
    sum = b_.CreateAdd(sum, r);
    Value *bitsOfLane =
        b_.CreateZExt(b_.CreateTrunc(r, b_.getIntNTy(width)), b_.getInt32Ty());
    packed = b_.CreateOr(packed, b_.CreateShl(bitsOfLane, k * width));
  }
  return write(st.operands[0],
               accumulate ? b_.CreateTrunc(sum, b_.getInt32Ty()) : packed);
}

} // namespace kcheck::analyzer::ptx
