#include "analyzer/pipeline/IrPipelinePtxasMerge.h"

#include "analyzer/pipeline/IrPipelineAddress.h"
#include "analyzer/pipeline/IrPipelineMemory.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/NVPTXAddrSpace.h"

#include <optional>
#include <vector>

namespace kcheck::analyzer {

using namespace llvm;

namespace {

constexpr const char *kNvvmAlignMetadata = "kcheck.nvvm.align";
constexpr const char *kFenceName = "kcheck.ptxas.merge.fence";
constexpr const char *kOwnLocationMetadata = "kcheck.ptxas.own.location";

bool isSimpleAccess(const Instruction &i) {
  if (const auto *load = dyn_cast<LoadInst>(&i))
    return load->isSimple();
  if (const auto *store = dyn_cast<StoreInst>(&i))
    return store->isSimple();
  return false;
}

// Shared memory, or generic memory that may be shared: ptxas keeps its
// merges from moving across these. Global, local, constant and parameter
// accesses it moves freely (the probe: a global load or store between the
// two shared loads or stores leaves them one LDS.128 or STS.128).
bool mayBeShared(const Instruction &i) {
  unsigned space =
      getLoadStorePointerOperand(&i)->getType()->getPointerAddressSpace();
  return space == NVPTXAS::ADDRESS_SPACE_SHARED ||
         space == NVPTXAS::ADDRESS_SPACE_GENERIC;
}

uint64_t accessBytes(const Instruction &i, const DataLayout &layout) {
  return layout.getTypeStoreSize(
      getLoadStoreType(const_cast<Instruction *>(&i)));
}

// `second` starts where `first` ends, or ends where it starts.
bool follows(const Instruction &first, const Instruction &second,
             const DataLayout &layout) {
  std::optional<int64_t> d =
      constantDistance(getLoadStorePointerOperand(&second),
                       getLoadStorePointerOperand(&first), layout);
  return d && (*d == int64_t(accessBytes(first, layout)) ||
               *d == -int64_t(accessBytes(second, layout)));
}

// A load ptxas merges with the loads after it takes the source line of the
// last of them (the probe: `a = o[-2]` on one line, `b = o[-1]` on the
// next, one LDS.128 credited to the second), while the vectorizer gives the
// merged load the first load's location. So each load that a following
// load continues takes that run's last location now, and keeps its own in
// metadata: RemoveLoadStoreFences gives it back to every load the
// vectorizer left alone (a merged load carries no such metadata).
bool creditMergedLoadsToTheLast(const std::vector<Instruction *> &accesses,
                                const DataLayout &layout) {
  std::vector<bool> taken(accesses.size());
  bool changed = false;
  for (size_t k = 0; k < accesses.size(); ++k) {
    if (taken[k] || !isa<LoadInst>(accesses[k]))
      continue;
    // The loads that continue accesses[k] up to 16 bytes (the widest LDS),
    // before the next shared store.
    std::vector<Instruction *> chain{accesses[k]};
    uint64_t bytes = accessBytes(*accesses[k], layout);
    for (size_t j = k + 1;
         j < accesses.size() && isa<LoadInst>(accesses[j]) && bytes < 16; ++j)
      if (!taken[j] && follows(*chain.back(), *accesses[j], layout)) {
        chain.push_back(accesses[j]);
        bytes += accessBytes(*accesses[j], layout);
        taken[j] = true;
      }
    for (Instruction *load : chain) {
      if (load == chain.back())
        break;
      if (DILocation *own = load->getDebugLoc().get())
        load->setMetadata(kOwnLocationMetadata, own);
      load->setDebugLoc(chain.back()->getDebugLoc());
      changed = true;
    }
  }
  return changed;
}

// ptxas merges 16-bit shared loads into at most 64 bits
// (KeepSubwordSharedAccessesApartLikePtxas): a vector the first vectorizer
// made of them (a vector of 16-bit elements with no recorded alignment)
// grows no wider.
bool keepNvvmSubwordVectorAtMost8(Instruction &i) {
  auto *load = dyn_cast<LoadInst>(&i);
  if (!load || !load->isSimple() || load->getMetadata(kNvvmAlignMetadata) ||
      load->getPointerAddressSpace() != NVPTXAS::ADDRESS_SPACE_SHARED)
    return false;
  auto *vector = dyn_cast<FixedVectorType>(load->getType());
  if (!vector || vector->getScalarSizeInBits() != 16 ||
      load->getAlign() <= Align(8))
    return false;
  load->setAlignment(Align(8));
  return true;
}

} // namespace

PreservedAnalyses RememberAlignmentLikeNvvm::run(Function &function,
                                                 FunctionAnalysisManager &) {
  LLVMContext &context = function.getContext();
  Type *i64 = Type::getInt64Ty(context);
  for (Instruction &i : instructions(function)) {
    if (!isSimpleAccess(i))
      continue;
    uint64_t align = getLoadStoreAlignment(&i).value();
    i.setMetadata(kNvvmAlignMetadata,
                  MDNode::get(context, ConstantAsMetadata::get(
                                           ConstantInt::get(i64, align))));
  }
  // Metadata only: every analysis stays valid.
  return PreservedAnalyses::all();
}

PreservedAnalyses CapAlignmentLikeNvvm::run(Function &function,
                                            FunctionAnalysisManager &) {
  bool changed = false;
  for (Instruction &i : instructions(function)) {
    MDNode *node = i.getMetadata(kNvvmAlignMetadata);
    if (!node || !isSimpleAccess(i))
      continue;
    auto *value = mdconst::extract<ConstantInt>(node->getOperand(0));
    Align nvvm(value->getZExtValue());
    if (getLoadStoreAlignment(&i) <= nvvm)
      continue;
    if (auto *load = dyn_cast<LoadInst>(&i))
      load->setAlignment(nvvm);
    else
      cast<StoreInst>(&i)->setAlignment(nvvm);
    changed = true;
  }
  return cfgPreservedUnless(changed);
}

PreservedAnalyses FenceLoadStoreTurnsLikePtxas::run(Function &function,
                                                    FunctionAnalysisManager &) {
  Module &module = *function.getParent();
  const DataLayout &layout = module.getDataLayout();
  // No attributes: it may read and write any memory and may not return, so
  // the vectorizer ends its chains there.
  FunctionCallee fence = module.getOrInsertFunction(
      kFenceName, FunctionType::get(Type::getVoidTy(module.getContext()),
                                    /*isVarArg=*/false));
  bool changed = false;
  for (Instruction &i : instructions(function))
    changed |= keepNvvmSubwordVectorAtMost8(i);
  for (BasicBlock &block : function) {
    std::vector<Instruction *> accesses;
    for (Instruction &i : block)
      if (isSimpleAccess(i) && mayBeShared(i))
        accesses.push_back(&i);
    for (size_t k = 1; k < accesses.size(); ++k) {
      Instruction *previous = accesses[k - 1], *access = accesses[k];
      bool load = isa<LoadInst>(access);
      if (load && isa<LoadInst>(previous))
        continue;
      if (!load && isa<StoreInst>(previous) &&
          follows(*previous, *access, layout))
        continue;
      CallInst::Create(fence, "", access->getIterator());
      changed = true;
    }
    changed |= creditMergedLoadsToTheLast(accesses, layout);
  }
  return cfgPreservedUnless(changed);
}

PreservedAnalyses RemoveLoadStoreFences::run(Function &function,
                                             FunctionAnalysisManager &) {
  Function *fence = function.getParent()->getFunction(kFenceName);
  std::vector<CallInst *> calls;
  for (Instruction &i : instructions(function)) {
    i.setMetadata(kNvvmAlignMetadata, nullptr);
    if (MDNode *own = i.getMetadata(kOwnLocationMetadata)) {
      i.setDebugLoc(DebugLoc(cast<DILocation>(own)));
      i.setMetadata(kOwnLocationMetadata, nullptr);
    }
    if (auto *call = dyn_cast<CallInst>(&i);
        fence && call && call->getCalledFunction() == fence)
      calls.push_back(call);
  }
  for (CallInst *call : calls)
    call->eraseFromParent();
  return cfgPreservedUnless(!calls.empty());
}

void eraseLoadStoreFenceDeclaration(Module &module) {
  if (Function *fence = module.getFunction(kFenceName);
      fence && fence->use_empty())
    fence->eraseFromParent();
}

} // namespace kcheck::analyzer
