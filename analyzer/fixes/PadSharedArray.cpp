// Recipe "pad-shared-array": widen the rows of a __shared__ array so that a
// column (lanes walking the rows) spreads over the banks instead of landing
// on one. A 2-D (or higher) array gets its last extent padded
// (`[32][32]` -> `[32][33]`); a 1-D array indexed as `row * LD + col` at every
// subscript, with one LD (often through a macro such as
// `OFFSET(row, col, ld)`), gets its LD widened at every subscript and its
// size grown to match.
//
// Which pad helps depends on the element size and on the access pattern
// (4-byte elements usually want 1, 8-byte 1 or 2, 16-byte 1), so a few pads
// are proposed and re-simulation keeps the smallest with the best result.
// Where an element's address is taken (`&a[i][j]`, typically reinterpreted
// as a float4), only pads that keep rows 16-byte aligned are proposed.
//
// Assumes the column index stays below the row length, as any row-major use
// does: the padded elements are then never read.
#include "analyzer/fixes/FixCandidates.h"
#include "analyzer/fixes/RecipeUtil.h"
#include "analyzer/fixes/SharedArrays.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <algorithm>
#include <cctype>

namespace kcheck::analyzer {

namespace {

using namespace clang;
using fixes::SharedArray;

/// Pads in elements: one, two and four banks' worth of bytes.
std::vector<uint64_t> padsFor(const SharedArray &array) {
  std::vector<uint64_t> pads;
  const uint64_t e = array.elementBytes;
  for (uint64_t bytes : {4, 8, 16}) {
    uint64_t pad = std::max<uint64_t>(1, (bytes + e - 1) / e);
    if (array.anyAddressTaken() && (pad * e) % 16 != 0)
      continue;
    if (std::find(pads.begin(), pads.end(), pad) == pads.end())
      pads.push_back(pad);
  }
  return pads;
}

bool isDecimal(const std::string &text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c));
  });
}

/// `text` grown by `pad`: "33" for "32", "TILE + 1", "(A << 2) + 1".
std::string plus(const std::string &text, const Expr &e, uint64_t value,
                 uint64_t pad) {
  if (isDecimal(text))
    return std::to_string(value + pad);
  bool parens = fixes::needsParens(e);
  if (const auto *op = dyn_cast<BinaryOperator>(e.IgnoreImpCasts()))
    parens = !(op->isMultiplicativeOp() || op->isAdditiveOp());
  return (parens ? "(" + text + ")" : text) + " + " + std::to_string(pad);
}

std::vector<unsigned> linesOf(const SharedArray &array,
                              const KernelSource &source) {
  std::vector<unsigned> lines;
  for (const fixes::ArrayUse &use : array.uses)
    for (SourceLocation loc :
         {use.subscript->getBeginLoc(), use.subscript->getEndLoc()})
      if (unsigned line = source.line(loc);
          line && std::find(lines.begin(), lines.end(), line) == lines.end())
        lines.push_back(line);
  std::sort(lines.begin(), lines.end());
  return lines;
}

FixCandidate candidateFor(const SharedArray &array, const FunctionDecl &kernel,
                          const KernelSource &source) {
  FixCandidate c;
  c.recipe = "pad-shared-array";
  c.checkId = "bank-conflict";
  c.kernel = kernel.getNameAsString();
  c.lines = linesOf(array, source);
  return c;
}

/// `[32][32]` -> `[32][33]`.
void padLastExtent(const SharedArray &array, const FunctionDecl &kernel,
                   const KernelSource &source, std::vector<FixCandidate> &out) {
  std::vector<std::string> written;
  for (const Expr *extent : array.extentExprs) {
    std::optional<std::string> text = source.text(extent->getSourceRange());
    if (!text)
      return;
    written.push_back(*text);
  }
  const Expr &last = *array.extentExprs.back();
  auto shape = [&](const std::string &lastText) {
    std::string s;
    for (size_t i = 0; i + 1 < written.size(); ++i)
      s += "[" + written[i] + "]";
    return s + "[" + lastText + "]";
  };
  for (uint64_t pad : padsFor(array)) {
    std::string padded = plus(written.back(), last, array.extents.back(), pad);
    std::optional<TextEdit> edit =
        source.replace(last.getSourceRange(), padded);
    if (!edit)
      return;
    FixCandidate c = candidateFor(array, kernel, source);
    c.title = "pad '" + array.var->getNameAsString() + "' from " +
              shape(written.back()) + " to " + shape(padded);
    c.edits.push_back(std::move(*edit));
    out.push_back(std::move(c));
  }
}

/// The parts of a 1-D index `row * LD + col` (either order of either
/// operator); LD is the factor that is a constant.
struct RowMajorIndex {
  const Expr *ld = nullptr;
  uint64_t ldValue = 0;
  bool inParens = false; // `(ld)`: a wider LD needs no parentheses of its own
};

std::optional<RowMajorIndex> rowMajor(const Expr &index, ASTContext &ctx) {
  const auto *add = dyn_cast<BinaryOperator>(index.IgnoreParenImpCasts());
  if (!add || add->getOpcode() != BO_Add)
    return std::nullopt;
  for (const Expr *side : {add->getLHS(), add->getRHS()}) {
    const auto *mul = dyn_cast<BinaryOperator>(side->IgnoreParenImpCasts());
    if (!mul || mul->getOpcode() != BO_Mul)
      continue;
    for (const Expr *factor : {mul->getRHS(), mul->getLHS()}) {
      Expr::EvalResult value;
      if (!factor->isValueDependent() && factor->EvaluateAsInt(value, ctx) &&
          value.Val.getInt().isStrictlyPositive())
        return RowMajorIndex{factor, value.Val.getInt().getZExtValue()};
    }
  }
  return std::nullopt;
}

/// `smem[BM * BK]` indexed `OFFSET(r, c, BM)` -> `smem[(BM + 4) * BK]`
/// indexed `OFFSET(r, c, BM + 4)`.
void padLeadingDimension(const SharedArray &array, const FunctionDecl &kernel,
                         const KernelSource &source, ASTContext &ctx,
                         std::vector<FixCandidate> &out) {
  std::vector<RowMajorIndex> indices;
  std::optional<std::string> ldText;
  for (const fixes::ArrayUse &use : array.uses) {
    std::optional<RowMajorIndex> index = rowMajor(*use.indices[0], ctx);
    if (!index)
      return;
    // Edit inside parentheses (the macro's `(ld)` or the user's own), else
    // the factor itself, parenthesised when it grows.
    const Expr *target = index->ld->IgnoreImpCasts();
    index->inParens = isa<ParenExpr>(target);
    target = target->IgnoreParens();
    std::optional<std::string> text = source.text(target->getSourceRange());
    if (!text || (ldText && *text != *ldText) ||
        (!indices.empty() && index->ldValue != indices[0].ldValue))
      return;
    ldText = text;
    index->ld = target;
    indices.push_back(*index);
  }
  const uint64_t ld = indices[0].ldValue;
  const Expr &sizeExpr = *array.extentExprs[0];
  std::optional<std::string> sizeText = source.text(sizeExpr.getSourceRange());
  if (!sizeText || array.extents[0] % ld != 0)
    return;
  const uint64_t rows = array.extents[0] / ld;
  const auto *sizeMul =
      dyn_cast<BinaryOperator>(sizeExpr.IgnoreParenImpCasts());
  if (sizeMul && sizeMul->getOpcode() != BO_Mul)
    sizeMul = nullptr;

  for (uint64_t pad : padsFor(array)) {
    FixCandidate c = candidateFor(array, kernel, source);
    bool literal = isDecimal(*ldText);
    std::string widened = literal ? std::to_string(ld + pad)
                                  : *ldText + " + " + std::to_string(pad);
    for (const RowMajorIndex &index : indices) {
      std::optional<TextEdit> edit = source.replace(
          index.ld->getSourceRange(),
          literal || index.inParens ? widened : "(" + widened + ")");
      if (!edit)
        return;
      c.edits.push_back(std::move(*edit));
    }
    // The new size: the LD factor of `LD * ROWS` widened, else computed.
    std::string size;
    if (isDecimal(*sizeText))
      size = std::to_string(rows * (ld + pad));
    else if (sizeMul) {
      std::optional<std::string> lhs =
          source.text(sizeMul->getLHS()->getSourceRange());
      std::optional<std::string> rhs =
          source.text(sizeMul->getRHS()->getSourceRange());
      if (lhs && *lhs == *ldText)
        size = (literal ? widened : "(" + widened + ")") + " * " + *rhs;
      else if (rhs && *rhs == *ldText)
        size = *lhs + " * " + (literal ? widened : "(" + widened + ")");
    }
    if (size.empty())
      size = "(" + *sizeText + ") / " + *ldText + " * (" + widened + ")";
    std::optional<TextEdit> edit =
        source.replace(sizeExpr.getSourceRange(), size);
    if (!edit)
      return;
    c.edits.push_back(std::move(*edit));
    c.title = "pad the rows of '" + array.var->getNameAsString() + "' (row * " +
              *ldText + " + col) from " + *ldText + " to " + widened +
              " elements: [" + *sizeText + "] to [" + size + "]";
    out.push_back(std::move(c));
  }
}

void padArraysOf(ASTContext &ctx, const FunctionDecl &kernel,
                 std::vector<FixCandidate> &out) {
  KernelSource source(ctx, kernel);
  for (const SharedArray &array : fixes::sharedArraysOf(ctx, kernel)) {
    if (!array.onlySubscripts)
      continue;
    if (array.extents.size() >= 2)
      padLastExtent(array, kernel, source, out);
    else
      padLeadingDimension(array, kernel, source, ctx, out);
  }
}

} // namespace

// A template's arrays are sized by its arguments: the edits are kept only
// when every instantiation proposes them.
void proposePadSharedArray(clang::ASTContext &ctx,
                           const clang::FunctionDecl &kernel,
                           std::vector<FixCandidate> &out) {
  fixes::proposeForEveryInstantiation(ctx, kernel, out, padArraysOf);
}

} // namespace kcheck::analyzer
