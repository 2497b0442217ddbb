#include "analyzer/toolchain/DeviceConstLikeNvcc.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"

namespace kcheck::analyzer {

namespace {

bool declaredDevice(const clang::VarDecl &var) {
  const auto *device = var.getAttr<clang::CUDADeviceAttr>();
  return device && !device->isImplicit();
}

void keepInGlobalMemory(clang::Decl *decl) {
  if (auto *var = llvm::dyn_cast<clang::VarDecl>(decl)) {
    const auto *constant = var->getAttr<clang::CUDAConstantAttr>();
    if (constant && constant->isImplicit() && declaredDevice(*var))
      var->dropAttr<clang::CUDAConstantAttr>();
    return;
  }
  // Namespaces, extern "C" blocks and class bodies (static data members).
  if (auto *context = llvm::dyn_cast<clang::DeclContext>(decl);
      context && (llvm::isa<clang::NamespaceDecl, clang::LinkageSpecDecl,
                            clang::CXXRecordDecl>(decl)))
    for (clang::Decl *inner : context->decls())
      keepInGlobalMemory(inner);
}

class DeviceConstInGlobalMemory : public clang::ASTConsumer {
public:
  bool HandleTopLevelDecl(clang::DeclGroupRef group) override {
    for (clang::Decl *decl : group)
      keepInGlobalMemory(decl);
    return true;
  }
  void HandleCXXStaticMemberVarInstantiation(clang::VarDecl *var) override {
    keepInGlobalMemory(var);
  }
};

} // namespace

std::unique_ptr<clang::ASTConsumer> makeDeviceConstInGlobalMemoryLikeNvcc() {
  return std::make_unique<DeviceConstInGlobalMemory>();
}

} // namespace kcheck::analyzer
