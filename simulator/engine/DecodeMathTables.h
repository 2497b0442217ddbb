// The call decoder's tables of math functions (DecodeCalls.cpp): which
// engine function (bc::FloatFnKind, bc::IntFnKind) a generic LLVM
// intrinsic, an NVVM intrinsic or a libdevice __nv_* function is, with its
// modifiers, and PTX's explicitly rounded arithmetic and conversions
// (bc::Op::RoundedFloat). Pure lookups by name or intrinsic id.
#pragma once

#include "simulator/engine/Bytecode.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Intrinsics.h"

#include <cstdint>
#include <optional>

namespace llvm {
class Type;
}

namespace kcheck::sim::decode {

struct MathFn {
  bool isFloat;
  uint8_t kind; // a bc::FloatFnKind when isFloat, else a bc::IntFnKind
};
std::optional<MathFn> floatFn(bc::FloatFnKind k);
std::optional<MathFn> intFn(bc::IntFnKind k);

/// LLVM's generic intrinsics the engine computes (llvm.sqrt, llvm.umin...).
std::optional<MathFn> genericIntrinsic(llvm::Intrinsic::ID id);
/// llvm.nvvm.<fn>[.modifiers].<type>; `rest` follows "llvm.nvvm.".
std::optional<MathFn> nvvmMath(llvm::StringRef rest);
/// That call's modifiers as bc::kFn* flags (none: a modifier the engine
/// does not know on a form that must not drop it).
std::optional<uint16_t> nvvmModifiers(llvm::StringRef rest, llvm::Type *type);

/// llvm.nvvm.<op>.<rounding>[.ftz][.sat].<f|d>, the conversions
/// <from>2<f|d>.<rounding>[.ftz] and to 16-bit floats.
struct RoundedCall {
  bc::RoundedOp op;
  bc::Rounding rounding;
  uint16_t flags;
};
std::optional<RoundedCall> roundedFloatCall(llvm::StringRef rest);

/// The 8-bit float conversions (ff.to.e4m3x2.rn, f16x2.to.e5m2x2.rn.relu,
/// e4m3x2.to.f16x2.rn): bc::RoundedOp::ToE4m3 ... FromE5m2.
struct Fp8Call {
  bc::RoundedOp op;
  bool fromHalf; // an f16x2 operand, not two f32
  bool relu;
};
std::optional<Fp8Call> fp8Call(llvm::StringRef rest);

/// libdevice (__nv_*) functions the CUDA math headers call.
std::optional<MathFn> libdevice(llvm::StringRef name);

} // namespace kcheck::sim::decode
