// Support for the inline-PTX execution tests: compile a CUDA source with
// Clang (toolkit or bundled headers), lower, decode and run one warp.
#pragma once

#include "analyzer/toolchain/CudaToolkit.h"
#include "analyzer/toolchain/DeviceCompiler.h"
#include "core/Float16.h"
#include "simulator/engine/BlockRunner.h"
#include "simulator/engine/Decode.h"
#include "simulator/engine/DecodedKernel.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <unistd.h>

namespace kcheck::ptxtest {

namespace fs = std::filesystem;

class NullSink : public sim::EventSink {
public:
  void onAccess(const sim::WarpAccess &a) override { accesses.push_back(a); }
  std::vector<sim::WarpAccess> accesses;
};

struct KernelRun {
  std::string error;
  sim::DeviceMemory memory;
  std::vector<uint64_t> buffers;
  std::vector<sim::WarpAccess> accesses;
  unsigned asmCallsLeft = 0;
  std::vector<uint8_t> read(unsigned buffer, size_t bytes) const {
    std::vector<uint8_t> out(bytes);
    memory.read(buffers[buffer], out.data(), bytes);
    return out;
  }
  template <class T> std::vector<T> values(unsigned buffer, size_t n) const {
    std::vector<uint8_t> bytes = read(buffer, n * sizeof(T));
    std::vector<T> out(n);
    std::memcpy(out.data(), bytes.data(), bytes.size());
    return out;
  }
};

// Compiles `source`, runs kernel `name` for one warp with `buffers` (byte
// contents, each a global allocation passed in order as a pointer).
inline void runKernel(KernelRun &run, const std::string &source,
                      const std::string &name,
                      const std::vector<std::vector<uint8_t>> &buffers,
                      bool toolkit) {
  fs::path dir = fs::temp_directory_path() /
                 ("kcheck_ptx_" + std::to_string(getpid()) + "_" + name);
  fs::create_directories(dir);
  fs::path file = dir / (name + ".cu");
  std::ofstream(file) << source;
  analyzer::CompileOptions options;
  if (toolkit) {
    std::string why;
    options.toolkit = analyzer::findCudaToolkit("", why);
    if (!options.toolkit) {
      run.error = "SKIP: " + why;
      return;
    }
  }
  analyzer::CompiledModule compiled = analyzer::compileDevice(file, options);
  fs::remove_all(dir);
  if (!compiled.ok) {
    run.error = compiled.diagnostics;
    return;
  }
  llvm::Function *kernel = nullptr;
  for (llvm::Function &f : *compiled.module)
    if (!f.isDeclaration() && f.getName().contains(name))
      kernel = &f;
  if (!kernel) {
    run.error = "no kernel " + name;
    return;
  }
  for (llvm::Instruction &i : llvm::instructions(*kernel))
    if (auto *c = llvm::dyn_cast<llvm::CallBase>(&i); c && c->isInlineAsm())
      ++run.asmCallsLeft;
  auto decoded = sim::decodeKernel(*kernel);
  if (!decoded) {
    run.error = llvm::toString(decoded.takeError());
    return;
  }
  std::vector<sim::KernelArg> args;
  for (const std::vector<uint8_t> &b : buffers) {
    uint64_t a = run.memory.allocate(b.size(), "buffer");
    run.memory.write(a, b.data(), b.size());
    run.buffers.push_back(a);
    args.push_back({a});
  }
  core::LaunchConfig config;
  config.block = {32, 1, 1};
  sim::BlockRunner runner(**decoded, config, args, run.memory);
  NullSink sink;
  sim::BlockResult result = runner.runBlock({0, 0, 0}, sink);
  if (!result.ok())
    run.error = "block failed";
  run.accesses = sink.accesses;
}

template <class T> std::vector<uint8_t> bytesOf(const std::vector<T> &v) {
  std::vector<uint8_t> out(v.size() * sizeof(T));
  std::memcpy(out.data(), v.data(), out.size());
  return out;
}

#define RUN_OR_SKIP(run, ...)                                                  \
  runKernel(run, __VA_ARGS__, GetParam());                                     \
  if (run.error.rfind("SKIP", 0) == 0)                                         \
    GTEST_SKIP() << run.error;                                                 \
  ASSERT_EQ(run.error, "");                                                    \
  EXPECT_EQ(run.asmCallsLeft, 0u)

} // namespace kcheck::ptxtest
