// Recipe "vectorize-load": a loop that copies K consecutive elements of a
// shared array or a global pointer into a local array,
//
//   for (T i = 0; i < K; ++i) reg[f(i)] = src[g + i];
//
// becomes one vector load (float4 / float2 / int4 / uint4 / double2 ...) per
// k elements (k = 4 or 2):
//
//   for (T i = 0; i < K; i += k) {
//     const float4 v = reinterpret_cast<const float4 *>(&src[g + i])[0];
//     reg[f(i)] = v.x; reg[f(i + 1)] = v.y; ... }
//
// The same values reach the same registers; the only new requirement is the
// vector's alignment, which the recipe proves from the AST: K is a multiple
// of k, and the flat element offset g + i is a multiple of k whenever i is
// (every term a multiple of k: a constant, a template argument, a constexpr,
// or a product with one; a never-written local initialised so). Assumptions:
//  - shared arrays start 16-byte aligned (nvcc and kcheck align them so);
//  - a global pointer is a kernel parameter that arrives 16-byte aligned (as
//    cudaMalloc's allocations are; the title says so) and is only moved by
//    multiples of k elements in the kernel;
//  - reg is a local array of the kernel, so it cannot alias src;
//  - in a template every instantiation must prove it (RecipeUtil).
#include "RecipeUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"

namespace kcheck::analyzer {

namespace {

using namespace clang;

// Depth limit on following variables' initialisers.
constexpr int kMaxDepth = 8;

/// The vector type of `k` elements of `element`, or "" when there is none.
std::string vectorTypeName(QualType element, unsigned k) {
  const auto *builtin =
      element.getCanonicalType().getUnqualifiedType()->getAs<BuiltinType>();
  if (!builtin)
    return "";
  std::string base;
  switch (builtin->getKind()) {
  case BuiltinType::Float:
    base = "float";
    break;
  case BuiltinType::Int:
    base = "int";
    break;
  case BuiltinType::UInt:
    base = "uint";
    break;
  case BuiltinType::Double:
    if (k != 2)
      return "";
    base = "double";
    break;
  default:
    return "";
  }
  return base + std::to_string(k);
}

class Matcher {
public:
  Matcher(ASTContext &ctx, const FunctionDecl &kernel, const ForStmt *loop)
      : ctx(ctx), kernel(kernel), loop(loop) {}

  void propose(std::vector<FixCandidate> &out) {
    if (!matchLoop() || !matchCopy())
      return;
    QualType element = loaded->getType();
    if (element.isVolatileQualified())
      return;
    uint64_t bytes = ctx.getTypeSizeInChars(element).getQuantity();
    for (unsigned k : {4u, 2u}) {
      std::string vector = vectorTypeName(element, k);
      if (vector.empty() || bytes * k > 16 || *tripCount % k != 0)
        continue;
      if (aligned(k)) {
        emit(k, vector, out);
        return;
      }
    }
  }

private:
  // for (T i = 0; i < K; ++i) with K a constant
  bool matchLoop() {
    const auto *init = dyn_cast_or_null<DeclStmt>(loop->getInit());
    if (!init || !init->isSingleDecl())
      return false;
    counter = dyn_cast<VarDecl>(init->getSingleDecl());
    if (!counter || !counter->getType()->isIntegerType() ||
        !counter->getInit() || !fixes::isConstant(ctx, counter->getInit(), 0))
      return false;
    const auto *cond =
        dyn_cast_or_null<BinaryOperator>(fixes::stripped(loop->getCond()));
    if (!cond || cond->getOpcode() != BO_LT ||
        fixes::namedVariable(cond->getLHS()) != counter)
      return false;
    tripCount = fixes::integerValue(ctx, cond->getRHS());
    if (!tripCount || *tripCount <= 0)
      return false;
    const Expr *inc = fixes::stripped(loop->getInc());
    if (const auto *unary = dyn_cast_or_null<UnaryOperator>(inc))
      return unary->isIncrementOp() &&
             fixes::namedVariable(unary->getSubExpr()) == counter;
    const auto *binary = dyn_cast_or_null<BinaryOperator>(inc);
    if (!binary || fixes::namedVariable(binary->getLHS()) != counter)
      return false;
    if (binary->getOpcode() == BO_AddAssign)
      return fixes::isConstant(ctx, binary->getRHS(), 1);
    const auto *sum =
        dyn_cast<BinaryOperator>(fixes::stripped(binary->getRHS()));
    return binary->getOpcode() == BO_Assign && sum &&
           sum->getOpcode() == BO_Add &&
           ((isCounter(sum->getLHS()) &&
             fixes::isConstant(ctx, sum->getRHS(), 1)) ||
            (fixes::isConstant(ctx, sum->getLHS(), 1) &&
             isCounter(sum->getRHS())));
  }

  bool isCounter(const Expr *e) const {
    return fixes::namedVariable(e) == counter;
  }

  // reg[f(i)] = src[...][g + i]
  bool matchCopy() {
    copy = dyn_cast_or_null<BinaryOperator>(
        dyn_cast_or_null<Expr>(fixes::singleStatement(loop->getBody())));
    if (!copy || copy->getOpcode() != BO_Assign)
      return false;
    destination = dyn_cast<ArraySubscriptExpr>(fixes::stripped(copy->getLHS()));
    loaded = dyn_cast<ArraySubscriptExpr>(fixes::stripped(copy->getRHS()));
    if (!destination || !loaded || fixes::hasSideEffects(copy->getRHS()) ||
        fixes::hasSideEffects(destination->getIdx()))
      return false;
    // The destination: a local, automatic array of this kernel.
    const VarDecl *registers = fixes::namedVariable(destination->getBase());
    if (!registers || !registers->isLocalVarDecl() ||
        registers->isStaticLocal() || registers->hasAttr<CUDASharedAttr>() ||
        !registers->getType()->isConstantArrayType() ||
        !fixes::mentions(destination->getIdx(), counter))
      return false;
    // The source: a chain of subscripts down to a variable.
    const Expr *at = loaded;
    while (const auto *subscript = dyn_cast<ArraySubscriptExpr>(at)) {
      indices.insert(indices.begin(), subscript->getIdx());
      at = fixes::stripped(subscript->getBase());
    }
    array = fixes::namedVariable(at);
    if (!array)
      return false;
    // The counter steps the innermost index by one element and appears
    // nowhere else.
    for (size_t d = 0; d + 1 < indices.size(); ++d)
      if (fixes::mentions(indices[d], counter))
        return false;
    return addsCounterOnce(indices.back()) &&
           fixes::referencesTo(indices.back(), counter).size() == 1;
  }

  // `e` is a sum whose one term is the counter itself.
  bool addsCounterOnce(const Expr *e) const {
    const Expr *bare = e->IgnoreParens();
    while (const auto *cast = dyn_cast<ImplicitCastExpr>(bare))
      bare = cast->getSubExpr()->IgnoreParens();
    if (isCounter(bare))
      return true;
    const auto *sum = dyn_cast<BinaryOperator>(bare);
    if (!sum || sum->getOpcode() != BO_Add)
      return false;
    return fixes::mentions(sum->getLHS(), counter)
               ? addsCounterOnce(sum->getLHS())
               : addsCounterOnce(sum->getRHS());
  }

  // Whether `e` is a multiple of k for every execution, the counter being one.
  bool isMultiple(const Expr *e, int64_t k, int depth = 0) const {
    if (depth > kMaxDepth || !e)
      return false;
    if (std::optional<int64_t> v = fixes::integerValue(ctx, e))
      return *v % k == 0;
    // Integer casts keep residues modulo a power of two.
    e = e->IgnoreParens();
    if (const auto *cast = dyn_cast<CastExpr>(e))
      return cast->getType()->isIntegerType() &&
             cast->getSubExpr()->getType()->isIntegerType() &&
             isMultiple(cast->getSubExpr(), k, depth);
    if (const auto *ref = dyn_cast<DeclRefExpr>(e)) {
      const auto *var = dyn_cast<VarDecl>(ref->getDecl());
      if (var == counter)
        return true;
      return var && var->isLocalVarDecl() && var->getInit() &&
             !var->getType()->isReferenceType() &&
             !fixes::isModifiedIn(kernel.getBody(), var) &&
             isMultiple(var->getInit(), k, depth + 1);
    }
    if (const auto *op = dyn_cast<BinaryOperator>(e)) {
      const Expr *l = op->getLHS(), *r = op->getRHS();
      switch (op->getOpcode()) {
      case BO_Add:
      case BO_Sub:
        return isMultiple(l, k, depth) && isMultiple(r, k, depth);
      case BO_Mul:
        return isMultiple(l, k, depth) || isMultiple(r, k, depth);
      case BO_Shl: {
        std::optional<int64_t> shift = fixes::integerValue(ctx, r);
        return (shift && *shift >= 0 && *shift < 32 &&
                (int64_t(1) << *shift) % k == 0) ||
               isMultiple(l, k, depth);
      }
      case BO_And:
        return isMultiple(l, k, depth) || isMultiple(r, k, depth);
      case BO_Rem:
        return isMultiple(l, k, depth) && isMultiple(r, k, depth);
      default:
        return false;
      }
    }
    if (const auto *choice = dyn_cast<ConditionalOperator>(e))
      return isMultiple(choice->getTrueExpr(), k, depth) &&
             isMultiple(choice->getFalseExpr(), k, depth);
    return false;
  }

  // The flat offset of src[...][g + i] from the array's start (or the
  // pointer) is a multiple of k, and so is the start.
  bool aligned(int64_t k) {
    QualType type = array->getType();
    if (array->hasAttr<CUDASharedAttr>() && type->isArrayType()) {
      global = false;
      // Each index times the extents inside it.
      for (size_t d = 0; d < indices.size(); ++d) {
        int64_t inner = 1;
        const Type *t = type.getTypePtr();
        for (size_t e = 0; e <= d; ++e) {
          const ArrayType *arrayType = t->getAsArrayTypeUnsafe();
          if (!arrayType)
            return false;
          t = arrayType->getElementType().getTypePtr();
        }
        for (size_t e = d + 1; e < indices.size(); ++e) {
          const auto *extent = dyn_cast<ConstantArrayType>(t);
          if (!extent)
            return false;
          inner *= int64_t(extent->getZExtSize());
          t = extent->getElementType().getTypePtr();
        }
        if (inner % k != 0 && !isMultiple(indices[d], k))
          return false;
      }
      return true;
    }
    const auto *param = dyn_cast<ParmVarDecl>(array);
    if (!param || !type->isPointerType() || indices.size() != 1 ||
        !isMultiple(indices[0], k))
      return false;
    global = true;
    return movesByMultiples(param, k);
  }

  // Every write to the pointer parameter moves it by a multiple of k.
  bool movesByMultiples(const VarDecl *pointer, int64_t k) const {
    struct Writes : DynamicRecursiveASTVisitor {
      const VarDecl *pointer;
      std::vector<const BinaryOperator *> moves;
      bool other = false;
      bool VisitBinaryOperator(BinaryOperator *op) override {
        if (op->isAssignmentOp() &&
            fixes::namedVariable(op->getLHS()) == pointer)
          moves.push_back(op);
        return true;
      }
      bool VisitUnaryOperator(UnaryOperator *op) override {
        if ((op->isIncrementDecrementOp() || op->getOpcode() == UO_AddrOf) &&
            fixes::namedVariable(op->getSubExpr()) == pointer)
          other = true;
        return true;
      }
    } writes;
    writes.pointer = pointer;
    writes.TraverseStmt(kernel.getBody());
    if (writes.other)
      return false;
    for (const BinaryOperator *move : writes.moves) {
      if (move->getOpcode() == BO_AddAssign ||
          move->getOpcode() == BO_SubAssign) {
        if (!isMultiple(move->getRHS(), k))
          return false;
        continue;
      }
      const auto *sum =
          dyn_cast<BinaryOperator>(fixes::stripped(move->getRHS()));
      if (move->getOpcode() != BO_Assign || !sum || sum->getOpcode() != BO_Add)
        return false;
      const Expr *offset =
          fixes::namedVariable(sum->getLHS()) == pointer   ? sum->getRHS()
          : fixes::namedVariable(sum->getRHS()) == pointer ? sum->getLHS()
                                                           : nullptr;
      if (!offset || !isMultiple(offset, k))
        return false;
    }
    return true;
  }

  void emit(unsigned k, const std::string &vector,
            std::vector<FixCandidate> &out) {
    KernelSource source(ctx, kernel);
    std::string i = counter->getName().str();
    std::optional<std::string> load = source.text(loaded->getSourceRange());
    std::optional<TextEdit> step = source.replace(
        loop->getInc()->getSourceRange(), i + " += " + std::to_string(k));
    std::optional<TextEdit> body = source.replace(copy->getSourceRange(), "");
    if (!load || !step || !body)
      return;
    std::string name = fixes::freshName(kernel, "v");
    static const char *kLanes[] = {"x", "y", "z", "w"};
    std::vector<std::string> statements = {"const " + vector + " " + name +
                                           " = reinterpret_cast<const " +
                                           vector + " *>(&" + *load + ")[0];"};
    bool plainIndex = isCounter(destination->getIdx());
    for (unsigned lane = 0; lane < k; ++lane) {
      std::string at = lane == 0 ? i
                       : plainIndex
                           ? i + " + " + std::to_string(lane)
                           : "(" + i + " + " + std::to_string(lane) + ")";
      std::optional<std::string> target =
          fixes::textWithVariableReplaced(ctx, copy->getLHS(), counter, at);
      if (!target)
        return;
      statements.push_back(*target + " = " + name + "." + kLanes[lane] + ";");
    }
    // One line when the loop was written on one line; else a block indented
    // like the statement it replaces.
    bool oneLine =
        source.line(loop->getForLoc()) == source.line(copy->getBeginLoc());
    std::string indent = fixes::lineIndent(ctx, copy->getBeginLoc());
    std::string block = "{";
    for (const std::string &s : statements)
      block += oneLine ? " " + s : "\n" + indent + "  " + s;
    block += oneLine ? " }" : "\n" + indent + "}";
    body->replacement = block;
    // The block replaces the statement's `;` too.
    *body = fixes::throughSemicolon(ctx, *body);

    FixCandidate candidate;
    candidate.recipe = "vectorize-load";
    candidate.checkId = global ? "uncoalesced-access" : "bank-conflict";
    candidate.kernel = kernel.getNameAsString();
    candidate.lines = {source.line(loaded->getBeginLoc())};
    candidate.title = "load '" + array->getName().str() + "' " +
                      std::to_string(k) + " elements at a time as " + vector +
                      " (alignment proven" +
                      (global ? "; assumes '" + array->getName().str() +
                                    "' arrives 16-byte aligned, as cudaMalloc "
                                    "memory does"
                              : "") +
                      ")";
    candidate.edits = {*step, *body};
    out.push_back(std::move(candidate));
  }

  ASTContext &ctx;
  const FunctionDecl &kernel;
  const ForStmt *loop;
  const VarDecl *counter = nullptr;
  std::optional<int64_t> tripCount;
  const BinaryOperator *copy = nullptr;
  const ArraySubscriptExpr *destination = nullptr;
  const ArraySubscriptExpr *loaded = nullptr;
  const VarDecl *array = nullptr;
  std::vector<const Expr *> indices; // source's, outermost first
  bool global = false;
};

class LoopFinder : public DynamicRecursiveASTVisitor {
public:
  std::vector<const ForStmt *> loops;
  bool VisitForStmt(ForStmt *loop) override {
    loops.push_back(loop);
    return true;
  }
};

} // namespace

void proposeVectorizeLoad(ASTContext &ctx, const FunctionDecl &kernel,
                          std::vector<FixCandidate> &out) {
  fixes::proposeForEveryInstantiation(
      ctx, kernel, out,
      [](ASTContext &c, const FunctionDecl &k, std::vector<FixCandidate> &o) {
        LoopFinder finder;
        finder.TraverseStmt(k.getBody());
        for (const ForStmt *loop : finder.loops)
          Matcher(c, k, loop).propose(o);
      });
}

} // namespace kcheck::analyzer
