// Test support for the launch extractor: stub CUDA headers and a parse that
// runs the extractor (and, optionally, CodeGen) the way the device compiler
// does.
#pragma once

#include "analyzer/host/LaunchExtractor.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/CodeGen/CodeGenAction.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

extern "C" void LLVMInitializeNVPTXTargetInfo();
extern "C" void LLVMInitializeNVPTXTarget();
extern "C" void LLVMInitializeNVPTXTargetMC();

namespace kcheck::analyzer::launch_test {

// Just enough of cuda_runtime.h for host code to parse.
inline const char *kCudaRuntime = R"cuda(
#pragma once
#include <stddef.h>
#include <stdint.h>
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __restrict__ __restrict
struct uint3 { unsigned x, y, z; };
struct __attribute__((aligned(16))) float4 { float x, y, z, w; };
struct dim3 {
  unsigned x, y, z;
  __host__ __device__ constexpr dim3(unsigned vx = 1, unsigned vy = 1,
                                     unsigned vz = 1) : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
};
#include <__clang_cuda_builtin_vars.h>
typedef enum cudaError { cudaSuccess = 0, cudaErrorInvalidValue = 1 } cudaError_t;
enum cudaMemcpyKind { cudaMemcpyHostToHost, cudaMemcpyHostToDevice,
                      cudaMemcpyDeviceToHost, cudaMemcpyDeviceToDevice };
enum cudaDeviceAttr { cudaDevAttrMaxThreadsPerBlock = 1,
                      cudaDevAttrMultiProcessorCount = 16,
                      cudaDevAttrMaxThreadsPerMultiProcessor = 39 };
struct cudaDeviceProp { int multiProcessorCount; int maxThreadsPerBlock; int maxGridSize[3]; };
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
extern "C" {
int cudaConfigureCall(dim3 grid, dim3 block, size_t shmem = 0,
                      cudaStream_t stream = 0);
unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shmem = 0,
                                     cudaStream_t stream = 0);
cudaError_t cudaMalloc(void **p, size_t n);
cudaError_t cudaMallocManaged(void **p, size_t n, unsigned flags = 1);
cudaError_t cudaFree(void *p);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, cudaMemcpyKind k);
cudaError_t cudaMemset(void *p, int v, size_t n);
cudaError_t cudaGetDevice(int *d);
cudaError_t cudaDeviceGetAttribute(int *v, cudaDeviceAttr a, int d);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int d);
cudaError_t cudaGetLastError(void);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaEventCreate(cudaEvent_t *e);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b);
cudaError_t cudaLaunchKernel(const void *f, dim3 g, dim3 b, void **args,
                             size_t shmem, cudaStream_t s);
const char *cudaGetErrorString(cudaError_t e);
struct cudaFuncAttributes { size_t sharedSizeBytes; int maxThreadsPerBlock;
                            int numRegs; int ptxVersion; };
enum cudaFuncAttribute { cudaFuncAttributeMaxDynamicSharedMemorySize = 8 };
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *a, const void *f);
cudaError_t cudaFuncSetAttribute(const void *f, cudaFuncAttribute a, int v);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, const void *f,
                                                          int threads,
                                                          size_t shmem);
}
template <class T>
inline cudaError_t cudaOccupancyMaxPotentialBlockSize(int *grid, int *block,
                                                      T f, size_t shmem = 0,
                                                      int limit = 0) {
  return cudaErrorInvalidValue; // the toolkit's loops over cudaFuncGetAttributes
}
template <class T> inline cudaError_t cudaMalloc(T **p, size_t n) {
  return ::cudaMalloc((void **)(void *)p, n);
}
template <class T>
inline cudaError_t cudaMallocManaged(T **p, size_t n, unsigned f = 1) {
  return ::cudaMallocManaged((void **)(void *)p, n, f);
}
__device__ void __syncthreads();
__device__ float __shfl_down_sync(unsigned mask, float v, unsigned d, int w = 32);
__device__ int __shfl_down_sync(unsigned mask, int v, unsigned d, int w = 32);
)cuda";

inline const char *kCooperativeGroups = R"cuda(
#pragma once
namespace cooperative_groups {
struct thread_block {
  __device__ unsigned thread_rank() const;
  __device__ void sync() const;
};
__device__ thread_block this_thread_block();
__device__ void sync(const thread_block &);
template <unsigned N> struct thread_block_tile {
  __device__ unsigned size() const { return N; }
  __device__ unsigned thread_rank() const;
  template <class T> __device__ T shfl_down(T v, unsigned d) const;
};
template <unsigned N>
__device__ thread_block_tile<N> tiled_partition(const thread_block &);
} // namespace cooperative_groups
)cuda";

inline std::vector<std::string> cudaArgs() {
  return {"-x",
          "cuda",
          "--cuda-device-only",
          "-nocudainc",
          "-nocudalib",
          "--cuda-path=/nonexistent",
          "--cuda-feature=+ptx88",
          "--cuda-gpu-arch=sm_90",
          "-resource-dir",
          KCHECK_CLANG_RESOURCE_DIR,
          "-std=c++17",
          "-I/kcheck-stub",
          "-Wno-unused-value"};
}

// KCHECK_LAUNCH_DUMP=1 prints what was extracted, to read the notes.
inline void dump(const std::string &title, const HostProgram &p) {
  if (!std::getenv("KCHECK_LAUNCH_DUMP"))
    return;
  auto opt = [](const std::optional<core::Dim3> &d) {
    return d ? core::toString(*d) : std::string("?");
  };
  std::printf("== %s\n", title.c_str());
  for (const HostAllocation &a : p.allocations)
    std::printf("  alloc %d %s %s bytes=%s %s%s\n", a.id, a.name.c_str(),
                (a.loc.file + ":" + std::to_string(a.loc.line)).c_str(),
                a.bytes ? std::to_string(*a.bytes).c_str() : "?",
                a.hostInitialized ? "init " : "", a.zeroed ? "zeroed" : "");
  for (const HostLaunch &l : p.launches) {
    std::printf("  launch %s [%s] line %u grid %s block %s shmem %s\n",
                l.signature.c_str(), l.mangledName.c_str(), l.loc.line,
                opt(l.grid).c_str(), opt(l.block).c_str(),
                l.dynamicSharedBytes
                    ? std::to_string(*l.dynamicSharedBytes).c_str()
                    : "?");
    for (const LaunchArg &a : l.args)
      std::printf("    arg %s: kind %d i=%lld f=%g alloc=%d off=%lld %s\n",
                  a.text.c_str(), int(a.value.kind), (long long)a.value.i,
                  a.value.f, a.value.allocation, (long long)a.value.offset,
                  a.value.why.c_str());
    for (const std::string &n : l.notes)
      std::printf("    note: %s\n", n.c_str());
  }
  for (const std::string &n : p.notes)
    std::printf("  program note: %s\n", n.c_str());
  for (const std::string &k : p.kernelsWithoutLaunch)
    std::printf("  not launched: %s\n", k.c_str());
}

// Parses (and, with `codegen`, compiles) `code`, running the extractor in the
// same parse, the way the device compiler will; with codegen it also records
// the names of the kernels in the IR, to check the mangled names against.
class ExtractAction : public clang::EmitLLVMOnlyAction {
public:
  ExtractAction(HostProgram &out, ExtractorOptions options, bool codegen,
                std::set<std::string> &irKernels, llvm::LLVMContext *llvm)
      : EmitLLVMOnlyAction(llvm), out_(out), options_(std::move(options)),
        codegen_(codegen), irKernels_(irKernels) {}
  std::unique_ptr<clang::ASTConsumer>
  CreateASTConsumer(clang::CompilerInstance &ci,
                    llvm::StringRef file) override {
    std::vector<std::unique_ptr<clang::ASTConsumer>> cs;
    cs.push_back(makeLaunchExtractor(out_, options_));
    if (codegen_)
      cs.push_back(EmitLLVMOnlyAction::CreateASTConsumer(ci, file));
    return std::make_unique<clang::MultiplexConsumer>(std::move(cs));
  }
  void EndSourceFileAction() override {
    if (!codegen_)
      return;
    EmitLLVMOnlyAction::EndSourceFileAction();
    if (std::unique_ptr<llvm::Module> m = takeModule())
      for (const llvm::Function &f : *m)
        if (f.getCallingConv() == llvm::CallingConv::PTX_Kernel)
          irKernels_.insert(f.getName().str());
  }

private:
  HostProgram &out_;
  ExtractorOptions options_;
  bool codegen_;
  std::set<std::string> &irKernels_;
};

struct Result {
  HostProgram program;
  std::set<std::string> irKernels; // with codegen
  bool ok = false;
};

inline Result run(const std::string &code,
                  const std::string &file = "/src/t.cu",
                  clang::tooling::FileContentMappings files = {},
                  ExtractorOptions options = {}, bool codegen = false) {
  Result r;
  files.emplace_back("/kcheck-stub/cuda_runtime.h", kCudaRuntime);
  files.emplace_back("/kcheck-stub/cooperative_groups.h", kCooperativeGroups);
  if (codegen) { // CodeGen builds an NVPTX TargetMachine
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
  }
  llvm::LLVMContext llvmContext;
  r.ok = clang::tooling::runToolOnCodeWithArgs(
      std::make_unique<ExtractAction>(r.program, std::move(options), codegen,
                                      r.irKernels, &llvmContext),
      code, cudaArgs(), file, "kcheck-test",
      std::make_shared<clang::PCHContainerOperations>(), files);
  return r;
}

inline HostProgram extract(const std::string &body,
                           ExtractorOptions options = {}) {
  Result r = run("#include <cuda_runtime.h>\n#include <cstdlib>\n"
                 "#include <cstdio>\n#include <algorithm>\n#line 1\n" +
                     body,
                 "/src/t.cu", {}, std::move(options));
  EXPECT_TRUE(r.ok) << "the test program does not compile";
  dump(::testing::UnitTest::GetInstance()->current_test_info()->name(),
       r.program);
  return std::move(r.program);
}

inline std::string joined(const std::vector<std::string> &notes) {
  std::string s;
  for (const std::string &n : notes)
    s += n + "\n";
  return s;
}

inline std::string readFile(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// seed_exact.csv: file, launch, kernel, grid, block, metrics... (kernel
// quoted).
struct MeasuredLaunch {
  std::string kernel;
  core::Dim3 grid, block;
};
inline std::map<std::string, std::vector<MeasuredLaunch>>
readMeasured(const std::string &path) {
  std::map<std::string, std::vector<MeasuredLaunch>> out;
  std::ifstream in(path);
  std::string line;
  std::getline(in, line); // header
  auto dim = [](const std::string &s) {
    core::Dim3 d;
    std::sscanf(s.c_str(), "%u,%u,%u", &d.x, &d.y, &d.z);
    return d;
  };
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::string cur;
    bool quoted = false;
    for (char c : line) {
      if (c == '"')
        quoted = !quoted;
      else if (c == ',' && !quoted)
        f.push_back(cur), cur.clear();
      else
        cur += c;
    }
    f.push_back(cur);
    if (f.size() < 5)
      continue;
    out[f[0]].push_back({f[2], dim(f[3]), dim(f[4])});
  }
  return out;
}

inline core::Dim3 d3(uint32_t x, uint32_t y = 1, uint32_t z = 1) {
  return {x, y, z};
}

} // namespace kcheck::analyzer::launch_test
