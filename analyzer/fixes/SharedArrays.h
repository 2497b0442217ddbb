// The __shared__ arrays a kernel declares and every use of each, for the
// recipes that change an array's layout (padding, swizzling). Such a rewrite
// keeps the program's meaning only when the array is reached through full
// subscripts `a[i][j]` alone: a row pointer (`a[i]`), the array's address or
// a flattened index over it would still see the old layout, so arrays used
// that way are reported as not `onlySubscripts` and left alone.
#pragma once

#include "clang/AST/Expr.h"

#include <cstdint>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
class VarDecl;
} // namespace clang

namespace kcheck::analyzer::fixes {

struct ArrayUse {
  const clang::ArraySubscriptExpr *subscript = nullptr; // the whole chain
  std::vector<const clang::Expr *> indices; // outermost dimension first
  bool addressTaken = false; // &a[i][j]: perhaps reinterpreted as a vector
};

struct SharedArray {
  const clang::VarDecl *var = nullptr;
  // The extents as written (outermost first) and their values.
  std::vector<const clang::Expr *> extentExprs;
  std::vector<uint64_t> extents;
  uint64_t elementBytes = 0;
  std::vector<ArrayUse> uses; // full-rank subscripts, in source order
  bool onlySubscripts = false;
  bool anyAddressTaken() const;
};

/// The arrays declared __shared__ in `kernel`'s body with constant extents,
/// each written in the declaration (not through a typedef).
std::vector<SharedArray> sharedArraysOf(clang::ASTContext &ctx,
                                        const clang::FunctionDecl &kernel);

/// Whether `e` needs parentheses to be an operand of a binary operator
/// (judged on what it expands to, so a macro name counts by its body).
bool needsParens(const clang::Expr &e);

} // namespace kcheck::analyzer::fixes
