// NVVM intrinsics the engine has no instruction for, rewritten as ones it
// has. llvm.nvvm.redux.sync.OP(value, membermask) (REDUX, sm_80+; what
// cg::reduce becomes on integers) is a reduction over the lanes of the mask:
// here a shuffle per lane of the mask. Shuffles are no memory instruction,
// so the counters are unchanged.
#include "analyzer/ptx/PtxLowering.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

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

} // namespace

void lowerNvvmWarpIntrinsics(Module &module) {
  std::vector<std::pair<CallInst *, std::string>> calls;
  for (Function &f : module)
    for (BasicBlock &bb : f)
      for (Instruction &i : bb)
        if (auto *c = dyn_cast<CallInst>(&i))
          if (Function *callee = c->getCalledFunction()) {
            StringRef name = callee->getName();
            if (name.consume_front("llvm.nvvm.redux.sync."))
              calls.push_back({c, name.str()});
          }
  for (auto &[call, op] : calls)
    lowerRedux(*call, op); // one it cannot is left for the engine to name
}

} // namespace kcheck::analyzer
