#include "analyzer/pipeline/IrPipelineForward.h"

#include "analyzer/pipeline/IrPipelineAddress.h"
#include "analyzer/pipeline/IrPipelineMemory.h"
#include "analyzer/pipeline/IrPipelineShared.h"

#include "llvm/ADT/DepthFirstIterator.h"
#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/Analysis/MemorySSA.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

#include <map>
#include <tuple>

namespace kcheck::analyzer {

using namespace llvm;

namespace {

// Address arithmetic that unrolling duplicated (`i * n` computed in every
// copy) is one value to NVVM, whose CSE runs after unrolling: a
// representative per pure instruction, by opcode, type and (represented)
// operands, so that the copies' addresses compare. The IR is left as it is:
// merging the instructions themselves would let alias analysis prove more
// than nvcc's does (scan_blelloch_padded's reload of temp[bi] after a store
// to temp[ai] stays, as on the H100).
class Representatives {
public:
  explicit Representatives(DominatorTree &dominators) {
    for (DomTreeNode *node : depth_first(&dominators))
      for (Instruction &instruction : *node->getBlock()) {
        if (!(isa<BinaryOperator, CastInst, GetElementPtrInst, CmpInst>(
                instruction)) ||
            instruction.mayHaveSideEffects())
          continue;
        Key key{instruction.getOpcode(), instruction.getType(), 0, {}};
        if (auto *compare = dyn_cast<CmpInst>(&instruction))
          key.detail = compare->getPredicate();
        if (auto *gep = dyn_cast<GetElementPtrInst>(&instruction))
          key.detail = uintptr_t(gep->getSourceElementType());
        for (const Value *operand : instruction.operands())
          key.operands.push_back(of(operand));
        auto [it, fresh] = first_.try_emplace(key, &instruction);
        if (!fresh && dominators.dominates(it->second, &instruction))
          representative_[&instruction] = it->second;
      }
  }
  const Value *of(const Value *value) const {
    const Value *r = representative_.lookup(value);
    return r ? r : value;
  }
  // The linear forms of `a` and `b`, opaque terms taken by representative,
  // are equal.
  bool sameAddress(const Value *a, const Value *b,
                   const DataLayout &layout) const {
    auto key = [&](const Value *pointer) {
      LinearAddress address = linearAddress(pointer, layout);
      LinearAddress mapped;
      mapped.constant = address.constant;
      for (const auto &[term, coefficient] : address.terms)
        mapped.terms[of(term)] += coefficient;
      return keyOf(mapped);
    };
    return key(a) == key(b);
  }

private:
  struct Key {
    unsigned opcode;
    const Type *type;
    uintptr_t detail;
    SmallVector<const Value *, 3> operands;
    bool operator<(const Key &o) const {
      return std::tie(opcode, type, detail, operands) <
             std::tie(o.opcode, o.type, o.detail, o.operands);
    }
  };
  std::map<Key, const Instruction *> first_;
  DenseMap<const Value *, const Value *> representative_;
};

} // namespace

PreservedAnalyses
ForwardStoredValuesLikeNvvm::run(Function &function,
                                 FunctionAnalysisManager &analyses) {
  SmallVector<LoadInst *, 32> loads;
  bool anyStore = false;
  for (Instruction &instruction : instructions(function))
    if (isPlainSharedAccess(instruction)) {
      if (auto *load = dyn_cast<LoadInst>(&instruction))
        loads.push_back(load);
      else
        anyStore = true;
    }
  if (loads.empty() || !anyStore)
    return PreservedAnalyses::all();
  Representatives representatives(
      analyses.getResult<DominatorTreeAnalysis>(function));
  MemorySSA &memorySsa =
      analyses.getResult<MemorySSAAnalysis>(function).getMSSA();
  const DataLayout &layout = function.getDataLayout();
  SmallVector<std::pair<LoadInst *, StoreInst *>, 16> forwards;
  for (LoadInst *load : loads) {
    auto *clobber =
        dyn_cast<MemoryDef>(memorySsa.getWalker()->getClobberingMemoryAccess(
            memorySsa.getMemoryAccess(load)));
    auto *store = clobber
                      ? dyn_cast_or_null<StoreInst>(clobber->getMemoryInst())
                      : nullptr;
    if (!store || !isPlainSharedAccess(*store) ||
        store->getValueOperand()->getType() != load->getType() ||
        !representatives.sameAddress(store->getPointerOperand(),
                                     load->getPointerOperand(), layout))
      continue;
    forwards.push_back({load, store});
  }
  // The stored value when the load goes: a forwarded load stored on may
  // have been replaced meanwhile.
  for (auto [load, store] : forwards) {
    load->replaceAllUsesWith(store->getValueOperand());
    load->eraseFromParent();
  }
  return cfgPreservedUnless(!forwards.empty());
}

PreservedAnalyses
ReadConstantsCastToLocalLikeNvvm::run(Function &function,
                                      FunctionAnalysisManager &) {
  const DataLayout &layout = function.getDataLayout();
  constexpr unsigned kLocal = 5;
  bool changed = false;
  for (Instruction &inst : make_early_inc_range(instructions(function))) {
    auto *load = dyn_cast<LoadInst>(&inst);
    if (!load || load->getPointerAddressSpace() != kLocal)
      continue;
    APInt offset(layout.getIndexTypeSizeInBits(load->getPointerOperandType()),
                 0);
    const Value *base =
        load->getPointerOperand()->stripAndAccumulateConstantOffsets(
            layout, offset, /*AllowNonInbounds=*/true);
    // The offsets' stripping may look through the cast itself.
    if (const auto *cast = dyn_cast<ConstantExpr>(base);
        cast && cast->getOpcode() == Instruction::AddrSpaceCast)
      base = cast->getOperand(0)->stripPointerCasts();
    auto *global = dyn_cast<GlobalVariable>(const_cast<Value *>(base));
    if (!global || global->getAddressSpace() == kLocal)
      continue;
    if (global->isConstant() && global->hasDefinitiveInitializer())
      if (Constant *value = ConstantFoldLoadFromConst(
              global->getInitializer(), load->getType(), offset, layout)) {
        load->replaceAllUsesWith(value);
        load->eraseFromParent();
        changed = true;
        continue;
      }
    IRBuilder<> b(load);
    Value *own = b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), global,
                                              offset.getSExtValue());
    load->setOperand(load->getPointerOperandIndex(), own);
    changed = true;
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace kcheck::analyzer
