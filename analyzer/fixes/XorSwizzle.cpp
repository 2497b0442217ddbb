// Recipe "xor-swizzle": store row r of a 2-D __shared__ tile `T a[R][C]`
// (C a power of two) with its columns permuted by r, `a[r][c ^ f(r)]`, at
// every subscript, reads and writes alike. Within a row XOR with a number
// below C is a permutation, so the tile holds the same data at other
// addresses, and a column (lanes walking r) no longer lands on one bank.
// Unlike padding it costs no memory and keeps rows aligned.
//
// f(r) permutes a 128-byte line of banks: with W = 128 / sizeof(T) elements
// per line, f(r) = r % W when a row fills a line or more, and
// f(r) = r / (W / C) % C when W / C rows share one line (so that the rows of
// one line get distinct permutations).
//
// Not proposed where an element's address is taken (a vector access through
// it would read swizzled neighbours), nor for other ranks.
#include "analyzer/fixes/FixCandidates.h"
#include "analyzer/fixes/RecipeUtil.h"
#include "analyzer/fixes/SharedArrays.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <algorithm>

namespace kcheck::analyzer {

namespace {

using namespace clang;
using fixes::SharedArray;

constexpr uint64_t kBankLineBytes = 128; // 32 banks of 4 bytes

bool isPowerOfTwo(uint64_t n) { return n >= 2 && (n & (n - 1)) == 0; }

std::string operand(const std::string &text, const Expr &e) {
  return fixes::needsParens(e) ? "(" + text + ")" : text;
}

/// "r % 32" or "r / 2 % 16": the permutation of row `r`.
std::string rowKey(const std::string &r, uint64_t columns,
                   uint64_t elementBytes) {
  uint64_t perLine = kBankLineBytes / elementBytes;
  if (columns >= perLine)
    return r + " % " + std::to_string(perLine);
  return r + " / " + std::to_string(perLine / columns) + " % " +
         std::to_string(columns);
}

void swizzleArraysOf(ASTContext &ctx, const FunctionDecl &kernel,
                     std::vector<FixCandidate> &out) {
  KernelSource source(ctx, kernel);
  for (const SharedArray &array : fixes::sharedArraysOf(ctx, kernel)) {
    const uint64_t columns = array.extents.back();
    if (!array.onlySubscripts || array.extents.size() != 2 ||
        !isPowerOfTwo(columns) || array.elementBytes == 0 ||
        kBankLineBytes % array.elementBytes != 0 || array.anyAddressTaken())
      continue;
    FixCandidate c;
    c.recipe = "xor-swizzle";
    c.checkId = "bank-conflict";
    c.kernel = kernel.getNameAsString();
    bool editable = true;
    for (const fixes::ArrayUse &use : array.uses) {
      const Expr &row = *use.indices[0], &column = *use.indices[1];
      std::optional<std::string> r = source.text(row.getSourceRange());
      std::optional<std::string> col = source.text(column.getSourceRange());
      std::optional<TextEdit> edit;
      if (r && col)
        edit = source.replace(
            column.getSourceRange(),
            operand(*col, column) + " ^ (" +
                rowKey(operand(*r, row), columns, array.elementBytes) + ")");
      if (!edit) {
        editable = false;
        break;
      }
      c.edits.push_back(std::move(*edit));
      for (SourceLocation loc :
           {use.subscript->getBeginLoc(), use.subscript->getEndLoc()})
        if (unsigned line = source.line(loc);
            line &&
            std::find(c.lines.begin(), c.lines.end(), line) == c.lines.end())
          c.lines.push_back(line);
    }
    if (!editable)
      continue;
    std::sort(c.lines.begin(), c.lines.end());
    std::string name = array.var->getNameAsString();
    c.title = "swizzle '" + name + "': " + name + "[r][c] -> " + name +
              "[r][c ^ (" + rowKey("r", columns, array.elementBytes) + ")]";
    out.push_back(std::move(c));
  }
}

} // namespace

void proposeXorSwizzle(clang::ASTContext &ctx,
                       const clang::FunctionDecl &kernel,
                       std::vector<FixCandidate> &out) {
  fixes::proposeForEveryInstantiation(ctx, kernel, out, swizzleArraysOf);
}

} // namespace kcheck::analyzer
