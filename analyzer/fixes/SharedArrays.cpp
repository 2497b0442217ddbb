#include "SharedArrays.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/TypeLoc.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <algorithm>

namespace kcheck::analyzer::fixes {

namespace {

using namespace clang;

class UseCollector : public DynamicRecursiveASTVisitor {
public:
  explicit UseCollector(ASTContext &ctx) : ctx(ctx) {}

  bool VisitVarDecl(VarDecl *var) override {
    if (!var->hasAttr<CUDASharedAttr>() || !var->isLocalVarDecl() ||
        !var->getTypeSourceInfo())
      return true;
    SharedArray array;
    array.var = var;
    QualType type = var->getType();
    TypeLoc loc = var->getTypeSourceInfo()->getTypeLoc();
    while (const auto *constant = ctx.getAsConstantArrayType(type)) {
      auto arrayLoc = loc.getAsAdjusted<ArrayTypeLoc>();
      if (!arrayLoc || !arrayLoc.getSizeExpr())
        return true; // a typedef'd or deduced extent: not written here
      array.extentExprs.push_back(arrayLoc.getSizeExpr());
      array.extents.push_back(constant->getSize().getZExtValue());
      type = constant->getElementType();
      loc = arrayLoc.getElementLoc();
    }
    if (array.extents.empty() || type->isIncompleteType() ||
        type->isDependentType())
      return true;
    array.elementBytes = uint64_t(ctx.getTypeSizeInChars(type).getQuantity());
    index[var] = arrays.size();
    arrays.push_back(std::move(array));
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *ref) override {
    if (const auto *var = dyn_cast<VarDecl>(ref->getDecl()))
      ++references[var];
    return true;
  }

  // Parents come before their operands, so `&a[i]` is seen before `a[i]`.
  bool VisitUnaryOperator(UnaryOperator *op) override {
    if (op->getOpcode() == UO_AddrOf)
      if (const auto *subscript =
              dyn_cast<ArraySubscriptExpr>(op->getSubExpr()->IgnoreParens()))
        addressTaken.insert(subscript);
    return true;
  }

  bool VisitArraySubscriptExpr(ArraySubscriptExpr *subscript) override {
    if (inner.contains(subscript))
      return true;
    ArrayUse use;
    use.subscript = subscript;
    use.addressTaken = addressTaken.contains(subscript);
    const Expr *base = subscript;
    while (const auto *link =
               dyn_cast<ArraySubscriptExpr>(base->IgnoreParenImpCasts())) {
      if (link != subscript)
        inner.insert(link);
      use.indices.insert(use.indices.begin(), link->getIdx());
      base = link->getBase();
    }
    if (const auto *ref = dyn_cast<DeclRefExpr>(base->IgnoreParenImpCasts()))
      if (const auto *var = dyn_cast<VarDecl>(ref->getDecl()))
        uses[var].push_back(std::move(use));
    return true;
  }

  std::vector<SharedArray> finish() {
    for (SharedArray &array : arrays) {
      std::vector<ArrayUse> &all = uses[array.var];
      size_t rank = array.extents.size();
      bool fullRank = std::all_of(all.begin(), all.end(), [&](const auto &u) {
        return u.indices.size() == rank;
      });
      // Each full subscript holds one reference to the array; any other
      // reference (a row pointer, the address, sizeof) sees the layout.
      array.onlySubscripts =
          fullRank && !all.empty() && references[array.var] == all.size();
      array.uses = std::move(all);
    }
    return std::move(arrays);
  }

private:
  ASTContext &ctx;
  std::vector<SharedArray> arrays;
  llvm::DenseMap<const VarDecl *, size_t> index;
  llvm::DenseMap<const VarDecl *, size_t> references;
  llvm::DenseMap<const VarDecl *, std::vector<ArrayUse>> uses;
  llvm::DenseSet<const ArraySubscriptExpr *> inner, addressTaken;
};

} // namespace

bool SharedArray::anyAddressTaken() const {
  return std::any_of(uses.begin(), uses.end(),
                     [](const ArrayUse &u) { return u.addressTaken; });
}

std::vector<SharedArray> sharedArraysOf(clang::ASTContext &ctx,
                                        const clang::FunctionDecl &kernel) {
  UseCollector collector(ctx);
  collector.TraverseStmt(kernel.getBody());
  return collector.finish();
}

bool needsParens(const clang::Expr &e) {
  const clang::Expr *x = e.IgnoreImpCasts();
  if (const auto *subst = dyn_cast<clang::SubstNonTypeTemplateParmExpr>(x))
    x = subst->getReplacement()->IgnoreImpCasts();
  return !(isa<clang::DeclRefExpr, clang::IntegerLiteral, clang::ParenExpr,
               clang::MemberExpr, clang::CallExpr, clang::ArraySubscriptExpr,
               clang::PseudoObjectExpr, clang::MSPropertyRefExpr>(x));
}

} // namespace kcheck::analyzer::fixes
