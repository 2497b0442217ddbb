// Register-only statements: mov, cvt, cvta, arithmetic, bitwise, setp,
// selp.
#include "analyzer/ptx/PtxLowerer.h"

#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"

#include <algorithm>
#include <functional>
#include <map>

namespace kcheck::analyzer::ptx {

using namespace llvm;

bool Lowerer::lowerMov(const Statement &st) {
  std::string type = typeOf(st);
  unsigned w = typeBits(type);
  if (st.operands.size() != 2 || w == 0)
    return fail("mov form");
  Value *v = read(st.operands[1], w);
  if (!v)
    return fail("mov source");
  return write(st.operands[0], v);
}

// A 16/32/64-bit float type's value from its bits.
Value *Lowerer::toFloat(Value *bitsValue, const std::string &type) {
  Type *t = type == "f16"    ? b_.getHalfTy()
            : type == "bf16" ? b_.getBFloatTy()
            : type == "f32"  ? b_.getFloatTy()
                             : b_.getDoubleTy();
  unsigned w = unsigned(t->getPrimitiveSizeInBits().getFixedValue());
  return b_.CreateBitCast(b_.CreateZExtOrTrunc(bitsValue, b_.getIntNTy(w)), t);
}

// The bits of `f` (any float type) rounded to `type`.
Value *Lowerer::fromFloat(Value *f, const std::string &type) {
  Type *t = type == "f16"    ? b_.getHalfTy()
            : type == "bf16" ? b_.getBFloatTy()
            : type == "f32"  ? b_.getFloatTy()
                             : b_.getDoubleTy();
  Value *r = b_.CreateFPCast(f, t);
  unsigned w = unsigned(t->getPrimitiveSizeInBits().getFixedValue());
  return b_.CreateBitCast(r, b_.getIntNTy(w));
}

// Widens a 16-bit float to double (through float, exact).
static Value *wide(IRBuilder<> &b, Value *f) {
  if (f->getType()->isHalfTy() || f->getType()->isBFloatTy())
    f = b.CreateFPExt(f, b.getFloatTy());
  return b.CreateFPExt(f, b.getDoubleTy());
}

bool Lowerer::lowerCvt(const Statement &st) {
  std::vector<std::string> types = typesOf(st);
  if (types.size() != 2 || st.operands.size() < 2)
    return fail("cvt form");
  const std::string &to = types[0], &from = types[1];
  unsigned fromBits = typeBits(from), toBits = typeBits(to);
  if (to == "e4m3x2" || to == "e5m2x2" || from == "e4m3x2" || from == "e5m2x2")
    return lowerCvtFp8(st, to, from); // PtxLowerFp8.cpp
  if (to == "f16x2" || to == "bf16x2") {
    // cvt.rn.f16x2.f32 d, hi, lo
    if (from != "f32" || st.operands.size() != 3)
      return fail("cvt to a pair");
    std::string half = to == "f16x2" ? "f16" : "bf16";
    Value *hi = fromFloat(toFloat(read(st.operands[1], 32), "f32"), half);
    Value *lo = fromFloat(toFloat(read(st.operands[2], 32), "f32"), half);
    Value *d =
        b_.CreateOr(b_.CreateZExt(lo, b_.getInt32Ty()),
                    b_.CreateShl(b_.CreateZExt(hi, b_.getInt32Ty()), 16));
    return write(st.operands[0], d);
  }
  if (!fromBits || !toBits || to == "pred" || from == "pred" ||
      to.find('e') == 0 || from.find('e') == 0 || to == "f16x2" ||
      from == "f16x2" || from == "bf16x2")
    return fail("cvt types");
  Value *src = read(st.operands[1], fromBits);
  if (!src)
    return fail("cvt source");
  bool toFloatType = isFloatType(to), fromFloatType = isFloatType(from);
  Value *result = nullptr;
  if (!toFloatType && !fromFloatType) {
    result = isSignedType(from)
                 ? b_.CreateSExtOrTrunc(src, b_.getIntNTy(toBits))
                 : b_.CreateZExtOrTrunc(src, b_.getIntNTy(toBits));
  } else if (fromFloatType) {
    Value *f = wide(b_, toFloat(src, from));
    Intrinsic::ID round = Intrinsic::not_intrinsic;
    if (hasPart(st, "rni"))
      round = Intrinsic::rint;
    else if (hasPart(st, "rmi"))
      round = Intrinsic::floor;
    else if (hasPart(st, "rpi"))
      round = Intrinsic::ceil;
    else if (hasPart(st, "rzi") || !toFloatType)
      round = Intrinsic::trunc;
    if (round != Intrinsic::not_intrinsic)
      f = b_.CreateUnaryIntrinsic(round, f);
    if (hasPart(st, "sat") && toFloatType)
      f = b_.CreateMinNum(b_.CreateMaxNum(f, ConstantFP::get(f->getType(), 0)),
                          ConstantFP::get(f->getType(), 1));
    if (toFloatType)
      result = fromFloat(f, to);
    else
      result = isSignedType(to) ? b_.CreateFPToSI(f, b_.getIntNTy(toBits))
                                : b_.CreateFPToUI(f, b_.getIntNTy(toBits));
  } else {
    Value *f = isSignedType(from) ? b_.CreateSIToFP(src, b_.getDoubleTy())
                                  : b_.CreateUIToFP(src, b_.getDoubleTy());
    result = fromFloat(f, to);
  }
  return write(st.operands[0], result);
}

bool Lowerer::lowerCvta(const Statement &st) {
  // cvta[.to].space.size d, a
  bool toSpace = st.parts.size() > 1 && st.parts[1] == "to";
  std::string space = st.parts[toSpace ? 2 : 1];
  unsigned as = space == "shared"   ? 3
                : space == "global" ? 1
                : space == "local"  ? 5
                : space == "const"  ? 4
                                    : 0;
  unsigned w = typeBits(typeOf(st));
  if (!as || !w || st.operands.size() != 2)
    return fail("cvta form");
  Value *src = read(st.operands[1], w);
  if (!src)
    return fail("cvta source");
  Value *p = b_.CreateIntToPtr(b_.CreateZExtOrTrunc(src, b_.getInt64Ty()),
                               b_.getPtrTy(toSpace ? 0 : as));
  Value *q = b_.CreateAddrSpaceCast(p, b_.getPtrTy(toSpace ? as : 0));
  return write(st.operands[0],
               b_.CreateZExtOrTrunc(b_.CreatePtrToInt(q, b_.getInt64Ty()),
                                    b_.getIntNTy(w)));
}

// One float operation in double (or the type's own precision for f32/f64)
// on values already widened.
Value *Lowerer::floatOp(const std::string &op, const std::string &type,
                        std::vector<Value *> a) {
  Type *t = a[0]->getType();
  auto one = [&] { return ConstantFP::get(t, 1.0); };
  if (op == "add")
    return b_.CreateFAdd(a[0], a[1]);
  if (op == "sub")
    return b_.CreateFSub(a[0], a[1]);
  if (op == "mul")
    return b_.CreateFMul(a[0], a[1]);
  if (op == "div")
    return b_.CreateFDiv(a[0], a[1]);
  if (op == "fma" || op == "mad")
    return b_.CreateIntrinsic(Intrinsic::fma, {t}, {a[0], a[1], a[2]});
  if (op == "min")
    return b_.CreateMinNum(a[0], a[1]);
  if (op == "max")
    return b_.CreateMaxNum(a[0], a[1]);
  if (op == "neg")
    return b_.CreateFNeg(a[0]);
  if (op == "abs")
    return b_.CreateUnaryIntrinsic(Intrinsic::fabs, a[0]);
  if (op == "rcp")
    return b_.CreateFDiv(one(), a[0]);
  if (op == "sqrt")
    return b_.CreateUnaryIntrinsic(Intrinsic::sqrt, a[0]);
  if (op == "rsqrt")
    return b_.CreateFDiv(one(), b_.CreateUnaryIntrinsic(Intrinsic::sqrt, a[0]));
  if (op == "ex2")
    return b_.CreateUnaryIntrinsic(Intrinsic::exp2, a[0]);
  if (op == "lg2")
    return b_.CreateUnaryIntrinsic(Intrinsic::log2, a[0]);
  if (op == "sin")
    return b_.CreateUnaryIntrinsic(Intrinsic::sin, a[0]);
  if (op == "cos")
    return b_.CreateUnaryIntrinsic(Intrinsic::cos, a[0]);
  if (op == "tanh")
    return b_.CreateUnaryIntrinsic(Intrinsic::tanh, a[0]);
  if (op == "copysign") // copysign.type d, a, b: |b| with a's sign
    return b_.CreateBinaryIntrinsic(Intrinsic::copysign, a[1], a[0]);
  (void)type;
  return nullptr;
}

// Float arithmetic, on each 16-bit half of an f16x2 or bf16x2 in turn.
bool Lowerer::lowerFloatArith(const Statement &st, const std::string &type,
                              unsigned w) {
  const std::string &op = st.parts[0];
  unsigned sources = unsigned(st.operands.size()) - 1;
  bool pair = type == "f16x2" || type == "bf16x2";
  std::string scalar = pair ? type.substr(0, type.size() - 2) : type;
  unsigned sw = pair ? 16 : w;
  std::vector<Value *> raw;
  for (unsigned i = 1; i <= sources; ++i) {
    Value *v = read(st.operands[i], w);
    if (!v)
      return fail("operand");
    raw.push_back(v);
  }
  Value *result = ConstantInt::get(b_.getIntNTy(w), 0);
  for (unsigned half = 0; half < (pair ? 2u : 1u); ++half) {
    std::vector<Value *> a;
    for (Value *r : raw) {
      Value *part = b_.CreateTrunc(b_.CreateLShr(r, uint64_t(half) * 16),
                                   b_.getIntNTy(sw));
      Value *f = toFloat(part, scalar);
      a.push_back(sw == 16 ? wide(b_, f) : f);
    }
    Value *f = floatOp(op, scalar, a);
    if (!f)
      return fail("float " + op);
    if (hasPart(st, "sat"))
      f = b_.CreateMinNum(b_.CreateMaxNum(f, ConstantFP::get(f->getType(), 0)),
                          ConstantFP::get(f->getType(), 1));
    if (hasPart(st, "relu"))
      f = b_.CreateMaxNum(f, ConstantFP::get(f->getType(), 0));
    Value *bitsValue = b_.CreateZExt(fromFloat(f, scalar), b_.getIntNTy(w));
    result = b_.CreateOr(result, b_.CreateShl(bitsValue, uint64_t(half) * 16));
  }
  return write(st.operands[0], result);
}

bool Lowerer::lowerArith(const Statement &st) {
  const std::string &op = st.parts[0];
  std::string type = typeOf(st);
  unsigned w = typeBits(type);
  if (!w || st.operands.empty())
    return fail("arithmetic type");
  unsigned sources = unsigned(st.operands.size()) - 1;
  if (isFloatType(type))
    return lowerFloatArith(st, type, w);
  bool isSigned = isSignedType(type);
  bool wideResult = hasPart(st, "wide");
  unsigned rw = wideResult ? 2 * w : w;
  std::vector<Value *> a;
  for (unsigned i = 1; i <= sources; ++i) {
    Value *v = read(st.operands[i], (op == "mad" && i == 3) ? rw : w);
    if (!v)
      return fail("operand");
    a.push_back(v);
  }
  Type *rt = b_.getIntNTy(rw);
  auto ext = [&](Value *v) {
    return isSigned ? b_.CreateSExtOrTrunc(v, rt) : b_.CreateZExtOrTrunc(v, rt);
  };
  Value *r = nullptr;
  if (op == "add")
    r = b_.CreateAdd(a[0], a[1]);
  else if (op == "sub")
    r = b_.CreateSub(a[0], a[1]);
  else if (op == "mul" || op == "mad") {
    if (hasPart(st, "hi")) {
      Type *dt = b_.getIntNTy(2 * w);
      Value *x = isSigned ? b_.CreateSExt(a[0], dt) : b_.CreateZExt(a[0], dt);
      Value *y = isSigned ? b_.CreateSExt(a[1], dt) : b_.CreateZExt(a[1], dt);
      r = b_.CreateTrunc(b_.CreateLShr(b_.CreateMul(x, y), w), a[0]->getType());
    } else {
      r = b_.CreateMul(ext(a[0]), ext(a[1]));
    }
    if (op == "mad")
      r = b_.CreateAdd(r, a[2]);
  } else if (op == "div")
    r = isSigned ? b_.CreateSDiv(a[0], a[1]) : b_.CreateUDiv(a[0], a[1]);
  else if (op == "rem")
    r = isSigned ? b_.CreateSRem(a[0], a[1]) : b_.CreateURem(a[0], a[1]);
  else if (op == "min")
    r = b_.CreateBinaryIntrinsic(isSigned ? Intrinsic::smin : Intrinsic::umin,
                                 a[0], a[1]);
  else if (op == "max")
    r = b_.CreateBinaryIntrinsic(isSigned ? Intrinsic::smax : Intrinsic::umax,
                                 a[0], a[1]);
  else if (op == "neg")
    r = b_.CreateNeg(a[0]);
  else if (op == "abs")
    r = b_.CreateBinaryIntrinsic(Intrinsic::abs, a[0], b_.getFalse());
  if (!r)
    return fail("integer " + op);
  return write(st.operands[0], r);
}

// a CMP b for PTX's comparison `cmp` on values of `type` (iN bits); null
// for a comparison PTX does not have.
static Value *compare(IRBuilder<> &b, const std::string &cmp,
                      const std::string &type, Value *x, Value *y,
                      const std::function<Value *(Value *)> &asFloat) {
  if (isFloatType(type)) {
    static const std::map<std::string, CmpInst::Predicate> preds = {
        {"eq", CmpInst::FCMP_OEQ},  {"ne", CmpInst::FCMP_ONE},
        {"lt", CmpInst::FCMP_OLT},  {"le", CmpInst::FCMP_OLE},
        {"gt", CmpInst::FCMP_OGT},  {"ge", CmpInst::FCMP_OGE},
        {"equ", CmpInst::FCMP_UEQ}, {"neu", CmpInst::FCMP_UNE},
        {"ltu", CmpInst::FCMP_ULT}, {"leu", CmpInst::FCMP_ULE},
        {"gtu", CmpInst::FCMP_UGT}, {"geu", CmpInst::FCMP_UGE},
        {"num", CmpInst::FCMP_ORD}, {"nan", CmpInst::FCMP_UNO}};
    auto it = preds.find(cmp);
    if (it == preds.end())
      return nullptr;
    return b.CreateFCmp(it->second, asFloat(x), asFloat(y));
  }
  static const std::map<std::string,
                        std::pair<CmpInst::Predicate, CmpInst::Predicate>>
      preds = {{"eq", {CmpInst::ICMP_EQ, CmpInst::ICMP_EQ}},
               {"ne", {CmpInst::ICMP_NE, CmpInst::ICMP_NE}},
               {"lt", {CmpInst::ICMP_SLT, CmpInst::ICMP_ULT}},
               {"le", {CmpInst::ICMP_SLE, CmpInst::ICMP_ULE}},
               {"gt", {CmpInst::ICMP_SGT, CmpInst::ICMP_UGT}},
               {"ge", {CmpInst::ICMP_SGE, CmpInst::ICMP_UGE}},
               {"lo", {CmpInst::ICMP_ULT, CmpInst::ICMP_ULT}},
               {"ls", {CmpInst::ICMP_ULE, CmpInst::ICMP_ULE}},
               {"hi", {CmpInst::ICMP_UGT, CmpInst::ICMP_UGT}},
               {"hs", {CmpInst::ICMP_UGE, CmpInst::ICMP_UGE}}};
  auto it = preds.find(cmp);
  if (it == preds.end())
    return nullptr;
  return b.CreateICmp(isSignedType(type) ? it->second.first : it->second.second,
                      x, y);
}

bool Lowerer::lowerSetp(const Statement &st) {
  // setp.CMP[.ftz].type p[|q], a, b
  if (st.parts.size() < 3 || st.operands.size() != 3)
    return fail("setp form (boolean combination not supported)");
  std::string cmp = st.parts[1], type = typeOf(st);
  unsigned w = typeBits(type);
  if (type == "f16x2" || type == "bf16x2")
    return fail("setp on a pair");
  Value *a = read(st.operands[1], w), *b = read(st.operands[2], w);
  if (!a || !b || !w)
    return fail("setp operands");
  Value *p = compare(b_, cmp, type, a, b, [&](Value *v) {
    Value *f = toFloat(v, type);
    return w == 16 ? wide(b_, f) : f;
  });
  if (!p)
    return fail("setp ." + cmp);
  const Operand &d = st.operands[0];
  if (d.kind == Operand::Kind::Pair)
    return write(d.elements[0], p) && write(d.elements[1], b_.CreateNot(p));
  return write(d, p);
}

bool Lowerer::lowerSet(const Statement &st) {
  // set.CMP[.ftz].DTYPE.STYPE d, a, b: d = 1.0 (float DTYPE) or all ones
  // (integer DTYPE) where a CMP b, else 0; f16x2/bf16x2 per half.
  std::vector<std::string> types = typesOf(st);
  if (types.size() != 2 || st.operands.size() != 3)
    return fail("set form (boolean combination not supported)");
  const std::string &dType = types[0], &sType = types[1];
  bool pair = sType == "f16x2" || sType == "bf16x2";
  std::string scalar = pair ? sType.substr(0, sType.size() - 2) : sType;
  unsigned sw = typeBits(scalar), w = typeBits(sType);
  Value *a = read(st.operands[1], w), *b = read(st.operands[2], w);
  if (!a || !b)
    return fail("set operands");
  unsigned dw = typeBits(dType);
  std::string dScalar = dType == "f16x2" || dType == "bf16x2"
                            ? dType.substr(0, dType.size() - 2)
                            : dType;
  unsigned lanes = pair ? 2 : 1, dLaneBits = dw / lanes;
  Value *d = ConstantInt::get(b_.getIntNTy(dw), 0);
  for (unsigned h = 0; h < lanes; ++h) {
    auto part = [&](Value *v) {
      return b_.CreateTrunc(b_.CreateLShr(v, uint64_t(h) * sw),
                            b_.getIntNTy(sw));
    };
    Value *p =
        compare(b_, st.parts[1], scalar, part(a), part(b), [&](Value *v) {
          Value *f = toFloat(v, scalar);
          return sw == 16 ? wide(b_, f) : f;
        });
    if (!p)
      return fail("set ." + st.parts[1]);
    Value *one =
        isFloatType(dScalar)
            ? fromFloat(ConstantFP::get(b_.getDoubleTy(), 1.0), dScalar)
            : ConstantInt::get(b_.getIntNTy(dLaneBits), ~0ull);
    Value *v =
        b_.CreateSelect(p, b_.CreateZExtOrTrunc(one, b_.getIntNTy(dLaneBits)),
                        ConstantInt::get(b_.getIntNTy(dLaneBits), 0));
    d = b_.CreateOr(d, b_.CreateShl(b_.CreateZExt(v, d->getType()),
                                    uint64_t(h) * dLaneBits));
  }
  return write(st.operands[0], d);
}

bool Lowerer::lowerCarryChain(const Statement &st) {
  // Extended-precision integer arithmetic: add.cc, addc[.cc], sub.cc,
  // subc[.cc], mad{.lo,.hi}.cc, madc{.lo,.hi}[.cc]. The carry (for sub: the
  // borrow) flows through CC.CF from one statement of the template to the
  // next.
  const std::string &op = st.parts[0];
  std::string type = typeOf(st);
  unsigned w = typeBits(type);
  bool isMad = op == "mad" || op == "madc";
  if ((w != 32 && w != 64) || st.operands.size() != (isMad ? 4u : 3u))
    return fail("carry-chain form");
  Value *a = read(st.operands[1], w), *b = read(st.operands[2], w);
  Value *c = isMad ? read(st.operands[3], w) : nullptr;
  if (!a || !b || (isMad && !c))
    return fail("carry-chain operands");
  bool carryIn = op == "addc" || op == "subc" || op == "madc";
  Value *cin = carryIn && carry_ ? b_.CreateZExt(carry_, b_.getIntNTy(w))
                                 : ConstantInt::get(b_.getIntNTy(w), 0);
  Type *t = b_.getIntNTy(w);
  if (isMad) {
    Type *dt = b_.getIntNTy(2 * w);
    bool s = isSignedType(type);
    Value *p = b_.CreateMul(s ? b_.CreateSExt(a, dt) : b_.CreateZExt(a, dt),
                            s ? b_.CreateSExt(b, dt) : b_.CreateZExt(b, dt));
    if (2 * w > 64)
      return fail("64-bit mad with carry");
    a = b_.CreateTrunc(hasPart(st, "hi") ? b_.CreateLShr(p, w) : p, t);
    b = c;
  }
  Value *d, *out;
  if (op == "sub" || op == "subc") {
    Value *d1 = b_.CreateSub(a, b);
    Value *borrow1 = b_.CreateICmpULT(a, b);
    d = b_.CreateSub(d1, cin);
    out = b_.CreateOr(borrow1, b_.CreateICmpULT(d1, cin));
  } else {
    Value *s1 = b_.CreateAdd(a, b);
    Value *carry1 = b_.CreateICmpULT(s1, a);
    d = b_.CreateAdd(s1, cin);
    out = b_.CreateOr(carry1, b_.CreateICmpULT(d, s1));
  }
  if (hasPart(st, "cc"))
    carry_ = out;
  return write(st.operands[0], d);
}

bool Lowerer::lowerDotProduct(const Statement &st) {
  // dp4a.atype.btype d, a, b, c: c + the four byte products of a and b;
  // dp2a.{lo,hi}.atype.btype: a's two 16-bit halves with b's low or high
  // two bytes.
  bool four = st.parts[0] == "dp4a";
  std::vector<std::string> types = typesOf(st);
  if (types.size() != 2 || st.operands.size() != 4)
    return fail("dp4a/dp2a form");
  Value *a = read(st.operands[1], 32), *b = read(st.operands[2], 32),
        *c = read(st.operands[3], 32);
  if (!a || !b || !c)
    return fail("dp4a/dp2a operands");
  bool aSigned = isSignedType(types[0]), bSigned = isSignedType(types[1]);
  unsigned bOffset = !four && hasPart(st, "hi") ? 2 : 0;
  Value *sum = c;
  for (unsigned i = 0; i < (four ? 4u : 2u); ++i) {
    unsigned aBits = four ? 8 : 16;
    Value *x = b_.CreateTrunc(b_.CreateLShr(a, aBits * i), b_.getIntNTy(aBits));
    Value *y =
        b_.CreateTrunc(b_.CreateLShr(b, 8 * (i + bOffset)), b_.getInt8Ty());
    x = aSigned ? b_.CreateSExt(x, b_.getInt32Ty())
                : b_.CreateZExt(x, b_.getInt32Ty());
    y = bSigned ? b_.CreateSExt(y, b_.getInt32Ty())
                : b_.CreateZExt(y, b_.getInt32Ty());
    sum = b_.CreateAdd(sum, b_.CreateMul(x, y));
  }
  return write(st.operands[0], sum);
}

bool Lowerer::lowerSelp(const Statement &st) {
  unsigned w = typeBits(typeOf(st));
  if (!w || st.operands.size() != 4)
    return fail("selp form");
  Value *a = read(st.operands[1], w), *b = read(st.operands[2], w),
        *c = read(st.operands[3], 1);
  if (!a || !b || !c)
    return fail("selp operands");
  return write(st.operands[0], b_.CreateSelect(c, a, b));
}

} // namespace kcheck::analyzer::ptx
