// AST and source-text helpers shared by the fix recipes (analyzer/fixes/).
// A recipe matches a shape conservatively and writes its edit from the main
// file's text: every helper here answers "unknown" (nullopt, false, null)
// rather than guess, so a recipe that cannot prove its rewrite proposes
// nothing.
#pragma once

#include "analyzer/fixes/FixCandidates.h"

#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
class VarDecl;
} // namespace clang

namespace kcheck::analyzer::fixes {

/// Byte offsets [begin, end) in the main file.
struct FileRange {
  unsigned begin = 0;
  unsigned end = 0;
};

/// Where `node` is written in the main file: the expansion site when it comes
/// from a macro (so an edit replaces the macro's use). Nullopt when it is not
/// in the main file or straddles a macro boundary.
std::optional<FileRange> mainFileRange(const clang::ASTContext &ctx,
                                       clang::SourceRange range);
std::optional<FileRange> mainFileRange(const clang::ASTContext &ctx,
                                       const clang::Stmt *node);

/// The main file's text in `range`.
std::string mainFileText(const clang::ASTContext &ctx, FileRange range);
/// The text of `node` as written, nullopt when mainFileRange fails.
std::optional<std::string> writtenText(const clang::ASTContext &ctx,
                                       const clang::Stmt *node);
/// As writtenText, in parentheses unless it is one token or already
/// parenthesised, so it can be an operand.
std::optional<std::string> operandText(const clang::ASTContext &ctx,
                                       const clang::Expr *e);

/// The whitespace that starts the main-file line holding `loc`.
std::string lineIndent(const clang::ASTContext &ctx, clang::SourceLocation loc);

/// `edit` widened over the `;` that follows it, if one does.
TextEdit throughSemicolon(const clang::ASTContext &ctx, TextEdit edit);

/// `removal` (an edit deleting a statement) widened to the statement's `;`,
/// and to its whole line when nothing else is written on that line.
TextEdit wholeLines(const clang::ASTContext &ctx, TextEdit removal);

/// Parentheses, implicit casts, C++ cleanups stripped; a pseudo-object
/// (threadIdx.x) as written.
const clang::Expr *stripped(const clang::Expr *e);

/// Whether evaluating `e` may write anything or call a function; reading
/// CUDA's built-in variables (getter calls in Clang's AST) is no effect.
bool hasSideEffects(const clang::Expr *e);

/// The variable `e` names (after stripped()), or null.
const clang::VarDecl *namedVariable(const clang::Expr *e);

/// True when `e` is `builtin.member` of CUDA's built-in variables, e.g.
/// ("threadIdx", "x").
bool isCudaBuiltin(const clang::Expr *e, llvm::StringRef builtin,
                   llvm::StringRef member);

/// The value of an integer constant expression (template parameters of an
/// instantiation and constexpr variables included).
std::optional<int64_t> integerValue(const clang::ASTContext &ctx,
                                    const clang::Expr *e);

/// Whether `e` is the integer literal / constant `value`.
bool isConstant(const clang::ASTContext &ctx, const clang::Expr *e,
                int64_t value);

/// Whether `var` is written anywhere in `scope` (assigned, incremented,
/// address taken, bound to a non-const reference).
bool isModifiedIn(const clang::Stmt *scope, const clang::VarDecl *var);

/// Whether `scope` mentions `var` at all.
bool mentions(const clang::Stmt *scope, const clang::VarDecl *var);

/// The references to `var` in `scope`.
std::vector<const clang::DeclRefExpr *> referencesTo(const clang::Stmt *scope,
                                                     const clang::VarDecl *var);

/// A block-wide barrier: __syncthreads(), cg::sync(block), block.sync().
bool isBlockBarrier(const clang::Stmt *s);

/// The statement itself, or the only statement of a `{ ... }`.
const clang::Stmt *singleStatement(const clang::Stmt *s);

/// `preferred`, or `preferred` with a numeric suffix, that no declaration or
/// reference in `kernel` uses.
std::string freshName(const clang::FunctionDecl &kernel,
                      llvm::StringRef preferred);

/// The same source expression, with the text of each reference to `var`
/// replaced by `replacement`; nullopt when a reference lies in a macro.
std::optional<std::string>
textWithVariableReplaced(const clang::ASTContext &ctx, const clang::Expr *e,
                         const clang::VarDecl *var,
                         llvm::StringRef replacement);

/// Runs `recipe` on a kernel so that a template's candidates are proven for
/// every instantiation: a plain kernel is analysed as is; a template is
/// analysed once per instantiation and a candidate is kept only when every
/// instantiation proposes the same edits (their source text is shared). Of a
/// template, only its pattern and its first instantiation answer, so a caller
/// that visits every instantiation (as driver/Fixes does) gets each candidate
/// once; a template never instantiated gets none.
using Recipe =
    std::function<void(clang::ASTContext &, const clang::FunctionDecl &,
                       std::vector<FixCandidate> &)>;
void proposeForEveryInstantiation(clang::ASTContext &ctx,
                                  const clang::FunctionDecl &kernel,
                                  std::vector<FixCandidate> &out,
                                  const Recipe &recipe);

} // namespace kcheck::analyzer::fixes
