// Prints the IR kcheck simulates for a .cu file (after the nvcc-like
// pipeline), to compare it with `nvcc -ptx` when the two disagree
// (parity-notes.md). Usage: dump_ir FILE.cu [FUNCTION-SUBSTRING] [-- clang
// args]
#include "analyzer/toolchain/DeviceCompiler.h"

#include "llvm/IR/Function.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <cstdlib>
#include <string>

int main(int argc, char **argv) {
  if (argc < 2) {
    llvm::errs() << "usage: dump_ir FILE.cu [FUNCTION-SUBSTRING] [-- clang "
                    "args]\n";
    return 2;
  }
  kcheck::analyzer::CompileOptions options;
  // Against the CUDA toolkit kcheck finds, as kcheck itself compiles (unset
  // KCHECK_DUMP_BUNDLED=1: the bundled headers).
  if (!std::getenv("KCHECK_DUMP_BUNDLED")) {
    std::string why;
    options.toolkit = kcheck::analyzer::findCudaToolkit("", why);
  }
  std::string filter;
  for (int i = 2; i < argc; ++i) {
    if (std::string(argv[i]) == "--") {
      for (++i; i < argc; ++i)
        options.extraClangArgs.push_back(argv[i]);
      break;
    }
    filter = argv[i];
  }
  // KCHECK_LLVM_ARGS: LLVM options for the pipeline (-print-after=gvn ...).
  if (const char *llvmArgs = std::getenv("KCHECK_LLVM_ARGS"))
    llvm::cl::ParseCommandLineOptions(
        2, std::array<const char *, 2>{"dump_ir", llvmArgs}.data());
  kcheck::analyzer::CompiledModule compiled =
      kcheck::analyzer::compileDevice(argv[1], options);
  if (!compiled.ok) {
    llvm::errs() << compiled.diagnostics;
    return 3;
  }
  for (const llvm::Function &function : *compiled.module)
    if (!function.isDeclaration() &&
        function.getName().find(filter) != llvm::StringRef::npos)
      function.print(llvm::outs());
  return 0;
}
