// Operands (asm operands, declared and special registers, immediates,
// vectors), guards, and the statement dispatcher.
#include "analyzer/ptx/PtxLowerer.h"

#include "llvm/IR/Module.h"

#include <cstring>
#include <set>

namespace kcheck::analyzer::ptx {

using namespace llvm;

namespace {

const std::set<std::string> kArithmetic = {
    "add",  "sub",      "mul",   "mad",   "fma",   "div",  "rem",  "min", "max",
    "neg",  "abs",      "rcp",   "sqrt",  "rsqrt", "ex2",  "lg2",  "sin", "cos",
    "tanh", "copysign", "mul24", "mad24", "sad",   "addc", "subc", "madc"};
const std::set<std::string> kBitwise = {
    "and",  "or",  "xor", "not",  "cnot", "shl", "shr",  "popc", "clz",
    "brev", "bfe", "bfi", "prmt", "lop3", "shf", "bmsk", "bfind"};
// Statements with no effect on what kcheck simulates: ordering and timing
// (one block runs at a time), cache hints and prefetches.
const std::set<std::string> kNoEffect = {
    "membar",  "fence",         "nanosleep", "prefetch",      "prefetchu",
    "discard", "applypriority", "pmevent",   "griddepcontrol"};

} // namespace

std::string Lowerer::typeOf(const Statement &st) const {
  for (auto it = st.parts.rbegin(); it != st.parts.rend(); ++it)
    if (typeBits(*it))
      return *it;
  return "";
}

Value *Lowerer::intrinsicCall(StringRef name, Type *ret,
                              ArrayRef<Value *> args) {
  std::vector<Type *> types;
  for (Value *a : args)
    types.push_back(a->getType());
  FunctionCallee f =
      module_.getOrInsertFunction(name, FunctionType::get(ret, types, false));
  return b_.CreateCall(f, args);
}

Value *Lowerer::specialRegister(const std::string &raw, unsigned width) {
  std::string name = raw[0] == '%' ? raw.substr(1) : raw;
  if (name.rfind("reserved_smem_offset", 0) == 0) {
    // The shared memory sm_80+ reserve for the system (cooperative groups'
    // scratch): a module-scope shared array of kcheck's.
    auto *type = ArrayType::get(b_.getInt8Ty(), 1024);
    GlobalVariable *g = module_.getGlobalVariable("__kcheck_reserved_smem");
    if (!g) {
      g = new GlobalVariable(module_, type, false, GlobalValue::InternalLinkage,
                             UndefValue::get(type), "__kcheck_reserved_smem",
                             nullptr, GlobalValue::NotThreadLocal, 3);
      g->setAlignment(Align(16));
    }
    return b_.CreateZExtOrTrunc(b_.CreatePtrToInt(g, b_.getInt32Ty()),
                                b_.getIntNTy(width));
  }
  if (name.rfind("envreg", 0) == 0 && name != "envreg1" && name != "envreg2") {
    // %envreg1/2 hold the driver's grid workspace (cooperative groups'
    // this_grid().sync()); what the driver puts in the others is not
    // documented.
    fail("%" + name +
         " (a driver environment register other than the grid "
         "workspace, %envreg1/%envreg2)");
    return nullptr;
  }
  if (name == "current_graph_exec") {
    // cudaGetCurrentGraphExec: the device graph the kernel runs in, which
    // the device runtime answers (simulator/DeviceLaunches.h).
    Module *m = b_.GetInsertBlock()->getModule();
    FunctionCallee f =
        m->getOrInsertFunction("__kcheck_current_graph_exec",
                               FunctionType::get(b_.getInt64Ty(), false));
    return b_.CreateZExtOrTrunc(b_.CreateCall(f), b_.getIntNTy(width));
  }
  static const std::set<std::string> known = {
      "laneid",      "warpid",      "nwarpid",     "clock",       "tid.x",
      "tid.y",       "tid.z",       "ntid.x",      "ntid.y",      "ntid.z",
      "ctaid.x",     "ctaid.y",     "ctaid.z",     "nctaid.x",    "nctaid.y",
      "nctaid.z",    "lanemask_eq", "lanemask_lt", "lanemask_le", "lanemask_gt",
      "lanemask_ge", "envreg1",     "envreg2"};
  static const std::set<std::string> known64 = {"clock64", "globaltimer"};
  bool is64 = known64.count(name);
  if (!is64 && !known.count(name))
    return nullptr;
  std::string intrinsic = name;
  for (char &c : intrinsic)
    if (c == '_')
      c = '.';
  Value *v = intrinsicCall("llvm.nvvm.read.ptx.sreg." + intrinsic,
                           is64 ? b_.getInt64Ty() : b_.getInt32Ty(), {});
  return b_.CreateZExtOrTrunc(v, b_.getIntNTy(width));
}

Value *Lowerer::read(const Operand &o, unsigned width) {
  switch (o.kind) {
  case Operand::Kind::AsmOperand: {
    if (o.index >= slots_.size())
      return nullptr;
    AsmSlot &s = slots_[o.index];
    if (s.isOutput)
      return s.value ? b_.CreateZExtOrTrunc(s.value, b_.getIntNTy(width))
                     : nullptr;
    return bits(s.input, width);
  }
  case Operand::Kind::Register: {
    auto it = registers_.find(o.name);
    if (it != registers_.end())
      return b_.CreateZExtOrTrunc(it->second.value, b_.getIntNTy(width));
    if (o.name == "WARP_SZ") // PTX's constant
      return ConstantInt::get(b_.getIntNTy(width), 32);
    return specialRegister(o.name, width);
  }
  case Operand::Kind::Immediate: {
    if (o.isFloatBits && o.floatBits == 32 && width == 64) {
      // An f32 literal used as f64.
      float f;
      uint32_t u = uint32_t(o.value);
      std::memcpy(&f, &u, 4);
      double d = f;
      uint64_t bitsValue;
      std::memcpy(&bitsValue, &d, 8);
      return b_.getInt64(bitsValue);
    }
    return ConstantInt::get(b_.getIntNTy(width), uint64_t(o.value));
  }
  case Operand::Kind::Vector: {
    unsigned n = unsigned(o.elements.size());
    if (n == 0 || width % n)
      return nullptr;
    unsigned w = width / n;
    Value *acc = ConstantInt::get(b_.getIntNTy(width), 0);
    for (unsigned i = 0; i < n; ++i) {
      Value *e = read(o.elements[i], w);
      if (!e)
        return nullptr;
      acc = b_.CreateOr(
          acc, b_.CreateShl(b_.CreateZExt(e, acc->getType()), uint64_t(i) * w));
    }
    return acc;
  }
  default:
    return nullptr;
  }
}

Value *Lowerer::guard() {
  if (!statement_ || !statement_->guard)
    return nullptr;
  Operand p;
  p.kind = Operand::Kind::Register;
  p.name = *statement_->guard;
  Value *v = read(p, 1);
  if (!v)
    return nullptr;
  return statement_->guardNegated ? b_.CreateNot(v) : v;
}

bool Lowerer::write(const Operand &o, Value *v) {
  unsigned width = v->getType()->getIntegerBitWidth();
  Value *pred = guardJoin_ ? nullptr : guard();
  if (statement_ && statement_->guard && !guardJoin_ && !pred)
    return fail("unknown guard predicate");
  switch (o.kind) {
  case Operand::Kind::AsmOperand: {
    if (o.index >= slots_.size() || !slots_[o.index].isOutput)
      return fail("write to an input operand");
    AsmSlot &s = slots_[o.index];
    if (pred) {
      Value *old = s.value ? b_.CreateZExtOrTrunc(s.value, v->getType())
                           : ConstantInt::get(v->getType(), 0);
      v = b_.CreateSelect(pred, v, old);
    }
    s.value = v;
    return true;
  }
  case Operand::Kind::Register: {
    auto it = registers_.find(o.name);
    if (it == registers_.end())
      return fail("write to undeclared register " + o.name);
    Value *nv = b_.CreateZExtOrTrunc(v, b_.getIntNTy(it->second.bits));
    if (pred)
      nv = b_.CreateSelect(pred, nv, it->second.value);
    it->second.value = nv;
    return true;
  }
  case Operand::Kind::Vector: {
    unsigned n = unsigned(o.elements.size());
    if (n == 0 || width % n)
      return fail("vector of " + std::to_string(n) + " from " +
                  std::to_string(width) + " bits");
    unsigned w = width / n;
    for (unsigned i = 0; i < n; ++i)
      if (!write(o.elements[i],
                 b_.CreateTrunc(b_.CreateLShr(v, uint64_t(i) * w),
                                b_.getIntNTy(w))))
        return false;
    return true;
  }
  case Operand::Kind::Sink:
    return true;
  default:
    return fail("write to an immediate or address");
  }
}

bool Lowerer::lowerStatement(const Statement &st) {
  const std::string &op = st.parts[0];
  if (op == "mov")
    return lowerMov(st);
  if (op == "cvt")
    return lowerCvt(st);
  if (op == "cvta")
    return lowerCvta(st);
  if (op == "setp")
    return lowerSetp(st);
  if (op == "selp")
    return lowerSelp(st);
  if (op == "set")
    return lowerSet(st);
  if (op == "dp4a" || op == "dp2a")
    return lowerDotProduct(st);
  if (op == "ld" || op == "st" || op == "ldu")
    return lowerLoadStore(st);
  if (op == "atom" || op == "red")
    return lowerAtomic(st);
  if (op == "cp" && st.parts.size() > 1 && st.parts[1] == "async")
    return lowerCpAsync(st);
  if (op == "ldmatrix" || op == "stmatrix")
    return lowerLdmatrix(st);
  if (op == "movmatrix")
    return lowerMovmatrix(st);
  if (op == "mma")
    return lowerMmaSync(st);
  if (op == "shfl")
    return lowerShfl(st);
  if (op == "vote" || op == "activemask")
    return lowerVote(st);
  if (op == "bar" || op == "barrier")
    return lowerBarrier(st);
  if (op == "mbarrier")
    return lowerMbarrier(st);
  if (op == "tex" || op == "tld4" || op == "txq" || op == "suld" ||
      op == "sust" || op == "suq")
    return lowerTexture(st);
  if (kNoEffect.count(op))
    return true;
  if (op == "createpolicy") // an L2 cache policy: a value only hints use
    return !st.operands.empty() && write(st.operands[0], b_.getInt64(0));
  if (op == "trap") {
    intrinsicCall("llvm.trap", b_.getVoidTy(), {});
    return true;
  }
  if (op == "addc" || op == "subc" || op == "madc" ||
      ((op == "add" || op == "sub" || op == "mad") && hasPart(st, "cc")))
    return lowerCarryChain(st);
  if (kArithmetic.count(op))
    return lowerArith(st);
  if (kBitwise.count(op))
    return lowerBitwise(st);
  if (op.size() > 2 && op[0] == 'v' && (op.back() == '2' || op.back() == '4'))
    return lowerVideoSimd(st); // vmax4, vabsdiff2, vset4...
  return fail("instruction " + st.opcode);
}

} // namespace kcheck::analyzer::ptx
