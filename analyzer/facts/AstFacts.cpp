#include "analyzer/facts/AstFacts.h"

#include "core/SourcePath.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

#include <set>
#include <tuple>

namespace kcheck::analyzer {

namespace {

using namespace clang;

// The file range a (possibly macro-expanded) expression occupies, as Clang's
// debug info sees it: the expansion site when the expression is (partly)
// written in a macro.
CharSourceRange fileCharRange(SourceRange range, const SourceManager &sm,
                              const LangOptions &lang) {
  CharSourceRange chars =
      Lexer::makeFileCharRange(CharSourceRange::getTokenRange(range), sm, lang);
  if (chars.isValid())
    return chars;
  CharSourceRange expansion = sm.getExpansionRange(range);
  if (expansion.isTokenRange())
    return CharSourceRange::getCharRange(
        expansion.getBegin(),
        Lexer::getLocForEndOfToken(expansion.getEnd(), 0, sm, lang));
  return expansion;
}

// The expression as written, or pretty-printed when it has no contiguous
// spelling (part of a macro body).
std::string exprText(const Expr *e, const ASTContext &ctx) {
  const SourceManager &sm = ctx.getSourceManager();
  CharSourceRange chars = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(e->getSourceRange()), sm,
      ctx.getLangOpts());
  if (chars.isValid())
    return Lexer::getSourceText(chars, sm, ctx.getLangOpts()).str();
  std::string printed;
  llvm::raw_string_ostream out(printed);
  e->printPretty(out, nullptr, ctx.getPrintingPolicy());
  return printed;
}

bool isCudaBuiltinVariable(const ValueDecl *decl) {
  const auto *record = decl->getType()->getAsCXXRecordDecl();
  return record && record->getName().starts_with("__cuda_builtin_");
}

// The variables an index expression reads, in order of first appearance.
class IndexVariableCollector : public DynamicRecursiveASTVisitor {
public:
  explicit IndexVariableCollector(std::vector<std::string> &names)
      : names(names) {}

  bool VisitDeclRefExpr(DeclRefExpr *ref) override {
    const auto *var = dyn_cast<VarDecl>(ref->getDecl());
    // Built-ins are named with their member below; constexpr values are
    // constants.
    if (var && !isCudaBuiltinVariable(var) && !var->isConstexpr())
      add(var->getNameAsString());
    return true;
  }
  // threadIdx.x and friends are MS properties of Clang's built-in variable
  // types.
  bool VisitMSPropertyRefExpr(MSPropertyRefExpr *property) override {
    const Expr *base = property->getBaseExpr()->IgnoreParenImpCasts();
    if (const auto *opaque = dyn_cast<OpaqueValueExpr>(base);
        opaque && opaque->getSourceExpr())
      base = opaque->getSourceExpr()->IgnoreParenImpCasts();
    if (const auto *ref = dyn_cast<DeclRefExpr>(base))
      if (isCudaBuiltinVariable(ref->getDecl()))
        add(ref->getDecl()->getNameAsString() + "." +
            property->getPropertyDecl()->getNameAsString());
    return true;
  }

private:
  void add(std::string name) {
    if (llvm::find(names, name) == names.end())
      names.push_back(std::move(name));
  }
  std::vector<std::string> &names;
};

// Collects the subscripts in one device function's body.
class SubscriptCollector : public DynamicRecursiveASTVisitor {
public:
  SubscriptCollector(
      ASTContext &ctx, const FunctionDecl &function,
      std::vector<SubscriptFact> &facts,
      std::set<std::tuple<std::string, unsigned, unsigned, unsigned, unsigned>>
          &seen)
      : ctx(ctx), sm(ctx.getSourceManager()), function(function), facts(facts),
        seen(seen) {}

  // Parents are visited before their operands, so an operand's operator is
  // known by the time the subscript itself is visited.
  bool VisitBinaryOperator(BinaryOperator *op) override {
    if (op->isAssignmentOp())
      noteOperatorOn(op->getLHS(), op->getOperatorLoc());
    return true;
  }
  // Assignments of class type (float4 a[i] = b) are calls to operator=.
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *call) override {
    if (call->getNumArgs() >= 1 &&
        (call->isAssignmentOp() || call->getOperator() == OO_PlusPlus ||
         call->getOperator() == OO_MinusMinus))
      noteOperatorOn(call->getArg(0), call->getOperatorLoc());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *op) override {
    if (op->isIncrementDecrementOp())
      noteOperatorOn(op->getSubExpr(), op->getOperatorLoc());
    return true;
  }

  bool VisitArraySubscriptExpr(ArraySubscriptExpr *subscript) override {
    if (innerSubscripts.contains(subscript))
      return true;
    // Walk the chain base[i0][i1]...: the outermost expression holds the last
    // index.
    std::vector<const Expr *> indexExprs;
    const Expr *base = subscript;
    while (const auto *inner =
               dyn_cast<ArraySubscriptExpr>(base->IgnoreParenImpCasts())) {
      if (inner != subscript)
        innerSubscripts.insert(inner);
      indexExprs.insert(indexExprs.begin(), inner->getIdx());
      base = inner->getBase();
    }
    record(subscript, base->IgnoreParenImpCasts(), indexExprs);
    return true;
  }

private:
  void noteOperatorOn(const Expr *operand, SourceLocation operatorLoc) {
    if (const auto *subscript =
            dyn_cast<ArraySubscriptExpr>(operand->IgnoreParens()))
      operatorOf[subscript] = operatorLoc;
  }

  void record(const ArraySubscriptExpr *subscript, const Expr *base,
              const std::vector<const Expr *> &indexExprs) {
    CharSourceRange range =
        fileCharRange(subscript->getSourceRange(), sm, ctx.getLangOpts());
    if (range.isInvalid() || sm.isInSystemHeader(range.getBegin()))
      return;
    PresumedLoc begin = sm.getPresumedLoc(range.getBegin());
    PresumedLoc end = sm.getPresumedLoc(range.getEnd().getLocWithOffset(-1));
    if (begin.isInvalid() || end.isInvalid())
      return;
    if (!seen.insert({begin.getFilename(), begin.getLine(), begin.getColumn(),
                      end.getLine(), end.getColumn()})
             .second)
      return; // the same source expression in another template instantiation

    SubscriptFact fact;
    fact.loc = {begin.getFilename(), begin.getLine(), begin.getColumn()};
    fact.endLine = end.getLine();
    fact.endCol = end.getColumn();
    fact.exprCol =
        sm.getPresumedColumnNumber(sm.getExpansionLoc(subscript->getExprLoc()));
    if (auto op = operatorOf.find(subscript); op != operatorOf.end()) {
      PresumedLoc opLoc = sm.getPresumedLoc(sm.getExpansionLoc(op->second));
      fact.assignLine = opLoc.getLine();
      fact.assignCol = opLoc.getColumn();
    }
    fact.function = function.getNameAsString();
    fact.base = exprText(base, ctx);
    for (const Expr *index : indexExprs) {
      fact.indices.push_back(exprText(index, ctx));
      IndexVariableCollector(fact.indexVariables)
          .TraverseStmt(const_cast<Expr *>(index));
    }
    fact.indexText = llvm::join(fact.indices, "][");
    fact.fullText = exprText(subscript, ctx);
    fact.elementType =
        subscript->getType().getAsString(ctx.getPrintingPolicy());
    describeBase(base, fact);
    facts.push_back(std::move(fact));
  }

  // Memory space and declared shape of what the base names. Reinterpreted
  // accesses (reinterpret_cast<float4 *>(&smem[i])[0]) are described by the
  // array they reach into; `s.a[i]` takes its shape from the field and its
  // memory space from `s`.
  void describeBase(const Expr *base, SubscriptFact &fact) {
    const ValueDecl *shaped = nullptr;
    const Expr *walk = base;
    while (!shaped && walk) {
      walk = walk->IgnoreParenCasts();
      if (const auto *ref = dyn_cast<DeclRefExpr>(walk))
        shaped = ref->getDecl();
      else if (const auto *member = dyn_cast<MemberExpr>(walk))
        shaped = member->getMemberDecl();
      else if (const auto *addressOf = dyn_cast<UnaryOperator>(walk);
               addressOf && addressOf->getOpcode() == UO_AddrOf)
        walk = stripSubscripts(addressOf->getSubExpr());
      else
        walk = nullptr;
    }
    if (!shaped)
      return;
    if (const VarDecl *root = rootVariable(walk)) {
      fact.sharedMemory = root->hasAttr<CUDASharedAttr>();
      fact.constantMemory = root->hasAttr<CUDAConstantAttr>();
    }
    QualType type = shaped->getType();
    while (const ArrayType *array = ctx.getAsArrayType(type)) {
      if (const auto *constant = dyn_cast<ConstantArrayType>(array))
        fact.dims.push_back(llvm::toString(constant->getSize(), 10, false));
      else if (const auto *dependent = dyn_cast<DependentSizedArrayType>(array))
        fact.dims.push_back(exprText(dependent->getSizeExpr(), ctx));
      else
        fact.dims.push_back("");
      type = array->getElementType();
    }
  }

  static const Expr *stripSubscripts(const Expr *e) {
    e = e->IgnoreParenCasts();
    while (const auto *subscript = dyn_cast<ArraySubscriptExpr>(e))
      e = subscript->getBase()->IgnoreParenCasts();
    return e;
  }

  // The variable whose storage `e` lies in: through `.` members, not through
  // `->`.
  static const VarDecl *rootVariable(const Expr *e) {
    while (true) {
      e = e->IgnoreParenCasts();
      if (const auto *ref = dyn_cast<DeclRefExpr>(e))
        return dyn_cast<VarDecl>(ref->getDecl());
      const auto *member = dyn_cast<MemberExpr>(e);
      if (!member || member->isArrow())
        return nullptr;
      e = member->getBase();
    }
  }

  ASTContext &ctx;
  const SourceManager &sm;
  const FunctionDecl &function;
  std::vector<SubscriptFact> &facts;
  std::set<std::tuple<std::string, unsigned, unsigned, unsigned, unsigned>>
      &seen;
  llvm::DenseMap<const ArraySubscriptExpr *, SourceLocation> operatorOf;
  llvm::DenseSet<const ArraySubscriptExpr *> innerSubscripts;
};

// Finds the device functions with bodies, instantiations included.
class DeviceFunctionFinder : public DynamicRecursiveASTVisitor {
public:
  DeviceFunctionFinder(ASTContext &ctx, std::vector<SubscriptFact> &facts)
      : ctx(ctx), facts(facts) {
    ShouldVisitTemplateInstantiations = true;
  }

  bool VisitFunctionDecl(FunctionDecl *function) override {
    if (!function->doesThisDeclarationHaveABody() ||
        function->isDependentContext() ||
        !(function->hasAttr<CUDAGlobalAttr>() ||
          function->hasAttr<CUDADeviceAttr>()) ||
        ctx.getSourceManager().isInSystemHeader(function->getLocation()))
      return true;
    SubscriptCollector(ctx, *function, facts, seen)
        .TraverseStmt(function->getBody());
    return true;
  }

private:
  ASTContext &ctx;
  std::vector<SubscriptFact> &facts;
  std::set<std::tuple<std::string, unsigned, unsigned, unsigned, unsigned>>
      seen;
};

class SubscriptFactsConsumer : public ASTConsumer {
public:
  explicit SubscriptFactsConsumer(std::vector<SubscriptFact> &facts)
      : facts(facts) {}
  void HandleTranslationUnit(ASTContext &ctx) override {
    DeviceFunctionFinder(ctx, facts).TraverseDecl(ctx.getTranslationUnitDecl());
  }

private:
  std::vector<SubscriptFact> &facts;
};

// (line, col) as one comparable number; columns stay far below 2^20.
uint64_t position(unsigned line, unsigned col) {
  return (uint64_t(line) << 20) | col;
}

} // namespace

std::unique_ptr<clang::ASTConsumer>
makeSubscriptFactsConsumer(std::vector<SubscriptFact> &facts) {
  return std::make_unique<SubscriptFactsConsumer>(facts);
}

const SubscriptFact *findSubscript(const std::vector<SubscriptFact> &facts,
                                   const core::SourceLoc &where) {
  const SubscriptFact *best = nullptr;
  bool bestExact = false;
  uint64_t bestSpan = 0;
  uint64_t at = position(where.line, where.col);
  for (const SubscriptFact &fact : facts) {
    if (!where.file.empty() && !core::sameSourceFile(fact.loc.file, where.file))
      continue;
    uint64_t begin = position(fact.loc.line, fact.loc.col);
    uint64_t end = position(fact.endLine, fact.endCol);
    // Exact: the column Clang gives the load, or the operator that stores to
    // it.
    bool exact = (where.line == fact.loc.line && where.col == fact.exprCol) ||
                 (fact.assignLine != 0 && where.line == fact.assignLine &&
                  where.col == fact.assignCol);
    if (!exact && (at < begin || at > end))
      continue;
    uint64_t span = end - begin;
    if (!best || (exact && !bestExact) ||
        (exact == bestExact && span < bestSpan)) {
      best = &fact;
      bestExact = exact;
      bestSpan = span;
    }
  }
  return best;
}

} // namespace kcheck::analyzer
