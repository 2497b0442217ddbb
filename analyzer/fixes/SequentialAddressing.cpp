// Recipe "sequential-addressing": a shared-memory tree reduction with
// interleaved addressing (the reduction tutorials' reduce_v0 / reduce_v1)
//
//   for (s = 1; s < N; s *= 2) { int index = 2 * s * tid;
//     if (index < N) sdata[index] OP= sdata[index + s]; __syncthreads(); }
//   for (s = 1; s < N; s *= 2) {
//     if (tid % (2 * s) == 0) sdata[tid] OP= sdata[tid + s]; __syncthreads(); }
//
// becomes the sequential form (reduce_v2), whose active threads are
// contiguous and whose lanes read consecutive words:
//
//   for (s = N / 2; s > 0; s >>= 1) {
//     if (tid < s) sdata[tid] OP= sdata[tid + s]; __syncthreads(); }
//
// Both leave the reduction of sdata[0..N) in sdata[0] when N is a power of two
// and the block has the threads the loop uses; they leave different partial
// results elsewhere, so the rewrite also requires that nothing after the loop
// reads sdata other than sdata[0]. Assumptions:
//  - OP is associative and commutative (+ * & | ^, min/max); floating-point
//    + and * then round in a different order, which the title says;
//  - N is blockDim.x (assumed a power of two, said in the title) or a constant
//    power of two (the block then must hold the threads the title names);
//  - tid is threadIdx.x (directly or through a never-written variable), and
//    the loop body is exactly the combine, one block barrier and, for the
//    index form, the index's declaration.
#include "RecipeUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include <set>

namespace kcheck::analyzer {

namespace {

using namespace clang;

/// The reduction's loop bound N: blockDim.x or a constant power of two.
struct Count {
  const Expr *expr = nullptr;
  std::optional<int64_t> value; // none for blockDim.x
};

// Largest N accepted: 2 * s * tid must not wrap for any s < N, tid < N.
constexpr int64_t kMaxConstantCount = 1 << 16;

std::optional<Count> matchCount(const ASTContext &ctx, const Expr *e) {
  if (fixes::isCudaBuiltin(e, "blockDim", "x"))
    return Count{e, std::nullopt};
  std::optional<int64_t> v = fixes::integerValue(ctx, e);
  if (v && *v >= 2 && *v <= kMaxConstantCount && (*v & (*v - 1)) == 0)
    return Count{e, v};
  return std::nullopt;
}

bool sameCount(const ASTContext &ctx, const Count &a, const Expr *b) {
  std::optional<Count> other = matchCount(ctx, b);
  return other && other->value == a.value;
}

class Matcher {
public:
  Matcher(ASTContext &ctx, const FunctionDecl &kernel)
      : ctx(ctx), kernel(kernel) {}

  // Matches `loop`, then everything after it (`rest`) in the kernel's body.
  bool match(const ForStmt *forLoop, CompoundStmt::const_body_iterator rest,
             CompoundStmt::const_body_iterator end) {
    loop = forLoop;
    return matchHeader() && matchBody() && matchCombine() &&
           onlyFirstElementReadAfter(rest, end);
  }

private:
  // for (T s = 1; s < N; s *= 2)
  bool matchHeader() {
    const auto *init = dyn_cast_or_null<DeclStmt>(loop->getInit());
    if (!init || !init->isSingleDecl())
      return false;
    stride = dyn_cast<VarDecl>(init->getSingleDecl());
    if (!stride || !stride->getType()->isIntegerType() || !stride->getInit() ||
        !fixes::isConstant(ctx, stride->getInit(), 1))
      return false;
    const auto *cond =
        dyn_cast_or_null<BinaryOperator>(fixes::stripped(loop->getCond()));
    if (!cond || cond->getOpcode() != BO_LT ||
        fixes::namedVariable(cond->getLHS()) != stride)
      return false;
    std::optional<Count> n = matchCount(ctx, cond->getRHS());
    if (!n)
      return false;
    count = *n;
    countOperand = cond->getRHS();
    return isDoubling(loop->getInc());
  }

  bool isStride(const Expr *e) const {
    return fixes::namedVariable(e) == stride;
  }

  // s *= 2, s <<= 1, s = s * 2, s = 2 * s, s += s, s = s << 1
  bool isDoubling(const Expr *inc) const {
    const auto *op = dyn_cast_or_null<BinaryOperator>(fixes::stripped(inc));
    if (!op || !isStride(op->getLHS()))
      return false;
    switch (op->getOpcode()) {
    case BO_MulAssign:
      return fixes::isConstant(ctx, op->getRHS(), 2);
    case BO_ShlAssign:
      return fixes::isConstant(ctx, op->getRHS(), 1);
    case BO_AddAssign:
      return isStride(op->getRHS());
    case BO_Assign:
      return isTwiceStride(op->getRHS());
    default:
      return false;
    }
  }

  // 2 * s, s * 2, s << 1, s + s
  bool isTwiceStride(const Expr *e) const {
    const auto *op = dyn_cast_or_null<BinaryOperator>(fixes::stripped(e));
    if (!op)
      return false;
    const Expr *l = op->getLHS(), *r = op->getRHS();
    switch (op->getOpcode()) {
    case BO_Mul:
      return (fixes::isConstant(ctx, l, 2) && isStride(r)) ||
             (isStride(l) && fixes::isConstant(ctx, r, 2));
    case BO_Shl:
      return isStride(l) && fixes::isConstant(ctx, r, 1);
    case BO_Add:
      return isStride(l) && isStride(r);
    default:
      return false;
    }
  }

  // threadIdx.x, or a variable initialised to it that nothing writes.
  bool isThreadX(const Expr *e) {
    const Expr *bare = fixes::stripped(e);
    if (fixes::isCudaBuiltin(bare, "threadIdx", "x"))
      return noteThread(nullptr, bare);
    const VarDecl *var = fixes::namedVariable(bare);
    if (!var || !var->getType()->isIntegerType() || !var->getInit() ||
        !fixes::isCudaBuiltin(var->getInit(), "threadIdx", "x") ||
        !var->isLocalVarDecl() || fixes::isModifiedIn(kernel.getBody(), var))
      return false;
    return noteThread(var, bare);
  }
  // Every use of the thread index must name the same thing.
  bool noteThread(const VarDecl *var, const Expr *use) {
    if (threadText.empty()) {
      std::optional<std::string> text = fixes::writtenText(ctx, use);
      if (!text)
        return false;
      threadVar = var;
      threadText = *text;
      return true;
    }
    return threadVar == var;
  }

  // { [barrier] [T index = 2 * s * tid;] if (...) COMBINE; [barrier] }
  bool matchBody() {
    const auto *block = dyn_cast_or_null<CompoundStmt>(loop->getBody());
    if (!block)
      return false;
    int barriers = 0;
    for (const Stmt *s : block->body()) {
      if (fixes::isBlockBarrier(s)) {
        ++barriers;
      } else if (const auto *decl = dyn_cast<DeclStmt>(s);
                 decl && !branch && !indexDecl) {
        indexDecl = decl;
      } else if (const auto *ifStmt = dyn_cast<IfStmt>(s); ifStmt && !branch) {
        branch = ifStmt;
      } else {
        return false;
      }
    }
    if (barriers != 1 || !branch || branch->getElse() || branch->getInit() ||
        branch->getConditionVariable() || branch->isConstexpr())
      return false;
    if (indexDecl && !matchIndexDecl())
      return false;
    return indexDecl ? matchIndexCondition() : matchModuloCondition();
  }

  // T index = 2 * s * tid (factors in any order)
  bool matchIndexDecl() {
    if (!indexDecl->isSingleDecl())
      return false;
    index = dyn_cast<VarDecl>(indexDecl->getSingleDecl());
    if (!index || !index->getType()->isIntegerType() || !index->getInit() ||
        fixes::isModifiedIn(loop->getBody(), index))
      return false;
    std::vector<const Expr *> factors;
    collectFactors(index->getInit(), factors);
    if (factors.size() != 3)
      return false;
    bool two = false, s = false, thread = false;
    for (const Expr *f : factors) {
      if (!two && fixes::isConstant(ctx, f, 2))
        two = true;
      else if (!s && isStride(f))
        s = true;
      else if (!thread && isThreadX(f))
        thread = true;
      else
        return false;
    }
    return true;
  }

  static void collectFactors(const Expr *e, std::vector<const Expr *> &out) {
    const auto *op = dyn_cast<BinaryOperator>(fixes::stripped(e));
    if (op && op->getOpcode() == BO_Mul) {
      collectFactors(op->getLHS(), out);
      collectFactors(op->getRHS(), out);
      return;
    }
    out.push_back(e);
  }

  // if (index < N)
  bool matchIndexCondition() {
    const auto *cond =
        dyn_cast<BinaryOperator>(fixes::stripped(branch->getCond()));
    return cond && cond->getOpcode() == BO_LT &&
           fixes::namedVariable(cond->getLHS()) == index &&
           sameCount(ctx, count, cond->getRHS());
  }

  // if (tid % (2 * s) == 0) or if ((tid & (2 * s - 1)) == 0)
  bool matchModuloCondition() {
    const auto *cond =
        dyn_cast<BinaryOperator>(fixes::stripped(branch->getCond()));
    if (!cond || cond->getOpcode() != BO_EQ)
      return false;
    const Expr *test = cond->getLHS();
    if (!fixes::isConstant(ctx, cond->getRHS(), 0)) {
      if (!fixes::isConstant(ctx, cond->getLHS(), 0))
        return false;
      test = cond->getRHS();
    }
    const auto *op = dyn_cast<BinaryOperator>(fixes::stripped(test));
    if (!op || !isThreadX(op->getLHS()))
      return false;
    if (op->getOpcode() == BO_Rem)
      return isTwiceStride(op->getRHS());
    if (op->getOpcode() != BO_And)
      return false;
    const auto *mask = dyn_cast<BinaryOperator>(fixes::stripped(op->getRHS()));
    return mask && mask->getOpcode() == BO_Sub &&
           isTwiceStride(mask->getLHS()) &&
           fixes::isConstant(ctx, mask->getRHS(), 1);
  }

  // The element a thread combines into: index (index form) or tid.
  bool isPosition(const Expr *e) {
    return index ? fixes::namedVariable(e) == index : isThreadX(e);
  }

  // sdata[P] (which == 0) or sdata[P + s] / sdata[s + P] (which == 1).
  bool isElement(const Expr *e, int which) {
    const auto *subscript = dyn_cast<ArraySubscriptExpr>(fixes::stripped(e));
    if (!subscript)
      return false;
    const VarDecl *base = fixes::namedVariable(subscript->getBase());
    if (!base || (array && base != array))
      return false;
    array = base;
    accesses.push_back(subscript);
    if (which == 0)
      return isPosition(subscript->getIdx());
    const auto *sum =
        dyn_cast<BinaryOperator>(fixes::stripped(subscript->getIdx()));
    return sum && sum->getOpcode() == BO_Add &&
           ((isPosition(sum->getLHS()) && isStride(sum->getRHS())) ||
            (isStride(sum->getLHS()) && isPosition(sum->getRHS())));
  }

  bool isPair(const Expr *a, const Expr *b) {
    return (isElement(a, 0) && isElement(b, 1)) ||
           (isElement(a, 1) && isElement(b, 0));
  }

  // sdata[P] OP= sdata[P + s], sdata[P] = sdata[P] OP sdata[P + s] or
  // sdata[P] = F(sdata[P], sdata[P + s]), OP and F associative and
  // commutative.
  bool matchCombine() {
    combine = dyn_cast_or_null<Expr>(fixes::singleStatement(branch->getThen()));
    if (!combine)
      return false;
    const auto *op = dyn_cast<BinaryOperator>(fixes::stripped(combine));
    if (!op || !isElement(op->getLHS(), 0))
      return false;
    BinaryOperatorKind kind = op->getOpcode();
    const Expr *rhs = fixes::stripped(op->getRHS());
    if (kind == BO_Assign) {
      if (const auto *inner = dyn_cast<BinaryOperator>(rhs)) {
        kind = inner->getOpcode();
        if (!isPair(inner->getLHS(), inner->getRHS()))
          return false;
      } else if (const auto *call = dyn_cast<CallExpr>(rhs)) {
        const FunctionDecl *callee = call->getDirectCallee();
        static const std::set<std::string> kSymmetric = {
            "min", "max", "fminf", "fmaxf", "fmin", "fmax", "umin", "umax"};
        if (!callee || !callee->getIdentifier() ||
            !kSymmetric.count(callee->getName().str()) ||
            call->getNumArgs() != 2 ||
            !isPair(call->getArg(0), call->getArg(1)))
          return false;
        return finish(/*reorders=*/"");
      } else {
        return false;
      }
    } else {
      kind = BinaryOperator::getOpForCompoundAssignment(kind);
      if (!op->isCompoundAssignmentOp() || !isElement(op->getRHS(), 1))
        return false;
    }
    bool floating = op->getLHS()->getType()->isRealFloatingType();
    switch (kind) {
    case BO_Add:
      return finish(floating ? "sums" : "");
    case BO_Mul:
      return finish(floating ? "products" : "");
    case BO_And:
    case BO_Or:
    case BO_Xor:
      return finish("");
    default:
      return false;
    }
  }

  bool finish(std::string reorders) {
    reordered = std::move(reorders);
    // A __shared__ array declared in this kernel (an extern one's semantic
    // context is the namespace).
    return array && array->hasAttr<CUDASharedAttr>() &&
           array->getLexicalDeclContext() == &kernel && !threadText.empty() &&
           !fixes::isModifiedIn(loop->getBody(), stride);
  }

  // After the loop the two forms agree on sdata[0] only.
  bool onlyFirstElementReadAfter(CompoundStmt::const_body_iterator from,
                                 CompoundStmt::const_body_iterator to) const {
    for (auto it = from; it != to; ++it) {
      // Dynamic shared memory is also reachable from a function of this file
      // that declares it again.
      if (array->hasExternalStorage() && callsUserFunction(*it))
        return false;
      std::vector<const DeclRefExpr *> uses = fixes::referencesTo(*it, array);
      if (uses.empty())
        continue;
      FirstElementAccesses allowed(ctx, array);
      allowed.TraverseStmt(const_cast<Stmt *>(*it));
      for (const DeclRefExpr *use : uses)
        if (!allowed.bases.count(use))
          return false;
    }
    return true;
  }

  bool callsUserFunction(const Stmt *s) const {
    struct Calls : DynamicRecursiveASTVisitor {
      const SourceManager *sm = nullptr;
      bool found = false;
      bool VisitCallExpr(CallExpr *call) override {
        const Decl *callee = call->getCalleeDecl();
        if (!callee ||
            !sm->isInSystemHeader(sm->getExpansionLoc(callee->getLocation())))
          found = true;
        return !found;
      }
    } calls;
    calls.sm = &ctx.getSourceManager();
    calls.TraverseStmt(const_cast<Stmt *>(s));
    return calls.found;
  }

  // The array references that are the base of `array[0]`.
  struct FirstElementAccesses : public DynamicRecursiveASTVisitor {
    FirstElementAccesses(const ASTContext &ctx, const VarDecl *array)
        : ctx(ctx), array(array) {}
    bool VisitArraySubscriptExpr(ArraySubscriptExpr *subscript) override {
      const auto *ref =
          dyn_cast<DeclRefExpr>(fixes::stripped(subscript->getBase()));
      if (ref && ref->getDecl() == array &&
          fixes::isConstant(ctx, subscript->getIdx(), 0))
        bases.insert(ref);
      return true;
    }
    const ASTContext &ctx;
    const VarDecl *array;
    std::set<const DeclRefExpr *> bases;
  };

public:
  void emit(std::vector<FixCandidate> &out) {
    KernelSource source(ctx, kernel);
    std::vector<TextEdit> edits;
    auto replace = [&](const Stmt *node, std::string text) {
      std::optional<TextEdit> edit =
          source.replace(node->getSourceRange(), std::move(text));
      if (edit)
        edits.push_back(std::move(*edit));
      return edit.has_value();
    };
    std::string s = stride->getName().str();
    std::optional<std::string> n = fixes::operandText(ctx, countOperand);
    if (!n || !replace(stride->getInit(), *n + " / 2") ||
        !replace(loop->getCond(), s + " > 0") ||
        !replace(loop->getInc(), s + " >>= 1") ||
        !replace(branch->getCond(), threadText + " < " + s))
      return;
    if (indexDecl) {
      std::optional<TextEdit> removal =
          source.replace(indexDecl->getSourceRange(), "");
      if (!removal)
        return;
      edits.push_back(fixes::wholeLines(ctx, *removal));
      for (const DeclRefExpr *use : fixes::referencesTo(combine, index))
        if (use->getLocation().isMacroID() || !replace(use, threadText))
          return;
    }

    std::string assumption;
    if (!count.value)
      assumption = "assumes blockDim.x is a power of two";
    else if (index)
      assumption = "assumes blockDim.x >= " + std::to_string(*count.value / 2);
    else
      assumption = "assumes " + std::to_string(*count.value / 2) +
                   " <= blockDim.x <= " + std::to_string(*count.value);
    std::string notes =
        reordered.empty() ? assumption
                          : reordered + " in a different order; " + assumption;
    std::string title = "sequential addressing for the reduction in '" +
                        array->getName().str() + "': for (" + s + " = " + *n +
                        " / 2; " + s + " > 0; " + s + " >>= 1) with " +
                        threadText + " < " + s + " active (" + notes + ")";

    std::set<unsigned> accessLines;
    for (const ArraySubscriptExpr *access : accesses)
      accessLines.insert(source.line(access->getBeginLoc()));
    std::set<unsigned> branchLines = {
        source.line(branch->getIfLoc()),
        source.line(branch->getCond()->getBeginLoc())};

    FixCandidate candidate;
    candidate.recipe = "sequential-addressing";
    candidate.kernel = kernel.getNameAsString();
    candidate.title = title;
    candidate.edits = edits;
    // The index form's finding is the bank conflict on sdata[index]; the
    // modulo form's is the divergent branch. Either rewrite answers both.
    candidate.checkId = "bank-conflict";
    candidate.lines.assign(accessLines.begin(), accessLines.end());
    out.push_back(candidate);
    candidate.checkId = "divergent-branch";
    candidate.lines.assign(branchLines.begin(), branchLines.end());
    out.push_back(std::move(candidate));
  }

private:
  ASTContext &ctx;
  const FunctionDecl &kernel;
  const ForStmt *loop = nullptr;
  const VarDecl *stride = nullptr;
  Count count;
  const Expr *countOperand = nullptr;
  const DeclStmt *indexDecl = nullptr;
  const VarDecl *index = nullptr;
  const IfStmt *branch = nullptr;
  const Expr *combine = nullptr;
  const VarDecl *array = nullptr;
  std::vector<const ArraySubscriptExpr *> accesses;
  const VarDecl *threadVar = nullptr;
  std::string threadText;
  std::string reordered; // "sums" when float + is reassociated
};

} // namespace

void proposeSequentialAddressing(ASTContext &ctx, const FunctionDecl &kernel,
                                 std::vector<FixCandidate> &out) {
  fixes::proposeForEveryInstantiation(
      ctx, kernel, out,
      [](ASTContext &c, const FunctionDecl &k, std::vector<FixCandidate> &o) {
        const auto *body = dyn_cast_or_null<CompoundStmt>(k.getBody());
        if (!body)
          return;
        // Only loops at the top of the kernel: what follows them is then
        // exactly the rest of the kernel.
        for (auto it = body->body_begin(); it != body->body_end(); ++it)
          if (const auto *loop = dyn_cast<ForStmt>(*it)) {
            Matcher matcher(c, k);
            if (matcher.match(loop, it + 1, body->body_end()))
              matcher.emit(o);
          }
      });
}

} // namespace kcheck::analyzer
