// Compiles the host side of a .cu file in-process with Clang (CUDA host-only,
// x86-64 Linux) to LLVM IR for the JIT, against the CUDA toolkit's headers
// or kcheck's bundled ones (as the device side). Clang is told the CUDA
// version (12.8 for the bundled headers) and handed a placeholder GPU binary,
// so its host code generation emits what nvcc-built programs do at run time:
// `__cudaRegisterFunction`/`__cudaRegisterVar` from a module constructor, and
// `<<<>>>` as `__cudaPushCallConfiguration` + a stub calling
// `cudaLaunchKernel`. Without them (no CUDA installation) Clang would emit
// the pre-9.2 `cudaConfigureCall`/`cudaLaunch` ABI and no registrations.
#pragma once

#include "analyzer/toolchain/CudaToolkit.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kcheck::host {

struct HostCompileOptions {
  std::string arch = "sm_90"; // --cuda-gpu-arch (device code is not built)
  std::vector<std::string> extraClangArgs; // -D, -I ...; before the file
  // The toolkit's headers, else the bundled ones
  // (analyzer/toolchain/CudaToolkit.h).
  std::optional<analyzer::CudaToolkit> toolkit;
  // The text of a header included after the CUDA headers: the simulated
  // runtime's glue for structs whose layout is the headers' (HostGlue.h).
  std::string glueSource;
  // -fgpu-rdc, as the device side was compiled (CompiledModule::relocatable).
  bool relocatableDeviceCode = false;
};

struct HostModule {
  // Destroyed in reverse order: the module before its context.
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> module; // null on failure
  std::string diagnostics;              // Clang's text, warnings included
  bool ok = false;
};

HostModule compileHost(const std::string &path,
                       const HostCompileOptions &options);

/// The driver command line compileHost uses (argv[0]: the driver's path).
std::vector<std::string>
hostCompileArguments(const std::string &path,
                     const HostCompileOptions &options);

} // namespace kcheck::host
