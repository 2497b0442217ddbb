#include "TestSupport.h"

#include "analyzer/pipeline/IrPipeline.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

namespace kcheck::analyzer {
namespace {

using testing::corpusDir;
using testing::seedFiles;
using testing::writeSource;

std::string readFile(const std::filesystem::path &path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The names declared `__global__ void [__launch_bounds__(...)] NAME(` in a
// source.
std::vector<std::string> declaredKernelNames(const std::string &source) {
  std::regex kernel(
      R"(__global__\s+void\s+(?:__launch_bounds__\([^)]*\)\s+)?(\w+)\s*\()");
  std::vector<std::string> names;
  for (auto it = std::sregex_iterator(source.begin(), source.end(), kernel);
       it != std::sregex_iterator(); ++it)
    names.push_back((*it)[1]);
  return names;
}

const llvm::Function *kernelNamed(const llvm::Module &module,
                                  const std::string &name) {
  for (const llvm::Function &function : module)
    if (function.getCallingConv() == llvm::CallingConv::PTX_Kernel &&
        !function.isDeclaration() && function.getName().contains(name))
      return &function;
  return nullptr;
}

struct MemoryOp {
  bool isLoad;
  unsigned addressSpace;
  std::string type; // "float", "<4 x float>"
  unsigned line;
};

std::vector<MemoryOp> memoryOps(const llvm::Function &function) {
  std::vector<MemoryOp> ops;
  for (const llvm::Instruction &instruction : llvm::instructions(function)) {
    const llvm::Type *type = nullptr;
    const llvm::Value *pointer = nullptr;
    bool isLoad = false;
    if (const auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction)) {
      type = load->getType();
      pointer = load->getPointerOperand();
      isLoad = true;
    } else if (const auto *store =
                   llvm::dyn_cast<llvm::StoreInst>(&instruction)) {
      type = store->getValueOperand()->getType();
      pointer = store->getPointerOperand();
    } else {
      continue;
    }
    std::string typeName;
    llvm::raw_string_ostream(typeName) << *type;
    unsigned line =
        instruction.getDebugLoc() ? instruction.getDebugLoc().getLine() : 0;
    ops.push_back(
        {isLoad, pointer->getType()->getPointerAddressSpace(), typeName, line});
  }
  return ops;
}

CompiledModule compileSeed(const std::string &name) {
  return compileDevice((corpusDir() / "seed" / name).string(), {});
}

TEST(DeviceCompiler, EverySeedProgramCompilesWithAllItsKernels) {
  std::vector<std::filesystem::path> files = seedFiles();
  ASSERT_FALSE(files.empty()) << "no seed programs under " << corpusDir();
  for (const auto &path : files) {
    SCOPED_TRACE(path.string());
    auto start = std::chrono::steady_clock::now();
    CompiledModule compiled = compileDevice(path.string(), {});
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    ASSERT_TRUE(compiled.ok) << compiled.diagnostics;
    ASSERT_NE(compiled.module, nullptr);
    std::string verifierErrors;
    llvm::raw_string_ostream verifierStream(verifierErrors);
    EXPECT_FALSE(llvm::verifyModule(*compiled.module, &verifierStream))
        << verifierErrors;
    for (const std::string &name : declaredKernelNames(readFile(path)))
      EXPECT_NE(kernelNamed(*compiled.module, name), nullptr)
          << "kernel " << name;
    // Device functions are all inlined: the interpreter executes no calls.
    EXPECT_TRUE(callsToDefinedFunctions(*compiled.module).empty());
    std::printf("compileDevice(%s): %.3f s\n", path.filename().c_str(),
                seconds);
  }
}

// parity-notes item 2: ptxas merges Mds[ty][k..k+3] into LDS.128.
TEST(DeviceCompiler, MatMulTiledSharedLoadsAreVectorizedLikePtxas) {
  CompiledModule compiled = compileSeed("slides.cu");
  ASSERT_TRUE(compiled.ok) << compiled.diagnostics;
  const llvm::Function *kernel = kernelNamed(*compiled.module, "MatMulTiled");
  ASSERT_NE(kernel, nullptr);
  std::map<std::string, int> sharedLoadsByType;
  for (const MemoryOp &op : memoryOps(*kernel))
    if (op.isLoad && op.addressSpace == 3)
      ++sharedLoadsByType[op.type];
  EXPECT_EQ(sharedLoadsByType["<4 x float>"], 4);
  EXPECT_EQ(sharedLoadsByType["float"], 16);
  EXPECT_EQ(sharedLoadsByType.size(), 2u);
}

// parity-notes items 1 and 3: no register array is left in local memory.
TEST(DeviceCompiler, SgemmKernelsHaveNoLocalMemoryAccesses) {
  CompiledModule compiled = compileSeed("sgemm.cu");
  ASSERT_TRUE(compiled.ok) << compiled.diagnostics;
  int kernels = 0;
  for (const llvm::Function &function : *compiled.module) {
    if (function.getCallingConv() != llvm::CallingConv::PTX_Kernel ||
        function.isDeclaration())
      continue;
    ++kernels;
    SCOPED_TRACE(function.getName().str());
    for (const llvm::Instruction &instruction : llvm::instructions(function)) {
      EXPECT_FALSE(llvm::isa<llvm::AllocaInst>(instruction));
      EXPECT_FALSE(llvm::isa<llvm::MemIntrinsic>(instruction));
    }
    for (const MemoryOp &op : memoryOps(function))
      EXPECT_NE(op.addressSpace, 5u) << op.type << " at line " << op.line;
  }
  EXPECT_EQ(kernels, 2);
}

// parity-notes item 4: `if (i < n) sdata[tid] = g_in[i]; else sdata[tid] = 0;`
// keeps both stores, as nvcc does.
TEST(DeviceCompiler, ReduceCgV1KeepsBothStoresOfTheIfElse) {
  CompiledModule compiled = compileSeed("reduce_cg.cu");
  ASSERT_TRUE(compiled.ok) << compiled.diagnostics;
  const llvm::Function *kernel =
      kernelNamed(*compiled.module, "reduce_gpu_v1_kernel");
  ASSERT_NE(kernel, nullptr);
  int sharedStoresOnLine11 = 0;
  for (const MemoryOp &op : memoryOps(*kernel))
    if (!op.isLoad && op.addressSpace == 3 && op.line == 11)
      ++sharedStoresOnLine11;
  EXPECT_EQ(sharedStoresOnLine11, 2);
}

TEST(DeviceCompiler, SyntaxErrorFailsWithClangStyleDiagnostics) {
  std::string path =
      writeSource("syntax_error.cu", "__global__ void k(int *p) {\n"
                                     "  p[0] = 1\n"
                                     "}\n");
  CompiledModule compiled = compileDevice(path, {});
  EXPECT_FALSE(compiled.ok);
  EXPECT_EQ(compiled.module, nullptr);
  EXPECT_NE(compiled.diagnostics.find(path + ":2:11: error: expected ';'"),
            std::string::npos)
      << compiled.diagnostics;
  EXPECT_NE(compiled.diagnostics.find("^"), std::string::npos)
      << compiled.diagnostics;
}

TEST(DeviceCompiler, MissingHeaderFailsCleanly) {
  std::string path =
      writeSource("missing_header.cu", "#include \"no_such_header.h\"\n"
                                       "__global__ void k() {}\n");
  CompiledModule compiled = compileDevice(path, {});
  EXPECT_FALSE(compiled.ok);
  EXPECT_EQ(compiled.module, nullptr);
  EXPECT_NE(compiled.diagnostics.find(
                path + ":1:10: fatal error: 'no_such_header.h' file not found"),
            std::string::npos)
      << compiled.diagnostics;
}

TEST(DeviceCompiler, MissingInputFileFailsCleanly) {
  CompiledModule compiled = compileDevice("/nonexistent/dir/kernel.cu", {});
  EXPECT_FALSE(compiled.ok);
  EXPECT_NE(compiled.diagnostics.find("kernel.cu"), std::string::npos)
      << compiled.diagnostics;
}

// The CUDA surface the stubs provide compiles and lowers to plain IR (no calls
// left into functions the interpreter would not know).
TEST(DeviceCompiler, StubHeadersCoverTheCommonCudaSurface) {
  std::string path = writeSource("surface.cu", R"(
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <algorithm>
#include <vector>
namespace cg = cooperative_groups;
__constant__ float coef[16];
__device__ int counter;
__device__ float helper(float a) {
  return sqrtf(a) + expf(a) + __expf(a) + fminf(a, 2.f) + rsqrtf(a) + powf(a, 2.f) +
         fabsf(a) + floorf(a) + __fdividef(a, 3.f) + fmaf(a, a, a) + max(a, 1.0f) +
         min(1, 2) + sinf(a) + cosf(a) + logf(a);
}
__global__ void __launch_bounds__(256) k(float *out, const float *__restrict__ in, int n,
                                         unsigned *u, unsigned long long *ull, double *d) {
  cg::thread_block block = cg::this_thread_block();
  auto tile16 = cg::tiled_partition<16>(block);
  cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(block);
  int i = block.thread_rank() + blockIdx.x * block.size();
  float v = __ldg(&in[i]) + coef[i & 15];
  v += tile16.shfl_down(v, 1) + tile32.shfl_xor(v, 2) + tile32.shfl(v, 0) +
       tile16.shfl_up(v, 1);
  if (tile32.any(v > 1) && tile16.all(v > 0))
    v += tile16.ballot(v > 2) + tile16.meta_group_rank();
  atomicAdd(out, v); atomicAdd(&counter, 1); atomicMax(&counter, i);
  atomicCAS(&counter, 1, 2); atomicExch(out, 1.f); atomicInc(u, 5);
  atomicAdd(ull, 1ull); atomicAdd(d, 1.0); atomicOr(u, 3u); atomicSub(u, 1u);
  float4 f4 = reinterpret_cast<const float4 *>(in)[i];
  reinterpret_cast<float4 *>(out)[i] = make_float4(f4.x, 1, 2, 3);
  __threadfence(); __syncwarp();
  unsigned ballot = __ballot_sync(__activemask(), v > 0);
  assert(n > 0);
  if (i == 0) printf("%f %d\n", helper(v), ballot);
  out[i] = std::min(v, 2.0f) + __popc(ballot) + __syncthreads_count(v > 0);
  cg::sync(block); block.sync(); tile32.sync();
}
int main() {
  float *d; cudaMalloc(&d, 100); cudaMemcpy(d, d, 4, cudaMemcpyHostToDevice);
  cudaDeviceProp prop; cudaGetDeviceProperties(&prop, 0);
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  float h[16]; cudaMemcpyToSymbol(coef, h, sizeof(h));
  cudaEvent_t e; cudaEventCreate(&e); cudaEventRecord(e);
  cudaStream_t s; cudaStreamCreate(&s);
  k<<<dim3(1), 256, 0, s>>>(d, d, 1, 0, 0, 0);
  std::vector<int> x; std::sort(x.begin(), x.end());
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  cudaFree(d); cudaDeviceSynchronize();
}
)");
  CompiledModule compiled = compileDevice(path, {});
  ASSERT_TRUE(compiled.ok) << compiled.diagnostics;
  EXPECT_EQ(compiled.diagnostics, "");
  const llvm::Function *kernel =
      kernelNamed(*compiled.module, "_Z1kPfPKfiPjPyPd");
  ASSERT_NE(kernel, nullptr);
  int atomics = 0;
  for (const llvm::Instruction &instruction : llvm::instructions(*kernel)) {
    if (llvm::isa<llvm::AtomicRMWInst, llvm::AtomicCmpXchgInst>(instruction))
      ++atomics;
    if (const auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction)) {
      llvm::StringRef callee = call->getCalledFunction()->getName();
      EXPECT_TRUE(callee.starts_with("llvm.") || callee == "vprintf" ||
                  callee == "__assertfail")
          << callee.str();
    }
  }
  EXPECT_EQ(atomics, 10);
}

TEST(DeviceCompiler, ExtraConsumersSeeTheSameParse) {
  struct CountingConsumer : clang::ASTConsumer {
    explicit CountingConsumer(int &calls) : calls(calls) {}
    void HandleTranslationUnit(clang::ASTContext &) override { ++calls; }
    int &calls;
  };
  int factoryCalls = 0;
  int translationUnits = 0;
  ConsumerFactory factory = [&](clang::CompilerInstance &) {
    ++factoryCalls;
    return std::make_unique<CountingConsumer>(translationUnits);
  };
  CompiledModule compiled = compileDevice(
      (corpusDir() / "seed" / "slides.cu").string(), {}, {factory});
  EXPECT_TRUE(compiled.ok) << compiled.diagnostics;
  EXPECT_EQ(factoryCalls, 1);
  EXPECT_EQ(translationUnits, 1);
}

TEST(DeviceCompiler, ExtraClangArgumentsReachTheCompile) {
  std::string path = writeSource(
      "defines.cu", "#ifndef TILE\n#error no TILE\n#endif\n"
                    "__global__ void k(float *p) { p[TILE] = 1; }\n");
  CompileOptions options;
  options.extraClangArgs = {"-DTILE=4"};
  EXPECT_TRUE(compileDevice(path, options).ok);
  EXPECT_FALSE(compileDevice(path, {}).ok);
}

} // namespace
} // namespace kcheck::analyzer
