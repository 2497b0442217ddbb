#include "analyzer/pipeline/IrPipeline.h"
#include "analyzer/pipeline/IrPipelineAlign.h"
#include "analyzer/pipeline/IrPipelineAtomics.h"
#include "analyzer/pipeline/IrPipelineDeviceHeap.h"
#include "analyzer/ptx/PtxLowering.h"

#include "analyzer/pipeline/IrPipelineFma.h"
#include "analyzer/pipeline/IrPipelineForward.h"
#include "analyzer/pipeline/IrPipelineLoopLoads.h"
#include "analyzer/pipeline/IrPipelineMemory.h"
#include "analyzer/pipeline/IrPipelineMemset.h"
#include "analyzer/pipeline/IrPipelineNarrow.h"
#include "analyzer/pipeline/IrPipelinePhis.h"
#include "analyzer/pipeline/IrPipelinePtxasMerge.h"
#include "analyzer/pipeline/IrPipelinePtxasUnroll.h"
#include "analyzer/pipeline/IrPipelineShared.h"
#include "analyzer/pipeline/IrPipelineSink.h"
#include "analyzer/pipeline/IrPipelineSourceLines.h"
#include "analyzer/pipeline/IrPipelineSwitch.h"
#include "analyzer/pipeline/IrPipelineUnroll.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/Transforms/Scalar/InferAddressSpaces.h"
#include "llvm/Transforms/Scalar/InferAlignment.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/Mem2Reg.h"
#include "llvm/Transforms/Vectorize/LoadStoreVectorizer.h"

#include <memory>
#include <mutex>
#include <set>
#include <tuple>

namespace kcheck::analyzer {

namespace {

using namespace llvm;

bool isKernel(const Function &function) {
  return function.getCallingConv() == CallingConv::PTX_Kernel;
}

// Two settings of the O3 pipeline exist only as LLVM command-line options: the
// unroll threshold is read from `-unroll-threshold` when gathering unrolling
// preferences, and sinking of common instructions is gated by
// `-simplifycfg-sink-common`, whatever the pass options say. cl::opt values are
// process-wide, so they are set once. Returns whether LLVM accepted them.
bool configureLlvmOptionsOnce() {
  static std::once_flag once;
  static bool accepted = false;
  std::call_once(once, [] {
    const char *argv[] = {
        "kcheck",
        // parity-notes item 3: fully unrolls sgemm's warp-tile nest so its
        // register arrays leave local memory, as nvcc's do (600-1200 all work;
        // 1600 overdoes it).
        "-unroll-threshold=800",
        // parity-notes item 4: keeps the two stores of an if/else, as nvcc
        // does.
        "-simplifycfg-sink-common=false",
        // Loads common to both arms of an if/else are hoisted by
        // MergeDiamondAccessesLikeNvcc instead, which also matches addresses
        // computed differently and gives them line 0 as nvcc does
        // (scan_hillis_steele).
        "-simplifycfg-hoist-common=false",
        // nvcc does not version a loop on a symbolic stride being 1 (HeCBench
        // moe-align: one copy of `t[i * n + tid] += t[(i - 1) * n + tid]`),
        // so neither does LoopLoadElimination here; ForwardStoredValuesLikeNvvm
        // forwards within the unrolled body as nvcc does.
        "-enable-mem-access-versioning=false",
    };
    std::string errors;
    raw_string_ostream errorStream(errors);
    accepted = cl::ParseCommandLineOptions(std::size(argv), argv,
                                           "kcheck analyzer", &errorStream);
  });
  return accepted;
}

std::unique_ptr<TargetMachine> createNvptxTargetMachine(const Module &module,
                                                        StringRef arch) {
  initializeNvptxTarget();
  Triple triple = module.getTargetTriple();
  if (triple.getArch() != Triple::nvptx && triple.getArch() != Triple::nvptx64)
    triple = Triple("nvptx64-nvidia-cuda");
  std::string error;
  const Target *target = TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return nullptr;
  return std::unique_ptr<TargetMachine>(target->createTargetMachine(
      triple, arch, "+ptx88", TargetOptions(), std::nullopt, std::nullopt,
      CodeGenOptLevel::Aggressive));
}

// NVVM takes a pointer that a kernel reads from its by-value struct
// parameter for a global one (a kernel's argument cannot point into shared
// or local memory): HeCBench ssm's `params.B_ptr[l]` is an `ld.global.f32`,
// so the shared stores beside it, which a generic load might read, still
// merge into st.shared.v4 (tests/host/programs/param_pointers.cu). Casts
// each such pointer to the global space and back, for InferAddressSpaces to
// carry on. Runs before inlining: a read in a device function the kernel
// hands its parameter to is not seen yet (not measured).
struct GlobalPointersFromKernelParamsLikeNvvm
    : PassInfoMixin<GlobalPointersFromKernelParamsLikeNvvm> {
  PreservedAnalyses run(Function &function, FunctionAnalysisManager &) {
    if (!isKernel(function))
      return PreservedAnalyses::all();
    SmallVector<LoadInst *, 8> loads;
    for (Argument &argument : function.args()) {
      if (!argument.hasByValAttr())
        continue;
      SmallVector<Value *, 8> work{&argument};
      SmallPtrSet<Value *, 16> seen{&argument};
      while (!work.empty()) {
        Value *address = work.pop_back_val();
        for (User *user : address->users())
          if (auto *gep = dyn_cast<GetElementPtrInst>(user)) {
            if (seen.insert(gep).second)
              work.push_back(gep);
          } else if (auto *load = dyn_cast<LoadInst>(user);
                     load && load->getType()->isPointerTy() &&
                     load->getType()->getPointerAddressSpace() == 0) {
            loads.push_back(load);
          }
      }
    }
    for (LoadInst *load : loads) {
      IRBuilder<> builder(load->getNextNode());
      Value *global = builder.CreateAddrSpaceCast(
          load, PointerType::get(load->getContext(), /*global=*/1));
      Value *generic = builder.CreateAddrSpaceCast(global, load->getType());
      load->replaceUsesWithIf(
          generic, [&](Use &use) { return use.getUser() != global; });
    }
    return loads.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
  }
};

// nvcc inlines device functions into kernels; the interpreter executes no
// calls.
struct MarkDeviceFunctionsAlwaysInline
    : PassInfoMixin<MarkDeviceFunctionsAlwaysInline> {
  PreservedAnalyses run(Module &module, ModuleAnalysisManager &) {
    for (Function &function : module) {
      if (function.isDeclaration() || isKernel(function))
        continue;
      function.removeFnAttr(
          Attribute::NoInline); // incompatible with alwaysinline
      function.removeFnAttr(Attribute::OptimizeNone);
      function.addFnAttr(Attribute::AlwaysInline);
    }
    return PreservedAnalyses::none();
  }
  static bool isRequired() { return true; }
};

// A small struct copy (float4 a = b) stays llvm.memcpy, which nvcc emits as one
// wide load and one wide store (parity-notes item 1). Expands a constant-length
// memcpy of up to 256 bytes into loads and stores as wide as the alignment
// allows (at most 16 bytes): the larger of the declared and the known
// alignment, the smaller of source and destination; a length that is no
// multiple of that width ends in narrower pieces. (A 12-byte struct of
// alignment 4 is three LDG.32, a 32-byte one of alignment 16 two LDG.128:
// HeCBench aligned-types on the H100.) A volatile copy (a struct argument
// into a device-side launch's parameter buffer,
// ParameterBufferAlignmentLikeNvcc) is expanded at its declared alignments
// only, into volatile pieces.
struct ExpandSmallMemcpys : PassInfoMixin<ExpandSmallMemcpys> {
  PreservedAnalyses run(Function &function, FunctionAnalysisManager &analyses) {
    const DataLayout &layout = function.getDataLayout();
    auto &assumptions = analyses.getResult<AssumptionAnalysis>(function);
    bool changed = false;
    for (MemCpyInst *copy : memcpysIn(function)) {
      auto *length = dyn_cast<ConstantInt>(copy->getLength());
      if (!length)
        continue;
      uint64_t size = length->getZExtValue();
      if (size == 0 || size > 256)
        continue;
      const bool isVolatile = copy->isVolatile();
      auto known = [&](const Value *pointer) {
        return isVolatile ? Align(1)
                          : getKnownAlignment(const_cast<Value *>(pointer),
                                              layout, copy, &assumptions);
      };
      Align destAlign = std::max(copy->getDestAlign().valueOrOne(),
                                 known(copy->getRawDest()));
      Align sourceAlign = std::max(copy->getSourceAlign().valueOrOne(),
                                   known(copy->getRawSource()));
      uint64_t widest =
          std::min<uint64_t>(16, std::min(destAlign, sourceAlign).value());
      IRBuilder<> builder(copy); // inherits the memcpy's debug location
      forEachWidePiece(
          function.getContext(), size, widest,
          [&](uint64_t offset, Type *chunkType) {
            Value *source = builder.CreateConstInBoundsGEP1_64(
                builder.getInt8Ty(), copy->getRawSource(), offset);
            Value *dest = builder.CreateConstInBoundsGEP1_64(
                builder.getInt8Ty(), copy->getRawDest(), offset);
            // A piece of a constant (a struct initialized from constants) is
            // its value, as NVVM folds it; else a load.
            Value *piece = nullptr;
            if (auto *constant = dyn_cast<Constant>(source))
              piece = ConstantFoldLoadFromConstPtr(constant, chunkType, layout);
            if (!piece)
              piece = builder.CreateAlignedLoad(
                  chunkType, source, commonAlignment(sourceAlign, offset),
                  isVolatile);
            builder.CreateAlignedStore(
                piece, dest, commonAlignment(destAlign, offset), isVolatile);
          });
      copy->eraseFromParent();
      changed = true;
    }
    return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

// Source locations the way nvcc's line table has them (parity-notes "Lines"):
// what Clang locates differently is fixed before the optimizer (multi-line
// copies) and after it (forwarded copies, line-0 loads and stores).
struct NvccLineState {
  // (scope, line, column) of copies into a local that is then only copied
  // into a by-value argument: their loads belong to the callee's first read.
  std::set<std::tuple<const DIScope *, unsigned, unsigned>> forwardedCopies;
};

std::tuple<const DIScope *, unsigned, unsigned>
locationKey(const DILocation *loc) {
  return {loc->getScope(), loc->getLine(), loc->getColumn()};
}

// Before the optimizer, on Clang's own IR.
struct LocateCopiesLikeNvcc : PassInfoMixin<LocateCopiesLikeNvcc> {
  explicit LocateCopiesLikeNvcc(NvccLineState &state) : state_(&state) {}

  PreservedAnalyses run(Module &module, ModuleAnalysisManager &) {
    for (Function &function : module)
      for (Instruction &instruction : instructions(function))
        if (auto *copy = dyn_cast<MemCpyInst>(&instruction))
          locate(*copy);
    return PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }

private:
  void locate(MemCpyInst &copy) {
    const DILocation *loc = copy.getDebugLoc().get();
    if (!loc)
      return;
    // `X =\n Y`: Clang locates the copy at the `=`, nvcc at the RHS (sgemm
    // lines 79 and 104), whose address Clang computes on the RHS's line.
    if (auto *source = dyn_cast<Instruction>(copy.getRawSource()))
      if (const DILocation *at = source->getDebugLoc().get();
          at && at->getLine() > loc->getLine() &&
          at->getScope()->getSubprogram() == loc->getScope()->getSubprogram() &&
          at->getInlinedAt() == loc->getInlinedAt()) {
        copy.setDebugLoc(source->getDebugLoc());
        return;
      }
    // `Packed v = p[i]; sum += v;` with `v` passed by value (reduce_v8):
    // nvcc's load is the callee's read of the parameter, on its line.
    auto *local = dyn_cast<AllocaInst>(copy.getRawDest());
    if (!local || isa<AllocaInst>(copy.getRawSource()))
      return;
    bool forwarded = false;
    for (const User *user : local->users()) {
      if (user == &copy || isa<LifetimeIntrinsic>(user))
        continue;
      const auto *next = dyn_cast<MemCpyInst>(user);
      if (!next || next->getRawSource() != local || !passedByValue(*next))
        return;
      forwarded = true;
    }
    if (forwarded)
      state_->forwardedCopies.insert(locationKey(loc));
  }

  static bool passedByValue(const MemCpyInst &copy) {
    auto *temporary = dyn_cast<AllocaInst>(copy.getRawDest());
    if (!temporary)
      return false;
    for (const Use &use : temporary->uses())
      if (const auto *call = dyn_cast<CallBase>(use.getUser());
          call && call->isArgOperand(&use) &&
          call->isByValArgument(call->getArgOperandNo(&use)))
        return true;
    return false;
  }

  NvccLineState *state_;
};

// After the optimizer.
struct RelocateLikeNvcc : PassInfoMixin<RelocateLikeNvcc> {
  explicit RelocateLikeNvcc(NvccLineState &state) : state_(&state) {}

  PreservedAnalyses run(Function &function, FunctionAnalysisManager &) {
    for (Instruction &instruction : instructions(function)) {
      if (!isa<LoadInst, StoreInst>(instruction))
        continue;
      const DILocation *loc = instruction.getDebugLoc().get();
      if (loc && loc->getLine() == 0) {
        // A load or store hoisted out of both arms of an `if` gets line 0;
        // ptxas credits it to the previous located instruction. (Loads left
        // with no location at all stay unlocated: see lines_exceptions.txt.)
        if (const Instruction *previous = previousLocated(instruction))
          instruction.setDebugLoc(previous->getDebugLoc());
      } else if (loc && isa<LoadInst>(instruction) &&
                 state_->forwardedCopies.count(locationKey(loc))) {
        if (const Instruction *use = firstUse(instruction))
          instruction.setDebugLoc(use->getDebugLoc());
      }
    }
    return PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }

private:
  static bool located(const Instruction &instruction) {
    const DILocation *loc = instruction.getDebugLoc().get();
    return loc && loc->getLine() != 0;
  }

  // In program (layout) order, as ptxas emits it.
  static const Instruction *previousLocated(const Instruction &instruction) {
    const BasicBlock *block = instruction.getParent();
    for (const Instruction *i = instruction.getPrevNode();;) {
      for (; i; i = i->getPrevNode())
        if (located(*i))
          return i;
      block = block->getPrevNode();
      if (!block)
        return nullptr;
      i = &block->back();
    }
  }

  // The first located user in the load's block, looking through the
  // element extractions and casts of a vector load.
  static const Instruction *firstUse(const Instruction &load) {
    SmallPtrSet<const Instruction *, 16> users;
    SmallVector<const Instruction *> work = {&load};
    while (!work.empty()) {
      const Instruction *value = work.pop_back_val();
      for (const User *user : value->users())
        if (const auto *i = dyn_cast<Instruction>(user);
            i && users.insert(i).second &&
            isa<ExtractElementInst, ShuffleVectorInst, CastInst>(i))
          work.push_back(i);
    }
    for (const Instruction &i :
         make_range(std::next(load.getIterator()), load.getParent()->end()))
      if (users.count(&i) && located(i) &&
          !isa<ExtractElementInst, ShuffleVectorInst, CastInst>(i))
        return &i;
    return nullptr;
  }

  NvccLineState *state_;
};

// Passes inside O3's pipeline, at its extension points.
void registerNvccExtensionPoints(PassBuilder &builder) {
  builder.registerPeepholeEPCallback(
      [](FunctionPassManager &fpm, OptimizationLevel) {
        fpm.addPass(RecordSourceLinesInFunction());
      });
  // After GVN (and DSE, LICM) of the simplification pipeline: the loads that
  // HideStoredLoadsLikeNvcc hid go back into their stores before the later
  // passes (vectorizers) see them.
  builder.registerScalarOptimizerLateEPCallback(
      [](FunctionPassManager &fpm, OptimizationLevel) {
        fpm.addPass(UnhideStoredLoads());
      });

  // Before LoopUnroll: the counts nvcc gives loops with a runtime trip count.
  builder.registerVectorizerStartEPCallback(
      [](FunctionPassManager &fpm, OptimizationLevel) {
        fpm.addPass(UnrollRuntimeLoopsLikeNvvm());
      });
}

// Every kcheck pass by its name (Passes.def), so that pipeline texts (the
// stages below, tests/analyzer/run_passes) can name each one.
void registerKcheckPasses(PassBuilder &builder, NvccLineState &lineState) {
  builder.registerPipelineParsingCallback(
      [&lineState](StringRef name, ModulePassManager &passes,
                   ArrayRef<PassBuilder::PipelineElement>) {
#define KCHECK_MODULE_PASS(NAME, CREATE)                                       \
  if (name == NAME) {                                                          \
    passes.addPass(CREATE);                                                    \
    return true;                                                               \
  }
#include "analyzer/pipeline/Passes.def"
        (void)lineState;
        return false;
      });
  builder.registerPipelineParsingCallback(
      [&lineState](StringRef name, FunctionPassManager &passes,
                   ArrayRef<PassBuilder::PipelineElement>) {
#define KCHECK_FUNCTION_PASS(NAME, CREATE)                                     \
  if (name == NAME) {                                                          \
    passes.addPass(CREATE);                                                    \
    return true;                                                               \
  }
#include "analyzer/pipeline/Passes.def"
        (void)lineState;
        return false;
      });
}

// The stages, as pipeline texts of Passes.def's names and LLVM's.
//
// Before O3. Address spaces before O3, so that O3 sees shared stores as
// shared and sinks them out of loops as nvcc does (toolchain.md pitfall 2).
constexpr const char *kEarlyPasses =
    // Scalars in SSA form first, so that the copies' addresses compare.
    "mem2reg,kcheck-store-whole-struct-copies,kcheck-load-whole-struct-copies,"
    "sroa<modify-cfg>,kcheck-global-pointers-from-kernel-params,"
    "kcheck-parameter-buffer-alignment,"
    "infer-address-spaces,"
    // While the special-register reads stand where the source has them.
    "kcheck-keep-special-register-loops-rolled,"
    // Keeps GVN from forwarding a reload through a may-alias store of the
    // same value, which nvcc does not (scan_blelloch_padded).
    "kcheck-hide-stored-loads";

// After O3.
constexpr const char *kLatePasses =
    // Any hidden load the simplification pipeline left (none, unless it ran
    // without its late extension point).
    "kcheck-unhide-stored-loads,kcheck-read-constants-cast-to-local,"
    "kcheck-fold-phis-of-identical-arithmetic,"
    "kcheck-keep-conditional-loop-loads,kcheck-unfreeze-whole-struct-copies,"
    "kcheck-merge-diamond-accesses,kcheck-forward-stored-values,"
    "infer-address-spaces,infer-alignment,"
    "kcheck-keep-subword-shared-accesses-apart,"
    "kcheck-let-vectorizer-pass-pure-asm,"
    // NVVM's vectorizer, then ptxas's merging of what follows each other
    // (IrPipelinePtxasMerge.h).
    "kcheck-cap-alignment,load-store-vectorizer,infer-alignment,"
    "kcheck-keep-subword-shared-accesses-apart,kcheck-fence-load-store-turns,"
    "load-store-vectorizer,kcheck-remove-load-store-fences,"
    "kcheck-lower-masked-memory,kcheck-narrow-vector-loads,kcheck-relocate";

// What NVVM's vectorizer will know: the alignments of the accesses at the
// variables' declared alignments (IrPipelinePtxasMerge.h).
constexpr const char *kNvvmAlignmentPasses =
    "kcheck-align-dynamic-shared,function(infer-alignment,"
    "kcheck-remember-alignment)";

// After the inline PTX is lowered: what the NVPTX backend does to the IR's
// accesses on the way to PTX, and ptxas, which sees the lowered assembly's
// instructions.
constexpr const char *kBackendPasses =
    "function(kcheck-unroll-short-loops,kcheck-forward-shared-reloads,"
    "kcheck-shape-shared-loads,kcheck-merge-shared-stores-across-variables,"
    "kcheck-sink-loads-into-their-branch,kcheck-expand-shared-float-atomics,"
    "kcheck-split-underaligned-accesses,kcheck-lower-switches,"
    "kcheck-fuse-multiply-adds)";

// The passes of `text`; a text naming what no registry has is kcheck's
// mistake, not the input's.
ModulePassManager parsePipeline(PassBuilder &builder, const std::string &text) {
  ModulePassManager passes;
  if (Error e = builder.parsePassPipeline(passes, text))
    report_fatal_error(Twine("kcheck's IR pipeline: ") +
                       toString(std::move(e)));
  return passes;
}

} // namespace

void initializeNvptxTarget() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
  });
}

namespace {

// What a run of passes needs: the NVPTX TargetMachine for `arch` (NVPTX's
// cost models), the analysis managers, and a PassBuilder that knows
// kcheck's passes by name (Passes.def) with their shared line state.
struct PassSetup {
  PassSetup(Module &module, StringRef arch)
      : targetMachine((configureLlvmOptionsOnce(),
                       createNvptxTargetMachine(module, arch))),
        builder(targetMachine.get()) {
    builder.registerModuleAnalyses(moduleAnalyses);
    builder.registerCGSCCAnalyses(cgsccAnalyses);
    builder.registerFunctionAnalyses(functionAnalyses);
    builder.registerLoopAnalyses(loopAnalyses);
    builder.crossRegisterProxies(loopAnalyses, functionAnalyses, cgsccAnalyses,
                                 moduleAnalyses);
    registerKcheckPasses(builder, lineState);
  }
  std::unique_ptr<TargetMachine> targetMachine;
  LoopAnalysisManager loopAnalyses;
  FunctionAnalysisManager functionAnalyses;
  CGSCCAnalysisManager cgsccAnalyses;
  ModuleAnalysisManager moduleAnalyses;
  PassBuilder builder;
  NvccLineState lineState;
};

} // namespace

std::vector<std::string> kcheckPassNames() {
  return {
#define KCHECK_MODULE_PASS(NAME, CREATE) NAME,
#define KCHECK_FUNCTION_PASS(NAME, CREATE) NAME,
#include "analyzer/pipeline/Passes.def"
  };
}

bool runPassPipeline(Module &module, StringRef arch, StringRef passes,
                     std::string &why) {
  PassSetup setup(module, arch);
  ModulePassManager pipeline;
  if (Error e = setup.builder.parsePassPipeline(pipeline, passes)) {
    why = toString(std::move(e));
    return false;
  }
  pipeline.run(module, setup.moduleAnalyses);
  return true;
}

void runNvccLikePipeline(Module &module, StringRef arch) {
  PassSetup setup(module, arch);
  PassBuilder &builder = setup.builder;
  ModuleAnalysisManager &moduleAnalyses = setup.moduleAnalyses;
  registerNvccExtensionPoints(builder);

  lowerNvvmMemoryIntrinsics(module);
  ModulePassManager passes = parsePipeline(
      builder, std::string("kcheck-locate-copies,"
                           "kcheck-opaque-device-heap-calls,"
                           "kcheck-always-inline-device-functions,function(") +
                   kEarlyPasses + "),kcheck-record-source-lines");
  // O3 as PassBuilder builds it: the text "default<O3>" is not the same
  // pipeline (host.h100.load_store_turns: the vectorizer then merges byte
  // loads that nvcc keeps apart).
  passes.addPass(builder.buildPerModuleDefaultPipeline(OptimizationLevel::O3));
  passes.addPass(parsePipeline(
      builder, std::string("kcheck-restore-dropped-lines,") +
                   kNvvmAlignmentPasses +
                   ",kcheck-align-shared-globals,"
                   "function(kcheck-expand-small-memcpys),"
                   "function(kcheck-expand-small-memsets),function(" +
                   kLatePasses + ")"));
  passes.run(module, moduleAnalyses);
  eraseLoadStoreFenceDeclaration(module);
  // Last, as nvcc's optimizer never sees inside inline assembly (nor into
  // the cp.async and mbarrier intrinsics).
  lowerInlinePtx(module);
  lowerNvvmAsyncCopyIntrinsics(module);
  parsePipeline(builder, kBackendPasses).run(module, moduleAnalyses);
  lowerWmmaIntrinsics(module);
  lowerNvvmWarpIntrinsics(module);
  lowerNvvmArithmeticIntrinsics(module);
  lowerNvvmControlIntrinsics(module);
}

std::vector<const CallBase *> callsToDefinedFunctions(const Module &module) {
  std::vector<const CallBase *> calls;
  for (const Function &function : module) {
    if (function.isDeclaration() || !isKernel(function))
      continue;
    for (const Instruction &instruction : instructions(function))
      if (const auto *call = dyn_cast<CallBase>(&instruction))
        if (const Function *callee = call->getCalledFunction();
            callee && !callee->isDeclaration())
          calls.push_back(call);
  }
  return calls;
}

} // namespace kcheck::analyzer
