#include "analyzer/ptx/PtxLowering.h"

#include "analyzer/ptx/PtxLowerer.h"

#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#include <algorithm>
#include <cctype>

namespace kcheck::analyzer {

using namespace llvm;

namespace ptx {

Lowerer::Lowerer(CallBase &call, BasicBlock *scratch)
    : call_(call), module_(*call.getModule()), ctx_(call.getContext()),
      b_(call.getContext()), dryRun_(scratch != nullptr) {
  if (scratch)
    b_.SetInsertPoint(scratch);
  else
    b_.SetInsertPoint(&call);
}

bool Lowerer::fail(const std::string &why) {
  if (error_.empty())
    error_ = why;
  return false;
}

bool Lowerer::bindOperands() {
  auto *asmValue = cast<InlineAsm>(call_.getCalledOperand());
  unsigned argument = 0, output = 0, number = 0;
  for (const InlineAsm::ConstraintInfo &c : asmValue->ParseConstraints()) {
    if (c.Type == InlineAsm::isClobber)
      continue;
    if (c.isIndirect)
      return fail("an indirect (memory) operand $" + std::to_string(number));
    AsmSlot slot;
    slot.code = c.Codes.empty() ? "" : c.Codes.front();
    if (c.Type == InlineAsm::isOutput) {
      slot.isOutput = true;
      slot.outputIndex = output++;
    } else {
      slot.input = call_.getArgOperand(argument++);
      if (!slot.code.empty() &&
          std::all_of(slot.code.begin(), slot.code.end(),
                      [](char ch) { return std::isdigit(ch); })) {
        // "0": the input that an in-out operand ("+r") starts from.
        unsigned tied = unsigned(std::stoul(slot.code));
        if (tied < slots_.size())
          slots_[tied].tiedInput = slot.input;
      }
    }
    slots_.push_back(slot);
    ++number;
  }
  for (AsmSlot &s : slots_)
    if (s.isOutput && s.tiedInput)
      s.value = bits(s.tiedInput, bitsOfCode(s));
  return true;
}

unsigned Lowerer::bitsOfCode(const AsmSlot &s) const {
  Type *t = s.isOutput ? outputType(s.outputIndex) : s.input->getType();
  if (t->isPointerTy())
    return 64;
  return unsigned(t->getPrimitiveSizeInBits().getFixedValue());
}

Type *Lowerer::outputType(unsigned index) const {
  Type *r = call_.getType();
  if (auto *st = dyn_cast<StructType>(r))
    return st->getElementType(index);
  return r;
}

Value *Lowerer::bits(Value *v, unsigned width) {
  Type *t = v->getType();
  if (t->isPointerTy())
    v = b_.CreatePtrToInt(v, b_.getInt64Ty());
  else if (t->isFloatingPointTy())
    v = b_.CreateBitCast(
        v, b_.getIntNTy(unsigned(t->getPrimitiveSizeInBits().getFixedValue())));
  return b_.CreateZExtOrTrunc(v, b_.getIntNTy(width));
}

bool Lowerer::finish() {
  std::vector<Value *> results;
  for (const AsmSlot &s : slots_) {
    if (!s.isOutput)
      continue;
    Type *t = outputType(s.outputIndex);
    if (!s.value)
      return fail("output $" + std::to_string(&s - slots_.data()) +
                  " is never written");
    unsigned width =
        t->isPointerTy()
            ? 64
            : unsigned(t->getPrimitiveSizeInBits().getFixedValue());
    Value *v = b_.CreateZExtOrTrunc(s.value, b_.getIntNTy(width));
    if (t->isPointerTy())
      v = b_.CreateIntToPtr(v, t);
    else if (t->isFloatingPointTy())
      v = b_.CreateBitCast(v, t);
    results.push_back(v);
  }
  if (dryRun_)
    return true;
  Type *r = call_.getType();
  if (auto *st = dyn_cast<StructType>(r)) {
    Value *agg = PoisonValue::get(st);
    for (unsigned i = 0; i < results.size(); ++i)
      agg = b_.CreateInsertValue(agg, results[i], i);
    call_.replaceAllUsesWith(agg);
  } else if (!r->isVoidTy()) {
    if (results.size() != 1)
      return fail("unexpected outputs");
    call_.replaceAllUsesWith(results[0]);
  }
  return true;
}

bool Lowerer::run(const Program &program) {
  if (!bindOperands())
    return false;
  for (const RegisterDeclaration &d : program.registers) {
    unsigned w = typeBits(d.type);
    if (w == 0)
      return fail("a .reg of type ." + d.type);
    for (const std::string &n : d.names)
      registers_[n] = {w, ConstantInt::get(b_.getIntNTy(w), 0)};
  }
  for (const Statement &st : program.statements) {
    statement_ = &st;
    if (!lowerStatement(st)) {
      error_ = "'" + st.text + "': " + error_;
      return false;
    }
  }
  return finish();
}

} // namespace ptx

void lowerInlinePtx(Module &module) {
  std::vector<CallBase *> calls;
  for (Function &f : module)
    for (BasicBlock &bb : f)
      for (Instruction &i : bb)
        if (auto *c = dyn_cast<CallBase>(&i); c && c->isInlineAsm())
          calls.push_back(c);
  for (CallBase *call : calls) {
    auto *asmValue = cast<InlineAsm>(call->getCalledOperand());
    std::string error;
    std::optional<ptx::Program> program =
        ptx::parse(asmValue->getAsmString().str(), error);
    if (program) {
      // A dry run into a scratch function first: a template is lowered whole
      // or not at all.
      Function *scratch = Function::Create(
          FunctionType::get(Type::getVoidTy(module.getContext()), false),
          GlobalValue::PrivateLinkage, "kcheck.ptx.scratch", module);
      BasicBlock *block =
          BasicBlock::Create(module.getContext(), "entry", scratch);
      ptx::Lowerer dry(*call, block);
      bool ok = dry.run(*program);
      error = dry.error();
      scratch->dropAllReferences();
      scratch->eraseFromParent();
      if (ok) {
        ptx::Lowerer lowerer(*call);
        if (lowerer.run(*program)) {
          call->eraseFromParent();
          continue;
        }
        error = lowerer.error();
      }
    }
    // The operands as the user wrote them (%0), not as LLVM numbers them.
    for (size_t i = 0; i + 1 < error.size(); ++i)
      if (error[i] == '$' &&
          std::isdigit(static_cast<unsigned char>(error[i + 1])))
        error[i] = '%';
    LLVMContext &ctx = call->getContext();
    call->setMetadata(core::kUnloweredAsmMetadata,
                      MDNode::get(ctx, MDString::get(ctx, error)));
  }
}

} // namespace kcheck::analyzer
