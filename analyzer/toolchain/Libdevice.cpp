#include "analyzer/toolchain/Libdevice.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/MemoryBuffer.h"

namespace kcheck::analyzer {

namespace {

// The __nv_* functions left declared (the engine executes them) are what
// libdevice defines them as: pure math, touching memory only through their
// pointer arguments (sincosf, frexpf, modff...). Declared plainly by Clang's
// headers, they would look like calls that may write any memory, and keep
// LLVM from holding a loop's loads and stores in registers across them as
// nvcc does with libdevice inlined (HeCBench adam: m[j], v[j] around powf).
void describeKeptFunctions(llvm::Module &module) {
  for (llvm::Function &f : module) {
    if (!f.isDeclaration() || !f.getName().starts_with("__nv_"))
      continue;
    bool pointers = false;
    for (llvm::Argument &a : f.args())
      pointers |= a.getType()->isPointerTy();
    f.setMemoryEffects(pointers ? llvm::MemoryEffects::argMemOnly()
                                : llvm::MemoryEffects::none());
    f.setDoesNotThrow();
    f.setWillReturn();
    f.setNoSync();
    f.setDoesNotFreeMemory();
  }
}

} // namespace

std::string libdevicePath(const CudaToolkit &toolkit) {
  return toolkit.root + "/nvvm/libdevice/libdevice.10.bc";
}

std::string linkLibdevice(llvm::Module &module, const std::string &path,
                          const std::function<bool(llvm::StringRef)> &keep) {
  std::vector<std::string> wanted;
  for (const llvm::Function &f : module)
    if (f.isDeclaration() && f.getName().starts_with("__nv_") &&
        !f.use_empty() && !keep(f.getName()))
      wanted.push_back(f.getName().str());
  if (wanted.empty()) {
    describeKeptFunctions(module);
    return "";
  }
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return "cannot read libdevice " + path + " (for " + wanted.front() + ")";
  llvm::Expected<std::unique_ptr<llvm::Module>> libdevice =
      llvm::parseBitcodeFile((*buffer)->getMemBufferRef(), module.getContext());
  if (!libdevice)
    return "cannot parse libdevice " + path + ": " +
           llvm::toString(libdevice.takeError());
  (*libdevice)->setDataLayout(module.getDataLayout());
  (*libdevice)->setTargetTriple(module.getTargetTriple());
  // Only what the module needs, as Clang's -mlink-builtin-bitcode does.
  if (llvm::Linker::linkModules(module, std::move(*libdevice),
                                llvm::Linker::Flags::LinkOnlyNeeded))
    return "cannot link libdevice " + path;
  describeKeptFunctions(module);
  for (llvm::Function &f : module)
    if (!f.isDeclaration() && f.getName().starts_with("__nv_")) {
      f.setLinkage(llvm::GlobalValue::InternalLinkage);
      f.removeFnAttr(llvm::Attribute::NoInline);
      f.removeFnAttr(llvm::Attribute::OptimizeNone);
      f.addFnAttr(llvm::Attribute::AlwaysInline);
    }
  return "";
}

} // namespace kcheck::analyzer
