// The embedded CUDA stub headers (analyzer/toolchain/cuda_stubs), served to
// Clang from memory.
#pragma once

#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/VirtualFileSystem.h"

namespace kcheck::analyzer {

// The directory the stubs appear in; Clang gets it as an -isystem path, so
// diagnostics inside the stubs are suppressed like those of any system header.
inline constexpr llvm::StringLiteral kCudaStubDirectory = "/kcheck/cuda-stubs";

// The header force-included before the user's file.
inline constexpr llvm::StringLiteral kCudaShimHeader = "kcheck_cuda_shim.h";

// The header force-included after Clang's CUDA wrapper when compiling against
// a real toolkit: what nvcc accepts and Clang's CUDA headers lack.
inline constexpr llvm::StringLiteral kToolkitCompatHeader =
    "kcheck_toolkit_compat.h";

// The real file system with the stub headers layered on top under
// kCudaStubDirectory.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> makeFileSystemWithCudaStubs();

} // namespace kcheck::analyzer
