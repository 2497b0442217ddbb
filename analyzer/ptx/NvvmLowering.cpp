// NVVM intrinsics the engine has no instruction for, rewritten as ones it
// has. match.{any,all}.sync (cuda::pipeline, atomic aggregation) compares each
// lane's value with every lane's through shuffles.
// llvm.nvvm.redux.sync.OP(value, membermask) (REDUX, sm_80+; what cg::reduce
// becomes on integers) is a reduction over the lanes of the mask: here a
// shuffle per lane of the mask. Shuffles are no memory instruction, so the
// counters are unchanged.
#include "analyzer/ptx/PtxLowerer.h"
#include "analyzer/ptx/PtxLowering.h"
#include "core/PtxTags.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Local.h"

#include <cstring>
#include <set>

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

// llvm.nvvm.fns(mask, base, offset) (PTX fns.b32, "find the n-th set"):
// the position of the |offset|-th set bit of `mask` from `base` upward
// (offset > 0) or downward (offset < 0), or base itself when offset is 0 and
// that bit is set; 0xffffffff when there is none. As the PTX ISA 9.0 gives
// it in pseudocode, unrolled over the 32 positions the search can visit.
Value *lowerFns(IRBuilder<> &b, CallInst &call) {
  Value *mask = call.getArgOperand(0), *base = call.getArgOperand(1),
        *offset = call.getArgOperand(2);
  Value *none = b.getInt32(~0u);
  auto bitAt = [&](Value *pos) { // mask[pos], pos in [0, 32)
    return b.CreateTrunc(b.CreateLShr(mask, pos), b.getInt1Ty());
  };
  auto inRange = [&](Value *pos) {
    return b.CreateICmpULT(pos, b.getInt32(32));
  };
  // offset == 0: base itself.
  Value *atBase = b.CreateSelect(
      b.CreateAnd(inRange(base), bitAt(b.CreateAnd(base, b.getInt32(31)))),
      base, none);
  // Otherwise: count down |offset| - 1 set bits from base in the direction
  // of offset's sign; positions outside [0, 32) end the search.
  Value *up = b.CreateICmpSGT(offset, b.getInt32(0));
  Value *count = b.CreateSub(b.CreateSelect(up, offset, b.CreateNeg(offset)),
                             b.getInt32(1));
  Value *found = none, *done = b.getFalse();
  for (unsigned step = 0; step < 32; ++step) {
    Value *delta = b.getInt32(step);
    Value *pos =
        b.CreateSelect(up, b.CreateAdd(base, delta), b.CreateSub(base, delta));
    Value *valid = b.CreateAnd(inRange(pos), b.CreateNot(done));
    Value *set = b.CreateAnd(valid, bitAt(b.CreateAnd(pos, b.getInt32(31))));
    Value *hit = b.CreateAnd(set, b.CreateICmpEQ(count, b.getInt32(0)));
    found = b.CreateSelect(hit, pos, found);
    done = b.CreateOr(done, b.CreateOr(hit, b.CreateNot(inRange(pos))));
    count = b.CreateSelect(b.CreateAnd(set, b.CreateNot(hit)),
                           b.CreateSub(count, b.getInt32(1)), count);
  }
  return b.CreateSelect(b.CreateICmpEQ(offset, b.getInt32(0)), atBase, found);
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
  if (name == "fns")
    return lowerFns(b, call);
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
  if (fn == "fabs") {
    Value *r = b.CreateUnaryIntrinsic(Intrinsic::fabs, arg(0));
    // abs.ftz.f16 and .f16x2 flush a subnormal half to zero (PTX ISA), as
    // the H200 does (nvvm_calls.cu); abs.ftz.f32's results equal abs's
    // there.
    if (name.contains(".ftz") && t->getScalarType()->isHalfTy())
      r = b.CreateSelect(b.CreateFCmpOLT(r, ConstantFP::get(t, 0x1p-14)),
                         ConstantFP::get(t, 0.0), r);
    return r;
  }
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

// llvm.nvvm.cp.async.{ca,cg}.shared.global.{4,8,16}[.s](ptr addrspace(3)
// dst, ptr addrspace(1) src[, i32 src-size]) (Clang's __nvvm_cp_async_*
// builtins): the load and store the inline PTX of the same statement lowers
// to (PtxLowerMemory.cpp lowerCpAsync), tagged with its PTX opcode so that
// the models count one LDGSTS. The group and wait intrinsics have nothing
// to do, as there: a block's warps run to each barrier in turn and copies
// land at once.
bool lowerCpAsyncIntrinsic(CallInst &call, StringRef name) {
  if (name == "commit.group" || name == "wait.group" || name == "wait.all" ||
      name.starts_with("mbarrier.arrive")) {
    call.eraseFromParent();
    return true;
  }
  SmallVector<StringRef, 8> parts;
  name.split(parts, '.');
  // {ca|cg, shared, global, 4|8|16[, s]}
  unsigned bytes = 0;
  if (parts.size() < 4 || parts.size() > 5 || parts[1] != "shared" ||
      parts[2] != "global" || parts[3].getAsInteger(10, bytes) ||
      (bytes != 4 && bytes != 8 && bytes != 16) ||
      (parts.size() == 5 && parts[4] != "s"))
    return false;
  IRBuilder<> b(&call);
  unsigned words = bytes / 4;
  Type *t =
      words > 1
          ? static_cast<Type *>(FixedVectorType::get(b.getInt32Ty(), words))
          : b.getInt32Ty();
  LLVMContext &ctx = call.getContext();
  MDNode *tag = MDNode::get(
      ctx,
      MDString::get(ctx, ("cp.async." + parts[0] + ".shared.global").str()));
  LoadInst *load = b.CreateAlignedLoad(t, call.getArgOperand(1), Align(bytes));
  load->setMetadata(core::kPtxInstructionMetadata, tag);
  load->setDebugLoc(call.getDebugLoc());
  Value *v = load;
  if (parts.size() == 5)
    v = ptx::zeroFillPastSize(b, v, t, words, bytes, call.getArgOperand(2),
                              nullptr);
  StoreInst *store =
      b.CreateAlignedStore(v, call.getArgOperand(0), Align(bytes));
  store->setMetadata(core::kPtxInstructionMetadata, tag);
  store->setDebugLoc(call.getDebugLoc());
  call.eraseFromParent();
  return true;
}

// llvm.nvvm.mbarrier.*[.shared] (Clang's __nvvm_mbarrier_* builtins): as the
// inline PTX of the same statements lowers (PtxLowerMemory.cpp
// lowerMbarrier), since every phase is complete when a thread waits: init
// and inval do nothing, an arrival returns a zero state, a wait succeeds, no
// arrival is pending. SYNCS instructions, no LDS/STS: nothing is counted.
bool lowerMbarrierIntrinsic(CallInst &call, StringRef name) {
  name.consume_back(".shared");
  Value *result = nullptr;
  if (name == "init" || name == "inval") {
    call.eraseFromParent();
    return true;
  }
  if (name.starts_with("arrive"))
    result = ConstantInt::get(call.getType(), 0);
  else if (name == "test.wait")
    result = ConstantInt::getTrue(call.getContext());
  else if (name == "pending.count")
    result = ConstantInt::get(call.getType(), 0);
  if (!result || result->getType() != call.getType())
    return false;
  call.replaceAllUsesWith(result);
  call.eraseFromParent();
  return true;
}

} // namespace

// Each call to an intrinsic whose name starts with a rule's prefix, handed to
// its lowering with the rest of the name; one that it cannot lower is left
// for the engine to name.
using PrefixRule = std::pair<StringRef, bool (*)(CallInst &, StringRef)>;
void lowerByPrefix(Module &module, std::initializer_list<PrefixRule> rules) {
  std::vector<PrefixRule> table(rules);
  std::vector<CallInst *> calls = callsTo(module, [&](StringRef name) {
    return llvm::any_of(
        table, [&](const PrefixRule &r) { return name.starts_with(r.first); });
  });
  for (CallInst *call : calls) {
    StringRef n = call->getCalledFunction()->getName();
    for (const PrefixRule &r : table)
      if (n.consume_front(r.first)) {
        r.second(*call, n);
        break;
      }
  }
}

void lowerNvvmMemoryIntrinsics(Module &module) {
  lowerByPrefix(module,
                {{"llvm.nvvm.atomic.", lowerScopedAtomic},
                 {"llvm.nvvm.ldu.global.",
                  [](CallInst &call, StringRef) { return lowerLdu(call); }}});
}

void lowerNvvmAsyncCopyIntrinsics(Module &module) {
  // cp.async.bulk (TMA) is one the lowering leaves.
  lowerByPrefix(module, {{"llvm.nvvm.cp.async.", lowerCpAsyncIntrinsic},
                         {"llvm.nvvm.mbarrier.", lowerMbarrierIntrinsic}});
}

void lowerNvvmControlIntrinsics(Module &module) {
  std::vector<CallInst *> calls =
      callsTo(module, [](StringRef name) { return name == "llvm.nvvm.exit"; });
  std::set<Function *> changed;
  for (CallInst *call : calls) {
    // PTX exit ends the thread: in a kernel (device functions are inlined
    // by now) a return where the call is; the rest of its block is dead.
    // Elsewhere (a device function kept out of line) it is left for the
    // engine to name.
    Function *f = call->getFunction();
    if (f->getCallingConv() != CallingConv::PTX_Kernel)
      continue;
    BasicBlock *block = call->getParent();
    block->splitBasicBlock(call->getIterator());
    block->getTerminator()->eraseFromParent();
    ReturnInst *ret = ReturnInst::Create(call->getContext(), block);
    ret->setDebugLoc(call->getDebugLoc());
    call->eraseFromParent();
    changed.insert(f);
  }
  // What only the code after an exit reached is unreachable now.
  for (Function *f : changed)
    removeUnreachableBlocks(*f);
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
