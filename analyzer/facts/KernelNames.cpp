#include "analyzer/facts/KernelNames.h"

#include "analyzer/host/HostEvaluator.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/PrettyPrinter.h"
#include "llvm/Support/raw_ostream.h"

namespace kcheck::analyzer {

using namespace clang;

KernelNaming::KernelNaming(ASTContext &ctx)
    : mangler_(ctx.createMangleContext()),
      policy_(std::make_unique<PrintingPolicy>(ctx.getLangOpts())) {
  // Nsight (cu++filt) spelling: "float4 *", not "struct float4 *".
  policy_->SuppressTagKeyword = true;
  policy_->Bool = true;
  // Inline namespaces too, as Nsight's names have them
  // (`cub::CUB_300001_SM_900::detail::...`).
  policy_->SuppressInlineNamespace =
      llvm::to_underlying(PrintingPolicy::SuppressInlineNamespaceMode::None);
}

KernelNaming::~KernelNaming() = default;

std::string KernelNaming::mangled(const FunctionDecl *fd) const {
  return kernelMangledName(*mangler_, fd);
}

std::string KernelNaming::typeName(QualType t) const {
  return t.getCanonicalType().getAsString(*policy_);
}

std::string KernelNaming::templateArg(const TemplateArgument &a) const {
  switch (a.getKind()) {
  case TemplateArgument::Integral: {
    QualType t = a.getIntegralType();
    if (t->isBooleanType())
      return a.getAsIntegral() != 0 ? "true" : "false";
    std::string value = llvm::toString(a.getAsIntegral(), 10);
    // Enumerators and characters as the demangler (and so Nsight) writes
    // them: topk<(Phase)0>, f<(char)97>.
    if (t->isEnumeralType() || t->isAnyCharacterType())
      return "(" + typeName(t) + ")" + value;
    return value;
  }
  case TemplateArgument::Type:
    return typeName(a.getAsType());
  case TemplateArgument::Pack: {
    std::string s;
    for (const TemplateArgument &p : a.pack_elements())
      s += (s.empty() ? "" : ", ") + templateArg(p);
    return s;
  }
  default: {
    std::string s;
    llvm::raw_string_ostream os(s);
    a.print(*policy_, os, /*IncludeType=*/false);
    return s;
  }
  }
}

// "reduce_v5<256>": qualified name plus template arguments.
std::string KernelNaming::name(const FunctionDecl *fd) const {
  std::string name;
  llvm::raw_string_ostream os(name);
  fd->printQualifiedName(os, *policy_);
  if (const TemplateArgumentList *args = fd->getTemplateSpecializationArgs()) {
    std::string list;
    for (const TemplateArgument &a : args->asArray()) {
      std::string s = templateArg(a);
      if (!s.empty())
        list += (list.empty() ? "" : ", ") + s;
    }
    name += "<" + list + ">";
  }
  return name;
}

KernelName KernelNaming::of(const FunctionDecl *fd) const {
  KernelName k;
  k.name = name(fd);
  // Nsight's demangled form: template instances carry their return type.
  if (fd->getTemplateSpecializationArgs())
    k.signature = typeName(fd->getReturnType()) + " ";
  k.signature += k.name + "(";
  const auto *proto = fd->getType()->getAs<FunctionProtoType>();
  for (unsigned i = 0; proto && i < proto->getNumParams(); ++i)
    k.signature +=
        (i ? ", " : "") + // top-level const/restrict are not mangled
        typeName(
            proto->getParamType(i).getCanonicalType().getUnqualifiedType());
  k.signature += ")";
  return k;
}

void collectKernels(const DeclContext *dc,
                    std::vector<const FunctionDecl *> &out) {
  auto consider = [&](const FunctionDecl *fd) {
    if (fd->hasAttr<CUDAGlobalAttr>() && fd->doesThisDeclarationHaveABody() &&
        !fd->isDependentContext())
      out.push_back(fd);
  };
  for (const Decl *d : dc->decls()) {
    if (auto *ft = dyn_cast<FunctionTemplateDecl>(d)) {
      for (const FunctionDecl *spec : ft->specializations())
        consider(spec);
    } else if (auto *fd = dyn_cast<FunctionDecl>(d)) {
      consider(fd);
    } else if (isa<NamespaceDecl, LinkageSpecDecl, ExportDecl>(d)) {
      collectKernels(cast<DeclContext>(d), out);
    }
  }
}

std::optional<std::pair<std::string, std::string>>
namesOf(const std::map<std::string, KernelName> &names,
        const std::string &mangled) {
  auto it = names.find(mangled);
  if (it == names.end())
    return std::nullopt;
  return std::pair{it->second.name, it->second.signature};
}

namespace {

class KernelNamesConsumer : public ASTConsumer {
public:
  explicit KernelNamesConsumer(std::map<std::string, KernelName> &names)
      : names_(names) {}
  void HandleTranslationUnit(ASTContext &ctx) override {
    KernelNaming naming(ctx);
    std::vector<const FunctionDecl *> kernels;
    collectKernels(ctx.getTranslationUnitDecl(), kernels);
    for (const FunctionDecl *k : kernels) {
      KernelName name = naming.of(k);
      if (const auto *c = k->getAttr<CUDAClusterDimsAttr>()) {
        const Expr *dims[3] = {c->getX(), c->getY(), c->getZ()};
        for (int d = 0; d < 3; ++d) {
          // y and z default to 1.
          name.clusterDims[d] = 1;
          if (dims[d] && !dims[d]->isValueDependent())
            if (std::optional<llvm::APSInt> v =
                    dims[d]->getIntegerConstantExpr(ctx))
              name.clusterDims[d] = unsigned(v->getZExtValue());
        }
      }
      names_.emplace(naming.mangled(k), std::move(name));
    }
  }

private:
  std::map<std::string, KernelName> &names_;
};

} // namespace

std::unique_ptr<ASTConsumer>
makeKernelNamesConsumer(std::map<std::string, KernelName> &names) {
  return std::make_unique<KernelNamesConsumer>(names);
}

} // namespace kcheck::analyzer
