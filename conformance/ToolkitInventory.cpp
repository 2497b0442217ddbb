#include "conformance/ToolkitInventory.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace kcheck::conformance {

namespace {

using namespace clang;

class Collector : public RecursiveASTVisitor<Collector> {
public:
  Collector(ASTContext &context, ToolkitInventory &into)
      : context_(context), into_(into) {}

  bool VisitFunctionDecl(FunctionDecl *f) {
    if (!f->getIdentifier() ||
        !inHeader(f->getLocation(), "cuda_runtime_api.h"))
      return true;
    // File-scope functions only (the header's are all extern "C").
    if (!f->getDeclContext()->getRedeclContext()->isTranslationUnit())
      return true;
    std::string name = f->getName().str();
    if (functions_.insert(name).second && f->hasAttr<DeprecatedAttr>())
      into_.deprecatedRuntimeFunctions.push_back(name);
    return true;
  }

  bool VisitEnumDecl(EnumDecl *e) {
    if (!e->isThisDeclarationADefinition() || !e->getIdentifier())
      return true;
    std::vector<Enumerator> *to = nullptr;
    if (e->getName() == "cudaDeviceAttr")
      to = &into_.deviceAttributes;
    else if (e->getName() == "cudaError")
      to = &into_.errors;
    if (!to || !to->empty())
      return true;
    for (const EnumConstantDecl *c : e->enumerators())
      to->push_back({c->getName().str(), c->getInitVal().getExtValue()});
    return true;
  }

  bool VisitRecordDecl(RecordDecl *r) {
    if (!r->isThisDeclarationADefinition() || !r->getIdentifier() ||
        r->getName() != "cudaDeviceProp" || !into_.devicePropertyFields.empty())
      return true;
    for (const FieldDecl *field : r->fields()) {
      std::string name = field->getName().str();
      const auto *array = context_.getAsConstantArrayType(field->getType());
      bool whole = !array || name == "reserved" ||
                   array->getElementType()->isAnyCharacterType();
      if (whole) {
        into_.devicePropertyFields.push_back(name);
        continue;
      }
      for (uint64_t i = 0; i < array->getSize().getZExtValue(); ++i)
        into_.devicePropertyFields.push_back(name + "[" + std::to_string(i) +
                                             "]");
    }
    return true;
  }

  void finish() {
    into_.runtimeFunctions.assign(functions_.begin(), functions_.end());
    std::sort(into_.deprecatedRuntimeFunctions.begin(),
              into_.deprecatedRuntimeFunctions.end());
  }

private:
  bool inHeader(SourceLocation loc, llvm::StringRef header) const {
    const SourceManager &sm = context_.getSourceManager();
    PresumedLoc p = sm.getPresumedLoc(sm.getSpellingLoc(loc));
    return p.isValid() && llvm::StringRef(p.getFilename()).ends_with(header);
  }

  ASTContext &context_;
  ToolkitInventory &into_;
  std::set<std::string> functions_;
};

class Consumer : public ASTConsumer {
public:
  explicit Consumer(ToolkitInventory &into) : into_(into) {}
  void HandleTranslationUnit(ASTContext &context) override {
    Collector c(context, into_);
    c.TraverseDecl(context.getTranslationUnitDecl());
    c.finish();
  }

private:
  ToolkitInventory &into_;
};

class Action : public ASTFrontendAction {
public:
  explicit Action(ToolkitInventory &into) : into_(into) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 llvm::StringRef) override {
    return std::make_unique<Consumer>(into_);
  }

private:
  ToolkitInventory &into_;
};

int cudaVersionOf(const std::string &root) {
  std::ifstream in(root + "/include/cuda.h");
  std::stringstream text;
  text << in.rdbuf();
  std::smatch m;
  std::string s = text.str();
  if (std::regex_search(s, m, std::regex(R"(#define\s+CUDA_VERSION\s+(\d+))")))
    return std::stoi(m[1]);
  return 0;
}

} // namespace

std::optional<ToolkitInventory> readToolkitInventory(const std::string &root,
                                                     std::string &why) {
  ToolkitInventory inventory;
  inventory.root = root;
  inventory.cudaVersion = cudaVersionOf(root);
  std::vector<std::string> args = {"-x",
                                   "c++",
                                   "-std=c++17",
                                   "-resource-dir",
                                   KCHECK_CLANG_RESOURCE_DIR,
                                   "-isystem",
                                   root + "/include",
                                   "-w"};
  // mma.h's builtins, as its implementation calls them.
  {
    std::ifstream in(root + "/include/crt/mma.hpp");
    std::stringstream text;
    text << in.rdbuf();
    std::string s = text.str();
    std::set<std::string> names;
    std::regex builtin(R"(__(hmma|imma|bmma|dmma|mma)_[a-z0-9_]*)");
    for (auto it = std::sregex_iterator(s.begin(), s.end(), builtin);
         it != std::sregex_iterator(); ++it)
      names.insert(it->str());
    inventory.wmmaBuiltins.assign(names.begin(), names.end());
  }
  bool ok = clang::tooling::runToolOnCodeWithArgs(
      std::make_unique<Action>(inventory), "#include <cuda_runtime_api.h>\n",
      args, "kcheck-inventory.cpp");
  if (!ok || inventory.runtimeFunctions.empty() ||
      inventory.deviceAttributes.empty() ||
      inventory.devicePropertyFields.empty()) {
    why = "the toolkit's cuda_runtime_api.h at " + root +
          "/include did not parse as a host program sees it";
    return std::nullopt;
  }
  std::optional<std::vector<DeviceFunction>> device =
      readDeviceFunctions(root, "sm_90", why);
  if (!device)
    return std::nullopt;
  for (DeviceFunction &f : *device)
    if (f.origin == DeviceFunction::Origin::DeviceRuntime)
      inventory.deviceRuntimeFunctions.push_back(f.name);
    else
      inventory.deviceFunctions.push_back(std::move(f));
  std::sort(inventory.deviceRuntimeFunctions.begin(),
            inventory.deviceRuntimeFunctions.end());
  return inventory;
}

} // namespace kcheck::conformance
