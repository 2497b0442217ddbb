// Compiles the device side of a .cu file in-process with Clang (CUDA
// device-only) to NVPTX LLVM IR, runs the nvcc-like IR pipeline, and collects
// AST facts, all from one parse. The headers are the CUDA toolkit's when one
// is given (Clang's own CUDA support, as `clang++ --cuda-path`), else kcheck's
// bundled stub headers, served from memory.
#pragma once

#include "analyzer/facts/AstFacts.h"
#include "analyzer/facts/KernelNames.h"
#include "analyzer/toolchain/CudaToolkit.h"

#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTConsumer;
class CompilerInstance;
class FrontendAction;
} // namespace clang

namespace kcheck::analyzer {

struct CompileOptions {
  std::string arch =
      "sm_90"; // passed as --cuda-gpu-arch; the caller validates it
  std::vector<std::string>
      extraClangArgs; // e.g. -DNAME=1, -I dirs; before the file
  // When set, compiled in place of the main file's contents on disk (same
  // path, so relative #includes still resolve): a fix is re-simulated
  // without writing anything.
  std::optional<std::string> mainFileText;
  // The toolkit whose headers the device side is compiled against; without
  // one, the bundled headers (analyzer/toolchain/cuda_stubs) stand in for it.
  std::optional<CudaToolkit> toolkit;
  // With a toolkit: the libdevice functions (__nv_*) to leave declared,
  // because the engine executes them itself; the others are linked from
  // the toolkit's libdevice. Unset: none are linked.
  std::function<bool(llvm::StringRef)> keepLibdeviceDeclaration;
  // nvcc -rdc=true (Clang's -fgpu-rdc): what launches from device code
  // (dynamic parallelism) need. compileDevice also turns it on by itself
  // when the file makes such a launch (CompiledModule::relocatable).
  bool relocatableDeviceCode = false;
};

// Makes an extra consumer of the same parse (e.g. host launch extraction). It
// runs before code generation and sees the whole translation unit, host code
// included.
using ConsumerFactory = std::function<std::unique_ptr<clang::ASTConsumer>(
    clang::CompilerInstance &)>;

struct CompiledModule {
  // Destroyed in reverse order: the module before its context.
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> module; // after the pipeline; null on failure
  // Clang's diagnostics as clang prints them ("file:line:col: error: ..." with
  // the source line and caret), warnings included.
  std::string diagnostics;
  bool ok = false;
  std::vector<SubscriptFact> subscripts;
  // Every kernel the translation unit defines, by mangled name: how
  // reports name it (analyzer/facts/KernelNames.h).
  std::map<std::string, KernelName> kernelNames;
  // Compiled as relocatable device code: asked for, or needed because the
  // file launches kernels from device code (then the host side needs it
  // too: pass it on in CompileOptions::relocatableDeviceCode).
  bool relocatable = false;
  bool relocatableAdded = false; // turned on by compileDevice itself
};

/// The note a report gives when compileDevice added -rdc itself.
inline constexpr const char *kRelocatableAddedNote =
    "compiled as relocatable device code (nvcc -rdc=true, Clang -fgpu-rdc), "
    "which the file's calls of the device runtime (kernel launches from "
    "device code, libcudadevrt's functions) need";

/// Whether `options` compile relocatable device code (asked for, or
/// -fgpu-rdc among the extra arguments).
bool relocatableDeviceCode(const CompileOptions &options);

CompiledModule
compileDevice(const std::string &path, const CompileOptions &options,
              const std::vector<ConsumerFactory> &extraConsumers = {});

// Parses the host side of the same file (`--cuda-host-only`, nothing
// generated) and hands the translation unit to the consumer `factory` makes:
// host code as nvcc's host pass sees it, where code that tests the target
// (NV_IF_TARGET, __CUDA_ARCH__) takes its host branch, as CUB's and Thrust's
// kernel launches do. False (with Clang's diagnostics in `diagnostics`) when
// the parse fails.
/// The command line parseHostSide uses: the device compile's, as nvcc's
/// host pass (its macros, --cuda-host-only, syntax only).
std::vector<std::string> hostParseArguments(const std::string &path,
                                            const CompileOptions &options);
bool parseHostSide(const std::string &path, const CompileOptions &options,
                   const ConsumerFactory &factory, std::string &diagnostics);

// The arguments that choose the CUDA headers: the toolkit's (through Clang's
// CUDA support, with CCCL and nvcc's version macros) or the bundled stubs.
// The host compile of --run-host uses the same.
/// `arch` ("sm_90") and the pass (device or host) choose the values of the
/// macros nvcc defines itself (NvccMacros.h).
std::vector<std::string>
cudaHeaderArguments(const std::optional<CudaToolkit> &toolkit,
                    const std::string &arch, bool devicePass);

// The driver command line compileDevice uses (argv[0] is the absolute driver
// path), for diagnostics and for reproducing a compile with the clang++ binary.
std::vector<std::string> deviceCompileArguments(const std::string &path,
                                                const CompileOptions &options);

// Runs Clang's driver on `args` over `fileSystem` and executes `action`,
// with every diagnostic (the driver's and the compile's) printed to
// `diagnostics`. False when either reported an error. Shared by the device
// compile and the host compile of `kcheck run` (host/HostCompiler).
/// `errorIds`, when given, receives the id of each error diagnostic.
bool runClangAction(const std::vector<std::string> &args,
                    llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fileSystem,
                    llvm::raw_ostream &diagnostics,
                    clang::FrontendAction &action,
                    std::vector<unsigned> *errorIds = nullptr);

} // namespace kcheck::analyzer
