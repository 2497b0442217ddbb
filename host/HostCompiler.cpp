#include "host/HostCompiler.h"

#include "analyzer/toolchain/CudaStubHeaders.h"
#include "analyzer/toolchain/DeviceCompiler.h"
#include "analyzer/toolchain/NvccCompatRewrite.h"
#include "host/HostGlue.h"

#include "clang/Basic/DiagnosticOptions.h"
#include "clang/CodeGen/CodeGenAction.h"
#include "clang/Driver/CreateInvocationFromArgs.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/MultiplexConsumer.h"
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

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
makeHostFileSystem(const std::string &glue) {
  auto placeholder = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  placeholder->addFile(kPlaceholderFatbin, 0,
                       llvm::MemoryBuffer::getMemBuffer("kcheck"));
  if (!glue.empty())
    placeholder->addFile(kHostGluePath, 0,
                         llvm::MemoryBuffer::getMemBufferCopy(glue));
  auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      analyzer::makeFileSystemWithCudaStubs());
  overlay->pushOverlay(placeholder);
  if (auto cwd = llvm::vfs::getRealFileSystem()->getCurrentWorkingDirectory())
    overlay->setCurrentWorkingDirectory(*cwd);
  return overlay;
}

// Clang's code generation, with the finder of constructs nvcc accepts and
// Clang rejects on the same parse.
class HostCompileAction : public clang::EmitLLVMOnlyAction {
public:
  HostCompileAction(llvm::LLVMContext &context,
                    analyzer::NvccCompatEdits &edits)
      : clang::EmitLLVMOnlyAction(&context), edits_(edits) {}

protected:
  std::unique_ptr<clang::ASTConsumer>
  CreateASTConsumer(clang::CompilerInstance &compiler,
                    llvm::StringRef inFile) override {
    std::unique_ptr<clang::ASTConsumer> codegen =
        clang::EmitLLVMOnlyAction::CreateASTConsumer(compiler, inFile);
    if (!codegen)
      return nullptr;
    std::vector<std::unique_ptr<clang::ASTConsumer>> consumers;
    consumers.push_back(analyzer::makeNvccCompatFinder(compiler, edits_));
    consumers.push_back(std::move(codegen));
    return std::make_unique<clang::MultiplexConsumer>(std::move(consumers));
  }

private:
  analyzer::NvccCompatEdits &edits_;
};

} // namespace

std::vector<std::string>
hostCompileArguments(const std::string &path,
                     const HostCompileOptions &options) {
  std::vector<std::string> args = {
      KCHECK_CLANG_DRIVER, // absolute: the driver finds libstdc++ from it
      "-x",
      "cuda",
      "--cuda-host-only",
      "--cuda-gpu-arch=" + options.arch,
      "-resource-dir",
      KCHECK_CLANG_RESOURCE_DIR,
  };
  // The headers as the device side has them; the CUDA version they carry
  // selects the launch ABI (see HostCompiler.h).
  std::vector<std::string> headers =
      analyzer::cudaHeaderArguments(options.toolkit, options.arch,
                                    /*devicePass=*/false);
  args.insert(args.end(), headers.begin(), headers.end());
  if (!options.toolkit) {
    args.push_back("-Xclang");
    args.push_back("-target-sdk-version=12.8");
  }
  if (!options.glueSource.empty()) {
    args.push_back("-include");
    args.push_back(kHostGluePath);
  }
  std::vector<std::string> rest = {
      "-Xclang",
      "-fcuda-include-gpubinary",
      "-Xclang",
      std::string(kPlaceholderFatbin),
      // Host code is the program's own: CPU reference loops must not be slow.
      "-O2",
      // Memory from malloc/new is not taken as undefined until written:
      // LLVM folds such reads to undef (HeCBench asmooth's reference adds
      // into a malloc'd buffer it never cleared, and printed garbage), while
      // nvcc's host compiler, GCC, reads the memory, zeros in a fresh
      // process (HostRunner keeps the heap that way).
      "-fno-builtin-malloc",
      "-fno-builtin-realloc",
      "-fno-builtin-operator-new",
      "-Qunused-arguments",
      "-emit-llvm",
      "-c",
  };
  args.insert(args.end(), rest.begin(), rest.end());
  if (options.relocatableDeviceCode) {
    // The registration nvcc's does (__cudaRegisterLinkedBinary_*, which
    // HostRunner answers), not the new offload driver's entry tables.
    args.push_back("-fgpu-rdc");
    args.push_back("-D__CUDACC_RDC__");
    args.push_back("--no-offload-new-driver");
  }
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
      makeHostFileSystem(options.glueSource);

  result.context = std::make_unique<llvm::LLVMContext>();
  // What nvcc accepts and Clang rejects, retried as the device compile
  // retries it: `h2 = {};` in a kernel fails the host parse too (HeCBench
  // quant3MatMul).
  result.module = analyzer::compileRewritingForNvcc(
      fileSystem,
      [&](llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs,
          analyzer::NvccCompatEdits &edits, llvm::raw_ostream &diagnostics) {
        HostCompileAction action(*result.context, edits);
        bool compiled = analyzer::runClangAction(
            hostCompileArguments(path, options), fs, diagnostics, action);
        std::unique_ptr<llvm::Module> module = action.takeModule();
        return compiled ? std::move(module) : nullptr;
      },
      diagnosticStream);
  if (!result.module)
    return result;
  result.ok = true;
  return result;
}

} // namespace kcheck::host
