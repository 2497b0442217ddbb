#include "analyzer/toolchain/CudaStubHeaders.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace kcheck::analyzer {

namespace {

struct EmbeddedHeader {
  const char *relativePath;
  const char *contents;
};

// Generated at build time from analyzer/toolchain/cuda_stubs by
// EmbedStubs.cmake.
constexpr EmbeddedHeader kEmbeddedHeaders[] = {
#include "CudaStubHeaders.inc"
};

} // namespace

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> makeFileSystemWithCudaStubs() {
  auto realFs = llvm::vfs::getRealFileSystem();
  auto stubFs = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  for (const EmbeddedHeader &header : kEmbeddedHeaders) {
    llvm::SmallString<128> path(kCudaStubDirectory);
    llvm::sys::path::append(path, header.relativePath);
    // The contents are static, so the buffer need not copy them.
    stubFs->addFile(
        path, /*ModificationTime=*/0,
        llvm::MemoryBuffer::getMemBuffer(header.contents, path,
                                         /*RequiresNullTerminator=*/true));
  }
  auto overlay =
      llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(realFs);
  overlay->pushOverlay(stubFs);
  // Relative paths (the input file, "../common.h") resolve against the
  // process's working directory, in both layers.
  if (auto cwd = realFs->getCurrentWorkingDirectory())
    overlay->setCurrentWorkingDirectory(*cwd);
  return overlay;
}

} // namespace kcheck::analyzer
