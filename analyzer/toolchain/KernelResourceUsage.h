// What the toolkit's compiler gives each kernel (registers, static shared
// memory, stack frame, barriers): the answers of cudaFuncGetAttributes and
// the inputs of the occupancy calculator (core/Occupancy.h).
//
// Registers are ptxas's choice after NVVM's optimizations, which no model
// predicts, so kcheck asks the toolkit itself: it compiles the file once with
// `nvcc -arch=sm_XX -cubin --resource-usage` (the user's -I/-D/-U/-std
// flags), only when a program asks for them, and reads ptxas's report. With
// no toolkit (bundled headers) or when nvcc fails, the answer is unknown and
// says why.
#pragma once

#include "analyzer/toolchain/CudaToolkit.h"
#include "core/Occupancy.h"

#include "llvm/ADT/StringRef.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kcheck::analyzer {

/// ptxas's `-v` report ("Compiling entry function '_Z...' for 'sm_90'",
/// "N bytes stack frame", "Used R registers, used B barriers, S bytes smem,
/// C bytes cmem[0]") by mangled kernel name.
std::map<std::string, core::KernelResources>
parsePtxasResourceUsage(llvm::StringRef report);
/// nvlink's `--verbose` report of a device link (relocatable device code,
/// where ptxas gives no final allocation): "Function properties for
/// '_Z...':" then "used R registers, used B barriers, L stack, S bytes smem,
/// ..." per function, and the module's "C bytes cmem[3]" (its __constant__
/// bank). Its smem includes the 1 KB sm_90 reserves for the system in a
/// block that uses shared memory (bounded's 1000 bytes are 2024 there, as
/// the H200's cudaFuncGetAttributes says 1000:
/// tests/conformance/programs/device_runtime_queries.cu).
std::map<std::string, core::KernelResources>
parseNvlinkResourceUsage(llvm::StringRef report);

class KernelResourceUsage {
public:
  /// `toolkit` null: no toolkit, every query unknown. `clangArgs`: the
  /// arguments given after `--`; those nvcc shares with Clang are passed on.
  KernelResourceUsage(std::optional<CudaToolkit> toolkit, std::string file,
                      std::string arch, std::vector<std::string> clangArgs);

  /// The resources of kernel `mangledName`; nullopt, with `why`, when the
  /// toolkit's compiler could not tell. Compiles on the first call.
  std::optional<core::KernelResources> of(const std::string &mangledName,
                                          std::string &why);

  /// The nvcc command line (for notes and tests).
  std::vector<std::string> command(const std::string &cubinPath) const;

private:
  void compile();

  std::optional<CudaToolkit> toolkit_;
  std::string file_, arch_;
  std::vector<std::string> clangArgs_;
  bool compiled_ = false;
  std::string failure_; // why nvcc gave nothing, after compile()
  std::map<std::string, core::KernelResources> kernels_;
};

} // namespace kcheck::analyzer
