#include "analyzer/toolchain/DeviceCompiler.h"

#include "analyzer/pipeline/IrPipeline.h"
#include "analyzer/toolchain/CudaStubHeaders.h"
#include "analyzer/toolchain/DeviceConstLikeNvcc.h"
#include "analyzer/toolchain/Libdevice.h"
#include "analyzer/toolchain/NvccCompatRewrite.h"
#include "analyzer/toolchain/NvccMacros.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/DiagnosticDriver.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/DiagnosticSema.h"
#include "clang/CodeGen/CodeGenAction.h"
#include "clang/Driver/CreateInvocationFromArgs.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

namespace kcheck::analyzer {

namespace {

// Runs `inner` only on a translation unit without errors: a compile that
// fails is retried (NvccCompatRewrite.h), and only the successful parse may
// report what it saw.
class UnlessErrors : public clang::ASTConsumer {
public:
  UnlessErrors(std::unique_ptr<clang::ASTConsumer> inner,
               clang::DiagnosticsEngine &diagnostics)
      : inner_(std::move(inner)), diagnostics_(diagnostics) {}
  void Initialize(clang::ASTContext &ctx) override { inner_->Initialize(ctx); }
  bool HandleTopLevelDecl(clang::DeclGroupRef group) override {
    return inner_->HandleTopLevelDecl(group);
  }
  void HandleTranslationUnit(clang::ASTContext &ctx) override {
    if (!diagnostics_.hasErrorOccurred())
      inner_->HandleTranslationUnit(ctx);
  }

private:
  std::unique_ptr<clang::ASTConsumer> inner_;
  clang::DiagnosticsEngine &diagnostics_;
};

// Clang's code generation plus the AST consumers that share its parse.
class DeviceCompileAction : public clang::EmitLLVMOnlyAction {
public:
  DeviceCompileAction(llvm::LLVMContext &context,
                      std::vector<SubscriptFact> &facts,
                      std::map<std::string, KernelName> &kernelNames,
                      const std::vector<ConsumerFactory> &extraConsumers,
                      NvccCompatEdits &compatEdits)
      : clang::EmitLLVMOnlyAction(&context), facts(facts),
        kernelNames(kernelNames), extraConsumers(extraConsumers),
        compatEdits(compatEdits) {}

protected:
  std::unique_ptr<clang::ASTConsumer>
  CreateASTConsumer(clang::CompilerInstance &compiler,
                    llvm::StringRef inFile) override {
    std::unique_ptr<clang::ASTConsumer> codegen =
        clang::EmitLLVMOnlyAction::CreateASTConsumer(compiler, inFile);
    if (!codegen)
      return nullptr;
    clang::DiagnosticsEngine &diagnostics = compiler.getDiagnostics();
    std::vector<std::unique_ptr<clang::ASTConsumer>> consumers;
    consumers.push_back(std::make_unique<UnlessErrors>(
        makeSubscriptFactsConsumer(facts), diagnostics));
    consumers.push_back(std::make_unique<UnlessErrors>(
        makeKernelNamesConsumer(kernelNames), diagnostics));
    for (const ConsumerFactory &factory : extraConsumers)
      if (std::unique_ptr<clang::ASTConsumer> consumer = factory(compiler))
        consumers.push_back(
            std::make_unique<UnlessErrors>(std::move(consumer), diagnostics));
    consumers.push_back(makeNvccCompatFinder(compiler, compatEdits));
    // Before code generation, which places each variable it is handed.
    consumers.push_back(makeDeviceConstInGlobalMemoryLikeNvcc());
    consumers.push_back(
        std::move(codegen)); // last: it consumes the AST it is handed
    return std::make_unique<clang::MultiplexConsumer>(std::move(consumers));
  }

private:
  std::vector<SubscriptFact> &facts;
  std::map<std::string, KernelName> &kernelNames;
  const std::vector<ConsumerFactory> &extraConsumers;
  NvccCompatEdits &compatEdits;
};

// `base` with `path` reading as `text`.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
overlayMainFile(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> base,
                const std::string &path, const std::string &text) {
  auto edited = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  // A relative path means the same file as in `base`.
  if (auto cwd = base->getCurrentWorkingDirectory())
    edited->setCurrentWorkingDirectory(*cwd);
  edited->addFile(path, /*ModificationTime=*/0,
                  llvm::MemoryBuffer::getMemBufferCopy(text, path));
  auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(base);
  overlay->pushOverlay(edited);
  return overlay;
}

} // namespace

// The CUDA headers: the toolkit's through Clang's CUDA support, or the
// bundled stubs in place of a toolkit.
std::vector<std::string>
cudaHeaderArguments(const std::optional<CudaToolkit> &toolkit,
                    const std::string &arch, bool devicePass) {
  // The host compiler's version as nvcc's host compiler reports it (both
  // passes: nvcc preprocesses the device side with it too).
  std::optional<std::string> gnuVersion = hostCompilerGnuVersionArgument();
  if (!toolkit) {
    std::vector<std::string> args = {
        // No CUDA installation: the stub headers replace its headers,
        // nothing replaces libdevice (the stubs use Clang builtins instead),
        // and without an installation Clang would assume PTX 4.2, which no
        // sm_70+ target accepts.
        "-nocudainc",
        "-nocudalib",
        "--cuda-path=/nonexistent",
        "--cuda-feature=+ptx88",
        // -I, before the user's -I: a toolkit directory the user names
        // (-I/usr/local/cuda/include) must not shadow the stubs, whose
        // guard macros then skip the toolkit's copies. The stubs say
        // `#pragma clang system_header` themselves.
        "-I",
        std::string(kCudaStubDirectory),
        "-include",
        std::string(kCudaShimHeader),
    };
    if (gnuVersion)
      args.push_back(*gnuVersion);
    return args;
  }
  const CudaToolkit &t = *toolkit;
  std::string version = std::to_string(t.major) + "." + std::to_string(t.minor);
  std::vector<std::string> args = {
      "--cuda-path=" + t.root,
      // libdevice's __nv_* functions stay declarations: the engine executes
      // them as the math functions they are (simulator/engine/DecodeCalls).
      "-nocudalib",
      // Clang 22 knows CUDA up to 12.9 and, for a newer toolkit, passes no
      // SDK version, which makes it emit the pre-9.2 launch sequence
      // (cudaConfigureCall, removed from CUDA 13's headers).
      "-Xclang",
      "-target-sdk-version=" + version,
      "-Wno-unknown-cuda-version",
      "-include",
      std::string(kCudaStubDirectory) + "/" + std::string(kToolkitCompatHeader),
  };
  // What nvcc defines and real code tests (CUTLASS compiles its SM90 path
  // only when it sees nvcc's version; CUB dispatches on __CUDA_ARCH_LIST__).
  std::vector<std::string> macros = nvccMacroArguments(t, arch, devicePass);
  args.insert(args.end(), macros.begin(), macros.end());
  if (gnuVersion)
    args.push_back(*gnuVersion);
  // CUDA 13 moved CCCL (cuda/, cub/, thrust/) to include/cccl; nvcc adds it
  // through nvcc.profile after the user's -I, as -isystem comes here.
  std::string cccl = t.root + "/include/cccl";
  if (llvm::sys::fs::is_directory(cccl)) {
    args.push_back("-isystem");
    args.push_back(cccl);
  }
  return args;
}

bool relocatableDeviceCode(const CompileOptions &options) {
  return options.relocatableDeviceCode ||
         std::find(options.extraClangArgs.begin(), options.extraClangArgs.end(),
                   "-fgpu-rdc") != options.extraClangArgs.end();
}

namespace {
// The device compile's command line; `devicePass` false: the macros of
// nvcc's host pass (the host parse rewrites the rest).
std::vector<std::string> frontEndArguments(const std::string &path,
                                           const CompileOptions &options,
                                           bool devicePass) {
  std::vector<std::string> args = {
      // An absolute driver path, so the driver finds the GCC installation
      // (libstdc++ for <cstdio>, <algorithm>) relative to a real directory.
      KCHECK_CLANG_DRIVER,
      "-x",
      "cuda",
      "--cuda-device-only",
      "--cuda-gpu-arch=" + options.arch,
      "-resource-dir",
      KCHECK_CLANG_RESOURCE_DIR, // Clang's own __clang_cuda_*.h and stddef.h
  };
  std::vector<std::string> headers =
      cudaHeaderArguments(options.toolkit, options.arch, devicePass);
  args.insert(args.end(), headers.begin(), headers.end());
  std::vector<std::string> common = {
      // Clang's front-end at O3 (so its IR carries O3's attributes and
      // metadata) but no LLVM passes: runNvccLikePipeline is the optimizer.
      "-O3",
      "-Xclang",
      "-disable-llvm-passes",
      // NVVM keeps a loop with no side effects (the GPU spins in it), where
      // C++'s forward-progress rule lets Clang mark the function mustprogress
      // and LLVM delete the loop: no mustprogress, as nvcc.
      "-fno-finite-loops",
      "-gline-tables-only",
      // Kernel parameters keep their source names (`--arg n=1024`).
      "-fno-discard-value-names",
      "-Qunused-arguments",
      "-emit-llvm",
      "-c",
  };
  args.insert(args.end(), common.begin(), common.end());
  if (relocatableDeviceCode(options)) {
    // nvcc -rdc=true defines __CUDACC_RDC__: without it the device
    // runtime's header stubs its calls (cudaErrorUnknown).
    args.push_back("-fgpu-rdc");
    args.push_back("-D__CUDACC_RDC__");
  }
  args.insert(args.end(), options.extraClangArgs.begin(),
              options.extraClangArgs.end());
  args.push_back(path);
  return args;
}
} // namespace

std::vector<std::string> deviceCompileArguments(const std::string &path,
                                                const CompileOptions &options) {
  return frontEndArguments(path, options, /*devicePass=*/true);
}

namespace {
// Prints as Clang does and keeps the ids of the errors.
class RecordingPrinter : public clang::TextDiagnosticPrinter {
public:
  RecordingPrinter(llvm::raw_ostream &os, clang::DiagnosticOptions &options,
                   std::vector<unsigned> *ids)
      : TextDiagnosticPrinter(os, options), ids_(ids) {}
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                        const clang::Diagnostic &info) override {
    if (ids_ && level >= clang::DiagnosticsEngine::Error)
      ids_->push_back(info.getID());
    TextDiagnosticPrinter::HandleDiagnostic(level, info);
  }

private:
  std::vector<unsigned> *ids_;
};
} // namespace

bool runClangAction(const std::vector<std::string> &args,
                    llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fileSystem,
                    llvm::raw_ostream &diagnostics,
                    clang::FrontendAction &action,
                    std::vector<unsigned> *errorIds) {
  // The driver's own diagnostics (a bad argument, an unknown architecture).
  clang::DiagnosticOptions driverDiagnosticOptions;
  clang::TextDiagnosticPrinter driverPrinter(diagnostics,
                                             driverDiagnosticOptions);
  llvm::IntrusiveRefCntPtr<clang::DiagnosticsEngine> driverDiagnostics =
      clang::CompilerInstance::createDiagnostics(
          *fileSystem, driverDiagnosticOptions, &driverPrinter,
          /*ShouldOwnClient=*/false);

  // Clang 22 knows CUDA up to 12.9: a newer toolkit is expected, not news.
  driverDiagnostics->setSeverity(clang::diag::warn_drv_new_cuda_version,
                                 clang::diag::Severity::Ignored, {});
  std::vector<const char *> argv;
  for (const std::string &arg : args)
    argv.push_back(arg.c_str());
  clang::CreateInvocationOptions invocationOptions;
  invocationOptions.Diags = driverDiagnostics;
  invocationOptions.VFS = fileSystem;
  std::shared_ptr<clang::CompilerInvocation> invocation =
      clang::createInvocation(argv, invocationOptions);
  if (!invocation || driverDiagnostics->hasErrorOccurred())
    return false;
  // The driver asks cc1 to leak the AST and the backend's TargetMachine at
  // exit (-disable-free); kcheck compiles many times in one process (fix
  // search, fuzzing), so free them.
  invocation->getFrontendOpts().DisableFree = false;
  invocation->getCodeGenOpts().DisableFree = false;

  clang::CompilerInstance compiler(std::move(invocation));
  compiler.setVirtualFileSystem(fileSystem);
  compiler.createDiagnostics(
      new RecordingPrinter(diagnostics, compiler.getDiagnosticOpts(), errorIds),
      /*ShouldOwnClient=*/true);
  // "N errors generated." goes to the verbose stream, stderr unless redirected.
  compiler.setVerboseOutputStream(diagnostics);
  return compiler.ExecuteAction(action) &&
         !compiler.getDiagnostics().hasErrorOccurred();
}

namespace {
class HostParseAction : public clang::ASTFrontendAction {
public:
  explicit HostParseAction(const ConsumerFactory &factory)
      : factory_(factory) {}

protected:
  std::unique_ptr<clang::ASTConsumer>
  CreateASTConsumer(clang::CompilerInstance &compiler,
                    llvm::StringRef) override {
    return factory_(compiler);
  }

private:
  const ConsumerFactory &factory_;
};
} // namespace

std::vector<std::string> hostParseArguments(const std::string &path,
                                            const CompileOptions &options) {
  std::vector<std::string> args;
  for (const std::string &arg :
       frontEndArguments(path, options, /*devicePass=*/false)) {
    if (arg == "--cuda-device-only")
      args.push_back("--cuda-host-only");
    else if (arg == "-emit-llvm")
      args.push_back("-fsyntax-only");
    else if (arg != "-c")
      args.push_back(arg);
  }
  return args;
}

bool parseHostSide(const std::string &path, const CompileOptions &options,
                   const ConsumerFactory &factory, std::string &diagnostics) {
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fileSystem =
      makeFileSystemWithCudaStubs();
  if (options.mainFileText)
    fileSystem = overlayMainFile(fileSystem, path, *options.mainFileText);
  llvm::raw_string_ostream stream(diagnostics);
  HostParseAction action(factory);
  return runClangAction(hostParseArguments(path, options), fileSystem, stream,
                        action);
}

CompiledModule
compileDevice(const std::string &path, const CompileOptions &options,
              const std::vector<ConsumerFactory> &extraConsumers) {
  // Clang's code generation creates an NVPTX TargetMachine, so the target must
  // exist.
  initializeNvptxTarget();

  CompiledModule result;
  llvm::raw_string_ostream diagnosticStream(result.diagnostics);
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fileSystem =
      makeFileSystemWithCudaStubs();
  if (options.mainFileText)
    fileSystem = overlayMainFile(fileSystem, path, *options.mainFileText);

  result.context = std::make_unique<llvm::LLVMContext>();
  // A file that launches kernels from device code compiles as relocatable
  // device code, as its build must ask nvcc (-rdc=true): again with it.
  CompileOptions attempt = options;
  std::unique_ptr<llvm::Module> module;
  for (bool retried = false;; retried = true) {
    bool needsRdc = false;
    // Constructs nvcc accepts and Clang rejects: again, on a copy of the
    // files that writes them as nvcc reads them (NvccCompatRewrite.h).
    module = compileRewritingForNvcc(
        fileSystem,
        [&](llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs,
            NvccCompatEdits &edits, llvm::raw_ostream &diagnostics) {
          result.subscripts.clear(); // only the successful parse's
          result.kernelNames.clear();
          DeviceCompileAction action(*result.context, result.subscripts,
                                     result.kernelNames, extraConsumers, edits);
          std::vector<unsigned> errors;
          bool compiled = runClangAction(deviceCompileArguments(path, attempt),
                                         fs, diagnostics, action, &errors);
          for (unsigned id : errors)
            needsRdc |=
                id == clang::diag::err_cuda_device_kernel_launch_require_rdc;
          std::unique_ptr<llvm::Module> compiledModule = action.takeModule();
          return compiled ? std::move(compiledModule) : nullptr;
        },
        diagnosticStream);
    // A call of libcudadevrt's (__cudaCDP2*: the device runtime's queries,
    // copies, error texts; cudaCG*) links only as relocatable device code
    // (the graph calls, cudaGraphLaunch and the node updates, are ptxas's
    // builtins and need none): ptxas
    // reports it unresolved otherwise, and without it the toolkit's header
    // answers cudaFuncGetAttributes and the occupancy calculator with
    // stubs. Such a build asks nvcc for -rdc=true too.
    if (module && !relocatableDeviceCode(attempt))
      for (const llvm::Function &f : *module)
        needsRdc |= f.isDeclaration() && !f.use_empty() &&
                    (f.getName().starts_with("__cudaCDP2") ||
                     f.getName().starts_with("cudaCG"));
    if (!needsRdc || retried || relocatableDeviceCode(attempt))
      break;
    module.reset();
    attempt.relocatableDeviceCode = true;
    result.diagnostics.clear();
  }
  result.relocatable = relocatableDeviceCode(attempt);
  result.relocatableAdded =
      result.relocatable && !relocatableDeviceCode(options);
  if (!module)
    return result;

  // __cluster_dims__, which Clang's code generation drops for NVPTX, as
  // the function attribute the engine reads (nvvm.cluster_dim).
  for (const auto &[mangled, name] : result.kernelNames)
    if (name.clusterDims[0])
      if (llvm::Function *f = module->getFunction(mangled))
        f->addFnAttr("nvvm.cluster_dim",
                     std::to_string(name.clusterDims[0]) + "," +
                         std::to_string(name.clusterDims[1]) + "," +
                         std::to_string(name.clusterDims[2]));

  if (options.toolkit && options.keepLibdeviceDeclaration) {
    std::string error = linkLibdevice(*module, libdevicePath(*options.toolkit),
                                      options.keepLibdeviceDeclaration);
    if (!error.empty()) {
      diagnosticStream << "error: " << error << "\n";
      return result;
    }
  }
  runNvccLikePipeline(*module, options.arch);
  result.module = std::move(module);
  result.ok = true;
  return result;
}

} // namespace kcheck::analyzer
