// Recipe "shared-transpose": the naive transpose, whose reads walk rows
// (threadIdx.x along a row of `in`) and whose writes walk columns
// (threadIdx.x down a column of `out`):
//
//   int x = blockIdx.x * T + threadIdx.x;
//   int y = blockIdx.y * T + threadIdx.y;
//   for (int j = 0; j < T; j += ROWS)
//     [if (x < W && y + j < H)] out[x * H + (y + j)] = in[(y + j) * W + x];
//
// becomes the tiled transpose through a padded shared tile (the transpose
// tutorial's transpose_padded): a coalesced load of a T x T tile, a block
// barrier, and a coalesced store of the tile's transpose from the block at the
// swapped position, each guard kept with its coordinates swapped for the
// store:
//
//   __shared__ float tile[T][T + 1];
//   (the declarations of x and y)
//   for (...) [if (x < W && y + j < H)] tile[threadIdx.y + j][threadIdx.x] =
//   in[...];
//   __syncthreads();
//   x = blockIdx.y * T + threadIdx.x;
//   y = blockIdx.x * T + threadIdx.y;
//   for (...) [if (y + j < W && x < H)] out[(y + j) * H + x] =
//   tile[threadIdx.x][threadIdx.y + j];
//
// Every element (r, c) the original block writes, out[c * H + r] = in[r * W +
// c], is written with the same value by the rewrite, and no other, when:
//  - the kernel's body is exactly these statements (x and y are used nowhere
//    else, in and out are distinct unmodified pointer parameters);
//  - W, H and the guard's bounds are uniform (parameters, constants);
//  - the guard is a conjunction of `x < E` and `y + j < E` (or <=);
//  - T is a constant, T % ROWS == 0, and the block is T x ROWS threads (T x T
//    without the j loop), which the title states as the assumption.
#include "RecipeUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/ExprCXX.h"

namespace kcheck::analyzer {

namespace {

using namespace clang;

// Whether `e` has one value for the whole grid: constants, unmodified
// parameters, blockDim and gridDim.
class UniformCheck : public DynamicRecursiveASTVisitor {
public:
  UniformCheck(const FunctionDecl &kernel) : kernel(kernel) {}
  bool uniform = true;
  // Built-in variables as written (their getter calls are no calls).
  bool TraversePseudoObjectExpr(PseudoObjectExpr *e) override {
    return TraverseStmt(e->getSyntacticForm());
  }
  bool VisitDeclRefExpr(DeclRefExpr *ref) override {
    const ValueDecl *decl = ref->getDecl();
    if (isa<EnumConstantDecl, NonTypeTemplateParmDecl>(decl))
      return true;
    const auto *var = dyn_cast<VarDecl>(decl);
    if (var && var->isConstexpr())
      return true;
    if (var && var->getName().starts_with("blockDim"))
      return true;
    if (var && var->getName().starts_with("gridDim"))
      return true;
    const auto *param = dyn_cast_or_null<ParmVarDecl>(var);
    if (!param || fixes::isModifiedIn(kernel.getBody(), param))
      uniform = false;
    return uniform;
  }
  bool VisitCallExpr(CallExpr *) override { return uniform = false; }
  bool VisitMSPropertyRefExpr(MSPropertyRefExpr *property) override {
    if (!fixes::isCudaBuiltin(property, "blockDim",
                              property->getPropertyDecl()->getName()) &&
        !fixes::isCudaBuiltin(property, "gridDim",
                              property->getPropertyDecl()->getName()))
      uniform = false;
    return uniform;
  }

private:
  const FunctionDecl &kernel;
};

class Matcher {
public:
  Matcher(ASTContext &ctx, const FunctionDecl &kernel)
      : ctx(ctx), kernel(kernel) {}

  void propose(std::vector<FixCandidate> &out) {
    if (matchBody() && matchCopy())
      emit(out);
  }

private:
  bool isUniform(const Expr *e) const {
    if (!e || fixes::hasSideEffects(e))
      return false;
    UniformCheck check(kernel);
    check.TraverseStmt(const_cast<Expr *>(e));
    return check.uniform;
  }

  // blockIdx.D * T + threadIdx.D (either order on both operators); sets the
  // tile size on first use and requires the same value afterwards.
  bool isBlockCoordinate(const Expr *e, llvm::StringRef dim) {
    const auto *sum = dyn_cast_or_null<BinaryOperator>(fixes::stripped(e));
    if (!sum || sum->getOpcode() != BO_Add)
      return false;
    const Expr *product = sum->getLHS(), *thread = sum->getRHS();
    if (!fixes::isCudaBuiltin(thread, "threadIdx", dim))
      std::swap(product, thread);
    const auto *mul = dyn_cast<BinaryOperator>(fixes::stripped(product));
    if (!fixes::isCudaBuiltin(thread, "threadIdx", dim) || !mul ||
        mul->getOpcode() != BO_Mul)
      return false;
    const Expr *block = mul->getLHS(), *size = mul->getRHS();
    if (!fixes::isCudaBuiltin(block, "blockIdx", dim))
      std::swap(block, size);
    std::optional<int64_t> value = fixes::integerValue(ctx, size);
    if (!fixes::isCudaBuiltin(block, "blockIdx", dim) || !value ||
        *value <= 0 || *value > 64)
      return false;
    if (!tileExpr) {
      tileExpr = size;
      tile = *value;
    }
    return *value == tile;
  }

  // { int x = ...; int y = ...; COPY } with the declarations in one or two
  // statements, in either order.
  bool matchBody() {
    const auto *body = dyn_cast_or_null<CompoundStmt>(kernel.getBody());
    if (!body || body->size() < 2 || body->size() > 3)
      return false;
    for (const Stmt *s : body->body()) {
      const auto *decl = dyn_cast<DeclStmt>(s);
      if (!decl) {
        if (copyStatement)
          return false;
        copyStatement = s;
        continue;
      }
      if (copyStatement)
        return false;
      declarations.push_back(decl);
      for (const Decl *d : decl->decls()) {
        const auto *var = dyn_cast<VarDecl>(d);
        if (!var || !var->getType()->isIntegerType() ||
            var->getType().isConstQualified() || !var->getInit())
          return false;
        if (!x && isBlockCoordinate(var->getInit(), "x"))
          x = var;
        else if (!y && isBlockCoordinate(var->getInit(), "y"))
          y = var;
        else
          return false;
      }
    }
    return x && y && copyStatement;
  }

  // [for (int j = 0; j < T; j += ROWS)] [if (G)] out[A] = in[B];
  bool matchCopy() {
    const Stmt *body = copyStatement;
    rows = tile;
    if (const auto *loop = dyn_cast<ForStmt>(copyStatement)) {
      if (!matchLoop(loop))
        return false;
      body = fixes::singleStatement(loop->getBody());
    }
    if (const auto *branch = dyn_cast_or_null<IfStmt>(body)) {
      if (branch->getElse() || branch->getInit() ||
          branch->getConditionVariable() || branch->isConstexpr() ||
          !collectBounds(branch->getCond()))
        return false;
      guard = branch;
      body = fixes::singleStatement(branch->getThen());
    }
    store = dyn_cast_or_null<BinaryOperator>(
        dyn_cast_or_null<Expr>(body) ? fixes::stripped(cast<Expr>(body))
                                     : nullptr);
    if (!store || store->getOpcode() != BO_Assign)
      return false;
    const auto *to =
        dyn_cast<ArraySubscriptExpr>(fixes::stripped(store->getLHS()));
    from = dyn_cast<ArraySubscriptExpr>(fixes::stripped(store->getRHS()));
    if (!to || !from || fixes::hasSideEffects(store->getRHS()) ||
        fixes::hasSideEffects(to->getIdx()))
      return false;
    output = fixes::namedVariable(to->getBase());
    input = fixes::namedVariable(from->getBase());
    if (!output || !input || output == input || !isa<ParmVarDecl>(output) ||
        !isa<ParmVarDecl>(input) || !output->getType()->isPointerType() ||
        !input->getType()->isPointerType() ||
        input->getType()->getPointeeType().isVolatileQualified() ||
        fixes::isModifiedIn(kernel.getBody(), output) ||
        fixes::isModifiedIn(kernel.getBody(), input))
      return false;
    // in[R * W + C], out[C * H + R]
    const Expr *w = nullptr;
    return matchLinear(from->getIdx(), /*rowMajor=*/true, w) &&
           matchLinear(to->getIdx(), /*rowMajor=*/false, height);
  }

  bool matchLoop(const ForStmt *loop) {
    const auto *init = dyn_cast_or_null<DeclStmt>(loop->getInit());
    if (!init || !init->isSingleDecl())
      return false;
    j = dyn_cast<VarDecl>(init->getSingleDecl());
    if (!j || !j->getType()->isIntegerType() || !j->getInit() ||
        !fixes::isConstant(ctx, j->getInit(), 0))
      return false;
    const auto *cond =
        dyn_cast_or_null<BinaryOperator>(fixes::stripped(loop->getCond()));
    const auto *inc =
        dyn_cast_or_null<BinaryOperator>(fixes::stripped(loop->getInc()));
    if (!cond || cond->getOpcode() != BO_LT ||
        fixes::namedVariable(cond->getLHS()) != j ||
        !fixes::isConstant(ctx, cond->getRHS(), tile) || !inc ||
        inc->getOpcode() != BO_AddAssign ||
        fixes::namedVariable(inc->getLHS()) != j)
      return false;
    std::optional<int64_t> step = fixes::integerValue(ctx, inc->getRHS());
    if (!step || *step <= 0 || tile % *step != 0)
      return false;
    rows = *step;
    header = loop;
    return true;
  }

  bool isColumn(const Expr *e) const { return fixes::namedVariable(e) == x; }
  // y + j (either order), or y without the loop.
  bool isRow(const Expr *e) const {
    if (!j)
      return fixes::namedVariable(e) == y;
    const auto *sum = dyn_cast<BinaryOperator>(fixes::stripped(e));
    return sum && sum->getOpcode() == BO_Add &&
           ((fixes::namedVariable(sum->getLHS()) == y &&
             fixes::namedVariable(sum->getRHS()) == j) ||
            (fixes::namedVariable(sum->getLHS()) == j &&
             fixes::namedVariable(sum->getRHS()) == y));
  }

  // rowMajor: R * S + C (in); else C * S + R (out). Sums and products in
  // either order; S uniform.
  bool matchLinear(const Expr *index, bool rowMajor, const Expr *&stride) {
    const auto *sum = dyn_cast<BinaryOperator>(fixes::stripped(index));
    if (!sum || sum->getOpcode() != BO_Add)
      return false;
    auto isUnit = [&](const Expr *e) {
      return rowMajor ? isColumn(e) : isRow(e);
    };
    auto isScaled = [&](const Expr *e) {
      return rowMajor ? isRow(e) : isColumn(e);
    };
    const Expr *product = sum->getLHS(), *unit = sum->getRHS();
    if (!isUnit(unit))
      std::swap(product, unit);
    const auto *mul = dyn_cast<BinaryOperator>(fixes::stripped(product));
    if (!isUnit(unit) || !mul || mul->getOpcode() != BO_Mul)
      return false;
    const Expr *scaled = mul->getLHS();
    stride = mul->getRHS();
    if (!isScaled(scaled))
      std::swap(scaled, stride);
    return isScaled(scaled) && isUniform(stride);
  }

  // G = a && b && ..., each `C < E`, `C <= E`, `R < E` or `R <= E`.
  bool collectBounds(const Expr *cond) {
    const auto *op = dyn_cast<BinaryOperator>(fixes::stripped(cond));
    if (!op)
      return false;
    if (op->getOpcode() == BO_LAnd)
      return collectBounds(op->getLHS()) && collectBounds(op->getRHS());
    if (op->getOpcode() != BO_LT && op->getOpcode() != BO_LE)
      return false;
    bool column = isColumn(op->getLHS());
    if (!column && !isRow(op->getLHS()))
      return false;
    if (!isUniform(op->getRHS()))
      return false;
    bounds.push_back({column, op});
    return true;
  }

  void emit(std::vector<FixCandidate> &out) {
    KernelSource source(ctx, kernel);
    const auto *body = cast<CompoundStmt>(kernel.getBody());
    std::string xName = x->getName().str(), yName = y->getName().str();
    std::string row = j ? yName + " + " + j->getName().str() : yName;
    std::optional<std::string> tileText =
        source.text(tileExpr->getSourceRange());
    std::optional<std::string> loadText = source.text(from->getSourceRange());
    std::optional<std::string> heightText = fixes::operandText(ctx, height);
    std::optional<std::string> loopText;
    if (header)
      loopText =
          source.text(SourceRange(header->getForLoc(), header->getRParenLoc()));
    std::optional<std::string> guardText;
    if (guard)
      guardText = source.text(guard->getCond()->getSourceRange());
    if (!tileText || !loadText || !heightText || (header && !loopText) ||
        (guard && !guardText))
      return;
    std::vector<std::string> declarationTexts;
    for (const DeclStmt *decl : declarations) {
      std::optional<std::string> text = fixes::writtenText(ctx, decl);
      if (!text)
        return;
      if (text->back() != ';')
        *text += ";";
      declarationTexts.push_back(*text);
    }
    // The store's guard: each bound on the column now bounds the row, and
    // the reverse.
    std::string storeGuard;
    for (const auto &[column, bound] : bounds) {
      std::optional<std::string> limit =
          source.text(bound->getRHS()->getSourceRange());
      if (!limit)
        return;
      if (!storeGuard.empty())
        storeGuard += " && ";
      storeGuard += (column ? row : xName) + " " + bound->getOpcodeStr().str() +
                    " " + *limit;
    }

    std::string tileName = fixes::freshName(kernel, "tile");
    std::string element =
        input->getType()->getPointeeType().getUnqualifiedType().getAsString(
            ctx.getPrintingPolicy());
    std::string indent =
        fixes::lineIndent(ctx, body->body_front()->getBeginLoc());
    std::string inner = indent + "  ";
    std::string offset = j ? " + " + j->getName().str() : "";
    std::string lines = "__shared__ " + element + " " + tileName + "[" +
                        *tileText + "][" + *tileText + " + 1];";
    for (const std::string &d : declarationTexts)
      lines += "\n" + indent + d;
    auto copyLoop = [&](const std::string &condition,
                        const std::string &statement) {
      std::string text;
      std::string at = indent;
      if (header) {
        text += "\n" + indent + *loopText;
        at = inner;
      }
      text += "\n" + at;
      if (guard)
        text += "if (" + condition + ") ";
      return text + statement;
    };
    lines += copyLoop(guardText ? *guardText : "",
                      tileName + "[threadIdx.y" + offset +
                          "][threadIdx.x] = " + *loadText + ";");
    lines += "\n" + indent + "__syncthreads();";
    lines += "\n" + indent + xName + " = blockIdx.y * " + *tileText +
             " + threadIdx.x;";
    lines += "\n" + indent + yName + " = blockIdx.x * " + *tileText +
             " + threadIdx.y;";
    lines +=
        copyLoop(storeGuard,
                 output->getName().str() + "[" + (j ? "(" + row + ")" : row) +
                     " * " + *heightText + " + " + xName + "] = " + tileName +
                     "[threadIdx.x][" + "threadIdx.y" + offset + "];");

    // Replace the statements, from the first to the last one's `;`.
    std::optional<TextEdit> edit =
        source.replace(SourceRange(body->body_front()->getBeginLoc(),
                                   body->body_back()->getEndLoc()),
                       lines);
    if (!edit)
      return;
    *edit = fixes::throughSemicolon(ctx, *edit);

    FixCandidate candidate;
    candidate.recipe = "shared-transpose";
    candidate.checkId = "uncoalesced-access";
    candidate.kernel = kernel.getNameAsString();
    candidate.lines = {source.line(store->getBeginLoc())};
    candidate.title = "transpose through a padded shared tile '" + tileName +
                      "[" + *tileText + "][" + *tileText +
                      " + 1]': coalesced load, __syncthreads(), coalesced "
                      "store (assumes a " +
                      std::to_string(tile) + " x " + std::to_string(rows) +
                      " thread block)";
    candidate.edits = {*edit};
    out.push_back(std::move(candidate));
  }

  ASTContext &ctx;
  const FunctionDecl &kernel;
  std::vector<const DeclStmt *> declarations;
  const VarDecl *x = nullptr, *y = nullptr, *j = nullptr;
  const Expr *tileExpr = nullptr;
  int64_t tile = 0, rows = 0;
  const Stmt *copyStatement = nullptr;
  const ForStmt *header = nullptr;
  const IfStmt *guard = nullptr;
  std::vector<std::pair<bool, const BinaryOperator *>> bounds; // column?
  const BinaryOperator *store = nullptr;
  const ArraySubscriptExpr *from = nullptr;
  const VarDecl *input = nullptr, *output = nullptr;
  const Expr *height = nullptr;
};

} // namespace

void proposeSharedTranspose(ASTContext &ctx, const FunctionDecl &kernel,
                            std::vector<FixCandidate> &out) {
  fixes::proposeForEveryInstantiation(
      ctx, kernel, out,
      [](ASTContext &c, const FunctionDecl &k, std::vector<FixCandidate> &o) {
        Matcher(c, k).propose(o);
      });
}

} // namespace kcheck::analyzer
