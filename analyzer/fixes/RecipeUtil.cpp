#include "RecipeUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>
#include <set>

namespace kcheck::analyzer::fixes {

using namespace clang;

std::optional<FileRange> mainFileRange(const ASTContext &ctx,
                                       SourceRange range) {
  const SourceManager &sm = ctx.getSourceManager();
  CharSourceRange chars = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(range), sm, ctx.getLangOpts());
  if (chars.isInvalid() || !sm.isInMainFile(chars.getBegin()) ||
      !sm.isInMainFile(chars.getEnd()))
    return std::nullopt;
  unsigned begin = sm.getFileOffset(chars.getBegin());
  unsigned end = sm.getFileOffset(chars.getEnd());
  if (end < begin)
    return std::nullopt;
  return FileRange{begin, end};
}

std::optional<FileRange> mainFileRange(const ASTContext &ctx,
                                       const Stmt *node) {
  if (!node)
    return std::nullopt;
  return mainFileRange(ctx, node->getSourceRange());
}

std::string mainFileText(const ASTContext &ctx, FileRange range) {
  const SourceManager &sm = ctx.getSourceManager();
  llvm::StringRef buffer = sm.getBufferData(sm.getMainFileID());
  return buffer.slice(range.begin, range.end).str();
}

std::optional<std::string> writtenText(const ASTContext &ctx,
                                       const Stmt *node) {
  std::optional<FileRange> range = mainFileRange(ctx, node);
  if (!range)
    return std::nullopt;
  return mainFileText(ctx, *range);
}

std::optional<std::string> operandText(const ASTContext &ctx, const Expr *e) {
  std::optional<std::string> text = writtenText(ctx, e);
  if (!text)
    return std::nullopt;
  const Expr *bare = e->IgnoreImpCasts();
  bool single =
      isa<DeclRefExpr, IntegerLiteral, ParenExpr, MemberExpr, MSPropertyRefExpr,
          PseudoObjectExpr, CallExpr>(bare) ||
      llvm::all_of(*text, [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
      });
  return single ? *text : "(" + *text + ")";
}

std::string lineIndent(const ASTContext &ctx, SourceLocation loc) {
  const SourceManager &sm = ctx.getSourceManager();
  SourceLocation at = sm.getExpansionLoc(loc);
  llvm::StringRef buffer = sm.getBufferData(sm.getFileID(at));
  unsigned offset = sm.getFileOffset(at);
  size_t lineStart = buffer.rfind('\n', offset);
  lineStart = lineStart == llvm::StringRef::npos ? 0 : lineStart + 1;
  size_t indentEnd = buffer.find_first_not_of(" \t", lineStart);
  return buffer.slice(lineStart, std::min<size_t>(indentEnd, offset)).str();
}

TextEdit throughSemicolon(const ASTContext &ctx, TextEdit edit) {
  const SourceManager &sm = ctx.getSourceManager();
  llvm::StringRef buffer = sm.getBufferData(sm.getMainFileID());
  if (edit.offset + edit.length < buffer.size() &&
      buffer[edit.offset + edit.length] == ';')
    ++edit.length;
  return edit;
}

TextEdit wholeLines(const ASTContext &ctx, TextEdit removal) {
  const SourceManager &sm = ctx.getSourceManager();
  llvm::StringRef buffer = sm.getBufferData(sm.getMainFileID());
  FileRange statement{removal.offset, removal.offset + removal.length};
  unsigned end = statement.end;
  // The statement's own `;` is not part of a DeclStmt's range in every form.
  if (end < buffer.size() && buffer[end] == ';')
    ++end;
  size_t lineStart = buffer.rfind('\n', statement.begin);
  lineStart = lineStart == llvm::StringRef::npos ? 0 : lineStart + 1;
  size_t lineEnd = buffer.find('\n', end);
  bool aloneBefore = buffer.slice(lineStart, statement.begin).trim().empty();
  bool aloneAfter = lineEnd != llvm::StringRef::npos &&
                    buffer.slice(end, lineEnd).trim().empty();
  if (aloneBefore && aloneAfter)
    return {unsigned(lineStart), unsigned(lineEnd + 1 - lineStart), ""};
  return {statement.begin, end - statement.begin, ""};
}

const Expr *stripped(const Expr *e) {
  while (e) {
    const Expr *next = e->IgnoreParenImpCasts();
    if (const auto *cleanups = dyn_cast<ExprWithCleanups>(next))
      next = cleanups->getSubExpr();
    else if (const auto *temporary = dyn_cast<MaterializeTemporaryExpr>(next))
      next = temporary->getSubExpr();
    else if (const auto *pseudo = dyn_cast<PseudoObjectExpr>(next))
      next = pseudo->getSyntacticForm(); // threadIdx.x: an MS property

    if (next == e)
      return e;
    e = next;
  }
  return e;
}

bool hasSideEffects(const Expr *e) {
  if (!e)
    return false;
  if (const auto *pseudo = dyn_cast<PseudoObjectExpr>(e))
    return !isa<MSPropertyRefExpr>(pseudo->getSyntacticForm()) ||
           hasSideEffects(cast<MSPropertyRefExpr>(pseudo->getSyntacticForm())
                              ->getBaseExpr());
  if (const auto *op = dyn_cast<BinaryOperator>(e); op && op->isAssignmentOp())
    return true;
  if (const auto *op = dyn_cast<UnaryOperator>(e);
      op && op->isIncrementDecrementOp())
    return true;
  if (isa<CallExpr, CXXConstructExpr, CXXNewExpr, CXXDeleteExpr, StmtExpr,
          LambdaExpr>(e))
    return true;
  for (const Stmt *child : e->children())
    if (const auto *sub = dyn_cast_or_null<Expr>(child);
        sub && hasSideEffects(sub))
      return true;
  return false;
}

const VarDecl *namedVariable(const Expr *e) {
  const auto *ref = dyn_cast_or_null<DeclRefExpr>(stripped(e));
  return ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
}

bool isCudaBuiltin(const Expr *e, llvm::StringRef builtin,
                   llvm::StringRef member) {
  const auto *property = dyn_cast_or_null<MSPropertyRefExpr>(stripped(e));
  if (!property)
    return false;
  const Expr *base = property->getBaseExpr()->IgnoreParenImpCasts();
  if (const auto *opaque = dyn_cast<OpaqueValueExpr>(base);
      opaque && opaque->getSourceExpr())
    base = opaque->getSourceExpr()->IgnoreParenImpCasts();
  const auto *ref = dyn_cast<DeclRefExpr>(base);
  return ref && ref->getDecl()->getName() == builtin &&
         property->getPropertyDecl()->getName() == member;
}

std::optional<int64_t> integerValue(const ASTContext &ctx, const Expr *e) {
  if (!e || e->isValueDependent() || e->isTypeDependent() ||
      !e->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  Expr::EvalResult result;
  if (!e->EvaluateAsInt(result, ctx) || result.HasSideEffects)
    return std::nullopt;
  return result.Val.getInt().getExtValue();
}

bool isConstant(const ASTContext &ctx, const Expr *e, int64_t value) {
  std::optional<int64_t> v = integerValue(ctx, e);
  return v && *v == value;
}

namespace {

// Finds writes to one variable: assignments, increments, address-of, and
// bindings to non-const references (declared or as a call's argument).
class WriteFinder : public DynamicRecursiveASTVisitor {
public:
  explicit WriteFinder(const VarDecl *var) : var(var) {}
  bool found = false;

  bool VisitBinaryOperator(BinaryOperator *op) override {
    if (op->isAssignmentOp() && namedVariable(op->getLHS()) == var)
      found = true;
    return !found;
  }
  bool VisitUnaryOperator(UnaryOperator *op) override {
    if ((op->isIncrementDecrementOp() || op->getOpcode() == UO_AddrOf) &&
        namedVariable(op->getSubExpr()) == var)
      found = true;
    return !found;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *call) override {
    if (call->getNumArgs() > 0 && namedVariable(call->getArg(0)) == var &&
        (call->isAssignmentOp() || call->getOperator() == OO_PlusPlus ||
         call->getOperator() == OO_MinusMinus))
      found = true;
    return !found;
  }
  bool VisitCallExpr(CallExpr *call) override {
    const FunctionDecl *callee = call->getDirectCallee();
    for (unsigned i = 0;
         callee && i < call->getNumArgs() && i < callee->getNumParams(); ++i) {
      QualType param = callee->getParamDecl(i)->getType();
      if (param->isReferenceType() &&
          !param.getNonReferenceType().isConstQualified() &&
          namedVariable(call->getArg(i)) == var)
        found = true;
    }
    return !found;
  }
  bool VisitVarDecl(VarDecl *decl) override {
    if (decl->getType()->isReferenceType() &&
        !decl->getType().getNonReferenceType().isConstQualified() &&
        decl->getInit() && namedVariable(decl->getInit()) == var)
      found = true;
    return !found;
  }

private:
  const VarDecl *var;
};

class ReferenceFinder : public DynamicRecursiveASTVisitor {
public:
  explicit ReferenceFinder(const VarDecl *var) : var(var) {}
  std::vector<const DeclRefExpr *> references;
  bool VisitDeclRefExpr(DeclRefExpr *ref) override {
    if (ref->getDecl() == var)
      references.push_back(ref);
    return true;
  }

private:
  const VarDecl *var;
};

class NameCollector : public DynamicRecursiveASTVisitor {
public:
  std::set<std::string> names;
  bool VisitNamedDecl(NamedDecl *decl) override {
    if (decl->getIdentifier())
      names.insert(decl->getName().str());
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *ref) override {
    if (ref->getDecl()->getIdentifier())
      names.insert(ref->getDecl()->getName().str());
    return true;
  }
};

} // namespace

bool isModifiedIn(const Stmt *scope, const VarDecl *var) {
  if (!scope)
    return false;
  WriteFinder finder(var);
  finder.TraverseStmt(const_cast<Stmt *>(scope));
  return finder.found;
}

std::vector<const DeclRefExpr *> referencesTo(const Stmt *scope,
                                              const VarDecl *var) {
  ReferenceFinder finder(var);
  if (scope)
    finder.TraverseStmt(const_cast<Stmt *>(scope));
  return finder.references;
}

bool mentions(const Stmt *scope, const VarDecl *var) {
  return !referencesTo(scope, var).empty();
}

bool isBlockBarrier(const Stmt *s) {
  const auto *e = dyn_cast_or_null<Expr>(s);
  if (!e)
    return false;
  e = stripped(e);
  auto isThreadBlock = [](const Expr *group) {
    const CXXRecordDecl *record =
        group->getType().getNonReferenceType()->getAsCXXRecordDecl();
    return record && record->getName() == "thread_block";
  };
  if (const auto *member = dyn_cast<CXXMemberCallExpr>(e)) {
    const CXXMethodDecl *method = member->getMethodDecl();
    return method && method->getName() == "sync" &&
           isThreadBlock(member->getImplicitObjectArgument());
  }
  if (const auto *call = dyn_cast<CallExpr>(e)) {
    const FunctionDecl *callee = call->getDirectCallee();
    if (!callee || !callee->getIdentifier())
      return false;
    if (callee->getName() == "__syncthreads")
      return call->getNumArgs() == 0;
    return callee->getName() == "sync" && call->getNumArgs() == 1 &&
           isThreadBlock(call->getArg(0));
  }
  return false;
}

const Stmt *singleStatement(const Stmt *s) {
  if (const auto *block = dyn_cast_or_null<CompoundStmt>(s))
    return block->size() == 1 ? block->body_front() : nullptr;
  return s;
}

std::string freshName(const FunctionDecl &kernel, llvm::StringRef preferred) {
  NameCollector collector;
  collector.TraverseDecl(const_cast<FunctionDecl *>(&kernel));
  std::string name = preferred.str();
  for (int suffix = 2; collector.names.count(name); ++suffix)
    name = preferred.str() + std::to_string(suffix);
  return name;
}

std::optional<std::string>
textWithVariableReplaced(const ASTContext &ctx, const Expr *e,
                         const VarDecl *var, llvm::StringRef replacement) {
  std::optional<FileRange> whole = mainFileRange(ctx, e);
  if (!whole)
    return std::nullopt;
  std::vector<FileRange> holes;
  for (const DeclRefExpr *ref : referencesTo(e, var)) {
    SourceLocation loc = ref->getLocation();
    if (loc.isMacroID())
      return std::nullopt;
    std::optional<FileRange> at = mainFileRange(ctx, ref);
    if (!at)
      return std::nullopt;
    holes.push_back(*at);
  }
  std::sort(holes.begin(), holes.end(),
            [](FileRange a, FileRange b) { return a.begin < b.begin; });
  std::string text;
  unsigned cursor = whole->begin;
  for (FileRange hole : holes) {
    if (hole.begin < cursor)
      return std::nullopt;
    text += mainFileText(ctx, {cursor, hole.begin});
    text += replacement;
    cursor = hole.end;
  }
  text += mainFileText(ctx, {cursor, whole->end});
  return text;
}

namespace {

bool sameEdits(const FixCandidate &a, const FixCandidate &b) {
  if (a.recipe != b.recipe || a.checkId != b.checkId || a.lines != b.lines ||
      a.edits.size() != b.edits.size())
    return false;
  for (size_t i = 0; i < a.edits.size(); ++i)
    if (a.edits[i].offset != b.edits[i].offset ||
        a.edits[i].length != b.edits[i].length ||
        a.edits[i].replacement != b.edits[i].replacement)
      return false;
  return true;
}

} // namespace

void proposeForEveryInstantiation(ASTContext &ctx, const FunctionDecl &kernel,
                                  std::vector<FixCandidate> &out,
                                  const Recipe &recipe) {
  const FunctionTemplateDecl *templ = kernel.getDescribedFunctionTemplate();
  if (!templ)
    if (const FunctionTemplateDecl *primary = kernel.getPrimaryTemplate())
      templ = primary;
  if (!templ) {
    recipe(ctx, kernel, out);
    return;
  }
  std::vector<const FunctionDecl *> instantiations;
  for (const FunctionDecl *spec : templ->specializations())
    if (spec->isTemplateInstantiation() && spec->hasBody())
      instantiations.push_back(spec);
  if (instantiations.empty())
    return; // nothing to prove the template's constants with
  // Given an instantiation, only the first answers for the whole template.
  if (&kernel != templ->getTemplatedDecl() &&
      kernel.getCanonicalDecl() != instantiations.front()->getCanonicalDecl())
    return;
  std::vector<FixCandidate> agreed;
  bool first = true;
  for (const FunctionDecl *instance : instantiations) {
    std::vector<FixCandidate> mine;
    recipe(ctx, *instance, mine);
    if (first) {
      agreed = std::move(mine);
      first = false;
      continue;
    }
    std::vector<FixCandidate> kept;
    for (FixCandidate &candidate : agreed)
      if (llvm::any_of(mine, [&](const FixCandidate &other) {
            return sameEdits(candidate, other);
          }))
        kept.push_back(std::move(candidate));
    agreed = std::move(kept);
  }
  for (FixCandidate &candidate : agreed)
    out.push_back(std::move(candidate));
}

} // namespace kcheck::analyzer::fixes
