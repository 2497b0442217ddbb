// Simulates one kernel of inputs/branches.cu for the divergence tests.
#pragma once

#include "analyzer/toolchain/DeviceCompiler.h"
#include "core/ArchSpec.h"
#include "simulator/Predictor.h"

#include "simulator/engine/Decode.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Function.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace kcheck::sim::test {

struct SimulatedRun {
  std::unique_ptr<DecodedKernel> kernel;
  LaunchResult result;
};

/// Runs kernel `name` of inputs/branches.cu (compiled once) on grid x block.
/// Pointer arguments get a zeroed 1 MiB allocation each; `scalars` are the
/// scalar arguments' values, in order. `exhaustive`: every block runs
/// instead of one per proven class.
inline SimulatedRun simulate(const std::string &name, core::Dim3 grid,
                             core::Dim3 block,
                             std::vector<uint64_t> scalars = {},
                             bool exhaustive = false) {
  static analyzer::CompiledModule compiled = analyzer::compileDevice(
      std::string(KCHECK_DIVERGENCE_INPUTS) + "/branches.cu", {});
  SimulatedRun run;
  EXPECT_TRUE(compiled.ok) << compiled.diagnostics;
  const llvm::Function *fn = nullptr;
  for (const llvm::Function &f : *compiled.module)
    if (!f.isDeclaration() &&
        llvm::demangle(f.getName().str()).starts_with(name + "("))
      fn = &f;
  EXPECT_NE(fn, nullptr) << name;
  if (!fn)
    return run;
  auto decoded = decodeKernel(*fn);
  EXPECT_TRUE(bool(decoded));
  run.kernel = std::move(*decoded);
  DeviceMemory memory;
  std::vector<KernelArg> args;
  size_t nextScalar = 0;
  for (const llvm::Argument &a : fn->args())
    if (a.getType()->isPointerTy())
      args.push_back({memory.allocate(1 << 20, "arg")});
    else
      args.push_back({nextScalar < scalars.size() ? scalars[nextScalar++] : 0});
  core::LaunchConfig config;
  config.grid = grid;
  config.block = block;
  Predictor predictor(*core::findArch("sm_90"), exhaustive);
  run.result = predictor.run(*run.kernel, config, args, memory, Limits{});
  EXPECT_TRUE(run.result.error.empty()) << run.result.error;
  return run;
}

} // namespace kcheck::sim::test
