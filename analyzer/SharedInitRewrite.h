// `__shared__ cuda::barrier<...> bar;`, `__shared__ cuda::pipeline_shared_state
// <...> state;`: nvcc accepts a __shared__ variable whose type has a
// non-trivial default constructor (it warns and runs no constructor: the
// program initialises the object, e.g. with init(&bar, n)); Clang rejects it
// ("initialization is not supported for __shared__ variables"). kcheck then
// compiles a copy of the source in which each such variable is raw shared
// storage of the same size and alignment, with a reference of the variable's
// name and type on it (kcheck_toolkit_compat.h's
// __kcheck_uninitialized_shared): the same layout and accesses, no
// constructor, lines unchanged.
//
// The same copy settles two more constructs nvcc accepts and Clang rejects:
// `h2 = {};` for a half2, whose operator= takes a __half2 or a __half2_raw
// (written `h2 = __typeof__(h2){};`), and a dependent member template called
// without `template` (`X<T>::cast<N>(a)`, written `X<T>::template cast<N>`).
#pragma once

#include "llvm/ADT/StringMap.h"

#include <memory>
#include <string>
#include <vector>

namespace clang {
class ASTConsumer;
class CompilerInstance;
} // namespace clang

namespace kcheck::analyzer {

struct SourceEdit {
  unsigned offset = 0; // in the file's text
  unsigned length = 0; // replaced bytes
  std::string text;
};

// Per file (as Clang names it), the edits that rewrite the rejected
// function-scope __shared__ variables; filled by the consumer's parse.
using SharedInitEdits = llvm::StringMap<std::vector<SourceEdit>>;

std::unique_ptr<clang::ASTConsumer>
makeSharedInitFinder(clang::CompilerInstance &compiler, SharedInitEdits &out);

// `text` with `edits` applied (they do not overlap).
std::string applyEdits(std::string text, std::vector<SourceEdit> edits);

} // namespace kcheck::analyzer
