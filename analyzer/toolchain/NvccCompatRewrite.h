// Constructs nvcc compiles and Clang rejects. When a compile fails, kcheck
// compiles again on a copy of the files with each such construct rewritten
// into what nvcc makes of it, lines unchanged:
// - `__shared__ cuda::barrier<...> bar;` (and other __shared__ variables
//   whose type has a non-trivial default constructor): nvcc warns and runs no
//   constructor (the program initialises the object, e.g. with init(&bar,
//   n)); Clang rejects it ("initialization is not supported for __shared__
//   variables"). The copy declares raw shared storage of the same size and
//   alignment with a reference of the variable's name and type on it
//   (kcheck_toolkit_compat.h's __kcheck_uninitialized_shared): the same
//   layout and accesses, no constructor.
// - `h2 = {};` for a half2, whose operator= takes a __half2 or a __half2_raw
//   (ambiguous in Clang): written `h2 = __typeof__(h2){};`.
// - a dependent class's member template called without `template`
//   (`X<T>::cast<N>(a)`, which Clang parses as comparisons): written
//   `X<T>::template cast<N>(a)`.
#pragma once

#include "analyzer/fixes/TextEdits.h"

#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class Module;
class raw_ostream;
} // namespace llvm

namespace clang {
class ASTConsumer;
class CompilerInstance;
} // namespace clang

namespace kcheck::analyzer {

// Per file (as Clang names it), the edits that rewrite the constructs above;
// filled by the consumer's parse.
using NvccCompatEdits = llvm::StringMap<std::vector<TextEdit>>;

std::unique_ptr<clang::ASTConsumer>
makeNvccCompatFinder(clang::CompilerInstance &compiler, NvccCompatEdits &out);

// One compile of the files `fileSystem` holds, its finder filling `edits`;
// a null module when it fails.
using CompileOnce = llvm::function_ref<std::unique_ptr<llvm::Module>(
    llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>, NvccCompatEdits &,
    llvm::raw_ostream &)>;

// Runs `compile`; when it fails and found constructs to rewrite, runs it
// again on a copy of the files with them rewritten (the files on disk stay
// as they are). The diagnostics of the run that counts go to
// `diagnostics`. The device and the host compiles both go through it.
std::unique_ptr<llvm::Module> compileRewritingForNvcc(
    llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fileSystem,
    CompileOnce compile, llvm::raw_ostream &diagnostics);

} // namespace kcheck::analyzer
