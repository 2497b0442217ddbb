// Facts from the AST that explain the simulator's findings at the source level:
// each array subscript in device code, its source text, the array's declared
// shape and the variables its index depends on.
#pragma once

#include "core/SourceLoc.h"

#include <memory>
#include <string>
#include <vector>

namespace clang {
class ASTConsumer;
} // namespace clang

namespace kcheck::analyzer {

// One subscript expression in device code, as written. A chain `tile[ty][tx]`
// is one fact with the indices {"ty", "tx"}. Locations are presumed (after
// #line) and of the macro expansion when the subscript comes from a macro, like
// Clang's DILocations.
struct SubscriptFact {
  core::SourceLoc
      loc; // first character of the expression (1-based line and column)
  unsigned endLine = 0; // the last character of the expression (its final ']')
  unsigned endCol = 0;
  unsigned exprCol =
      0; // where Clang's DILocation puts a load of it: the base's location
  // The operator of an assignment, compound assignment or ++/-- whose operand
  // is this subscript; Clang puts the store (and a compound's load) there. 0
  // when there is none.
  unsigned assignLine = 0;
  unsigned assignCol = 0;
  std::string function; // the enclosing function's name, e.g. "reduce_v1"
  std::string base; // the array or pointer as written: "sdata", "cache", "s.a"
  std::string
      indexText; // the indices joined so that base[indexText] == fullText
  std::vector<std::string>
      indices;               // each index as written, outermost dimension first
  std::string fullText;      // "sdata[index + s]"
  bool sharedMemory = false; // the base is a __shared__ variable
  bool constantMemory = false; // the base is a __constant__ variable
  std::string elementType;     // the type of the whole expression, e.g. "float"
  // The declared extents of the base array ({"32", "33"}); "" for an unknown
  // extent (extern __shared__ x[]); empty for a pointer.
  std::vector<std::string> dims;
  // Variables the indices read, in order of first appearance; CUDA's built-in
  // variables appear with their member, e.g. "threadIdx.x".
  std::vector<std::string> indexVariables;
};

// An ASTConsumer that appends the subscript facts of every device function
// (__global__ or __device__, template instantiations included, each source
// expression once) in the user's files (not system headers or the CUDA stubs)
// to `facts` at the end of the translation unit. `facts` must outlive the
// consumer.
std::unique_ptr<clang::ASTConsumer>
makeSubscriptFactsConsumer(std::vector<SubscriptFact> &facts);

// The fact a simulated memory instruction at `where` (an IR DILocation's file,
// line and column, innermost or inlined-at) belongs to: the innermost subscript
// whose range or assignment operator contains that position. The file is
// compared by base name and ignored when `where.file` is empty. Null when none
// matches.
const SubscriptFact *findSubscript(const std::vector<SubscriptFact> &facts,
                                   const core::SourceLoc &where);

} // namespace kcheck::analyzer
