// NVVM intrinsics the engine has no instruction for, rewritten as ones it
// has. match.{any,all}.sync (cuda::pipeline, atomic aggregation) compares each
// lane's value with every lane's through shuffles.
// llvm.nvvm.redux.sync.OP(value, membermask) (REDUX, sm_80+; what cg::reduce
// becomes on integers) is a reduction over the lanes of the mask: here a
// shuffle per lane of the mask. Shuffles are no memory instruction, so the
// counters are unchanged.
#include "analyzer/ptx/PtxLowerer.h"
#include "analyzer/ptx/PtxLowering.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#include <cstring>

namespace kcheck::analyzer {

using namespace llvm;

namespace {

Value *combine(IRBuilder<> &b, StringRef op, Value *x, Value *y) {
  if (op == "add")
    return b.CreateAdd(x, y);
  if (op == "and")
    return b.CreateAnd(x, y);
  if (op == "or")
    return b.CreateOr(x, y);
  if (op == "xor")
    return b.CreateXor(x, y);
  if (op == "min")
    return b.CreateBinaryIntrinsic(Intrinsic::smin, x, y);
  if (op == "max")
    return b.CreateBinaryIntrinsic(Intrinsic::smax, x, y);
  if (op == "umin")
    return b.CreateBinaryIntrinsic(Intrinsic::umin, x, y);
  if (op == "umax")
    return b.CreateBinaryIntrinsic(Intrinsic::umax, x, y);
  return nullptr;
}

bool lowerRedux(CallInst &call, StringRef op) {
  Module &m = *call.getModule();
  IRBuilder<> b(&call);
  Value *value = call.getArgOperand(0), *mask = call.getArgOperand(1);
  if (!value->getType()->isIntegerTy(32))
    return false;
  FunctionCallee shfl = m.getOrInsertFunction(
      "llvm.nvvm.shfl.sync.idx.i32", b.getInt32Ty(), b.getInt32Ty(),
      b.getInt32Ty(), b.getInt32Ty(), b.getInt32Ty());
  // Lane 0 may be outside the mask: start from the lowest lane inside.
  Value *lowest = b.CreateBinaryIntrinsic(Intrinsic::cttz, mask, b.getTrue());
  Value *first = b.CreateCall(shfl, {mask, value, lowest, b.getInt32(31)});
  Value *result = first;
  for (unsigned lane = 0; lane < 32; ++lane) {
    Value *v =
        b.CreateCall(shfl, {mask, value, b.getInt32(lane), b.getInt32(31)});
    Value *take =
        b.CreateAnd(b.CreateICmpNE(b.CreateAnd(mask, b.getInt32(1u << lane)),
                                   b.getInt32(0)),
                    b.CreateICmpNE(lowest, b.getInt32(lane)));
    Value *joined = combine(b, op, result, v);
    if (!joined)
      return false;
    result = b.CreateSelect(take, joined, result);
  }
  call.replaceAllUsesWith(result);
  call.eraseFromParent();
  return true;
}

// llvm.nvvm.match.{any,all}.sync.{i32,i64}[p](membermask, value): the lanes
// of the mask holding the same value, from one shuffle per lane (two for
// 64-bit values).
bool lowerMatch(CallInst &call, bool all) {
  Module &m = *call.getModule();
  IRBuilder<> b(&call);
  Value *mask = call.getArgOperand(0), *value = call.getArgOperand(1);
  auto *vt = dyn_cast<IntegerType>(value->getType());
  if (!vt || (vt->getBitWidth() != 32 && vt->getBitWidth() != 64))
    return false;
  FunctionCallee shfl = m.getOrInsertFunction(
      "llvm.nvvm.shfl.sync.idx.i32", b.getInt32Ty(), b.getInt32Ty(),
      b.getInt32Ty(), b.getInt32Ty(), b.getInt32Ty());
  auto lane = [&](Value *v, unsigned j) -> Value * {
    if (vt->getBitWidth() == 32)
      return b.CreateCall(shfl, {mask, v, b.getInt32(j), b.getInt32(31)});
    Value *lo = b.CreateTrunc(v, b.getInt32Ty());
    Value *hi = b.CreateTrunc(b.CreateLShr(v, 32), b.getInt32Ty());
    Value *l = b.CreateCall(shfl, {mask, lo, b.getInt32(j), b.getInt32(31)});
    Value *h = b.CreateCall(shfl, {mask, hi, b.getInt32(j), b.getInt32(31)});
    return b.CreateOr(b.CreateZExt(l, vt),
                      b.CreateShl(b.CreateZExt(h, vt), 32));
  };
  Value *same = b.getInt32(0);
  for (unsigned j = 0; j < 32; ++j) {
    Value *eq = b.CreateICmpEQ(lane(value, j), value);
    same = b.CreateOr(same, b.CreateShl(b.CreateZExt(eq, b.getInt32Ty()), j));
  }
  same = b.CreateAnd(same, mask);
  Value *result = same;
  if (all) {
    Value *allSame = b.CreateICmpEQ(same, mask);
    Value *r = b.CreateSelect(allSame, mask, b.getInt32(0));
    result = PoisonValue::get(call.getType());
    result = b.CreateInsertValue(result, r, 0);
    result = b.CreateInsertValue(result, allSame, 1);
  }
  call.replaceAllUsesWith(result);
  call.eraseFromParent();
  return true;
}

// NVVM intrinsics of fixed rounding (libdevice's building blocks) as the
// generic IR they equal: .rn is IEEE's default rounding, .ftz flushes
// subnormals, which the engine does not model (noted in the assumptions).
Value *lowerArithmetic(IRBuilder<> &b, StringRef name, CallInst &call) {
  auto arg = [&](unsigned i) { return call.getArgOperand(i); };
  StringRef fn = name.split('.').first;
  bool approx = name.contains(".approx");
  Type *t = call.getType();
  // The round-to-nearest forms without .ftz or .sat are IR's own operations;
  // the others the engine executes (bc::Op::RoundedFloat).
  bool plainNearest = name.ends_with(".rn.f") || name.ends_with(".rn.d");
  if (fn == "fma" && plainNearest)
    return b.CreateIntrinsic(Intrinsic::fma, {t}, {arg(0), arg(1), arg(2)});
  if (fn == "add" && plainNearest)
    return b.CreateFAdd(arg(0), arg(1));
  if (fn == "mul" && plainNearest)
    return b.CreateFMul(arg(0), arg(1));
  if (fn == "sad") { // sad.{s32,u32}: |a - b| + c
    bool isSigned = name.starts_with("sad.i");
    Value *greater = isSigned ? b.CreateICmpSGT(arg(0), arg(1))
                              : b.CreateICmpUGT(arg(0), arg(1));
    Value *difference = b.CreateSelect(greater, b.CreateSub(arg(0), arg(1)),
                                       b.CreateSub(arg(1), arg(0)));
    return b.CreateAdd(difference, arg(2));
  }
  if (name == "prmt")
    return ptx::bytePermute(b, arg(0), arg(1), arg(2));
  if (fn == "fabs")
    return b.CreateUnaryIntrinsic(Intrinsic::fabs, arg(0));
  if (fn == "trunc")
    return b.CreateUnaryIntrinsic(Intrinsic::trunc, arg(0));
  if (fn == "round") // cvt.rni: to the nearest integer, ties to even
    return b.CreateUnaryIntrinsic(Intrinsic::rint, arg(0));
  if (fn == "floor")
    return b.CreateUnaryIntrinsic(Intrinsic::floor, arg(0));
  if (fn == "ceil")
    return b.CreateUnaryIntrinsic(Intrinsic::ceil, arg(0));
  if (fn == "rcp" && (approx || plainNearest))
    return b.CreateFDiv(ConstantFP::get(t, 1.0), arg(0));
  if (fn == "d2i" && (name == "d2i.hi" || name == "d2i.lo")) {
    Value *bits = b.CreateBitCast(arg(0), b.getInt64Ty());
    if (name == "d2i.hi")
      bits = b.CreateLShr(bits, 32);
    return b.CreateTrunc(bits, b.getInt32Ty());
  }
  if (name == "lohi.i2d") {
    Value *lo = b.CreateZExt(arg(0), b.getInt64Ty());
    Value *hi = b.CreateShl(b.CreateZExt(arg(1), b.getInt64Ty()), 32);
    return b.CreateBitCast(b.CreateOr(lo, hi), b.getDoubleTy());
  }
  // f2i/d2i/f2ui/d2ui/f2ll/d2ll... .rn/.rz/.rm/.rp: round, then convert.
  bool toInt = (fn.starts_with("f2") || fn.starts_with("d2")) &&
               (fn.ends_with("i") || fn.ends_with("ll")) && t->isIntegerTy();
  if (toInt) {
    Intrinsic::ID round = name.contains(".rn")   ? Intrinsic::rint
                          : name.contains(".rm") ? Intrinsic::floor
                          : name.contains(".rp") ? Intrinsic::ceil
                                                 : Intrinsic::trunc;
    Value *x = arg(0);
    if (name.contains(".ftz") && x->getType()->isFloatTy()) {
      // .ftz: a subnormal input is a signed zero.
      Value *tiny = b.CreateFCmpOLT(b.CreateUnaryIntrinsic(Intrinsic::fabs, x),
                                    ConstantFP::get(x->getType(), 0x1p-126));
      x = b.CreateSelect(
          tiny,
          b.CreateBinaryIntrinsic(Intrinsic::copysign,
                                  ConstantFP::get(x->getType(), 0.0), x),
          x);
    }
    Value *r = b.CreateUnaryIntrinsic(round, x);
    return fn.contains("u") ? b.CreateFPToUI(r, t) : b.CreateFPToSI(r, t);
  }
  return nullptr;
}

} // namespace

// llvm.{u,s}{add,sub}.sat: the result clamped to the type's range.
Value *lowerSaturating(IRBuilder<> &b, Intrinsic::ID id, CallInst &call) {
  Value *x = call.getArgOperand(0), *y = call.getArgOperand(1);
  auto *t = dyn_cast<IntegerType>(call.getType());
  if (!t)
    return nullptr;
  unsigned w = t->getBitWidth();
  Type *wideType = b.getIntNTy(w + 1);
  bool isSigned = id == Intrinsic::sadd_sat || id == Intrinsic::ssub_sat;
  bool isAdd = id == Intrinsic::uadd_sat || id == Intrinsic::sadd_sat;
  Value *wx = isSigned ? b.CreateSExt(x, wideType) : b.CreateZExt(x, wideType);
  Value *wy = isSigned ? b.CreateSExt(y, wideType) : b.CreateZExt(y, wideType);
  Value *r = isAdd ? b.CreateAdd(wx, wy) : b.CreateSub(wx, wy);
  APInt lo = isSigned ? APInt::getSignedMinValue(w) : APInt::getMinValue(w);
  APInt hi = isSigned ? APInt::getSignedMaxValue(w) : APInt::getMaxValue(w);
  Value *wlo =
      ConstantInt::get(wideType, isSigned ? lo.sext(w + 1) : lo.zext(w + 1));
  Value *whi =
      ConstantInt::get(wideType, isSigned ? hi.sext(w + 1) : hi.zext(w + 1));
  r = b.CreateSelect(b.CreateICmpSLT(r, wlo), wlo, r);
  r = b.CreateSelect(b.CreateICmpSGT(r, whi), whi, r);
  return b.CreateTrunc(r, t);
}

// llvm.vector.reduce.{add,mul,and,or,xor,smax,smin,umax,umin} on integers
// (the loop vectorizer's reductions): the elements combined in order.
Value *lowerVectorReduce(IRBuilder<> &b, Intrinsic::ID id, CallInst &call) {
  Instruction::BinaryOps op = Instruction::Add;
  Intrinsic::ID minmax = Intrinsic::not_intrinsic;
  switch (id) {
  case Intrinsic::vector_reduce_add:
    op = Instruction::Add;
    break;
  case Intrinsic::vector_reduce_mul:
    op = Instruction::Mul;
    break;
  case Intrinsic::vector_reduce_and:
    op = Instruction::And;
    break;
  case Intrinsic::vector_reduce_or:
    op = Instruction::Or;
    break;
  case Intrinsic::vector_reduce_xor:
    op = Instruction::Xor;
    break;
  case Intrinsic::vector_reduce_smax:
    minmax = Intrinsic::smax;
    break;
  case Intrinsic::vector_reduce_smin:
    minmax = Intrinsic::smin;
    break;
  case Intrinsic::vector_reduce_umax:
    minmax = Intrinsic::umax;
    break;
  case Intrinsic::vector_reduce_umin:
    minmax = Intrinsic::umin;
    break;
  default:
    return nullptr;
  }
  auto *vt = dyn_cast<FixedVectorType>(call.getArgOperand(0)->getType());
  if (!vt || !vt->getElementType()->isIntegerTy())
    return nullptr;
  Value *v = call.getArgOperand(0);
  Value *acc = b.CreateExtractElement(v, uint64_t(0));
  for (unsigned i = 1; i < vt->getNumElements(); ++i) {
    Value *e = b.CreateExtractElement(v, i);
    acc = minmax != Intrinsic::not_intrinsic
              ? b.CreateBinaryIntrinsic(minmax, acc, e)
              : b.CreateBinOp(op, acc, e);
  }
  return acc;
}

std::vector<CallInst *> callsTo(Module &module,
                                const std::function<bool(StringRef)> &wanted) {
  std::vector<CallInst *> calls;
  for (Function &f : module)
    for (BasicBlock &bb : f)
      for (Instruction &i : bb)
        if (auto *c = dyn_cast<CallInst>(&i))
          if (Function *callee = c->getCalledFunction();
              callee && wanted(callee->getName()))
            calls.push_back(c);
  return calls;
}

void lowerNvvmArithmeticIntrinsics(Module &module) {
  std::vector<CallInst *> calls = callsTo(module, [](StringRef name) {
    return name.starts_with("llvm.nvvm.") || name.contains(".sat.") ||
           name.starts_with("llvm.vector.reduce.");
  });
  for (CallInst *call : calls) {
    IRBuilder<> b(call);
    Intrinsic::ID id = call->getCalledFunction()->getIntrinsicID();
    if (id == Intrinsic::uadd_sat || id == Intrinsic::usub_sat ||
        id == Intrinsic::sadd_sat || id == Intrinsic::ssub_sat) {
      if (Value *v = lowerSaturating(b, id, *call)) {
        call->replaceAllUsesWith(v);
        call->eraseFromParent();
      }
      continue;
    }
    if (Value *v = lowerVectorReduce(b, id, *call)) {
      call->replaceAllUsesWith(v);
      call->eraseFromParent();
      continue;
    }
    if (!call->getCalledFunction()->getName().starts_with("llvm.nvvm."))
      continue;
    StringRef name = call->getCalledFunction()->getName().drop_front(10);
    if (name == "nanosleep") { // the simulation keeps no time
      call->eraseFromParent();
      continue;
    }
    if (Value *v = lowerArithmetic(b, name, *call)) {
      call->replaceAllUsesWith(v);
      call->eraseFromParent();
    }
  }
}

namespace {

// llvm.nvvm.atomic.<op>.gen.<i|f>.<cta|sys>.<type>.p0 (atomicAdd_block,
// atomicCAS_system, ...): the atomicrmw or cmpxchg Clang emits for the
// unscoped builtin, in the call's scope. Clang emits the signed intrinsic for
// the unsigned max/min builtins too (its PTX says atom.sys.max.s32), and so
// does this lowering.
bool lowerScopedAtomic(CallInst &call, StringRef name) {
  SmallVector<StringRef, 8> parts;
  name.split(parts, '.');
  // {op, "gen", i|f, cta|sys, type, p0}
  if (parts.size() != 6 || parts[1] != "gen")
    return false;
  bool isFloat = parts[2] == "f";
  StringRef op = parts[0], scope = parts[3];
  LLVMContext &context = call.getContext();
  if (scope != "cta" && scope != "sys")
    return false;
  SyncScope::ID sync = scope == "cta" ? context.getOrInsertSyncScopeID("block")
                                      : SyncScope::ID(SyncScope::System);
  IRBuilder<> b(&call);
  Value *ptr = call.getArgOperand(0), *value = call.getArgOperand(1);
  Value *result = nullptr;
  if (op == "cas") {
    auto *cx =
        b.CreateAtomicCmpXchg(ptr, value, call.getArgOperand(2), MaybeAlign(),
                              AtomicOrdering::SequentiallyConsistent,
                              AtomicOrdering::SequentiallyConsistent, sync);
    result = b.CreateExtractValue(cx, 0);
  } else {
    using B = AtomicRMWInst::BinOp;
    std::optional<B> rmw = op == "add"
                               ? std::optional<B>(isFloat ? B::FAdd : B::Add)
                           : op == "exch" ? std::optional<B>(B::Xchg)
                           : op == "max"  ? std::optional<B>(B::Max)
                           : op == "min"  ? std::optional<B>(B::Min)
                           : op == "and"  ? std::optional<B>(B::And)
                           : op == "or"   ? std::optional<B>(B::Or)
                           : op == "xor"  ? std::optional<B>(B::Xor)
                           : op == "inc"  ? std::optional<B>(B::UIncWrap)
                           : op == "dec"  ? std::optional<B>(B::UDecWrap)
                                          : std::nullopt;
    if (!rmw || (isFloat && *rmw != B::FAdd))
      return false;
    result = b.CreateAtomicRMW(*rmw, ptr, value, MaybeAlign(),
                               AtomicOrdering::SequentiallyConsistent, sync);
  }
  if (auto *i = dyn_cast<Instruction>(result))
    i->setDebugLoc(call.getDebugLoc());
  call.replaceAllUsesWith(result);
  call.eraseFromParent();
  return true;
}

// llvm.nvvm.ldu.global.<i|f|p>.<type>.p0(ptr, align) (__ldu): a load of
// memory no thread writes during the kernel, as __ldg's: a global load with
// !invariant.load.
bool lowerLdu(CallInst &call) {
  auto *align = dyn_cast<ConstantInt>(call.getArgOperand(1));
  if (!align || !isPowerOf2_64(align->getZExtValue()))
    return false;
  IRBuilder<> b(&call);
  Value *global = b.CreateAddrSpaceCast(call.getArgOperand(0),
                                        PointerType::get(call.getContext(), 1));
  LoadInst *load =
      b.CreateAlignedLoad(call.getType(), global, Align(align->getZExtValue()));
  load->setMetadata(LLVMContext::MD_invariant_load,
                    MDNode::get(call.getContext(), {}));
  load->setDebugLoc(call.getDebugLoc());
  call.replaceAllUsesWith(load);
  call.eraseFromParent();
  return true;
}

} // namespace

void lowerNvvmMemoryIntrinsics(Module &module) {
  std::vector<CallInst *> calls = callsTo(module, [](StringRef name) {
    return name.starts_with("llvm.nvvm.atomic.") ||
           name.starts_with("llvm.nvvm.ldu.global.");
  });
  // One it cannot lower is left for the engine to name.
  for (CallInst *call : calls) {
    StringRef n = call->getCalledFunction()->getName();
    if (n.consume_front("llvm.nvvm.atomic."))
      lowerScopedAtomic(*call, n);
    else
      lowerLdu(*call);
  }
}

void lowerNvvmWarpIntrinsics(Module &module) {
  std::vector<CallInst *> calls = callsTo(module, [](StringRef name) {
    return name.starts_with("llvm.nvvm.redux.sync.") ||
           name.starts_with("llvm.nvvm.match.any.sync") ||
           name.starts_with("llvm.nvvm.match.all.sync");
  });
  // One it cannot lower is left for the engine to name.
  for (CallInst *call : calls) {
    StringRef n = call->getCalledFunction()->getName();
    if (n.starts_with("llvm.nvvm.match.any"))
      lowerMatch(*call, false);
    else if (n.starts_with("llvm.nvvm.match.all"))
      lowerMatch(*call, true);
    else
      lowerRedux(*call, n.drop_front(strlen("llvm.nvvm.redux.sync.")));
  }
}

} // namespace kcheck::analyzer
