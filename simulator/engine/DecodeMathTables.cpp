// The math tables of the call decoder (DecodeMathTables.h).
#include "simulator/engine/DecodeMathTables.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Type.h"

namespace kcheck::sim::decode {

using namespace llvm;
using bc::FloatFnKind;
using bc::IntFnKind;

namespace {

// StringSwitch results are encoded as ints: 0x100 | kind for float
// functions, kind for integer ones, -1 for none.
constexpr int floatCode(FloatFnKind k) { return 0x100 | int(k); }
constexpr int intCode(IntFnKind k) { return int(k); }
std::optional<MathFn> decodeCode(int code) {
  if (code < 0)
    return std::nullopt;
  return MathFn{(code & 0x100) != 0, uint8_t(code & 0xff)};
}

} // namespace

std::optional<MathFn> floatFn(FloatFnKind k) {
  return decodeCode(floatCode(k));
}
std::optional<MathFn> intFn(IntFnKind k) { return decodeCode(intCode(k)); }

// LLVM's integer intrinsics that the engine computes.
std::optional<MathFn> genericIntIntrinsic(Intrinsic::ID id) {
  switch (id) {
  case Intrinsic::umin:
    return intFn(IntFnKind::UMin);
  case Intrinsic::umax:
    return intFn(IntFnKind::UMax);
  case Intrinsic::smin:
    return intFn(IntFnKind::SMin);
  case Intrinsic::smax:
    return intFn(IntFnKind::SMax);
  case Intrinsic::abs:
    return intFn(IntFnKind::Abs);
  case Intrinsic::ctpop:
    return intFn(IntFnKind::Ctpop);
  case Intrinsic::ctlz:
    return intFn(IntFnKind::Ctlz);
  case Intrinsic::cttz:
    return intFn(IntFnKind::Cttz);
  case Intrinsic::fshl:
    return intFn(IntFnKind::Fshl);
  case Intrinsic::fshr:
    return intFn(IntFnKind::Fshr);
  case Intrinsic::bswap:
    return intFn(IntFnKind::Bswap);
  case Intrinsic::bitreverse:
    return intFn(IntFnKind::Bitreverse);
  default:
    return std::nullopt;
  }
}

// LLVM's floating-point intrinsics that the engine computes.
std::optional<MathFn> genericFloatIntrinsic(Intrinsic::ID id) {
  switch (id) {
  case Intrinsic::sqrt:
    return floatFn(FloatFnKind::Sqrt);
  case Intrinsic::fabs:
    return floatFn(FloatFnKind::Fabs);
  case Intrinsic::exp:
    return floatFn(FloatFnKind::Exp);
  case Intrinsic::exp2:
    return floatFn(FloatFnKind::Exp2);
  case Intrinsic::exp10:
    return floatFn(FloatFnKind::Exp10);
  case Intrinsic::log:
    return floatFn(FloatFnKind::Log);
  case Intrinsic::log2:
    return floatFn(FloatFnKind::Log2);
  case Intrinsic::log10:
    return floatFn(FloatFnKind::Log10);
  case Intrinsic::sin:
    return floatFn(FloatFnKind::Sin);
  case Intrinsic::cos:
    return floatFn(FloatFnKind::Cos);
  case Intrinsic::tan:
    return floatFn(FloatFnKind::Tan);
  case Intrinsic::tanh:
    return floatFn(FloatFnKind::Tanh);
  case Intrinsic::floor:
    return floatFn(FloatFnKind::Floor);
  case Intrinsic::ceil:
    return floatFn(FloatFnKind::Ceil);
  case Intrinsic::trunc:
    return floatFn(FloatFnKind::Trunc);
  case Intrinsic::round:
    return floatFn(FloatFnKind::Round);
  case Intrinsic::rint:
  case Intrinsic::nearbyint:
  case Intrinsic::roundeven:
    return floatFn(FloatFnKind::Rint);
  case Intrinsic::minnum:
    return floatFn(FloatFnKind::MinNum);
  case Intrinsic::maxnum:
    return floatFn(FloatFnKind::MaxNum);
  case Intrinsic::minimum:
    return floatFn(FloatFnKind::Minimum);
  case Intrinsic::maximum:
    return floatFn(FloatFnKind::Maximum);
  case Intrinsic::copysign:
    return floatFn(FloatFnKind::CopySign);
  case Intrinsic::pow:
    return floatFn(FloatFnKind::Pow);
  case Intrinsic::fma:
  case Intrinsic::fmuladd:
    return floatFn(FloatFnKind::Fma);
  default:
    return std::nullopt;
  }
}

std::optional<MathFn> genericIntrinsic(Intrinsic::ID id) {
  if (std::optional<MathFn> fn = genericIntIntrinsic(id))
    return fn;
  return genericFloatIntrinsic(id);
}

// llvm.nvvm.<fn>[.approx|.rn|.ftz|...].<type>: the first component decides.
std::optional<MathFn> nvvmMath(StringRef rest) {
  StringRef fn = rest.split('.').first;
  if (rest.starts_with("div.approx") || rest.starts_with("div.rn") ||
      rest.starts_with("div.full") || rest.starts_with("div.rz") ||
      rest.starts_with("div.rm") || rest.starts_with("div.rp"))
    return floatFn(FloatFnKind::Div);
  return decodeCode(
      StringSwitch<int>(fn)
          .Case("fmax", floatCode(FloatFnKind::MaxNum))
          .Case("fmin", floatCode(FloatFnKind::MinNum))
          .Case("ex2", floatCode(FloatFnKind::Exp2))
          .Case("lg2", floatCode(FloatFnKind::Log2))
          .Case("rsqrt", floatCode(FloatFnKind::Rsqrt))
          .Case("sqrt", floatCode(FloatFnKind::Sqrt))
          .Case("rcp", floatCode(FloatFnKind::Rcp))
          .Case("sin", floatCode(FloatFnKind::Sin))
          .Case("cos", floatCode(FloatFnKind::Cos))
          .Case("fabs", floatCode(FloatFnKind::Fabs))
          .Case("saturate", floatCode(FloatFnKind::Saturate))
          .Case("fma", floatCode(FloatFnKind::Fma))
          .Case("mulhi", rest.contains(".ui") || rest.contains(".ull")
                             ? intCode(IntFnKind::MulHiU)
                             : intCode(IntFnKind::MulHiS))
          .Case("mul24", rest.contains(".ui") ? intCode(IntFnKind::Mul24U)
                                              : intCode(IntFnKind::Mul24S))
          .Default(-1));
}

// The modifiers of llvm.nvvm.<fn>.<modifiers>.<type> (`rest` follows
// "llvm.nvvm."): min and max's .ftz, .nan and .xorsign.abs; 16-bit fma's
// .rn, .ftz, .sat and .relu. Other f32/f64 forms keep their modifiers
// unread, as before (their math is the function's, correctly rounded); a
// 16-bit form with a modifier this table does not know is not run (none).
std::optional<uint16_t> nvvmModifiers(StringRef rest, Type *type) {
  SmallVector<StringRef, 8> parts;
  rest.split(parts, '.');
  StringRef fn = parts[0];
  bool small =
      type->getScalarType()->isHalfTy() || type->getScalarType()->isBFloatTy();
  bool minMax = fn == "fmin" || fn == "fmax";
  uint16_t flags = 0;
  for (size_t i = 1; i < parts.size(); ++i) {
    StringRef p = parts[i];
    if (i + 1 == parts.size() &&
        (p == "f" || p == "d" || p == "f32" || p == "f64" || p == "f16" ||
         p == "bf16" || p == "f16x2" || p == "bf16x2" || p == "v2f16" ||
         p == "v2bf16"))
      continue; // the type
    if (p == "ftz")
      flags |= bc::kFnFtz;
    else if (p == "nan" && minMax)
      flags |= bc::kFnNaN;
    else if (p == "xorsign" && minMax && i + 1 < parts.size() &&
             parts[i + 1] == "abs")
      flags |= bc::kFnXorSignAbs, ++i;
    else if ((p == "rn" && fn == "fma") || (p == "approx" && fn == "ex2"))
      continue;
    else if (p == "sat" && fn == "fma" && small)
      flags |= bc::kFnSat;
    else if (p == "relu" && fn == "fma" && small)
      flags |= bc::kFnRelu;
    else if (small || minMax)
      return std::nullopt;
  }
  return flags;
}

// llvm.nvvm.<op>.<rounding>[.ftz][.sat].<f|d> and the conversions
// <from>2<f|d>.<rounding>[.ftz]: PTX arithmetic in an explicit rounding
// direction (bc::Op::RoundedFloat). `rest` follows "llvm.nvvm.".
std::optional<RoundedCall> roundedFloatCall(StringRef rest) {
  SmallVector<StringRef, 6> parts;
  rest.split(parts, '.');
  if (parts.size() < 2)
    return std::nullopt;
  using R = bc::RoundedOp;
  auto op = StringSwitch<std::optional<R>>(parts[0])
                .Case("add", R::Add)
                .Case("mul", R::Mul)
                .Case("fma", R::Fma)
                .Case("div", R::Div)
                .Case("sqrt", R::Sqrt)
                .Case("rcp", R::Rcp)
                .Cases({"i2f", "i2d"}, R::FromS32)
                .Cases({"ui2f", "ui2d"}, R::FromU32)
                .Cases({"ll2f", "ll2d"}, R::FromS64)
                .Cases({"ull2f", "ull2d"}, R::FromU64)
                .Case("d2f", R::FromF64)
                .Cases({"f2f16", "ff2f16x2", "f2h"}, R::ToHalf)
                .Cases({"f2bf16", "ff2bf16x2"}, R::ToBfloat)
                .Case("f2tf32", R::ToTf32)
                .Default(std::nullopt);
  auto rounding = StringSwitch<std::optional<bc::Rounding>>(parts[1])
                      .Case("rn", bc::Rounding::Nearest)
                      .Case("rz", bc::Rounding::Zero)
                      .Case("rm", bc::Rounding::Down)
                      .Case("rp", bc::Rounding::Up)
                      .Case("rna", bc::Rounding::NearestAway)
                      .Default(std::nullopt);
  if (!op || !rounding)
    return std::nullopt;
  if (*rounding == bc::Rounding::NearestAway && *op != R::ToTf32)
    return std::nullopt; // .rna is tf32's only
  RoundedCall c{*op, *rounding, 0};
  for (size_t i = 2; i < parts.size(); ++i) {
    bool toSmall = *op == R::ToHalf || *op == R::ToBfloat || *op == R::ToTf32;
    if (parts[i] == "ftz")
      c.flags |= bc::kRoundFtz;
    else if (parts[i] == "sat" && !toSmall)
      c.flags |= bc::kRoundSat;
    else if (parts[i] == "relu" && toSmall)
      c.flags |= bc::kRoundRelu;
    else if (parts[i] == "satfinite" && toSmall)
      c.flags |= bc::kRoundSatFinite;
    else if (!(i + 1 == parts.size() && (parts[i] == "f" || parts[i] == "d")))
      return std::nullopt; // a form this table does not know
  }
  return c;
}

// The 8-bit float conversions: ff.to.<e4m3x2|e5m2x2>.rn[.relu] (two
// f32), f16x2.to.<e4m3x2|e5m2x2>.rn[.relu] and <e4m3x2|e5m2x2>.to.f16x2.rn
// [.relu]; `rest` follows "llvm.nvvm.".
std::optional<Fp8Call> fp8Call(StringRef rest) {
  SmallVector<StringRef, 6> parts;
  rest.split(parts, '.');
  if (parts.size() < 4 || parts[1] != "to" || parts[3] != "rn")
    return std::nullopt;
  Fp8Call c{};
  using R = bc::RoundedOp;
  if (parts[0] == "ff" || parts[0] == "f16x2") {
    c.fromHalf = parts[0] == "f16x2";
    if (parts[2] == "e4m3x2")
      c.op = R::ToE4m3;
    else if (parts[2] == "e5m2x2")
      c.op = R::ToE5m2;
    else
      return std::nullopt;
  } else if (parts[2] == "f16x2" &&
             (parts[0] == "e4m3x2" || parts[0] == "e5m2x2")) {
    c.op = parts[0] == "e4m3x2" ? R::FromE4m3 : R::FromE5m2;
  } else {
    return std::nullopt;
  }
  for (size_t i = 4; i < parts.size(); ++i) {
    if (parts[i] != "relu")
      return std::nullopt;
    c.relu = true;
  }
  return c;
}

// libdevice (__nv_*) functions the CUDA math headers call.
std::optional<MathFn> libdevice(StringRef name) {
  if (!name.consume_front("__nv_"))
    return std::nullopt;
  name.consume_front("fast_");
  if (name.size() > 1 && name.ends_with("f") && name != "erf" &&
      name != "modf" && name != "fdividef")
    name = name.drop_back(); // float flavour; the type comes from the call
  return decodeCode(
      StringSwitch<int>(name)
          .Case("sqrt", floatCode(FloatFnKind::Sqrt))
          .Case("rsqrt", floatCode(FloatFnKind::Rsqrt))
          .Case("fabs", floatCode(FloatFnKind::Fabs))
          .Case("exp", floatCode(FloatFnKind::Exp))
          .Case("exp2", floatCode(FloatFnKind::Exp2))
          .Case("exp10", floatCode(FloatFnKind::Exp10))
          .Case("log", floatCode(FloatFnKind::Log))
          .Case("log2", floatCode(FloatFnKind::Log2))
          .Case("log10", floatCode(FloatFnKind::Log10))
          .Case("sin", floatCode(FloatFnKind::Sin))
          .Case("cos", floatCode(FloatFnKind::Cos))
          .Case("tan", floatCode(FloatFnKind::Tan))
          .Case("tanh", floatCode(FloatFnKind::Tanh))
          .Case("floor", floatCode(FloatFnKind::Floor))
          .Case("ceil", floatCode(FloatFnKind::Ceil))
          .Case("trunc", floatCode(FloatFnKind::Trunc))
          .Case("round", floatCode(FloatFnKind::Round))
          .Case("rint", floatCode(FloatFnKind::Rint))
          .Case("nearbyint", floatCode(FloatFnKind::Rint))
          .Case("fmin", floatCode(FloatFnKind::MinNum))
          .Case("fmax", floatCode(FloatFnKind::MaxNum))
          .Case("copysign", floatCode(FloatFnKind::CopySign))
          .Case("pow", floatCode(FloatFnKind::Pow))
          .Case("fmod", floatCode(FloatFnKind::Fmod))
          .Case("atan2", floatCode(FloatFnKind::Atan2))
          .Case("erf", floatCode(FloatFnKind::Erf))
          .Case("fma", floatCode(FloatFnKind::Fma))
          .Case("fdividef", floatCode(FloatFnKind::Div))
          .Case("fdivide", floatCode(FloatFnKind::Div))
          .Case("saturate", floatCode(FloatFnKind::Saturate))
          .Cases({"min", "llmin"}, intCode(IntFnKind::SMin))
          .Cases({"max", "llmax"}, intCode(IntFnKind::SMax))
          .Cases({"umin", "ullmin"}, intCode(IntFnKind::UMin))
          .Cases({"umax", "ullmax"}, intCode(IntFnKind::UMax))
          .Cases({"abs", "llabs"}, intCode(IntFnKind::Abs))
          .Cases({"popc", "popcll"}, intCode(IntFnKind::Ctpop))
          .Cases({"clz", "clzll"}, intCode(IntFnKind::Ctlz))
          .Cases({"brev", "brevll"}, intCode(IntFnKind::Bitreverse))
          .Cases({"mulhi", "mul64hi"}, intCode(IntFnKind::MulHiS))
          .Cases({"umulhi", "umul64hi"}, intCode(IntFnKind::MulHiU))
          .Case("mul24", intCode(IntFnKind::Mul24S))
          .Case("umul24", intCode(IntFnKind::Mul24U))
          .Default(-1));
}

} // namespace kcheck::sim::decode
