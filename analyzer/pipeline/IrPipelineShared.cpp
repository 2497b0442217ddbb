#include "analyzer/pipeline/IrPipelineShared.h"

#include "analyzer/pipeline/IrPipelineAddress.h"
#include "analyzer/pipeline/IrPipelineMemory.h"

#include "analyzer/pipeline/IrPipelineNarrow.h"
#include "core/PtxTags.h"
#include "core/SharedLayout.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/DepthFirstIterator.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/MemorySSA.h"
#include "llvm/Analysis/MemorySSAUpdater.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/NVPTXAddrSpace.h"

#include <map>

namespace kcheck::analyzer {

using namespace llvm;

bool isPlainSharedAccess(const Instruction &instruction) {
  if (instruction.getMetadata(core::kPtxInstructionMetadata))
    return false;
  if (const auto *load = dyn_cast<LoadInst>(&instruction))
    return load->isSimple() &&
           load->getPointerAddressSpace() == NVPTXAS::ADDRESS_SPACE_SHARED;
  if (const auto *store = dyn_cast<StoreInst>(&instruction))
    return store->isSimple() &&
           store->getPointerAddressSpace() == NVPTXAS::ADDRESS_SPACE_SHARED;
  return false;
}

namespace {

constexpr unsigned kSharedAS = NVPTXAS::ADDRESS_SPACE_SHARED;

// An extern __shared__ array: the dynamic window, not laid out with the
// static variables.
bool isDynamicShared(const GlobalVariable &variable, const DataLayout &layout) {
  return variable.isDeclaration() ||
         layout.getTypeAllocSize(variable.getValueType()) == 0;
}

bool isPlainSharedLoad(const Instruction &instruction) {
  return isa<LoadInst>(instruction) && isPlainSharedAccess(instruction);
}

// The memory `later` reads was last written before `earlier` ran (EarlyCSE's
// test): nothing between the two loads may write it.
bool unwrittenSince(MemorySSA &memorySsa, LoadInst &later, LoadInst &earlier) {
  MemoryAccess *clobber = memorySsa.getWalker()->getClobberingMemoryAccess(
      memorySsa.getMemoryAccess(&later));
  return memorySsa.dominates(clobber, memorySsa.getMemoryAccess(&earlier));
}

constexpr unsigned kWholeLoad = ~0u;

// What of `earlier` (at constant offset `earlierOffset` from the common
// variable part) `later` (at `laterOffset`) reads again: the whole load
// (same type and address: kWholeLoad), one element of a vector load that
// covers it (ptxas reuses a lane of an LDS.64/128: CUB's raking scan
// re-reads segment element 0 after reading the segment as a vector,
// HeCBench blockScan), or nothing.
std::optional<unsigned> coveredElement(const LoadInst &earlier,
                                       int64_t earlierOffset,
                                       const LoadInst &later,
                                       int64_t laterOffset) {
  if (earlier.getType() == later.getType())
    return laterOffset == earlierOffset ? std::optional(kWholeLoad)
                                        : std::nullopt;
  auto *vector = dyn_cast<FixedVectorType>(earlier.getType());
  if (!vector || vector->getElementType() != later.getType())
    return std::nullopt;
  const DataLayout &layout = later.getDataLayout();
  const int64_t elementBytes =
      int64_t(layout.getTypeStoreSize(vector->getElementType()));
  const int64_t distance = laterOffset - earlierOffset;
  if (elementBytes == 0 ||
      int64_t(layout.getTypeAllocSize(vector->getElementType())) !=
          elementBytes ||
      distance < 0 || distance % elementBytes != 0 ||
      distance / elementBytes >= int64_t(vector->getNumElements()))
    return std::nullopt;
  return unsigned(distance / elementBytes);
}

} // namespace

PreservedAnalyses
ForwardSharedReloadsLikePtxas::run(Function &function,
                                   FunctionAnalysisManager &analyses) {
  // One address is one linear form, whatever instructions compute it: nvcc
  // computes shared addresses in 32 bits, so `&s[(x + 1) + ~y]` and
  // `&s[x - y]` are one address to it, where LLVM's 64-bit GEP indices
  // (zext(~y)) hide that (HeCBench merge: mergeSinglePath reads B_shared[Bx]
  // after its search loop read it as BS[~Ax], one LDS on the H100). Loads
  // are grouped by the variable part of their address, so that a reload
  // finds the wider load that covers it too.
  DominatorTree &dominators =
      analyses.getResult<DominatorTreeAnalysis>(function);
  MemorySSA *memorySsa = nullptr;
  const DataLayout &layout = function.getDataLayout();
  struct Seen {
    LoadInst *load;
    int64_t offset; // the constant part of its address
  };
  std::map<SmallVector<std::pair<const Value *, int64_t>, 4>,
           SmallVector<Seen, 4>>
      byTerms;
  SmallVector<LoadInst *, 16> forwarded;
  // Dominator-tree preorder: a load's dominating loads are seen before it.
  for (DomTreeNode *node : depth_first(&dominators))
    for (Instruction &instruction : *node->getBlock()) {
      if (!isPlainSharedLoad(instruction))
        continue;
      auto *later = cast<LoadInst>(&instruction);
      LinearAddressKey key =
          keyOf(linearAddress(later->getPointerOperand(), layout));
      SmallVector<Seen, 4> &seen = byTerms[key.second];
      Value *value = nullptr;
      for (const Seen &earlier : reverse(seen)) {
        std::optional<unsigned> element =
            coveredElement(*earlier.load, earlier.offset, *later, key.first);
        if (!element || !dominators.dominates(earlier.load, later))
          continue;
        if (!memorySsa)
          memorySsa =
              &analyses.getResult<MemorySSAAnalysis>(function).getMSSA();
        if (!unwrittenSince(*memorySsa, *later, *earlier.load))
          continue;
        // Only loads kept are seen, so `earlier` is still there.
        value = earlier.load;
        if (*element != kWholeLoad)
          value = ExtractElementInst::Create(
              value,
              ConstantInt::get(Type::getInt32Ty(function.getContext()),
                               *element),
              "", later->getIterator());
        break;
      }
      if (!value) {
        seen.push_back({later, key.first});
        continue;
      }
      later->replaceAllUsesWith(value);
      forwarded.push_back(later);
    }
  for (LoadInst *load : forwarded)
    load->eraseFromParent();
  return cfgPreservedUnless(!forwarded.empty());
}

} // namespace kcheck::analyzer

namespace kcheck::analyzer {

namespace {

constexpr uint64_t kChunkBytes = 16;

// A plain shared load of whole 4-byte words from a static __shared__
// variable at a constant offset, and which words of which 16-byte chunk of
// the window it reads. ptxas lays the variables out itself, so a chunk may
// hold words of several variables (kernels/toolkit/shared_scalars.cu: three
// `__shared__ int` scalars read by one LDS.128).
struct ChunkRead {
  LoadInst *load = nullptr;
  GlobalVariable *variable = nullptr;
  uint64_t variableOffset = 0; // of the variable, in the window
  uint64_t chunk = 0;          // of the chunk, in the window (a multiple of 16)
  unsigned firstWord = 0;      // in the chunk
  unsigned words = 0;
};

std::optional<ChunkRead>
chunkRead(LoadInst &load, const DataLayout &layout,
          const MapVector<GlobalVariable *, uint64_t> &offsets,
          uint64_t windowBytes) {
  if (!isPlainSharedLoad(load))
    return std::nullopt;
  const uint64_t bytes = layout.getTypeStoreSize(load.getType());
  // Loads of 16-bit elements merge into no more than 64 bits
  // (KeepSubwordSharedAccessesApartLikePtxas): HeCBench nlll's eight
  // `__half` reads of a static array at constant offsets are two LDS.64.
  if (bytes % 4 != 0 || bytes > kChunkBytes ||
      load.getType()->isPtrOrPtrVectorTy() ||
      load.getType()->getScalarSizeInBits() < 32)
    return std::nullopt;
  std::optional<WindowAddress> at =
      windowAddressOf(load.getPointerOperand(), layout, offsets);
  if (!at)
    return std::nullopt;
  const uint64_t start = at->offset;
  const uint64_t chunk = start / kChunkBytes * kChunkBytes;
  // The window's allocation is whole chunks: three 4-byte scalars are read
  // with one LDS.128.
  if (start % 4 != 0 || start + bytes > chunk + kChunkBytes ||
      chunk + kChunkBytes > alignTo(windowBytes, kChunkBytes))
    return std::nullopt;
  return ChunkRead{&load,
                   at->variable,
                   at->variableOffset,
                   chunk,
                   unsigned((start - chunk) / 4),
                   unsigned(bytes / 4)};
}

// `later` runs after `first` (dominated by it), and not in a loop that
// `first` is outside of: merging it into `first` hoists no load out of a
// loop. It may stand after the loop `first` is in (topk: the load of
// `counter.bits` on the path that breaks out of the pass loop joins the
// LDS.128 of the loop's own test).
bool isNearby(const LoadInst &first, const LoadInst &later,
              const DominatorTree &dominators, const LoopInfo &loops) {
  const Loop *loop = loops.getLoopFor(later.getParent());
  return dominators.dominates(&first, &later) &&
         (!loop || loop->contains(first.getParent()));
}

// The words of `read` as a value of its load's type, from the chunk.
// `merged` loads words [base, base + n) of the chunk.
Value *wordsOf(const ChunkRead &read, LoadInst &merged, unsigned base,
               unsigned n) {
  IRBuilder<> builder(read.load);
  Value *words;
  if (read.words == n) {
    words = &merged;
  } else if (read.words == 1) {
    words =
        builder.CreateExtractElement(&merged, uint64_t(read.firstWord - base));
  } else {
    SmallVector<int, 4> lanes;
    for (unsigned k = 0; k < read.words; ++k)
      lanes.push_back(int(read.firstWord - base + k));
    words = builder.CreateShuffleVector(&merged, lanes);
  }
  return builder.CreateBitCast(words, read.load->getType());
}

bool isBitCastableFromWords(const ChunkRead &read) {
  Type *word = Type::getInt32Ty(read.load->getContext());
  Type *words = read.words == 1 ? word : FixedVectorType::get(word, read.words);
  return CastInst::isBitCastable(words, read.load->getType());
}

// Merges the reads of one chunk that `first` heads into one 16-byte load
// when they cover three or four words, into one 8-byte load when they cover
// the two words of one aligned half (HeCBench channelSum: CUB TempStorage at
// window offset 44 reads words at 56 and 60 as one LDS.64).
bool widenChunk(const ChunkRead &first, ArrayRef<ChunkRead> reads,
                const MapVector<GlobalVariable *, uint64_t> &offsets,
                DenseSet<LoadInst *> &done, const DominatorTree &dominators,
                const LoopInfo &loops, MemorySSA &memorySsa) {
  SmallVector<const ChunkRead *, 4> group = {&first};
  unsigned covered = ((1u << first.words) - 1) << first.firstWord;
  for (const ChunkRead &read : reads) {
    if (read.load == first.load || done.count(read.load) ||
        !isNearby(*first.load, *read.load, dominators, loops) ||
        !unwrittenSince(memorySsa, *read.load, *first.load))
      continue;
    // Another variable's words join only in the same block (HeCBench adamw:
    // two scalars read before and after a loop stay two LDS).
    if (read.variable != first.variable &&
        read.load->getParent() != first.load->getParent())
      continue;
    group.push_back(&read);
    covered |= ((1u << read.words) - 1) << read.firstWord;
  }
  unsigned base = 0, n = 4; // the words merged
  if (covered == 0x3 || covered == 0xc)
    base = covered == 0x3 ? 0 : 2, n = 2;
  else if (llvm::popcount(covered) < 3)
    return false;
  if (group.size() < 2 || !llvm::all_of(group, [](const ChunkRead *r) {
        return isBitCastableFromWords(*r);
      }))
    return false;
  IRBuilder<> builder(first.load);
  Type *i32 = builder.getInt32Ty();
  const uint64_t begin = first.chunk + 4 * base, end = begin + 4 * n;
  // From the first read's variable, which the chunk may start before or
  // end after (not inbounds).
  Value *address = builder.CreateGEP(
      builder.getInt8Ty(), first.variable,
      builder.getInt64(int64_t(begin) - int64_t(first.variableOffset)));
  LoadInst *chunk = builder.CreateAlignedLoad(FixedVectorType::get(i32, n),
                                              address, Align(4 * n));
  markSharedSpan(*chunk, begin, end, offsets);
  // ptxas widens a 16-byte load that reads the whole chunk, if there is
  // one, and keeps its line (nvcc_parity.cu's shared_chunks); else the
  // first load.
  const ChunkRead *located = &first;
  for (const ChunkRead *read : group)
    if (read->words == 4)
      located = read;
  chunk->setDebugLoc(located->load->getDebugLoc());
  if (n == 4 && covered != 0xf) {
    // The words the program reads, as a byte mask for the sanitizers.
    uint32_t bytes = 0;
    for (unsigned word = 0; word < 4; ++word)
      if (covered >> word & 1)
        bytes |= 0xfu << (4 * word);
    chunk->setMetadata(
        core::kReadBytesMetadata,
        MDNode::get(chunk->getContext(),
                    ConstantAsMetadata::get(builder.getInt32(bytes))));
  }
  for (const ChunkRead *read : group) {
    read->load->replaceAllUsesWith(wordsOf(*read, *chunk, base, n));
    done.insert(read->load);
  }
  // Later queries walk MemorySSA: the merged loads leave it first.
  MemorySSAUpdater updater(&memorySsa);
  for (const ChunkRead *read : group) {
    updater.removeMemoryAccess(read->load);
    read->load->eraseFromParent();
  }
  return true;
}

} // namespace

PreservedAnalyses
ShapeSharedLoadsLikePtxas::run(Function &function,
                               FunctionAnalysisManager &analyses) {
  const DataLayout &layout = function.getDataLayout();
  bool changed = false;
  // Narrowing first: a chunk's narrowed words may then join another load's.
  SmallVector<LoadInst *, 8> vectors;
  for (Instruction &instruction : instructions(function))
    if (auto *load = dyn_cast<LoadInst>(&instruction);
        load && isPlainSharedLoad(*load) && load->getType()->isVectorTy() &&
        layout.getTypeStoreSize(load->getType()) == kChunkBytes &&
        load->getType()->getScalarSizeInBits() == 32)
      vectors.push_back(load);
  for (LoadInst *load : vectors) // at most two words used: narrowed
    changed |= narrowToUsedLanes(*load, layout);

  // Reads by chunk of the window, in program order.
  const MapVector<GlobalVariable *, uint64_t> offsets =
      sharedOffsetsLikePtxas(function);
  const uint64_t windowBytes = staticSharedBytes(offsets, layout);
  MapVector<uint64_t, SmallVector<ChunkRead, 4>> byChunk;
  for (Instruction &instruction : instructions(function))
    if (auto *load = dyn_cast<LoadInst>(&instruction))
      if (std::optional<ChunkRead> read =
              chunkRead(*load, layout, offsets, windowBytes))
        byChunk[read->chunk].push_back(*read);
  bool anyCandidate = false;
  for (auto &entry : byChunk)
    anyCandidate |= entry.second.size() > 1;
  if (anyCandidate) {
    DominatorTree &dominators =
        analyses.getResult<DominatorTreeAnalysis>(function);
    LoopInfo &loops = analyses.getResult<LoopAnalysis>(function);
    MemorySSA &memorySsa =
        analyses.getResult<MemorySSAAnalysis>(function).getMSSA();
    DenseSet<LoadInst *> done;
    for (auto &entry : byChunk)
      for (const ChunkRead &read : entry.second)
        if (!done.count(read.load))
          changed |= widenChunk(read, entry.second, offsets, done, dominators,
                                loops, memorySsa);
  }
  return cfgPreservedUnless(changed);
}

} // namespace kcheck::analyzer

namespace kcheck::analyzer {

MapVector<GlobalVariable *, uint64_t> sharedOffsetsLikePtxas(Function &kernel) {
  // The variables the kernel's instructions name, through constant
  // expressions too (as simulator/engine/Decoder.cpp collects them).
  SmallPtrSet<GlobalVariable *, 16> used;
  SmallVector<Constant *, 32> work;
  for (Instruction &instruction : instructions(kernel))
    for (Value *operand : instruction.operands())
      if (auto *constant = dyn_cast<Constant>(operand))
        work.push_back(constant);
  SmallPtrSet<Constant *, 32> seen;
  while (!work.empty()) {
    Constant *constant = work.pop_back_val();
    if (!seen.insert(constant).second)
      continue;
    if (auto *variable = dyn_cast<GlobalVariable>(constant)) {
      used.insert(variable);
      continue;
    }
    for (Value *operand : constant->operands())
      if (auto *inner = dyn_cast<Constant>(operand))
        work.push_back(inner);
  }
  const DataLayout &layout = kernel.getDataLayout();
  std::vector<GlobalVariable *> variables;
  std::vector<core::SharedVarShape> shapes;
  for (GlobalVariable &variable : kernel.getParent()->globals()) {
    if (variable.getAddressSpace() != kSharedAS || !used.count(&variable) ||
        isDynamicShared(variable, layout))
      continue;
    variables.push_back(&variable);
    shapes.push_back({layout.getTypeAllocSize(variable.getValueType()),
                      variable.getAlign().valueOrOne().value()});
  }
  const core::SharedLayout placed = core::layOutStaticShared(shapes);
  MapVector<GlobalVariable *, uint64_t> offsets;
  for (size_t i = 0; i < variables.size(); ++i)
    offsets[variables[i]] = placed.offsets[i];
  return offsets;
}

std::optional<WindowAddress>
windowAddressOf(Value *pointer, const DataLayout &layout,
                const MapVector<GlobalVariable *, uint64_t> &offsets) {
  APInt offset(layout.getIndexTypeSizeInBits(pointer->getType()), 0);
  auto *variable =
      dyn_cast<GlobalVariable>(pointer->stripAndAccumulateConstantOffsets(
          layout, offset, /*AllowNonInbounds=*/true));
  auto at = variable ? offsets.find(variable) : offsets.end();
  if (at == offsets.end() || offset.isNegative())
    return std::nullopt;
  return WindowAddress{variable, at->second,
                       at->second + offset.getZExtValue()};
}

uint64_t staticSharedBytes(const MapVector<GlobalVariable *, uint64_t> &offsets,
                           const DataLayout &layout) {
  uint64_t end = 0;
  for (auto [variable, offset] : offsets)
    end = std::max(end,
                   offset + layout.getTypeAllocSize(variable->getValueType()));
  return end;
}

void markSharedSpan(Instruction &access, uint64_t begin, uint64_t end,
                    const MapVector<GlobalVariable *, uint64_t> &offsets) {
  const DataLayout &layout = access.getDataLayout();
  std::string names;
  unsigned covered = 0;
  bool insideOne = false;
  for (auto [variable, offset] : offsets) {
    uint64_t bytes = layout.getTypeAllocSize(variable->getValueType());
    if (offset >= end || offset + bytes <= begin)
      continue;
    insideOne |= offset <= begin && end <= offset + bytes;
    names += (covered++ ? "," : "") + variable->getName().str();
  }
  if (insideOne)
    return;
  LLVMContext &context = access.getContext();
  access.setMetadata(core::kSharedSpanMetadata,
                     MDNode::get(context, MDString::get(context, names)));
}

PreservedAnalyses AlignDynamicSharedLikeNvvm::run(Module &module,
                                                  ModuleAnalysisManager &) {
  const DataLayout &layout = module.getDataLayout();
  bool changed = false;
  for (GlobalVariable &variable : module.globals())
    if (variable.getAddressSpace() == kSharedAS &&
        isDynamicShared(variable, layout) &&
        variable.getAlign().valueOrOne().value() < core::kDynamicSharedAlign) {
      variable.setAlignment(Align(core::kDynamicSharedAlign));
      changed = true;
    }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

PreservedAnalyses AlignSharedGlobalsLikePtxas::run(Module &module,
                                                   ModuleAnalysisManager &) {
  DenseMap<GlobalVariable *, uint64_t> proven; // least over the kernels
  for (Function &function : module) {
    // Kernels only: a device function's variables are laid out in the
    // kernels it is inlined into.
    if (function.isDeclaration() ||
        function.getCallingConv() != CallingConv::PTX_Kernel)
      continue;
    for (auto [variable, offset] : sharedOffsetsLikePtxas(function)) {
      uint64_t align = core::knownAlignmentAt(offset, kChunkBytes);
      auto [it, inserted] = proven.try_emplace(variable, align);
      if (!inserted)
        it->second = std::min(it->second, align);
    }
  }
  // The dynamic window's arrays are at 16 already (AlignDynamicSharedLikeNvvm
  // runs first).
  bool changed = false;
  for (auto [variable, align] : proven)
    if (align > variable->getAlign().valueOrOne().value()) {
      variable->setAlignment(Align(align));
      changed = true;
    }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace kcheck::analyzer
