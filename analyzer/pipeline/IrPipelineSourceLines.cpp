#include "analyzer/pipeline/IrPipelineSourceLines.h"

#include "llvm/IR/CallingConv.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

namespace kcheck::analyzer {

using namespace llvm;

namespace {

bool isKernel(const Function &function) {
  return function.getCallingConv() == CallingConv::PTX_Kernel;
}

constexpr llvm::StringLiteral kSourceLineMetadata = "kcheck.line";

bool isOwnLocation(const DILocation *loc, const Function &function) {
  return loc && loc->getLine() != 0 && !loc->getInlinedAt() &&
         loc->getScope()->getSubprogram() == function.getSubprogram();
}

// Tags a kernel's located loads and stores (those not tagged yet) with their
// line. Run before O3 and again after each InstCombine inside it (the
// peephole extension point): loads that SROA makes of an aggregate copy
// inside O3 (sgemm_vectorize's FETCH_FLOAT4 into a register array) are
// tagged before LICM can drop their location.
void recordSourceLines(Function &function) {
  if (!isKernel(function) || !function.getSubprogram())
    return;
  LLVMContext &context = function.getContext();
  unsigned kind = context.getMDKindID(kSourceLineMetadata);
  Type *i32 = Type::getInt32Ty(context);
  for (Instruction &instruction : instructions(function)) {
    const DILocation *loc = instruction.getDebugLoc().get();
    if (!isa<LoadInst, StoreInst>(instruction) ||
        instruction.getMetadata(kind) || !isOwnLocation(loc, function))
      continue;
    instruction.setMetadata(
        kind, MDNode::get(context, {ConstantAsMetadata::get(
                                        ConstantInt::get(i32, loc->getLine())),
                                    ConstantAsMetadata::get(ConstantInt::get(
                                        i32, loc->getColumn()))}));
  }
}

} // namespace

PreservedAnalyses RecordSourceLines::run(Module &module,
                                         ModuleAnalysisManager &) {
  for (Function &function : module)
    recordSourceLines(function);
  return PreservedAnalyses::all();
}

PreservedAnalyses RecordSourceLinesInFunction::run(Function &function,
                                                   FunctionAnalysisManager &) {
  recordSourceLines(function);
  return PreservedAnalyses::all();
}

PreservedAnalyses RestoreDroppedLines::run(Module &module,
                                           ModuleAnalysisManager &) {
  unsigned kind = module.getContext().getMDKindID(kSourceLineMetadata);
  for (Function &function : module)
    for (Instruction &instruction : instructions(function)) {
      MDNode *line = instruction.getMetadata(kind);
      if (!line)
        continue;
      instruction.setMetadata(kind, nullptr);
      if (instruction.getDebugLoc() || !function.getSubprogram() ||
          line->getNumOperands() != 2)
        continue;
      auto number = [&](unsigned i) {
        return unsigned(
            mdconst::extract<ConstantInt>(line->getOperand(i))->getZExtValue());
      };
      instruction.setDebugLoc(DILocation::get(
          module.getContext(), number(0), number(1), function.getSubprogram()));
    }
  return PreservedAnalyses::all();
}

} // namespace kcheck::analyzer
