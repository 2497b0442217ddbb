#include "analyzer/pipeline/IrPipelineShared.h"

#include "core/PtxTags.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/NVPTXAddrSpace.h"

#include <map>
#include <optional>

namespace kcheck::analyzer {

using namespace llvm;

namespace {

// A 4-byte store to a static __shared__ variable at a constant offset.
struct WordStore {
  StoreInst *store = nullptr;
  WindowAddress at;
};

std::optional<WordStore>
wordStore(Instruction &instruction,
          const MapVector<GlobalVariable *, uint64_t> &offsets) {
  auto *store = dyn_cast<StoreInst>(&instruction);
  if (!store || !store->isSimple() ||
      store->getPointerAddressSpace() != NVPTXAS::ADDRESS_SPACE_SHARED ||
      store->getMetadata(core::kPtxInstructionMetadata))
    return std::nullopt;
  Type *type = store->getValueOperand()->getType();
  const DataLayout &layout = store->getDataLayout();
  if (!(type->isIntegerTy(32) || type->isFloatTy()))
    return std::nullopt;
  std::optional<WindowAddress> at =
      windowAddressOf(store->getPointerOperand(), layout, offsets);
  if (!at || at->offset % 4 != 0)
    return std::nullopt;
  return WordStore{store, *at};
}

// Whether `instruction` may touch shared memory (other than a word store of
// the run being gathered): global, constant and local accesses may not.
bool mayTouchShared(const Instruction &instruction) {
  if (!instruction.mayReadOrWriteMemory())
    return false;
  const Value *pointer = getLoadStorePointerOperand(&instruction);
  if (!pointer || instruction.isAtomic())
    return true;
  switch (pointer->getType()->getPointerAddressSpace()) {
  case NVPTXAS::ADDRESS_SPACE_GLOBAL:
  case NVPTXAS::ADDRESS_SPACE_CONST:
  case NVPTXAS::ADDRESS_SPACE_LOCAL:
    return false;
  default:
    return true;
  }
}

// One store of `words` (window offset -> store, consecutive, `begin`
// aligned to their size) where the last of them stands.
void mergeWords(ArrayRef<WordStore> words,
                const MapVector<GlobalVariable *, uint64_t> &offsets) {
  StoreInst *last = words.front().store;
  for (const WordStore &w : words)
    if (last->comesBefore(w.store))
      last = w.store;
  IRBuilder<> builder(last);
  Type *i32 = builder.getInt32Ty();
  auto *vectorType = FixedVectorType::get(i32, unsigned(words.size()));
  Value *vector = PoisonValue::get(vectorType);
  for (size_t k = 0; k < words.size(); ++k)
    vector = builder.CreateInsertElement(
        vector, builder.CreateBitCast(words[k].store->getValueOperand(), i32),
        k);
  const uint64_t begin = words.front().at.offset;
  const WordStore &base = words.front();
  Value *address = builder.CreateGEP(
      builder.getInt8Ty(), base.at.variable,
      builder.getInt64(int64_t(begin) - int64_t(base.at.variableOffset)));
  StoreInst *merged =
      builder.CreateAlignedStore(vector, address, Align(4 * words.size()));
  merged->setDebugLoc(last->getDebugLoc());
  markSharedSpan(*merged, begin, begin + 4 * words.size(), offsets);
  for (const WordStore &w : words)
    w.store->eraseFromParent();
}

// Merges, among `run` (word stores with nothing between them that touches
// shared memory), the aligned groups of four words, then of two, that
// belong to more than one variable (one variable's own stores are the
// vectorizer's). A word stored twice is left alone.
bool mergeRun(ArrayRef<WordStore> run,
              const MapVector<GlobalVariable *, uint64_t> &offsets) {
  std::map<uint64_t, WordStore> byOffset;
  DenseSet<uint64_t> storedTwice;
  for (const WordStore &w : run)
    if (!byOffset.try_emplace(w.at.offset, w).second)
      storedTwice.insert(w.at.offset);
  for (uint64_t offset : storedTwice)
    byOffset.erase(offset);
  // The words [begin, begin + 4n) if all are stored, by more than one
  // variable; else none.
  auto group = [&](uint64_t begin, unsigned n) {
    SmallVector<WordStore, 4> words;
    for (unsigned k = 0; k < n; ++k) {
      auto it = byOffset.find(begin + 4 * k);
      if (it == byOffset.end())
        return SmallVector<WordStore, 4>();
      words.push_back(it->second);
    }
    if (llvm::all_of(words, [&](const WordStore &w) {
          return w.at.variable == words.front().at.variable;
        }))
      return SmallVector<WordStore, 4>();
    return words;
  };
  bool changed = false;
  for (unsigned n : {4u, 2u}) {
    // A group starts at a stored word aligned to the group's size.
    SmallVector<uint64_t, 8> starts;
    for (const auto &[offset, w] : byOffset)
      if (offset % (4 * n) == 0)
        starts.push_back(offset);
    for (uint64_t begin : starts) {
      SmallVector<WordStore, 4> words = group(begin, n);
      if (words.empty())
        continue;
      for (const WordStore &w : words)
        byOffset.erase(w.at.offset);
      mergeWords(words, offsets);
      changed = true;
    }
  }
  return changed;
}

} // namespace

PreservedAnalyses
MergeSharedStoresAcrossVariablesLikePtxas::run(Function &function,
                                               FunctionAnalysisManager &) {
  const MapVector<GlobalVariable *, uint64_t> offsets =
      sharedOffsetsLikePtxas(function);
  if (offsets.size() < 2)
    return PreservedAnalyses::all();
  bool changed = false;
  for (BasicBlock &block : function) {
    SmallVector<SmallVector<WordStore, 4>, 4> runs(1);
    for (Instruction &instruction : block) {
      if (std::optional<WordStore> w = wordStore(instruction, offsets))
        runs.back().push_back(*w);
      else if (mayTouchShared(instruction) && !runs.back().empty())
        runs.emplace_back();
    }
    for (const SmallVector<WordStore, 4> &run : runs)
      if (run.size() > 1)
        changed |= mergeRun(run, offsets);
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace kcheck::analyzer
