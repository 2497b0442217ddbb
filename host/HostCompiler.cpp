#include "host/HostCompiler.h"

#include "analyzer/CudaStubHeaders.h"
#include "analyzer/DeviceCompiler.h"

#include "clang/Basic/DiagnosticOptions.h"
#include "clang/CodeGen/CodeGenAction.h"
#include "clang/Driver/CreateInvocationFromArgs.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>

namespace kcheck::host {

namespace {

// Clang embeds this file's bytes as the program's "fat binary"; kcheck never
// reads them back (kernels come from the device compile), so any content does.
constexpr llvm::StringLiteral kPlaceholderFatbin =
    "/kcheck/cuda-stubs/kcheck-placeholder.fatbin";

void initializeHostTarget() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    llvm::InitializeNativeTargetAsmParser(); // inline asm in system headers
  });
}

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> makeHostFileSystem() {
  auto placeholder = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  placeholder->addFile(kPlaceholderFatbin, 0,
                       llvm::MemoryBuffer::getMemBuffer("kcheck"));
  auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      analyzer::makeFileSystemWithCudaStubs());
  overlay->pushOverlay(placeholder);
  if (auto cwd = llvm::vfs::getRealFileSystem()->getCurrentWorkingDirectory())
    overlay->setCurrentWorkingDirectory(*cwd);
  return overlay;
}

} // namespace

std::vector<std::string>
hostCompileArguments(const std::string &path,
                     const HostCompileOptions &options) {
  std::vector<std::string> args = {
      KCHECK_CLANG_DRIVER, // absolute: the driver finds libstdc++ from it
      "-x",
      "cuda",
      "--cuda-host-only",
      "-nocudainc",
      "-nocudalib",
      "--cuda-path=/nonexistent",
      "--cuda-gpu-arch=" + options.arch,
      "-resource-dir",
      KCHECK_CLANG_RESOURCE_DIR,
      "-I", // before the user's -I, as in the device compile
            // (DeviceCompiler.cpp)
      std::string(analyzer::kCudaStubDirectory),
      "-include",
      std::string(analyzer::kCudaShimHeader),
      // The CUDA version selects the launch ABI (see HostCompiler.h).
      "-Xclang",
      "-target-sdk-version=12.8",
      "-Xclang",
      "-fcuda-include-gpubinary",
      "-Xclang",
      std::string(kPlaceholderFatbin),
      // Host code is the program's own: CPU reference loops must not be slow.
      "-O2",
      "-Qunused-arguments",
      "-emit-llvm",
      "-c",
  };
  args.insert(args.end(), options.extraClangArgs.begin(),
              options.extraClangArgs.end());
  args.push_back(path);
  return args;
}

HostModule compileHost(const std::string &path,
                       const HostCompileOptions &options) {
  initializeHostTarget();
  HostModule result;
  llvm::raw_string_ostream diagnosticStream(result.diagnostics);
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fileSystem =
      makeHostFileSystem();

  result.context = std::make_unique<llvm::LLVMContext>();
  clang::EmitLLVMOnlyAction action(result.context.get());
  bool compiled =
      analyzer::runClangAction(hostCompileArguments(path, options), fileSystem,
                               diagnosticStream, action);
  result.module = action.takeModule();
  if (!compiled || !result.module) {
    result.module.reset();
    return result;
  }
  result.ok = true;
  return result;
}

} // namespace kcheck::host
