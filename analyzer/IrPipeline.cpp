#include "IrPipeline.h"

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/IR/CallingConv.h"
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
#include "llvm/Transforms/Vectorize/LoadStoreVectorizer.h"

#include <memory>
#include <mutex>

namespace kcheck::analyzer {

namespace {

using namespace llvm;

constexpr unsigned kSharedAddressSpace = 3;
constexpr uint64_t kSharedGlobalAlignment = 16;

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

// ptxas lays __shared__ arrays out at 16-byte alignment, which lets it merge
// scalar shared loads into LDS.128 (parity-notes item 2); the vectorizer needs
// to know it.
struct AlignSharedGlobals : PassInfoMixin<AlignSharedGlobals> {
  PreservedAnalyses run(Module &module, ModuleAnalysisManager &) {
    bool changed = false;
    for (GlobalVariable &global : module.globals()) {
      if (global.getAddressSpace() != kSharedAddressSpace ||
          global.getAlign().valueOrOne().value() >= kSharedGlobalAlignment)
        continue;
      global.setAlignment(Align(kSharedGlobalAlignment));
      changed = true;
    }
    return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

// A small struct copy (float4 a = b) stays llvm.memcpy, which nvcc emits as one
// wide load and one wide store (parity-notes item 1). Expands a constant-length
// memcpy of 1/2/4/8/16 bytes into loads and stores as wide as the alignment
// allows: the larger of the declared and the known alignment, the smaller of
// source and destination.
struct ExpandSmallMemcpys : PassInfoMixin<ExpandSmallMemcpys> {
  PreservedAnalyses run(Function &function, FunctionAnalysisManager &analyses) {
    const DataLayout &layout = function.getDataLayout();
    auto &assumptions = analyses.getResult<AssumptionAnalysis>(function);
    SmallVector<MemCpyInst *> copies;
    for (Instruction &instruction : instructions(function))
      if (auto *copy = dyn_cast<MemCpyInst>(&instruction))
        copies.push_back(copy);
    bool changed = false;
    for (MemCpyInst *copy : copies) {
      auto *length = dyn_cast<ConstantInt>(copy->getLength());
      if (!length || copy->isVolatile())
        continue;
      uint64_t size = length->getZExtValue();
      if (size != 1 && size != 2 && size != 4 && size != 8 && size != 16)
        continue;
      Align destAlign = std::max(
          copy->getDestAlign().valueOrOne(),
          getKnownAlignment(copy->getRawDest(), layout, copy, &assumptions));
      Align sourceAlign = std::max(
          copy->getSourceAlign().valueOrOne(),
          getKnownAlignment(copy->getRawSource(), layout, copy, &assumptions));
      uint64_t chunk =
          std::min<uint64_t>(size, std::min(destAlign, sourceAlign).value());
      IRBuilder<> builder(copy); // inherits the memcpy's debug location
      Type *chunkType = chunk == 16 ? static_cast<Type *>(FixedVectorType::get(
                                          builder.getInt32Ty(), 4))
                                    : builder.getIntNTy(unsigned(chunk * 8));
      for (uint64_t offset = 0; offset < size; offset += chunk) {
        Value *source = builder.CreateConstInBoundsGEP1_64(
            builder.getInt8Ty(), copy->getRawSource(), offset);
        Value *dest = builder.CreateConstInBoundsGEP1_64(
            builder.getInt8Ty(), copy->getRawDest(), offset);
        LoadInst *load = builder.CreateAlignedLoad(
            chunkType, source, commonAlignment(sourceAlign, offset));
        builder.CreateAlignedStore(load, dest,
                                   commonAlignment(destAlign, offset));
      }
      copy->eraseFromParent();
      changed = true;
    }
    return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

} // namespace

void initializeNvptxTarget() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
  });
}

void runNvccLikePipeline(Module &module, StringRef arch) {
  configureLlvmOptionsOnce();
  std::unique_ptr<TargetMachine> targetMachine =
      createNvptxTargetMachine(module, arch);

  LoopAnalysisManager loopAnalyses;
  FunctionAnalysisManager functionAnalyses;
  CGSCCAnalysisManager cgsccAnalyses;
  ModuleAnalysisManager moduleAnalyses;
  PassBuilder builder(targetMachine.get());
  builder.registerModuleAnalyses(moduleAnalyses);
  builder.registerCGSCCAnalyses(cgsccAnalyses);
  builder.registerFunctionAnalyses(functionAnalyses);
  builder.registerLoopAnalyses(loopAnalyses);
  builder.crossRegisterProxies(loopAnalyses, functionAnalyses, cgsccAnalyses,
                               moduleAnalyses);

  ModulePassManager passes;
  passes.addPass(MarkDeviceFunctionsAlwaysInline());
  {
    // Address spaces before O3, so that O3 sees shared stores as shared and
    // sinks them out of loops as nvcc does (toolchain.md pitfall 2).
    FunctionPassManager early;
    early.addPass(SROAPass(SROAOptions::ModifyCFG));
    early.addPass(InferAddressSpacesPass());
    passes.addPass(createModuleToFunctionPassAdaptor(std::move(early)));
  }
  passes.addPass(builder.buildPerModuleDefaultPipeline(OptimizationLevel::O3));
  passes.addPass(AlignSharedGlobals());
  passes.addPass(createModuleToFunctionPassAdaptor(ExpandSmallMemcpys()));
  {
    FunctionPassManager late;
    late.addPass(InferAddressSpacesPass());
    late.addPass(InferAlignmentPass());
    late.addPass(LoadStoreVectorizerPass());
    passes.addPass(createModuleToFunctionPassAdaptor(std::move(late)));
  }
  passes.run(module, moduleAnalyses);
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
