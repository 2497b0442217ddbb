// HostEvaluator: what a statement may change (the variables, and
// what pointers written through point to) and whether it may launch.
#include "analyzer/host/HostEvaluator.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace kcheck::analyzer {

using namespace clang;

// ---------------------------------------------------------------------------
// What a statement may change, and whether it may launch.

namespace {
// Collects the variables a statement (and the functions it calls) may assign.
struct AssignedVars {
  llvm::SmallPtrSet<const VarDecl *, 16> vars;
  // Pointers written through (`p[i] = `, `p->n = `): what they point to
  // changes, not they.
  llvm::SmallPtrSet<const VarDecl *, 16> pointees;
  llvm::SmallPtrSet<const FunctionDecl *, 8> seen;
  bool globalsOnly = false;

  // `derefs`: pointer dereferences between the target and its variable.
  // Past the second (`m[i].data[j]`) the memory is not the variable's nor
  // what it points to.
  void target(const Expr *e, int derefs = 0) {
    e = e->IgnoreParenImpCasts();
    if (auto *me = dyn_cast<MemberExpr>(e))
      return target(me->getBase(), derefs + me->isArrow());
    if (auto *as = dyn_cast<ArraySubscriptExpr>(e))
      return target(
          as->getBase(), // an array's own elements: no deref
          derefs +
              as->getBase()->IgnoreParenImpCasts()->getType()->isPointerType());
    if (auto *uo = dyn_cast<UnaryOperator>(e);
        uo && uo->getOpcode() == UO_Deref)
      return target(uo->getSubExpr(), derefs + 1);
    if (auto *dr = dyn_cast<DeclRefExpr>(e))
      if (auto *vd = dyn_cast<VarDecl>(dr->getDecl()))
        if (!globalsOnly || vd->hasGlobalStorage()) {
          if (derefs == 0)
            vars.insert(vd);
          else if (derefs == 1)
            pointees.insert(vd);
        }
  }
  void walk(const Stmt *s) {
    if (!s)
      return;
    if (auto *bo = dyn_cast<BinaryOperator>(s)) {
      if (bo->isAssignmentOp())
        target(bo->getLHS());
    } else if (auto *uo = dyn_cast<UnaryOperator>(s)) {
      if (uo->isIncrementDecrementOp() || uo->getOpcode() == UO_AddrOf)
        target(uo->getSubExpr());
    } else if (auto *ce = dyn_cast<CallExpr>(s)) {
      call(ce);
    }
    for (const Stmt *c : s->children())
      walk(c);
  }
  void call(const CallExpr *ce) {
    const FunctionDecl *fd = ce->getDirectCallee();
    if (!fd)
      return;
    unsigned shift = 0;
    if (auto *op = dyn_cast<CXXOperatorCallExpr>(ce)) {
      if (isa<CXXMethodDecl>(fd)) {
        shift = 1; // argument 0 is the object
        if (op->isAssignmentOp())
          target(ce->getArg(0));
      }
    }
    for (unsigned i = 0; i + shift < ce->getNumArgs() && i < fd->getNumParams();
         ++i) {
      QualType pt = fd->getParamDecl(i)->getType();
      if (pt->isLValueReferenceType() &&
          !pt->getPointeeType().isConstQualified())
        target(ce->getArg(i + shift));
    }
    const FunctionDecl *def = nullptr;
    if (fd->hasBody(def) && seen.insert(def).second) {
      bool saved = globalsOnly;
      globalsOnly = true; // a callee's own locals do not matter here
      walk(def->getBody());
      globalsOnly = saved;
    }
  }
};
} // namespace

void HostEvaluator::havocAssigned(const Stmt *s, const std::string &why) {
  AssignedVars av;
  av.walk(s);
  for (const VarDecl *vd : av.vars) {
    int slot = boundSlot(vd);
    if (slot < 0)
      continue;
    int count = 1;
    if (std::optional<uint64_t> n = objectLeaves(vd->getType()))
      count = int(std::max<uint64_t>(*n, 1));
    else if (auto *at = ctx_.getAsConstantArrayType(vd->getType()))
      count = int(std::min<uint64_t>(at->getZExtSize(), kMaxArray));
    std::string msg = std::string("`") + vd->getNameAsString() + "` is " + why;
    for (int k = 0; k < count && validSlot(slot + k); ++k)
      at(slot + k) = AbstractValue::unknown(msg);
  }
  // What a pointer written through points to now (tracked slots only).
  for (const VarDecl *vd : av.pointees) {
    if (av.vars.count(vd))
      continue; // the pointer itself is unknown now
    int slot = boundSlot(vd);
    if (!validSlot(slot))
      continue;
    const AbstractValue p = at(slot);
    std::string msg =
        "what `" + vd->getNameAsString() + "` points to is " + why;
    for (int k = 0;
         p.slotRef >= 0 && k < p.slotCount && validSlot(p.slotRef + k); ++k)
      at(p.slotRef + k) = AbstractValue::unknown(msg);
  }
}

bool HostEvaluator::containsLaunch(const Stmt *s) {
  if (!s)
    return false;
  auto it = launchCache_.find(s);
  if (it != launchCache_.end())
    return it->second;
  launchCache_[s] = false; // breaks recursion
  bool found = false;
  if (isa<CUDAKernelCallExpr>(s)) {
    found = true;
  } else if (auto *ce = dyn_cast<CallExpr>(s)) {
    if (const FunctionDecl *fd = ce->getDirectCallee()) {
      if (fd->getIdentifier() && fd->getName().starts_with("cudaLaunch"))
        found = true;
      const FunctionDecl *def = nullptr;
      if (!found && fd->hasBody(def) &&
          !inUnfollowedSystemHeader(def->getLocation()))
        found = containsLaunch(def->getBody());
    }
  }
  for (const Stmt *c : s->children())
    if (!found)
      found = containsLaunch(c);
  launchCache_[s] = found;
  return found;
}

} // namespace kcheck::analyzer
