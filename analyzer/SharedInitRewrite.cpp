#include "SharedInitRewrite.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>

namespace kcheck::analyzer {

using namespace clang;

namespace {

class Finder : public DynamicRecursiveASTVisitor {
public:
  Finder(ASTContext &ctx, SharedInitEdits &out) : ctx_(ctx), out_(out) {}

  bool VisitDeclStmt(DeclStmt *ds) override {
    if (!ds->isSingleDecl())
      return true;
    auto *vd = dyn_cast<VarDecl>(ds->getSingleDecl());
    if (!vd || !vd->isInvalidDecl() || !vd->hasAttr<CUDASharedAttr>() ||
        !vd->hasInit() || !isa<CXXConstructExpr>(vd->getInit()) ||
        vd->getType()->isArrayType() || !vd->getTypeSourceInfo())
      return true;
    const SourceManager &sm = ctx_.getSourceManager();
    const LangOptions &lo = ctx_.getLangOpts();
    SourceRange typeRange =
        vd->getTypeSourceInfo()->getTypeLoc().getSourceRange();
    SourceLocation nameLoc = vd->getLocation(), semi = ds->getEndLoc();
    for (SourceLocation l :
         {typeRange.getBegin(), typeRange.getEnd(), nameLoc, semi})
      if (l.isInvalid() || l.isMacroID())
        return true;
    FileID file = sm.getFileID(nameLoc);
    if (sm.getFileID(typeRange.getBegin()) != file ||
        sm.getFileID(semi) != file)
      return true;
    unsigned typeBegin = sm.getFileOffset(typeRange.getBegin());
    unsigned typeEnd = sm.getFileOffset(
        Lexer::getLocForEndOfToken(typeRange.getEnd(), 0, sm, lo));
    unsigned name = sm.getFileOffset(nameLoc);
    unsigned nameLength = Lexer::MeasureTokenLength(nameLoc, sm, lo);
    unsigned afterSemi = sm.getFileOffset(semi) + 1;
    llvm::StringRef buffer = sm.getBufferData(file);
    if (typeEnd > name || afterSemi > buffer.size())
      return true;
    std::string type = buffer.substr(typeBegin, typeEnd - typeBegin).str();
    std::string var = vd->getName().str();
    std::string storage = "__kcheck_shared_" + var;
    auto &edits = out_[sm.getFileEntryRefForID(file)->getName()];
    edits.push_back({typeBegin, typeEnd - typeBegin,
                     "__kcheck_uninitialized_shared<" + type + ">"});
    edits.push_back({name, nameLength, storage});
    edits.push_back(
        {afterSemi, 0, " " + type + " &" + var + " = " + storage + ".get();"});
    return true;
  }

private:
  ASTContext &ctx_;
  SharedInitEdits &out_;
};

class FinderConsumer : public ASTConsumer {
public:
  explicit FinderConsumer(SharedInitEdits &out) : out_(out) {}
  void HandleTranslationUnit(ASTContext &ctx) override {
    Finder finder(ctx, out_);
    finder.TraverseDecl(ctx.getTranslationUnitDecl());
  }

private:
  SharedInitEdits &out_;
};

} // namespace

std::unique_ptr<ASTConsumer> makeSharedInitFinder(CompilerInstance &,
                                                  SharedInitEdits &out) {
  return std::make_unique<FinderConsumer>(out);
}

std::string applyEdits(std::string text, std::vector<SourceEdit> edits) {
  std::sort(edits.begin(), edits.end(),
            [](const SourceEdit &a, const SourceEdit &b) {
              return a.offset > b.offset;
            });
  for (const SourceEdit &e : edits)
    if (e.offset + e.length <= text.size())
      text.replace(e.offset, e.length, e.text);
  return text;
}

} // namespace kcheck::analyzer
