#include "analyzer/pipeline/IrPipelineDeviceHeap.h"

#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"

#include <vector>

namespace kcheck::analyzer {

using namespace llvm;

namespace {

// malloc, free, and every form of the operators new and delete (arrays,
// sized, nothrow, aligned), by their Itanium names.
bool isDeviceHeapFunction(StringRef name) {
  return name == "malloc" || name == "free" || name.starts_with("_Znw") ||
         name.starts_with("_Zna") || name.starts_with("_Zdl") ||
         name.starts_with("_Zda");
}

} // namespace

PreservedAnalyses OpaqueDeviceHeapCallsLikeNvvm::run(Module &module,
                                                     ModuleAnalysisManager &) {
  std::vector<Function *> heap;
  for (Function &f : module)
    if (f.isDeclaration() && isDeviceHeapFunction(f.getName()))
      heap.push_back(&f);
  for (Function *f : heap) {
    Function *opaque =
        Function::Create(f->getFunctionType(), GlobalValue::ExternalLinkage,
                         kDeviceHeapPrefix + f->getName().str(), module);
    opaque->addFnAttr(Attribute::NoUnwind);
    for (User *user : std::vector<User *>(f->user_begin(), f->user_end()))
      if (auto *call = dyn_cast<CallBase>(user);
          call && call->getCalledFunction() == f) {
        call->setAttributes(AttributeList());
        call->setCalledFunction(opaque);
      }
    if (f->use_empty())
      f->eraseFromParent();
  }
  return heap.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
}

} // namespace kcheck::analyzer
