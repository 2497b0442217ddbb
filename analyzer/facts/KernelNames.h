// How reports name a kernel, from its declaration: the qualified name with
// template arguments as the source writes them ("reduce_v5<256>") and the
// signature as Nsight Compute (cu++filt) spells it ("void
// reduce_v5<256>(float *, const float *)"). One naming for every path:
// static launch extraction names its launches with it, and compileDevice
// records it for every kernel the translation unit defines
// (CompiledModule::kernelNames), which running the host code and launches
// made from the device name their kernels by.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clang {
class ASTConsumer;
class ASTContext;
class DeclContext;
class FunctionDecl;
class MangleContext;
struct PrintingPolicy;
class QualType;
class TemplateArgument;
} // namespace clang

namespace kcheck::analyzer {

struct KernelName {
  std::string name;      // "reduce_v5<256>"
  std::string signature; // "void reduce_v5<256>(float *)"
  // __cluster_dims__(x, y, z) (x, y, z; 0: not given), which Clang 22's
  // NVPTX code generation drops: the device compile puts it back on the
  // IR function as nvcc's .reqnctapercluster, "nvvm.cluster_dim".
  unsigned clusterDims[3] = {0, 0, 0};
};

class KernelNaming {
public:
  explicit KernelNaming(clang::ASTContext &ctx);
  ~KernelNaming();

  /// The kernel's name in the device module's IR.
  std::string mangled(const clang::FunctionDecl *fd) const;
  KernelName of(const clang::FunctionDecl *fd) const;

private:
  std::string name(const clang::FunctionDecl *fd) const;
  std::string typeName(clang::QualType t) const;
  std::string templateArg(const clang::TemplateArgument &a) const;

  std::unique_ptr<clang::MangleContext> mangler_;
  std::unique_ptr<clang::PrintingPolicy> policy_;
};

/// The kernels with an IR function under `dc`: defined, non-dependent,
/// template instantiations too.
void collectKernels(const clang::DeclContext *dc,
                    std::vector<const clang::FunctionDecl *> &out);

/// Kernel `mangled`'s (name, signature) in `names`; nullopt when the
/// translation unit does not define it (a library's kernel).
std::optional<std::pair<std::string, std::string>>
namesOf(const std::map<std::string, KernelName> &names,
        const std::string &mangled);

/// Fills `names` (mangled name → names) for every kernel the translation
/// unit defines, at its end.
std::unique_ptr<clang::ASTConsumer>
makeKernelNamesConsumer(std::map<std::string, KernelName> &names);

} // namespace kcheck::analyzer
