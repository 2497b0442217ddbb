// Runs one fix recipe over every kernel of a small CUDA source compiled the
// way kcheck compiles it (compileDevice, kcheck's CUDA stub headers), and
// applies a candidate's edits.
#pragma once

#include "analyzer/fixes/FixCandidates.h"
#include "analyzer/toolchain/DeviceCompiler.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace kcheck::analyzer::testing {

using RecipeFunction = void (*)(clang::ASTContext &,
                                const clang::FunctionDecl &,
                                std::vector<FixCandidate> &);

inline std::string writeSource(const std::string &name,
                               const std::string &source) {
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / "kcheck_fixes_recipes_tests";
  std::filesystem::create_directories(dir);
  std::filesystem::path path = dir / name;
  std::ofstream(path) << source;
  return path.string();
}

inline std::string readFile(const std::string &path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Visits kernels as driver/Fixes does: every __global__ definition of the main
// file that is not dependent (plain kernels and template instantiations).
class RecipeRunner : public clang::ASTConsumer,
                     public clang::DynamicRecursiveASTVisitor {
public:
  RecipeRunner(RecipeFunction recipe, std::vector<FixCandidate> &out)
      : recipe(recipe), out(out) {
    ShouldVisitTemplateInstantiations = true;
  }
  void HandleTranslationUnit(clang::ASTContext &context) override {
    ctx = &context;
    TraverseDecl(context.getTranslationUnitDecl());
  }
  bool VisitFunctionDecl(clang::FunctionDecl *f) override {
    const clang::SourceManager &sm = ctx->getSourceManager();
    if (f->doesThisDeclarationHaveABody() && !f->isDependentContext() &&
        f->hasAttr<clang::CUDAGlobalAttr>() &&
        sm.isInMainFile(sm.getExpansionLoc(f->getLocation())))
      recipe(*ctx, *f, out);
    return true;
  }

private:
  RecipeFunction recipe;
  std::vector<FixCandidate> &out;
  clang::ASTContext *ctx = nullptr;
};

struct Proposals {
  bool compiled = false;
  std::string diagnostics;
  std::vector<FixCandidate> candidates;
};

inline Proposals propose(RecipeFunction recipe, const std::string &path) {
  Proposals result;
  ConsumerFactory factory = [&](clang::CompilerInstance &) {
    return std::make_unique<RecipeRunner>(recipe, result.candidates);
  };
  CompiledModule compiled = compileDevice(path, CompileOptions{}, {factory});
  result.compiled = compiled.ok;
  result.diagnostics = compiled.diagnostics;
  return result;
}

inline Proposals proposeFor(RecipeFunction recipe, const std::string &name,
                            const std::string &source) {
  return propose(recipe, writeSource(name, source));
}

inline std::vector<const FixCandidate *> withCheck(const Proposals &p,
                                                   const std::string &checkId) {
  std::vector<const FixCandidate *> found;
  for (const FixCandidate &c : p.candidates)
    if (c.checkId == checkId)
      found.push_back(&c);
  return found;
}

// The rewritten source, after checking that it still compiles.
inline std::string rewriteAndCompile(const std::string &name,
                                     const std::string &source,
                                     const FixCandidate &candidate) {
  std::string rewritten = applyEdits(source, candidate.edits);
  std::string path = writeSource("rewritten_" + name, rewritten);
  CompiledModule again = compileDevice(path, CompileOptions{});
  EXPECT_TRUE(again.ok) << again.diagnostics << "\n" << rewritten;
  return rewritten;
}

} // namespace kcheck::analyzer::testing
