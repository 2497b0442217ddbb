// Decoding of calls: NVVM special registers, barriers, warp primitives,
// math intrinsics (generic, NVVM and libdevice __nv_*, by the tables of
// DecodeMathTables.h), memory intrinsics and vprintf. Intrinsics are matched by
// name because NVVM names change between LLVM versions (barrier0 vs
// barrier.cta.sync.aligned.all).
#include "simulator/engine/Decoder.h"

#include "simulator/engine/DecodeMathTables.h"

#include "core/PtxTags.h"
#include "core/TextureInstruction.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

#include <optional>

namespace kcheck::sim {

using namespace llvm;
using bc::FloatFnKind;
using bc::Inst;
using bc::IntFnKind;
using bc::Op;

namespace {

std::optional<bc::SregKind> sregOf(StringRef reg) {
  using S = bc::SregKind;
  int kind = StringSwitch<int>(reg)
                 .Case("tid.x", int(S::TidX))
                 .Case("tid.y", int(S::TidY))
                 .Case("tid.z", int(S::TidZ))
                 .Case("ntid.x", int(S::NtidX))
                 .Case("ntid.y", int(S::NtidY))
                 .Case("ntid.z", int(S::NtidZ))
                 .Case("ctaid.x", int(S::CtaidX))
                 .Case("ctaid.y", int(S::CtaidY))
                 .Case("ctaid.z", int(S::CtaidZ))
                 .Case("nctaid.x", int(S::NctaidX))
                 .Case("nctaid.y", int(S::NctaidY))
                 .Case("nctaid.z", int(S::NctaidZ))
                 .Case("laneid", int(S::LaneId))
                 .Case("warpid", int(S::WarpId))
                 .Case("nwarpid", int(S::NWarpId))
                 .Case("warpsize", int(S::WarpSize))
                 .Case("lanemask.eq", int(S::LaneMaskEq))
                 .Case("lanemask.lt", int(S::LaneMaskLt))
                 .Case("lanemask.le", int(S::LaneMaskLe))
                 .Case("lanemask.gt", int(S::LaneMaskGt))
                 .Case("lanemask.ge", int(S::LaneMaskGe))
                 .Cases({"clock", "clock64", "globaltimer"}, int(S::Clock))
                 .Case("envreg1", int(S::GridWorkspaceHi))
                 .Case("envreg2", int(S::GridWorkspaceLo))
                 .Case("cluster.ctaid.x", int(S::ClusterCtaidX))
                 .Case("cluster.ctaid.y", int(S::ClusterCtaidY))
                 .Case("cluster.ctaid.z", int(S::ClusterCtaidZ))
                 .Case("cluster.nctaid.x", int(S::ClusterNctaidX))
                 .Case("cluster.nctaid.y", int(S::ClusterNctaidY))
                 .Case("cluster.nctaid.z", int(S::ClusterNctaidZ))
                 .Case("clusterid.x", int(S::ClusteridX))
                 .Case("clusterid.y", int(S::ClusteridY))
                 .Case("clusterid.z", int(S::ClusteridZ))
                 .Case("nclusterid.x", int(S::NclusteridX))
                 .Case("nclusterid.y", int(S::NclusteridY))
                 .Case("nclusterid.z", int(S::NclusteridZ))
                 .Case("cluster.ctarank", int(S::ClusterCtarank))
                 .Case("cluster.nctarank", int(S::ClusterNctarank))
                 .Default(-1);
  if (kind < 0)
    return std::nullopt;
  return S(kind);
}

bool ignoredIntrinsic(Intrinsic::ID id) {
  switch (id) {
  case Intrinsic::assume:
  case Intrinsic::lifetime_start:
  case Intrinsic::lifetime_end:
  case Intrinsic::dbg_declare:
  case Intrinsic::dbg_value:
  case Intrinsic::dbg_label:
  case Intrinsic::experimental_noalias_scope_decl:
  case Intrinsic::prefetch:
  case Intrinsic::donothing:
  case Intrinsic::sideeffect:
  case Intrinsic::invariant_start:
  case Intrinsic::invariant_end:
  case Intrinsic::var_annotation:
  case Intrinsic::codeview_annotation:
    return true;
  default:
    return false;
  }
}

/// The constant character array `v` points to (a printf format, an assert's
/// message), or null when it is not one.
const ConstantDataSequential *constantChars(const Value *v) {
  auto *g = dyn_cast<GlobalVariable>(getUnderlyingObject(v, 16));
  auto *data = g && g->hasInitializer()
                   ? dyn_cast<ConstantDataSequential>(g->getInitializer())
                   : nullptr;
  return data && data->isString() ? data : nullptr;
}

/// The C string constant `v` points to, or "" when it is not one.
std::string constantString(const Value *v) {
  const ConstantDataSequential *data = constantChars(v);
  return data && data->isCString() ? data->getAsCString().str() : "";
}

/// "Assertion `expr` failed" and the assert's place, from __assertfail's
/// arguments (message, file, line, function) as far as they are constants.
TrapInfo assertTrap(const CallBase &call) {
  TrapInfo t{"A device assert failed", {}, {}, {}};
  if (call.arg_size() < 3)
    return t;
  std::string expr = constantString(call.getArgOperand(0));
  if (!expr.empty())
    t.message = "Assertion `" + expr + "` failed";
  t.expression = expr;
  if (call.arg_size() >= 4)
    t.function = constantString(call.getArgOperand(3));
  std::string file = constantString(call.getArgOperand(1));
  if (auto *line = dyn_cast<ConstantInt>(call.getArgOperand(2));
      line && !file.empty())
    t.at = {file, unsigned(line->getZExtValue()), 0};
  return t;
}

// "call <callee>", the opcode of a decoded call's instruction.
std::string callOpcode(const CallInst &call) {
  return ("call " + call.getCalledFunction()->getName()).str();
}
StringRef calleeName(const CallInst &call) {
  return call.getCalledFunction()->getName();
}

// malloc and free, and the operators new and delete the CUDA headers
// declare for device code (each form: arrays, sized, nothrow, aligned; the
// first argument is the size or the pointer), which the device runtime
// implements with the same heap.
std::optional<bc::DeviceHeapOp> deviceHeapCall(StringRef name) {
  // As the IR pipeline renames them (OpaqueDeviceHeapCallsLikeNvvm).
  name.consume_front("kcheck.device_heap.");
  if (name == "malloc" || name.starts_with("_Znw") || name.starts_with("_Zna"))
    return bc::DeviceHeapOp::Malloc;
  if (name == "free" || name.starts_with("_Zdl") || name.starts_with("_Zda"))
    return bc::DeviceHeapOp::Free;
  return std::nullopt;
}

} // namespace

bool executesNatively(StringRef name) {
  // libdevice's sin, cos and tan read their reduction tables from global
  // memory (__cudart_sin_cos_coeffs on every double call, __cudart_i2opi_f/_d
  // for large arguments), and nvcc's SASS issues those loads: HeCBench gabor's
  // `cos(double)` line, 6144 LDG and 12288 sectors on the H100. They run from
  // libdevice's own code so that the models see the loads; the fast_ (approx)
  // variants read no memory.
  if (StringSwitch<bool>(name)
          .Cases({"__nv_sin", "__nv_cos", "__nv_tan", "__nv_sinf", "__nv_cosf",
                  "__nv_tanf"},
                 true)
          .Default(false))
    return false;
  return decode::libdevice(name).has_value() || name == "vprintf" ||
         name == "__assertfail" || deviceHeapCall(name).has_value();
}

#define TRY_SLOT(var, value)                                                   \
  auto var##OrErr = slotOf(value);                                             \
  if (!var##OrErr)                                                             \
    return var##OrErr.takeError();                                             \
  uint32_t var = *var##OrErr;

Error Decoder::decodeCall(const CallInst &call) {
  const Function *callee = call.getCalledFunction();
  if (call.isInlineAsm()) {
    // The IR pipeline lowers the PTX it knows (analyzer/ptx); what is left
    // carries the reason.
    const MDNode *why = call.getMetadata(core::kUnloweredAsmMetadata);
    std::string reason =
        why && why->getNumOperands() == 1
            ? cast<MDString>(why->getOperand(0))->getString().str()
            : std::string("not lowered");
    return unsupported(call, "inline assembly: " + reason);
  }
  if (!callee)
    return unsupported(call, "indirect call");
  StringRef name = callee->getName();
  Inst in;
  in.dst = resultSlot(call);
  Type *retType = call.getType();
  in.n = retType->isVectorTy()
             ? uint16_t(cast<FixedVectorType>(retType)->getNumElements())
             : 1;

  if (callee->isIntrinsic()) {
    Intrinsic::ID id = callee->getIntrinsicID();
    if (ignoredIntrinsic(id))
      return Error::success();
    if (auto fn = decode::genericIntrinsic(id))
      return emitMath(call, in, fn->isFloat, fn->kind, name);
    switch (id) {
    case Intrinsic::memcpy:
    case Intrinsic::memcpy_inline:
    case Intrinsic::memmove:
    case Intrinsic::memset:
    case Intrinsic::memset_inline:
      return decodeMemTransfer(call, in, id);
    case Intrinsic::convert_from_fp16:
    case Intrinsic::convert_to_fp16: {
      // A half's 16 bits (an i16) to float or double, and back: casts.
      TRY_SLOT(src, call.getArgOperand(0));
      bool from = id == Intrinsic::convert_from_fp16;
      Type *wide = from ? retType : call.getArgOperand(0)->getType();
      in.op = Op::Cast, in.a = src;
      in.sub = uint8_t(from ? bc::CastKind::FPExt : bc::CastKind::FPTrunc);
      auto wideBits = uint8_t(
          wide->getScalarType()->getPrimitiveSizeInBits().getFixedValue());
      in.bits = from ? 16 : wideBits;
      in.bits2 = from ? wideBits : 16;
      in.sub2 = 0; // half
      emit(in, call, callOpcode(call));
      return Error::success();
    }
    case Intrinsic::trap:
    case Intrinsic::debugtrap:
    case Intrinsic::ubsantrap:
      return emitTrap(call, in, {"Kernel trap (__trap())", {}, {}, {}});
    default:
      break;
    }
  }

  if (name.consume_front("llvm.nvvm."))
    return decodeNvvmCall(call, in, name);

  if (auto fn = decode::libdevice(name))
    return emitMath(call, in, fn->isFloat, fn->kind, name);

  if (name == "__assertfail") {
    // A failed device assert: the kernel stops there, as on the GPU, which
    // prints `file:line: function: ... Assertion `expr` failed.` from the
    // arguments (message, file, line, function).
    return emitTrap(call, in, assertTrap(call));
  }
  if (name == "vprintf")
    return decodePrintf(call, in);
  if (std::optional<bc::DeviceHeapOp> heap = deviceHeapCall(name)) {
    TRY_SLOT(operand, call.getArgOperand(0)); // the size, or the pointer
    in.op = Op::DeviceHeap, in.a = operand;
    in.sub = uint8_t(*heap);
    emit(in, call, callOpcode(call));
    return Error::success();
  }
  if (name == core::kTextureReadFunction ||
      name == core::kTextureWriteFunction) {
    // As analyzer/ptx/PtxLowerTexture.cpp writes them.
    auto *desc = dyn_cast<ConstantInt>(call.getArgOperand(0));
    if (!desc || call.arg_size() != 4)
      return unsupported(call, "malformed " + name.str());
    TRY_SLOT(handle, call.getArgOperand(1));
    TRY_SLOT(coords, call.getArgOperand(2));
    TRY_SLOT(extra, call.getArgOperand(3));
    in.op = Op::Texture, in.imm = desc->getZExtValue();
    in.a = handle, in.b = coords, in.c = extra;
    if (name == core::kTextureWriteFunction)
      in.dst = 0, in.n = 0;
    emit(in, call, callOpcode(call));
    return Error::success();
  }
  if (!callee->isDeclaration())
    return unsupported(call, "call to non-inlined function " + name);
  if (name.starts_with("__cudaCDP2") || name == "cudaGraphLaunch" ||
      name == "__kcheck_current_graph_exec" ||
      name.starts_with("cudaGraphKernelNode") ||
      name == "cudaGraphSetConditional" || name.starts_with("cudaCG"))
    return decodeDeviceRuntime(call, in, name);
  return unsupported(call, "call to external function " + name);
}

// An llvm.nvvm.* call; `name` is what follows the prefix.
Error Decoder::decodeNvvmCall(const CallInst &call, Inst &in, StringRef name) {
  Type *retType = call.getType();
  if (name.consume_front("read.ptx.sreg.")) {
    auto reg = sregOf(name);
    if (!reg)
      return unsupported(call, "special register " + name);
    in.op = Op::Sreg;
    in.sub = uint8_t(*reg);
    in.bits = uint8_t(retType->getIntegerBitWidth());
    emit(in, call, callOpcode(call));
    return Error::success();
  }
  if (name.starts_with("membar") || name.starts_with("fence"))
    return Error::success(); // one block runs at a time: fences are no-ops
  if (name.consume_front("barrier.cta.red.")) {
    // barrier.cta.red.{popc,and,or}.aligned.all(id, predicate)
    auto kind =
        StringSwitch<std::optional<bc::BarrierReduction>>(name.split('.').first)
            .Case("popc", bc::BarrierReduction::Popc)
            .Case("and", bc::BarrierReduction::And)
            .Case("or", bc::BarrierReduction::Or)
            .Default(std::nullopt);
    if (!kind || call.arg_size() != 2 ||
        !isa<ConstantInt>(call.getArgOperand(0)))
      return unsupported(call, "intrinsic " + calleeName(call));
    TRY_SLOT(pred, call.getArgOperand(1));
    in.op = Op::Barrier;
    in.sub = uint8_t(*kind);
    in.a = pred;
    emit(in, call, callOpcode(call));
    return Error::success();
  }
  if (name == "barrier0" || name == "barrier.sync" || name == "bar.sync" ||
      name.starts_with("barrier.cta.sync")) {
    if (!retType->isVoidTy())
      return unsupported(call, "barrier with a result: " + name);
    in.op = Op::Barrier;
    emit(in, call, callOpcode(call));
    return Error::success();
  }
  if (name == "is_explicit_cluster") {
    in.op = Op::Sreg;
    in.sub = uint8_t(bc::SregKind::IsExplicitCluster);
    in.bits = uint8_t(retType->getIntegerBitWidth());
    emit(in, call, callOpcode(call));
    return Error::success();
  }
  if (name.consume_front("barrier.cluster.")) {
    // arrive, arrive.relaxed, arrive.aligned, arrive.relaxed.aligned, wait,
    // wait.aligned: the memory ordering .relaxed drops is a no-op here
    // (blocks take turns).
    bool arrive = name.starts_with("arrive"), wait = name.starts_with("wait");
    if (!arrive && !wait)
      return unsupported(call, "intrinsic " + calleeName(call));
    in.op = Op::Cluster;
    in.sub = uint8_t(arrive ? bc::ClusterOp::Arrive : bc::ClusterOp::Wait);
    emit(in, call, callOpcode(call));
    return Error::success();
  }
  if (name == "mapa" || name == "mapa.shared.cluster" || name == "getctarank" ||
      name == "getctarank.shared.cluster") {
    bool map = name.starts_with("mapa"),
         shared = name.ends_with("shared.cluster");
    TRY_SLOT(ptr, call.getArgOperand(0));
    in.op = Op::Cluster, in.a = ptr;
    if (map) {
      TRY_SLOT(rank, call.getArgOperand(1));
      in.b = rank;
    }
    in.sub = uint8_t(
        map ? (shared ? bc::ClusterOp::MapShared : bc::ClusterOp::MapGeneric)
            : (shared ? bc::ClusterOp::RankShared
                      : bc::ClusterOp::RankGeneric));
    emit(in, call, callOpcode(call));
    return Error::success();
  }
  if (name == "bar.warp.sync") {
    in.op = Op::WarpSync;
    if (Error e = memberMaskSlot(call.getArgOperand(0), in))
      return e;
    emit(in, call, callOpcode(call));
    return Error::success();
  }
  if (name == "activemask") {
    in.op = Op::ActiveMask;
    emit(in, call, callOpcode(call));
    return Error::success();
  }
  if (name.consume_front("shfl."))
    return decodeShuffle(call, in, name);
  if (name.consume_front("vote."))
    return decodeVote(call, in, name);
  if (name.consume_front("isspacep.")) {
    auto kind =
        StringSwitch<std::optional<IntFnKind>>(name)
            .Cases({"shared", "shared.cluster"}, IntFnKind::IsSpaceShared)
            .Case("local", IntFnKind::IsSpaceLocal)
            .Cases({"global", "const"}, IntFnKind::IsSpaceGlobal)
            .Default(std::nullopt);
    if (!kind)
      return unsupported(call, "intrinsic " + calleeName(call));
    decode::MathFn fn = *decode::intFn(*kind);
    return emitMath(call, in, fn.isFloat, fn.kind, name);
  }
  if (auto fp8 = decode::fp8Call(name)) {
    // Two operands (ff), or one vector (f16x2, e4m3x2's i16).
    if (Error e = callOperandSlots(call, in))
      return e;
    in.op = Op::RoundedFloat;
    in.sub = uint8_t(fp8->op);
    in.flags = fp8->relu ? bc::kRoundRelu : 0;
    in.bits = 16;
    in.bits2 = fp8->fromHalf ? 16 : 32; // the operands' width
    in.n = uint16_t(fp8->op == bc::RoundedOp::FromE4m3 ||
                            fp8->op == bc::RoundedOp::FromE5m2
                        ? 2
                        : 1);
    emit(in, call, callOpcode(call));
    return Error::success();
  }
  if (auto rounded = decode::roundedFloatCall(name)) {
    Type *result = call.getType();
    // f32 to 16 bits (a half, bfloat or i16 result), or a pair of them from
    // two f32 operands (a <2 x half/bfloat> result); else a float result.
    bool narrowing = rounded->op == bc::RoundedOp::ToHalf ||
                     rounded->op == bc::RoundedOp::ToBfloat ||
                     rounded->op == bc::RoundedOp::ToTf32;
    if (!narrowing && !result->isFloatTy() && !result->isDoubleTy())
      return unsupported(call, "type of intrinsic " + calleeName(call));
    if (Error e = callOperandSlots(call, in))
      return e;
    in.op = Op::RoundedFloat;
    in.sub = uint8_t(rounded->op);
    in.sub2 = uint8_t(rounded->rounding);
    in.flags = rounded->flags;
    if (narrowing) {
      in.bits = rounded->op == bc::RoundedOp::ToTf32 ? 32 : 16;
      in.n = uint16_t(call.arg_size() == 2 ? 2 : 1);
    } else {
      in.bits = result->isFloatTy() ? 32 : 64;
    }
    emit(in, call, callOpcode(call));
    return Error::success();
  }
  if (name == "neg.bf16" || name == "neg.bf16x2") { // a sign flip
    TRY_SLOT(a, call.getArgOperand(0));
    auto n = slotCount(call.getType(), call);
    if (!n)
      return n.takeError();
    in.op = Op::FNeg, in.a = a, in.bits = 16, in.sub2 = 1;
    in.flags = bc::kNegCanonicalNaN;
    in.n = uint16_t(*n);
    emit(in, call, callOpcode(call));
    return Error::success();
  }
  if (auto fn = decode::nvvmMath(name)) {
    std::optional<uint16_t> flags = decode::nvvmModifiers(name, call.getType());
    if (!flags)
      return unsupported(call, "intrinsic " + calleeName(call));
    return emitMath(call, in, fn->isFloat, fn->kind, name, *flags);
  }
  return unsupported(call, "intrinsic " + calleeName(call));
}

// shfl[.sync].<mode>.<type>; `name` is what follows "shfl.".
Error Decoder::decodeShuffle(const CallInst &call, Inst &in, StringRef name) {
  bool sync = name.consume_front("sync.");
  auto [modeText, type] = name.split('.');
  auto mode = StringSwitch<std::optional<bc::ShflMode>>(modeText)
                  .Case("up", bc::ShflMode::Up)
                  .Case("down", bc::ShflMode::Down)
                  .Case("bfly", bc::ShflMode::Bfly)
                  .Case("idx", bc::ShflMode::Idx)
                  .Default(std::nullopt);
  if (!mode ||
      !(type == "i32" || type == "f32" || type == "i32p" || type == "f32p"))
    return unsupported(call, "shuffle " + calleeName(call));
  unsigned first = sync ? 1 : 0; // skip the member mask
  TRY_SLOT(value, call.getArgOperand(first));
  TRY_SLOT(lane, call.getArgOperand(first + 1));
  TRY_SLOT(clamp, call.getArgOperand(first + 2));
  in.op = Op::Shfl, in.sub = uint8_t(*mode);
  in.a = value, in.b = lane, in.c = clamp;
  in.flags = type.ends_with("p"); // returns {value, in-range}
  if (sync)
    if (Error e = memberMaskSlot(call.getArgOperand(0), in))
      return e;
  emit(in, call, callOpcode(call));
  return Error::success();
}

// vote.<kind>[.sync]; `name` is what follows "vote.".
Error Decoder::decodeVote(const CallInst &call, Inst &in, StringRef name) {
  bool sync = name.ends_with(".sync");
  StringRef kindText = name.split('.').first;
  auto kind = StringSwitch<std::optional<bc::VoteKind>>(kindText)
                  .Case("ballot", bc::VoteKind::Ballot)
                  .Case("any", bc::VoteKind::Any)
                  .Case("all", bc::VoteKind::All)
                  .Case("uni", bc::VoteKind::Uni)
                  .Default(std::nullopt);
  if (!kind)
    return unsupported(call, "vote " + calleeName(call));
  TRY_SLOT(pred, call.getArgOperand(sync ? 1 : 0));
  in.op = Op::Vote, in.sub = uint8_t(*kind), in.a = pred;
  if (sync)
    if (Error e = memberMaskSlot(call.getArgOperand(0), in))
      return e;
  emit(in, call, callOpcode(call));
  return Error::success();
}

// The first three arguments' slots into in.a, in.b, in.c.
Error Decoder::callOperandSlots(const CallInst &call, Inst &in) {
  uint32_t *fields[3] = {&in.a, &in.b, &in.c};
  for (unsigned i = 0; i < call.arg_size() && i < 3; ++i) {
    auto s = slotOf(call.getArgOperand(i));
    if (!s)
      return s.takeError();
    *fields[i] = *s;
  }
  return Error::success();
}

// A warp-synchronous call's member mask, when it is a runtime value: the
// engine checks that each calling lane is in it (bc::kMemberMaskSlot).
Error Decoder::memberMaskSlot(const Value *mask, Inst &in) {
  if (isa<Constant>(mask))
    return Error::success();
  auto s = slotOf(mask);
  if (!s)
    return s.takeError();
  in.aux = *s;
  in.flags |= bc::kMemberMaskSlot;
  return Error::success();
}

// `name`: the callee's name as the caller matched it, for the error.
Error Decoder::emitMath(const CallInst &call, Inst &in, bool isFloat,
                        uint8_t kind, StringRef name, uint16_t flags) {
  if (Error e = callOperandSlots(call, in))
    return e;
  Type *retType = call.getType();
  Type *scalar = retType->getScalarType();
  if (isFloat && !scalar->isFloatTy() && !scalar->isDoubleTy() &&
      !scalar->isHalfTy() && !scalar->isBFloatTy())
    return unsupported(call, "type of " + name);
  in.op = isFloat ? Op::FloatFn : Op::IntFn;
  in.sub = kind;
  in.flags = flags;
  if (isFloat)
    setFloatFormat(retType, in);
  in.bits = uint8_t(scalar->getPrimitiveSizeInBits().getFixedValue());
  if (auto n = slotCount(retType, call); !n)
    return n.takeError();
  emit(in, call, callOpcode(call));
  return Error::success();
}

// llvm.memcpy, llvm.memmove, llvm.memset and their _inline forms.
Error Decoder::decodeMemTransfer(const CallInst &call, Inst &in, unsigned id) {
  if (Error e = callOperandSlots(call, in))
    return e;
  in.op = (id == Intrinsic::memset || id == Intrinsic::memset_inline)
              ? Op::MemSet
              : Op::MemCpy;
  in.sub = uint8_t(call.getArgOperand(0)->getType()->getPointerAddressSpace());
  in.sub2 =
      in.op == Op::MemCpy
          ? uint8_t(call.getArgOperand(1)->getType()->getPointerAddressSpace())
          : 0;
  emit(in, call, callOpcode(call));
  return Error::success();
}

Error Decoder::emitTrap(const CallInst &call, Inst &in, TrapInfo trap) {
  in.op = Op::Trap;
  in.aux = uint32_t(k_.traps_.size());
  k_.traps_.push_back(std::move(trap));
  emit(in, call, callOpcode(call));
  return Error::success();
}

Error Decoder::decodePrintf(const CallInst &call, Inst &in) {
  const ConstantDataSequential *data = constantChars(call.getArgOperand(0));
  if (!data)
    return unsupported(call, "printf with a non-constant format");
  TRY_SLOT(buffer, call.getArgOperand(1));
  in.op = Op::Printf, in.b = buffer;
  in.aux = uint32_t(k_.formats_.size());
  k_.formats_.push_back({data->getAsString().str()});
  emit(in, call, callOpcode(call));
  return Error::success();
}

} // namespace kcheck::sim
