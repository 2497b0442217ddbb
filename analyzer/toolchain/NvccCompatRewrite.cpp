#include "analyzer/toolchain/NvccCompatRewrite.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Lexer.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"

namespace kcheck::analyzer {

using namespace clang;

namespace {

class Finder : public DynamicRecursiveASTVisitor {
public:
  Finder(ASTContext &ctx, NvccCompatEdits &out) : ctx_(ctx), out_(out) {}

  // `__shared__ T v;` with a constructor Clang refuses to run there.
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

  // `res2 = {};` with `half2 res2`: nvcc takes it; Clang finds operator=
  // from __half2 and from __half2_raw equally good and keeps a RecoveryExpr
  // of the two operands. The copy says which: `res2 = __typeof__(res2){};`.
  bool VisitRecoveryExpr(RecoveryExpr *re) override {
    llvm::ArrayRef<Expr *> parts = re->subExpressions();
    if (parts.size() != 2)
      return true;
    const Expr *lhs = parts[0];
    auto *list = dyn_cast<InitListExpr>(parts[1]);
    if (!list || list->getNumInits() != 0 || !lhs->isLValue() ||
        lhs->getType()->isDependentType() || !lhs->getType()->isRecordType())
      return true;
    const SourceManager &sm = ctx_.getSourceManager();
    SourceRange lhsRange = lhs->getSourceRange();
    SourceLocation brace = list->getLBraceLoc();
    for (SourceLocation l : {lhsRange.getBegin(), lhsRange.getEnd(), brace})
      if (l.isInvalid() || l.isMacroID() || sm.isInSystemHeader(l))
        return true;
    FileID file = sm.getFileID(brace);
    if (sm.getFileID(lhsRange.getBegin()) != file)
      return true;
    llvm::StringRef lhsText = Lexer::getSourceText(
        CharSourceRange::getTokenRange(lhsRange), sm, ctx_.getLangOpts());
    if (lhsText.empty())
      return true;
    out_[sm.getFileEntryRefForID(file)->getName()].push_back(
        {sm.getFileOffset(brace), 0, "__typeof__(" + lhsText.str() + ")"});
    return true;
  }

  // In a template, `a < b` is a BinaryOperator, or an operator call where
  // operator< overloads are visible (the toolkit's half types declare some).
  static bool comparison(const Expr *e, BinaryOperatorKind kind,
                         const Expr *&lhs, const Expr *&rhs) {
    if (auto *b = dyn_cast<BinaryOperator>(e); b && b->getOpcode() == kind) {
      lhs = b->getLHS();
      rhs = b->getRHS();
      return true;
    }
    auto *call = dyn_cast<CXXOperatorCallExpr>(e);
    if (!call || call->getNumArgs() != 2 ||
        call->getOperator() != BinaryOperator::getOverloadedOperator(kind))
      return false;
    lhs = call->getArg(0);
    rhs = call->getArg(1);
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *e) override {
    return missingTemplateKeyword(e);
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *e) override {
    return missingTemplateKeyword(e);
  }
  // `vec_cast<D, S>::cast<N>(dst, src)` in a template: a member template of
  // a dependent class named without `template`. nvcc takes it; Clang parses
  // `(X::cast < N) > (dst, src)` and fails at instantiation. The copy
  // writes `X::template cast<N>(...)`: a comparison chained into a
  // parenthesised operand is what no one writes on purpose.
  bool missingTemplateKeyword(const Expr *gt) {
    const Expr *less, *args, *name, *bound;
    if (!comparison(gt, BO_GT, less, args) || !isa<ParenExpr>(args) ||
        !comparison(less, BO_LT, name, bound))
      return true;
    auto *ref = dyn_cast<DependentScopeDeclRefExpr>(name);
    if (!ref || ref->hasTemplateKeyword() || ref->hasExplicitTemplateArgs())
      return true;
    const SourceManager &sm = ctx_.getSourceManager();
    SourceLocation at = ref->getNameInfo().getLoc();
    if (at.isInvalid() || at.isMacroID() || sm.isInSystemHeader(at))
      return true;
    out_[sm.getFileEntryRefForID(sm.getFileID(at))->getName()].push_back(
        {sm.getFileOffset(at), 0, "template "});
    return true;
  }

private:
  ASTContext &ctx_;
  NvccCompatEdits &out_;
};

class FinderConsumer : public ASTConsumer {
public:
  explicit FinderConsumer(NvccCompatEdits &out) : out_(out) {}
  void HandleTranslationUnit(ASTContext &ctx) override {
    Finder finder(ctx, out_);
    finder.TraverseDecl(ctx.getTranslationUnitDecl());
  }

private:
  NvccCompatEdits &out_;
};

} // namespace

std::unique_ptr<ASTConsumer> makeNvccCompatFinder(CompilerInstance &,
                                                  NvccCompatEdits &out) {
  return std::make_unique<FinderConsumer>(out);
}

namespace {

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
rewrittenFileSystem(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fileSystem,
                    const NvccCompatEdits &edits) {
  auto rewritten = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  if (auto cwd = fileSystem->getCurrentWorkingDirectory())
    rewritten->setCurrentWorkingDirectory(*cwd);
  for (const auto &[file, fileEdits] : edits) {
    auto text = fileSystem->getBufferForFile(file);
    if (!text)
      continue;
    rewritten->addFile(
        file, 0,
        llvm::MemoryBuffer::getMemBufferCopy(
            applyEdits((*text)->getBuffer().str(), fileEdits), file));
  }
  auto overlay =
      llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(fileSystem);
  overlay->pushOverlay(rewritten);
  return overlay;
}

} // namespace

std::unique_ptr<llvm::Module> compileRewritingForNvcc(
    llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fileSystem,
    CompileOnce compile, llvm::raw_ostream &diagnostics) {
  NvccCompatEdits edits;
  std::string firstDiagnostics;
  llvm::raw_string_ostream firstStream(firstDiagnostics);
  std::unique_ptr<llvm::Module> module =
      compile(fileSystem, edits, firstStream);
  if (module || edits.empty()) {
    diagnostics << firstDiagnostics;
    return module;
  }
  auto rewritten = rewrittenFileSystem(fileSystem, edits);
  NvccCompatEdits again;
  return compile(rewritten, again, diagnostics);
}

} // namespace kcheck::analyzer
