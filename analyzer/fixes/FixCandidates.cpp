#include "analyzer/fixes/FixCandidates.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>
#include <functional>
#include <tuple>

namespace kcheck::analyzer {

namespace {

using namespace clang;

// Records, for each kernel expression written in the main file, which
// expansion it comes from (see KernelSource::expansions_).
class ExpansionRecorder : public DynamicRecursiveASTVisitor {
public:
  using Recorder = std::function<void(const Expr &)>;
  explicit ExpansionRecorder(Recorder record) : record(std::move(record)) {
    ShouldVisitTemplateInstantiations = true;
  }
  bool VisitExpr(Expr *e) override {
    record(*e);
    return true;
  }

private:
  Recorder record;
};

// Every __global__ function with a body in the main file, instantiations
// included (they carry the template arguments the recipes need to size
// arrays; their locations are the template's text).
class KernelFinder : public DynamicRecursiveASTVisitor {
public:
  KernelFinder(ASTContext &ctx, std::vector<const FunctionDecl *> &kernels)
      : ctx(ctx), kernels(kernels) {
    ShouldVisitTemplateInstantiations = true;
  }
  bool VisitFunctionDecl(FunctionDecl *function) override {
    const SourceManager &sm = ctx.getSourceManager();
    if (function->doesThisDeclarationHaveABody() &&
        !function->isDependentContext() &&
        function->hasAttr<CUDAGlobalAttr>() &&
        sm.isInMainFile(sm.getExpansionLoc(function->getLocation())))
      kernels.push_back(function);
    return true;
  }

private:
  ASTContext &ctx;
  std::vector<const FunctionDecl *> &kernels;
};

using Recipe = void (*)(ASTContext &, const FunctionDecl &,
                        std::vector<FixCandidate> &);
constexpr Recipe kRecipes[] = {
    proposePadSharedArray,  proposeXorSwizzle,    proposeSequentialAddressing,
    proposeSharedTranspose, proposeVectorizeLoad,
};

class FixCandidatesConsumer : public ASTConsumer {
public:
  explicit FixCandidatesConsumer(std::vector<FixCandidate> &out) : out(out) {}
  void HandleTranslationUnit(ASTContext &ctx) override {
    std::vector<const FunctionDecl *> kernels;
    KernelFinder(ctx, kernels).TraverseDecl(ctx.getTranslationUnitDecl());
    // Instantiations of one template propose the same edits: keep one.
    std::set<std::tuple<
        std::string, std::vector<std::tuple<unsigned, unsigned, std::string>>>>
        seen;
    for (const FunctionDecl *kernel : kernels) {
      std::vector<FixCandidate> proposed;
      for (Recipe recipe : kRecipes)
        recipe(ctx, *kernel, proposed);
      for (FixCandidate &c : proposed) {
        std::sort(c.edits.begin(), c.edits.end(), editBefore);
        if (c.edits.empty() || editsOverlap(c.edits))
          continue;
        std::vector<std::tuple<unsigned, unsigned, std::string>> key;
        for (const TextEdit &e : c.edits)
          key.emplace_back(e.offset, e.length, e.replacement);
        if (seen.insert({c.recipe, std::move(key)}).second)
          out.push_back(std::move(c));
      }
    }
  }

private:
  std::vector<FixCandidate> &out;
};

} // namespace

std::unique_ptr<clang::ASTConsumer>
makeFixCandidatesConsumer(std::vector<FixCandidate> &out) {
  return std::make_unique<FixCandidatesConsumer>(out);
}

KernelSource::KernelSource(clang::ASTContext &ctx,
                           const clang::FunctionDecl &kernel)
    : ctx_(ctx) {
  ExpansionRecorder([this](const Expr &e) {
    if (auto where = bytes(e.getSourceRange(), /*checkExpansions=*/false))
      expansions_[*where].insert(e.getBeginLoc().getRawEncoding());
  }).TraverseDecl(const_cast<FunctionDecl *>(&kernel));
}

std::optional<std::pair<unsigned, unsigned>>
KernelSource::bytes(clang::SourceRange range, bool checkExpansions) const {
  const SourceManager &sm = ctx_.getSourceManager();
  CharSourceRange chars = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(range), sm, ctx_.getLangOpts());
  if (chars.isInvalid())
    return std::nullopt;
  auto [beginFile, begin] = sm.getDecomposedLoc(chars.getBegin());
  auto [endFile, end] = sm.getDecomposedLoc(chars.getEnd());
  if (beginFile != sm.getMainFileID() || endFile != beginFile || end < begin)
    return std::nullopt;
  std::pair<unsigned, unsigned> where{begin, end};
  if (checkExpansions) {
    auto it = expansions_.find(where);
    if (it != expansions_.end() && it->second.size() > 1)
      return std::nullopt;
  }
  return where;
}

std::optional<std::string> KernelSource::text(clang::SourceRange range) const {
  auto where = bytes(range, true);
  if (!where)
    return std::nullopt;
  const SourceManager &sm = ctx_.getSourceManager();
  return sm.getBufferData(sm.getMainFileID())
      .substr(where->first, where->second - where->first)
      .str();
}

std::optional<TextEdit> KernelSource::replace(clang::SourceRange range,
                                              std::string replacement) const {
  auto where = bytes(range, true);
  if (!where)
    return std::nullopt;
  return TextEdit{where->first, where->second - where->first,
                  std::move(replacement)};
}

unsigned KernelSource::line(clang::SourceLocation loc) const {
  const SourceManager &sm = ctx_.getSourceManager();
  SourceLocation file = sm.getExpansionLoc(loc);
  if (!sm.isInMainFile(file))
    return 0;
  return sm.getPresumedLineNumber(file);
}

} // namespace kcheck::analyzer
