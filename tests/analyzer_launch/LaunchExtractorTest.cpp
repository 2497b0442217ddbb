// Tests of the host launch extractor on small CUDA programs and on the seed
// corpus, parsed in device-only CUDA mode with minimal stub headers.
#include "analyzer/LaunchExtractor.h"

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

namespace kcheck::analyzer {
namespace {

// Just enough of cuda_runtime.h for host code to parse.
const char *kCudaRuntime = R"cuda(
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
struct cudaDeviceProp { int multiProcessorCount; int maxThreadsPerBlock; };
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

const char *kCooperativeGroups = R"cuda(
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

std::vector<std::string> cudaArgs() {
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
void dump(const std::string &title, const HostProgram &p) {
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
  CreateASTConsumer(clang::CompilerInstance &ci, llvm::StringRef file) override {
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

Result run(const std::string &code, const std::string &file = "/src/t.cu",
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

HostProgram extract(const std::string &body, ExtractorOptions options = {}) {
  Result r = run("#include <cuda_runtime.h>\n#include <cstdlib>\n"
                 "#include <cstdio>\n#include <algorithm>\n#line 1\n" +
                     body,
                 "/src/t.cu", {}, std::move(options));
  EXPECT_TRUE(r.ok) << "the test program does not compile";
  dump(::testing::UnitTest::GetInstance()->current_test_info()->name(),
       r.program);
  return std::move(r.program);
}

std::string joined(const std::vector<std::string> &notes) {
  std::string s;
  for (const std::string &n : notes)
    s += n + "\n";
  return s;
}


std::string readFile(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// seed_exact.csv: file, launch, kernel, grid, block, metrics... (kernel quoted).
struct MeasuredLaunch {
  std::string kernel;
  core::Dim3 grid, block;
};
std::map<std::string, std::vector<MeasuredLaunch>>
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

core::Dim3 d3(uint32_t x, uint32_t y = 1, uint32_t z = 1) { return {x, y, z}; }

} // namespace

TEST(LaunchExtractor, BasicLaunchNamesAndGeometry) {
  HostProgram p = extract(R"cuda(
__global__ void k(float *p, int n) { p[threadIdx.x] = n; }
template <int B> __global__ void kt(float *p) { p[threadIdx.x] = B; }
template <class T> __global__ void kty(T *p, size_t n) {}
__global__ void never(int *p) {}
int main() {
  float *d;
  cudaMalloc(&d, 100 * sizeof(float));
  k<<<4, 128>>>(d, 5);
  kt<64><<<dim3(2, 3), dim3(32, 4), 256>>>(d + 1);
  kty<float><<<1, 1>>>(d, 7);
}
)cuda");
  ASSERT_EQ(p.launches.size(), 3u);
  const HostLaunch &a = p.launches[0];
  EXPECT_EQ(a.kernelName, "k");
  EXPECT_EQ(a.mangledName, "_Z1kPfi");
  EXPECT_EQ(a.signature, "k(float *, int)");
  EXPECT_EQ(a.grid, d3(4));
  EXPECT_EQ(a.block, d3(128));
  EXPECT_EQ(a.dynamicSharedBytes, 0u);
  EXPECT_EQ(a.loc.line, 9u);
  EXPECT_EQ(a.loc.file, "/src/t.cu");
  ASSERT_EQ(a.args.size(), 2u);
  EXPECT_EQ(a.args[0].value.kind, HostValue::Kind::DevicePtr);
  EXPECT_EQ(a.args[0].value.allocation, 0);
  EXPECT_EQ(a.args[0].value.offset, 0);
  EXPECT_EQ(a.args[0].text, "d");
  EXPECT_EQ(a.args[1].value.kind, HostValue::Kind::Int);
  EXPECT_EQ(a.args[1].value.i, 5);
  EXPECT_TRUE(a.notes.empty()) << joined(a.notes);
  const HostLaunch &b = p.launches[1];
  EXPECT_EQ(b.kernelName, "kt<64>");
  EXPECT_EQ(b.mangledName, "_Z2ktILi64EEvPf");
  EXPECT_EQ(b.signature, "void kt<64>(float *)");
  EXPECT_EQ(b.grid, d3(2, 3));
  EXPECT_EQ(b.block, d3(32, 4));
  EXPECT_EQ(b.dynamicSharedBytes, 256u);
  EXPECT_EQ(b.args[0].value.offset, 4);
  const HostLaunch &c = p.launches[2];
  EXPECT_EQ(c.signature, "void kty<float>(float *, unsigned long)");
  EXPECT_EQ(c.args[1].value.kind, HostValue::Kind::Int);
  EXPECT_EQ(c.args[1].value.i, 7);
  ASSERT_EQ(p.allocations.size(), 1u);
  EXPECT_EQ(p.allocations[0].bytes, 400u);
  EXPECT_EQ(p.allocations[0].name, "d");
  EXPECT_EQ(p.kernelsWithoutLaunch, std::vector<std::string>{"_Z5neverPi"});
}

TEST(LaunchExtractor, RoundUpIncrementAndControlFlow) {
  HostProgram p = extract(R"cuda(
#define TILE 16
__global__ void k() {}
int main() {
  int W = 1000;
  int NB = W / TILE; if (W % TILE != 0) NB++;
  int M = 1024;
  int MB = M / TILE; if (M % TILE != 0) MB++;
  dim3 grid(NB, MB);
  k<<<grid, dim3(TILE, TILE)>>>();
  { int W = 7; k<<<W, 1>>>(); }
  k<<<W > 500 ? 2 : 3, 1>>>();
  return 0;
  k<<<99, 1>>>();
}
)cuda");
  ASSERT_EQ(p.launches.size(), 3u);
  EXPECT_EQ(p.launches[0].grid, d3(63, 64));
  EXPECT_EQ(p.launches[0].block, d3(16, 16));
  EXPECT_EQ(p.launches[1].grid, d3(7));
  EXPECT_EQ(p.launches[2].grid, d3(2));
}

TEST(LaunchExtractor, LaunchInSmallLoopIsUnrolled) {
  HostProgram p = extract(R"cuda(
__global__ void k(float *p, int i) {}
int main() {
  float *d;
  cudaMalloc((void **)&d, 1024);
  for (int i = 0; i < 3; ++i)
    k<<<i + 1, 32>>>(d + i, i);
}
)cuda");
  ASSERT_EQ(p.launches.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(p.launches[i].grid, d3(i + 1));
    EXPECT_EQ(p.launches[i].args[0].value.offset, 4 * i);
    EXPECT_EQ(p.launches[i].args[1].value.i, i);
    EXPECT_TRUE(p.launches[i].notes.empty()) << joined(p.launches[i].notes);
  }
}

TEST(LaunchExtractor, BlockFromArgvIsUnknownWithNote) {
  HostProgram p = extract(R"cuda(
__global__ void k(int n) {}
int main(int argc, char **argv) {
  int bs = atoi(argv[1]);
  int n = 1 << 20;
  k<<<(n + bs - 1) / 256, bs>>>(n);
}
)cuda");
  ASSERT_EQ(p.launches.size(), 1u);
  const HostLaunch &l = p.launches[0];
  EXPECT_FALSE(l.block.has_value());
  EXPECT_EQ(l.grid, std::nullopt);
  EXPECT_EQ(l.args[0].value.i, 1 << 20);
  std::string notes = joined(l.notes);
  EXPECT_NE(notes.find("block `bs` at t.cu:6 could not be evaluated: result of "
                       "`atoi(argv[1])` at t.cu:4"), std::string::npos) << notes;
  EXPECT_NE(notes.find("atoi(argv[1])"), std::string::npos) << notes;
  EXPECT_NE(notes.find("argv"), std::string::npos) << notes;
}

TEST(LaunchExtractor, NothingHangs) {
  ExtractorOptions small;
  small.maxSteps = 20000;
  HostProgram p = extract(R"cuda(
__global__ void k(int n) {}
int forever(int n) { return forever(n + 1); }
int main(int argc, char **argv) {
  int x = 0;
  while (true) {}
  for (;;) { x++; }
  int r = forever(1);
  k<<<1, 32>>>(x);
  while (argc) k<<<2, 32>>>(r);
  for (unsigned i = 0; i < 4000000000u; ++i) k<<<3, 32>>>(1);
  k<<<4, 64>>>(5);
}
)cuda",
                          small);
  ASSERT_EQ(p.launches.size(), 4u);
  EXPECT_EQ(p.launches[0].grid, d3(1));
  EXPECT_FALSE(p.launches[0].args[0].value.known());
  EXPECT_FALSE(p.launches[1].args[0].value.known());
  EXPECT_NE(joined(p.launches[1].notes)
                .find("launch inside a loop over runtime values at t.cu:10"),
            std::string::npos)
      << joined(p.launches[1].notes);
  EXPECT_NE(joined(p.launches[2].notes).find("not unrolled"),
            std::string::npos)
      << joined(p.launches[2].notes);
  EXPECT_EQ(p.launches[3].grid, d3(4));
  EXPECT_EQ(p.launches[3].block, d3(64));
  EXPECT_EQ(p.launches[3].args[0].value.i, 5);
}

TEST(LaunchExtractor, Dim3Forms) {
  HostProgram p = extract(R"cuda(
__global__ void k() {}
int main() {
  dim3 a(4, 2);
  dim3 b = 7;
  dim3 c{3, 2, 5};
  dim3 d;
  d.x = 5;
  d.y = d.x * 2;
  dim3 e = a;
  e = c;
  k<<<a, b>>>();
  k<<<dim3{2, 3}, c>>>();
  k<<<d, 64>>>();
  k<<<e, dim3(a.y, 1)>>>();
  unsigned n = 40;
  k<<<n, (n > 32 ? 32 : n)>>>();
}
)cuda");
  ASSERT_EQ(p.launches.size(), 5u);
  EXPECT_EQ(p.launches[0].grid, d3(4, 2));
  EXPECT_EQ(p.launches[0].block, d3(7));
  EXPECT_EQ(p.launches[1].grid, d3(2, 3));
  EXPECT_EQ(p.launches[1].block, d3(3, 2, 5));
  EXPECT_EQ(p.launches[2].grid, d3(5, 10));
  EXPECT_EQ(p.launches[3].grid, d3(3, 2, 5));
  EXPECT_EQ(p.launches[3].block, d3(2));
  EXPECT_EQ(p.launches[4].grid, d3(40));
  EXPECT_EQ(p.launches[4].block, d3(32));
}

TEST(LaunchExtractor, CppArithmetic) {
  HostProgram p = extract(R"cuda(
__global__ void k(size_t a, unsigned b, int c, int d, float f, long g,
                  int h, unsigned char i, double j, int l) {}
int main() {
  size_t zero = 0;
  unsigned u = 0;
  u--;
  int neg = -7;
  const int bs = 256;
  size_t n = 1000;
  k<<<(n + bs - 1) / bs, bs>>>(zero - 1, u, neg / 2, neg % 4, 0.5f * 3,
      (long)1 << 40, std::max(3, std::min(10, 7)), (unsigned char)300,
      sizeof(double) * 2.5, (int)3.9);
}
)cuda");
  ASSERT_EQ(p.launches.size(), 1u);
  const HostLaunch &l = p.launches[0];
  EXPECT_EQ(l.grid, d3(4));
  ASSERT_EQ(l.args.size(), 10u);
  EXPECT_EQ(uint64_t(l.args[0].value.i), ~uint64_t(0));
  EXPECT_EQ(l.args[1].value.i, 4294967295);
  EXPECT_EQ(l.args[2].value.i, -3);
  EXPECT_EQ(l.args[3].value.i, -3);
  EXPECT_EQ(l.args[4].value.kind, HostValue::Kind::Float);
  EXPECT_DOUBLE_EQ(l.args[4].value.f, 1.5);
  EXPECT_EQ(l.args[5].value.i, int64_t(1) << 40);
  EXPECT_EQ(l.args[6].value.i, 7);
  EXPECT_EQ(l.args[7].value.i, 44);
  EXPECT_DOUBLE_EQ(l.args[8].value.f, 20.0);
  EXPECT_EQ(l.args[9].value.i, 3);
  EXPECT_TRUE(l.notes.empty()) << joined(l.notes);
}

TEST(LaunchExtractor, HelpersTemplatesReferencesLambdas) {
  HostProgram p = extract(R"cuda(
__global__ void k(float *p, int n) {}
template <typename T> T *alloc(size_t n) {
  T *d;
  if (cudaMalloc(&d, n * sizeof(T)) != cudaSuccess) { printf("oom\n"); exit(1); }
  return d;
}
void pick(int &bs, int n) { bs = n > 1000 ? 512 : 128; }
int blocks(int n, int bs) { return (n + bs - 1) / bs; }
static int scaled(int n) { int r = 1; while (r < n) r *= 2; return r; }
int main() {
  int n = 5000, bs = 0;
  pick(bs, n);
  float *buf = alloc<float>(n);
  k<<<blocks(n, bs), bs>>>(buf, n);
  auto run = [&](int b) { k<<<blocks(n, b), b>>>(buf + b, scaled(n)); };
  run(32);
  run(64);
}
)cuda");
  ASSERT_EQ(p.launches.size(), 3u);
  EXPECT_EQ(p.launches[0].grid, d3(10));
  EXPECT_EQ(p.launches[0].block, d3(512));
  EXPECT_EQ(p.launches[1].grid, d3(157));
  EXPECT_EQ(p.launches[1].block, d3(32));
  EXPECT_EQ(p.launches[1].args[0].value.offset, 32 * 4);
  EXPECT_EQ(p.launches[1].args[1].value.i, 8192);
  EXPECT_EQ(p.launches[2].block, d3(64));
  ASSERT_EQ(p.allocations.size(), 1u);
  EXPECT_EQ(p.allocations[0].name, "buf"); // named after main's variable
  EXPECT_EQ(p.allocations[0].bytes, 20000u);
  EXPECT_EQ(p.allocations[0].loc.line, 14u);
}

TEST(LaunchExtractor, ArraysRangeForAndSwitch) {
  HostProgram p = extract(R"cuda(
__global__ void k(int v) {}
int main() {
  int sizes[] = {64, 128, 256};
  for (int s : sizes) k<<<1, s>>>(s);
  for (int i = 0; i < 2; ++i) k<<<2, sizes[i] * 2>>>(i);
  for (int b : {7, 9}) k<<<b, 1>>>(0);
  int mode = 2, bs = 0;
  switch (mode) {
  case 1: bs = 10; break;
  case 2: bs = 20;
  case 3: bs += 5; break;
  default: bs = 99;
  }
  k<<<bs, 1>>>(mode);
}
)cuda");
  ASSERT_EQ(p.launches.size(), 8u);
  EXPECT_EQ(p.launches[0].block, d3(64));
  EXPECT_EQ(p.launches[2].block, d3(256));
  EXPECT_EQ(p.launches[3].block, d3(128));
  EXPECT_EQ(p.launches[4].block, d3(256));
  EXPECT_EQ(p.launches[5].grid, d3(7));
  EXPECT_EQ(p.launches[6].grid, d3(9));
  EXPECT_EQ(p.launches[7].grid, d3(25));
}

TEST(LaunchExtractor, UnknownConditionsMerge) {
  HostProgram p = extract(R"cuda(
__global__ void k(int v) {}
int main(int argc, char **argv) {
  if (argc < 2) { printf("usage\n"); return 1; }
  int same = 128, differs = 128;
  if (argc > 2) { same = 128; differs = 256; } else { differs = 64; }
  k<<<same, differs>>>(argc);
  if (argc > 3) k<<<1, 1>>>(0);
}
)cuda");
  ASSERT_EQ(p.launches.size(), 2u);
  EXPECT_EQ(p.launches[0].grid, d3(128));
  EXPECT_FALSE(p.launches[0].block.has_value());
  std::string notes = joined(p.launches[0].notes);
  EXPECT_NE(notes.find("`argc > 2` at t.cu:6"), std::string::npos) << notes;
  std::string cond = joined(p.launches[1].notes);
  EXPECT_NE(cond.find("under the condition `argc > 3` at t.cu:8"),
            std::string::npos)
      << cond;
}

TEST(LaunchExtractor, LoopsThatAreNotRunAreHavocked) {
  HostProgram p = extract(R"cuda(
__global__ void k(int a, int b, int c) {}
int main() {
  int small = 0, big = 0, keep = 3;
  for (int i = 0; i < 10; ++i) small += i;
  for (int i = 0; i < 50000; ++i) big += i;
  int scanned = 5;
  scanf("%d", &scanned);
  k<<<small, keep>>>(big, scanned, keep);
}
)cuda");
  ASSERT_EQ(p.launches.size(), 1u);
  const HostLaunch &l = p.launches[0];
  EXPECT_EQ(l.grid, d3(45));
  EXPECT_EQ(l.block, d3(3));
  EXPECT_FALSE(l.args[0].value.known());
  EXPECT_NE(l.args[0].value.why.find("loop at t.cu:6"), std::string::npos)
      << l.args[0].value.why;
  EXPECT_FALSE(l.args[1].value.known());
  EXPECT_NE(l.args[1].value.why.find("scanf"), std::string::npos)
      << l.args[1].value.why;
  EXPECT_EQ(l.args[2].value.i, 3);
}

TEST(LaunchExtractor, AllocationsAndDeviceQueries) {
  const char *code = R"cuda(
__global__ void k(float *a, float *b, int *c, int n) {}
int main() {
  const int n = 1 << 10;
  float *a, *b; int *c;
  cudaMalloc((void **)&a, n * sizeof(float));
  cudaMallocManaged(&b, 2 * n * sizeof(float) + 64);
  cudaMalloc(&c, 100);
  float host[16];
  cudaMemcpy(a, host, sizeof(host), cudaMemcpyHostToDevice);
  cudaMemset(c, 0, 100);
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  k<<<sms * 2, prop.maxThreadsPerBlock>>>(a, b + 16, c + 1, n);
}
)cuda";
  HostProgram p = extract(code);
  ASSERT_EQ(p.allocations.size(), 3u);
  EXPECT_EQ(p.allocations[0].bytes, 4096u);
  EXPECT_TRUE(p.allocations[0].hostInitialized);
  EXPECT_FALSE(p.allocations[0].zeroed);
  EXPECT_EQ(p.allocations[1].bytes, 8256u);
  EXPECT_FALSE(p.allocations[1].hostInitialized);
  EXPECT_EQ(p.allocations[2].name, "c");
  EXPECT_TRUE(p.allocations[2].zeroed);
  ASSERT_EQ(p.launches.size(), 1u);
  const HostLaunch &l = p.launches[0];
  EXPECT_FALSE(l.grid.has_value());
  EXPECT_FALSE(l.block.has_value());
  std::string notes = joined(l.notes);
  EXPECT_NE(notes.find("device query "
                       "cudaDeviceGetAttribute(cudaDevAttrMultiProcessorCount) "
                       "at t.cu:13"),
            std::string::npos)
      << notes;
  EXPECT_NE(notes.find("cudaGetDeviceProperties at t.cu:15"),
            std::string::npos)
      << notes;
  EXPECT_EQ(l.args[1].value.allocation, 1);
  EXPECT_EQ(l.args[1].value.offset, 64);
  EXPECT_EQ(l.args[2].value.offset, 4);

  // The caller (kcheck --arch) can answer device queries.
  ExtractorOptions h100;
  h100.deviceQuery = [](const std::string &q) -> std::optional<int64_t> {
    if (q == "cudaDevAttrMultiProcessorCount" || q == "multiProcessorCount")
      return 132;
    if (q == "maxThreadsPerBlock")
      return 1024;
    return std::nullopt;
  };
  HostProgram q = extract(code, h100);
  ASSERT_EQ(q.launches.size(), 1u);
  EXPECT_EQ(q.launches[0].grid, d3(264));
  EXPECT_EQ(q.launches[0].block, d3(1024));
}

TEST(LaunchExtractor, LaunchKernelApiGlobalsAndUnreachableLaunches) {
  HostProgram p = extract(R"cuda(
extern "C" __global__ void plain(int *p, int n) {}
namespace ns { __global__ void inner(int n) {} }
__global__ void unreachable() {}
constexpr int kThreads = 96;
int gBlocks = 12;
void neverCalled() { unreachable<<<1, 1>>>(); }
int main() {
  int *d; cudaMalloc(&d, 64);
  int n = 9;
  void *args[] = {&d, &n};
  cudaLaunchKernel((const void *)plain, dim3(gBlocks), dim3(kThreads), args, 0, 0);
  gBlocks *= 2;
  ns::inner<<<gBlocks, kThreads>>>(n);
}
)cuda");
  ASSERT_EQ(p.launches.size(), 2u);
  const HostLaunch &a = p.launches[0];
  EXPECT_EQ(a.mangledName, "plain");
  EXPECT_EQ(a.grid, d3(12));
  EXPECT_EQ(a.block, d3(96));
  ASSERT_EQ(a.args.size(), 2u);
  EXPECT_EQ(a.args[0].value.kind, HostValue::Kind::DevicePtr);
  EXPECT_EQ(a.args[1].value.i, 9);
  const HostLaunch &b = p.launches[1];
  EXPECT_EQ(b.kernelName, "ns::inner");
  EXPECT_EQ(b.signature, "ns::inner(int)");
  EXPECT_EQ(b.mangledName, "_ZN2ns5innerEi");
  EXPECT_EQ(b.grid, d3(24));
  EXPECT_EQ(p.kernelsWithoutLaunch,
            std::vector<std::string>{"_Z11unreachablev"});
}

TEST(LaunchExtractor, KernelPointersMethodsAndNsightTypeNames) {
  HostProgram p = extract(R"cuda(
__global__ void k2(const float *__restrict__ a, float4 *b, bool c,
                   long long d, unsigned char e, int64_t f) {}
__global__ void k(int n) {}
typedef void (*Kernel)(int);
template <typename F> void launch(F kernel, int n) { kernel<<<n, 32>>>(n); }
void launchPtr(Kernel kernel, int n) { kernel<<<n, 64>>>(n); }
int twice(int n) { return 2 * n; }
struct Runner {
  int blocks;
  static int threads() { return 128; }
  void go(int n) { k<<<n, threads()>>>(blocks); }
};
int main() {
  launch(k, 3);
  launchPtr(&k, 4);
  int (*f)(int) = twice;
  Runner r;
  r.go(f(5));
  k2<<<1, 1>>>(nullptr, nullptr, true, 1, 2, 3);
}
)cuda");
  ASSERT_EQ(p.launches.size(), 4u);
  EXPECT_EQ(p.launches[0].mangledName, "_Z1ki");
  EXPECT_EQ(p.launches[0].grid, d3(3));
  EXPECT_EQ(p.launches[1].mangledName, "_Z1ki");
  EXPECT_EQ(p.launches[1].block, d3(64));
  const HostLaunch &m = p.launches[2];
  EXPECT_EQ(m.grid, d3(10));
  EXPECT_EQ(m.block, d3(128));
  EXPECT_FALSE(m.args[0].value.known()); // a member: objects are not tracked
  EXPECT_EQ(p.launches[3].signature,
            "k2(const float *, float4 *, bool, long long, unsigned char, "
            "long)");
}

// The seed programs, as measured on the H100: same launches, same order, same
// geometry and Nsight names; mangled names equal the device IR's kernels.
TEST(LaunchExtractor, SeedCorpus) {
  std::string corpus = KCHECK_CORPUS_DIR;
  std::string common = readFile(corpus + "/common.h");
  if (common.empty())
    GTEST_SKIP() << "no corpus at " << corpus;
  auto measured = readMeasured(corpus + "/h100/seed_exact.csv");
  ASSERT_FALSE(measured.empty());
  std::map<std::string, std::vector<std::string>> mangled = {
      {"reduce_bbuf.cu",
       {"_Z9reduce_v0PfS_", "_Z9reduce_v1PfS_", "_Z9reduce_v2PfS_",
        "_Z9reduce_v3PfS_", "_Z9reduce_v4PfS_", "_Z9reduce_v5ILj256EEvPfS0_",
        "_Z9reduce_v6ILj256ELi128EEvPfS0_",
        "_Z9reduce_v7ILj256ELi128EEvPfS0_j", "_Z9reduce_v8PfS_j"}},
      {"reduce_cg.cu",
       {"_Z20reduce_gpu_v1_kernelPKimPi", "_Z20reduce_gpu_v2_kernelPKimPi",
        "_Z20reduce_gpu_v4_kernelPKimPi",
        "_Z20reduce_gpu_v7_kernelILi512EEvPKimPi",
        "_Z20reduce_gpu_v9_kernelILi512EEvPKimPi"}},
      {"sgemm.cu",
       {"_Z15sgemm_vectorizeILi128ELi128ELi8ELi8ELi8EEviiiPKfS1_Pf",
        "_Z17sgemm_warp_tilingILi128ELi128ELi16ELi64ELi64ELi4ELi8ELi4ELi128EEv"
        "iiiPKfS1_Pf"}},
      {"slides.cu",
       {"_Z13PictureKernelPfS_ii", "_Z12MatMulKernelPfS_S_i",
        "_Z11MatMulTiledPfS_S_i",
        "_Z17SlideReduceModuloPfS_", "_Z18SlideReduceHalvingPfS_",
        "_Z12ColumnRead32PKfPfi", "_Z12ColumnRead33PKfPfi",
        "_Z10OffsetCopyPfPKfi", "_Z10OffsetCopyPfPKfi",
        "_Z10StrideCopyPfPKfi"}}};
  std::map<std::string, HostProgram> programs;
  for (const auto &[file, rows] : measured) {
    SCOPED_TRACE(file);
    std::string code = readFile(corpus + "/seed/" + file);
    ASSERT_FALSE(code.empty());
    Result r = run(code, "/kcheck-corpus/seed/" + file,
                   {{"/kcheck-corpus/common.h", common}}, {}, true);
    ASSERT_TRUE(r.ok);
    const HostProgram &p = r.program;
    dump(file, p);
    ASSERT_EQ(p.launches.size(), rows.size());
    EXPECT_TRUE(p.kernelsWithoutLaunch.empty());
    for (size_t i = 0; i < rows.size(); ++i) {
      SCOPED_TRACE("launch " + std::to_string(i));
      const HostLaunch &l = p.launches[i];
      EXPECT_EQ(l.signature, rows[i].kernel);
      EXPECT_EQ(l.mangledName, mangled[file][i]);
      EXPECT_TRUE(r.irKernels.count(l.mangledName)) << l.mangledName;
      EXPECT_EQ(l.block, rows[i].block);
      if (l.kernelName == "reduce_v8") {
        // Its grid is the device's SM count * threads per SM / 256.
        EXPECT_FALSE(l.grid.has_value());
        std::string notes = joined(l.notes);
        EXPECT_NE(notes.find("device query cudaDeviceGetAttribute("
                             "cudaDevAttrMultiProcessorCount) at "
                             "reduce_bbuf.cu:161"),
                  std::string::npos)
            << notes;
        continue;
      }
      EXPECT_EQ(l.grid, rows[i].grid);
      EXPECT_TRUE(l.notes.empty()) << joined(l.notes);
      for (const LaunchArg &a : l.args)
        EXPECT_TRUE(a.value.known()) << a.text << ": " << a.value.why;
    }
    programs[file] = p;
  }

  const HostProgram &bbuf = programs["reduce_bbuf.cu"];
  ASSERT_EQ(bbuf.allocations.size(), 2u);
  EXPECT_EQ(bbuf.allocations[0].name, "in");
  EXPECT_EQ(bbuf.allocations[0].bytes, 32u * 1024 * 1024 * 4);
  EXPECT_TRUE(bbuf.allocations[0].hostInitialized);
  EXPECT_EQ(bbuf.allocations[1].name, "out");
  EXPECT_EQ(bbuf.allocations[1].bytes, 32u * 1024 * 1024 / 256 * 4);
  EXPECT_TRUE(bbuf.allocations[1].zeroed);
  EXPECT_EQ(bbuf.launches[7].args[2].value.i, 32 * 1024 * 1024);
  EXPECT_EQ(bbuf.launches[0].loc.line, 218u);

  const HostProgram &cg = programs["reduce_cg.cu"];
  for (size_t i = 0; i < cg.launches.size(); ++i)
    EXPECT_EQ(cg.launches[i].dynamicSharedBytes, i < 3 ? 1024u : 2048u);
  EXPECT_EQ(cg.launches[0].args[1].value.i, 32 * 1024 * 1024);

  const HostProgram &sgemm = programs["sgemm.cu"];
  ASSERT_EQ(sgemm.allocations.size(), 3u);
  EXPECT_EQ(sgemm.allocations[2].name, "C");
  EXPECT_EQ(sgemm.launches[1].args[0].value.i, 1024);

  const HostProgram &slides = programs["slides.cu"];
  ASSERT_EQ(slides.allocations.size(), 11u);
  const HostAllocation &in = slides.allocations[9];
  EXPECT_EQ(in.name, "in");
  EXPECT_EQ(in.bytes, (2u * 4 * 1024 * 1024 + 64) * 4);
  EXPECT_EQ(slides.allocations[10].bytes, in.bytes);
  const HostLaunch &off0 = slides.launches[7], &off1 = slides.launches[8];
  EXPECT_EQ(off0.args[0].value.allocation, 10);
  EXPECT_EQ(off0.args[0].value.offset, 0);
  EXPECT_EQ(off0.args[1].value.allocation, 9);
  EXPECT_EQ(off0.args[2].value.i, 0);
  EXPECT_EQ(off1.args[2].value.i, 1);
  EXPECT_EQ(slides.launches[1].grid, d3(64, 64)); // NB = W / TILE_WIDTH ...
  EXPECT_EQ(slides.launches[1].args[3].value.i, 1024);
}

} // namespace kcheck::analyzer
