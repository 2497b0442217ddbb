// FP8 conversions (cuda_fp8.hpp's templates on sm_89 and later), as IR
// arithmetic the engine already executes:
//   cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f32    d, a, b  (a: upper byte)
//   cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f16x2  d, a
//   cvt.rn.f16x2.{e4m3x2,e5m2x2}                   d, a     (16 -> 2 x f16)
// Formats (PTX ISA "Alternate Floating-Point Data Formats"; OCP FP8):
//   e4m3: bias 7, no infinities, S.1111.111 is NaN, largest finite 448;
//   e5m2: bias 15, IEEE-like (infinities, NaNs), largest finite 57344.
// .satfinite clamps finite overflow and infinities to the largest finite
// value; NaN converts to the canonical NaN (0x7f for both formats).
#include "analyzer/ptx/PtxLowerer.h"

namespace kcheck::analyzer::ptx {

using namespace llvm;

namespace {

struct Fp8Format {
  int mantissaBits, bias;
  double maxFinite;
  bool hasInfinity;
};

constexpr Fp8Format kE4m3{3, 7, 448.0, false};
constexpr Fp8Format kE5m2{2, 15, 57344.0, true};

const Fp8Format *formatOf(const std::string &type) {
  return type == "e4m3x2" ? &kE4m3 : type == "e5m2x2" ? &kE5m2 : nullptr;
}

// 2^e for an i32 exponent within double's normal range, as a double.
Value *powerOfTwo(IRBuilder<> &b, Value *e) {
  Value *bitsValue = b.CreateShl(
      b.CreateZExt(b.CreateAdd(e, b.getInt32(1023)), b.getInt64Ty()), 52);
  return b.CreateBitCast(bitsValue, b.getDoubleTy());
}

// The byte `code` (i32, low 8 bits) as a double, exactly.
Value *decode(IRBuilder<> &b, Value *code, const Fp8Format &f) {
  int eBits = 7 - f.mantissaBits;
  Value *sign = b.CreateAnd(b.CreateLShr(code, 7), 1);
  Value *exp =
      b.CreateAnd(b.CreateLShr(code, f.mantissaBits), (1 << eBits) - 1);
  Value *man = b.CreateAnd(code, (1 << f.mantissaBits) - 1);
  Value *manF = b.CreateUIToFP(man, b.getDoubleTy());
  // Subnormal: man * 2^(1 - bias - mbits); normal: (2^mbits + man) * 2^(e -
  // bias - mbits).
  Value *isSub = b.CreateICmpEQ(exp, b.getInt32(0));
  Value *scaleE = b.CreateSelect(isSub, b.getInt32(1), exp);
  Value *scale =
      powerOfTwo(b, b.CreateSub(scaleE, b.getInt32(f.bias + f.mantissaBits)));
  Value *lead = b.CreateSelect(
      isSub, ConstantFP::get(b.getDoubleTy(), 0.0),
      ConstantFP::get(b.getDoubleTy(), double(1 << f.mantissaBits)));
  Value *mag = b.CreateFMul(b.CreateFAdd(lead, manF), scale);
  int top = (1 << eBits) - 1;
  Value *nan = ConstantFP::getNaN(b.getDoubleTy());
  if (f.hasInfinity) { // e5m2: exponent all ones is Inf (man 0) or NaN
    Value *inf = ConstantFP::getInfinity(b.getDoubleTy());
    mag = b.CreateSelect(
        b.CreateICmpEQ(exp, b.getInt32(top)),
        b.CreateSelect(b.CreateICmpEQ(man, b.getInt32(0)), inf, nan), mag);
  } else { // e4m3: only S.1111.111 is NaN
    Value *isNan =
        b.CreateAnd(b.CreateICmpEQ(exp, b.getInt32(top)),
                    b.CreateICmpEQ(man, b.getInt32((1 << f.mantissaBits) - 1)));
    mag = b.CreateSelect(isNan, nan, mag);
  }
  return b.CreateSelect(b.CreateICmpNE(sign, b.getInt32(0)), b.CreateFNeg(mag),
                        mag);
}

} // namespace

Value *decodeFp8(IRBuilder<> &b, Value *code, const std::string &type) {
  return decode(b, code, type == "e5m2" || type == "e5m2x2" ? kE5m2 : kE4m3);
}

namespace {

// A double rounded to the nearest FP8 value (ties to even), saturated to the
// largest finite one, as an i32 byte.
Value *encode(IRBuilder<> &b, Value *x, const Fp8Format &f, bool relu) {
  Type *d = b.getDoubleTy();
  Value *isNan = b.CreateFCmpUNO(x, x);
  if (relu) // .relu: negative results become +0 (NaN stays NaN)
    x = b.CreateSelect(b.CreateFCmpOLT(x, ConstantFP::get(d, 0.0)),
                       ConstantFP::get(d, 0.0), x);
  Value *neg = b.CreateICmpSLT(b.CreateBitCast(x, b.getInt64Ty()),
                               b.getInt64(0)); // the sign bit, -0 included
  Value *a = b.CreateUnaryIntrinsic(Intrinsic::fabs, x);
  // Exponent of |x| (x is a float or half: normal as a double), kept at
  // least the smallest normal exponent so subnormals share its quantum.
  int minExp = 1 - f.bias;
  Value *e = b.CreateSub(
      b.CreateTrunc(b.CreateLShr(b.CreateBitCast(a, b.getInt64Ty()), 52),
                    b.getInt32Ty()),
      b.getInt32(1023));
  e = b.CreateSelect(b.CreateICmpSLT(e, b.getInt32(minExp)), b.getInt32(minExp),
                     e);
  Value *quantum = powerOfTwo(b, b.CreateSub(e, b.getInt32(f.mantissaBits)));
  Value *steps =
      b.CreateUnaryIntrinsic(Intrinsic::rint, b.CreateFDiv(a, quantum));
  Value *r = b.CreateFMul(steps, quantum);
  r = b.CreateMinNum(r, ConstantFP::get(d, f.maxFinite)); // satfinite, Inf
  // Encode r (exact in the format): exponent field and mantissa.
  Value *re = b.CreateSub(
      b.CreateTrunc(b.CreateLShr(b.CreateBitCast(r, b.getInt64Ty()), 52),
                    b.getInt32Ty()),
      b.getInt32(1023));
  Value *isSub = b.CreateOr(b.CreateFCmpOEQ(r, ConstantFP::get(d, 0.0)),
                            b.CreateICmpSLT(re, b.getInt32(minExp)));
  Value *fieldE =
      b.CreateSelect(isSub, b.getInt32(0), b.CreateAdd(re, b.getInt32(f.bias)));
  Value *unit =
      powerOfTwo(b, b.CreateSub(b.CreateSelect(isSub, b.getInt32(minExp), re),
                                b.getInt32(f.mantissaBits)));
  Value *manAll = b.CreateFPToUI(b.CreateFDiv(r, unit), b.getInt32Ty());
  Value *man = b.CreateAnd(manAll, (1 << f.mantissaBits) - 1);
  Value *code = b.CreateOr(b.CreateShl(fieldE, f.mantissaBits), man);
  code = b.CreateSelect(neg, b.CreateOr(code, 0x80), code);
  return b.CreateSelect(isNan, b.getInt32(0x7f), code);
}

} // namespace

bool Lowerer::lowerCvtFp8(const Statement &st, const std::string &to,
                          const std::string &from) {
  if (const Fp8Format *f = formatOf(from)) { // cvt.rn.f16x2.e4m3x2 d, a
    if (to != "f16x2" || st.operands.size() != 2)
      return fail("cvt from FP8 to " + to);
    Value *a = read(st.operands[1], 16);
    if (!a)
      return fail("cvt source");
    a = b_.CreateZExt(a, b_.getInt32Ty());
    // A NaN code becomes the canonical f16 NaN, 0x7fff (measured, H100).
    auto half = [&](Value *code) {
      Value *nan =
          f->hasInfinity
              ? b_.CreateAnd(
                    b_.CreateICmpEQ(b_.CreateAnd(code, 0x7c),
                                    b_.getInt32(0x7c)),
                    b_.CreateICmpNE(b_.CreateAnd(code, 3), b_.getInt32(0)))
              : b_.CreateICmpEQ(b_.CreateAnd(code, 0x7f), b_.getInt32(0x7f));
      return b_.CreateSelect(nan, b_.getInt16(0x7fff),
                             fromFloat(decode(b_, code, *f), "f16"));
    };
    Value *lo = half(b_.CreateAnd(a, 0xff));
    Value *hi = half(b_.CreateAnd(b_.CreateLShr(a, 8), 0xff));
    Value *d =
        b_.CreateOr(b_.CreateZExt(lo, b_.getInt32Ty()),
                    b_.CreateShl(b_.CreateZExt(hi, b_.getInt32Ty()), 16));
    return write(st.operands[0], d);
  }
  const Fp8Format *f = formatOf(to);
  if (!f || !hasPart(st, "satfinite") || !hasPart(st, "rn"))
    return fail("cvt to FP8 without .rn.satfinite");
  bool relu = hasPart(st, "relu");
  Value *hi = nullptr, *lo = nullptr;
  if (from == "f32" && st.operands.size() == 3) {
    Value *a = read(st.operands[1], 32), *b = read(st.operands[2], 32);
    if (!a || !b)
      return fail("cvt source");
    hi = b_.CreateFPExt(toFloat(a, "f32"), b_.getDoubleTy());
    lo = b_.CreateFPExt(toFloat(b, "f32"), b_.getDoubleTy());
  } else if (from == "f16x2" && st.operands.size() == 2) {
    Value *a = read(st.operands[1], 32);
    if (!a)
      return fail("cvt source");
    auto half = [&](Value *bits16) {
      return b_.CreateFPExt(toFloat(bits16, "f16"), b_.getDoubleTy());
    };
    lo = half(b_.CreateTrunc(a, b_.getInt16Ty()));
    hi = half(b_.CreateTrunc(b_.CreateLShr(a, 16), b_.getInt16Ty()));
  } else {
    return fail("cvt to FP8 from " + from);
  }
  Value *d = b_.CreateOr(b_.CreateShl(encode(b_, hi, *f, relu), 8),
                         encode(b_, lo, *f, relu));
  return write(st.operands[0], b_.CreateTrunc(d, b_.getInt16Ty()));
}

} // namespace kcheck::analyzer::ptx
