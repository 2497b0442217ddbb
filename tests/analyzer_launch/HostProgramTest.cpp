// Launch extraction from whole programs: allocations and device queries,
// the launch API, globals and statics, kernel pointers and methods, argv,
// exits and throws.
#include "LaunchTestSupport.h"

namespace kcheck::analyzer {
namespace {

using namespace launch_test;

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
  EXPECT_NE(notes.find("cudaGetDeviceProperties at t.cu:15"), std::string::npos)
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

TEST(LaunchExtractor, GlobalsStaticsAndPointersToObjects) {
  HostProgram p = extract(R"cuda(
__global__ void k(int v) {}
extern int gScale;
int gScale = 3;
int gZero;
const int kSizes[4] = {32, 64};
int counter() { static int calls = 10; return ++calls; }
int main() {
  cudaDeviceProp prop;
  cudaDeviceProp *pp = &prop;
  cudaGetDeviceProperties(pp, 0);
  counter();
  k<<<kSizes[1] * gScale, kSizes[3] + 1>>>(counter() + gZero);
  k<<<1, pp->maxThreadsPerBlock>>>(0);
}
)cuda");
  ASSERT_EQ(p.launches.size(), 2u);
  EXPECT_EQ(p.launches[0].grid, d3(192));
  EXPECT_EQ(p.launches[0].block, d3(1));
  EXPECT_EQ(p.launches[0].args[0].value.i, 12);
  EXPECT_FALSE(p.launches[1].block.has_value());
  EXPECT_NE(joined(p.launches[1].notes)
                .find("device query cudaGetDeviceProperties at t.cu:11"),
            std::string::npos)
      << joined(p.launches[1].notes);
}

TEST(LaunchExtractor, ArgcOptionExitsAndThrows) {
  const char *code = R"cuda(
#include <cassert>
__global__ void k(int v) {}
int main(int argc, char **argv) {
  int n = 1 << 20;
  if (argc > 1) n = atoi(argv[1]);
  if (n <= 0) throw 1;
  assert(n % 256 == 0);
  int *d = nullptr;
  if (cudaMalloc(&d, n * sizeof(int)) != cudaSuccess || d == nullptr) abort();
  k<<<n / 256, 256>>>(n);
}
)cuda";
  HostProgram unknownArgs = extract(code);
  ASSERT_EQ(unknownArgs.launches.size(), 1u);
  EXPECT_FALSE(unknownArgs.launches[0].grid.has_value());
  ExtractorOptions noArgs;
  noArgs.argc = 1;
  HostProgram p = extract(code, noArgs);
  ASSERT_EQ(p.launches.size(), 1u);
  EXPECT_EQ(p.launches[0].grid, d3(4096));
  EXPECT_EQ(p.launches[0].args[0].value.i, 1 << 20);
  EXPECT_TRUE(p.launches[0].notes.empty()) << joined(p.launches[0].notes);
  ASSERT_EQ(p.allocations.size(), 1u);
  EXPECT_EQ(p.allocations[0].bytes, 4u << 20);
}

TEST(LaunchExtractor, HostReferenceLoopsDoNotStarveLaunches) {
  HostProgram p = extract(R"cuda(
__global__ void k(float *c, int n) {}
float *make(int n) { float *d; cudaMalloc(&d, n * sizeof(float)); return d; }
int main() {
  const int n = 100;
  float a[n], b[n], c[n];
  for (int r = 0; r < 3; ++r)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        for (int q = 0; q < n; ++q) c[i] += a[q] * b[j] * r;
  for (int t = 0; t < 40; ++t) {
    int acc = 0;
    for (int i = 0; i < n; ++i) acc += i;
    c[t] = acc;
  }
  float *d = make(n);
  k<<<(n + 31) / 32, 32>>>(d, n);
}
)cuda");
  ASSERT_EQ(p.launches.size(), 1u);
  EXPECT_EQ(p.launches[0].grid, d3(4));
  EXPECT_EQ(p.launches[0].args[0].value.kind, HostValue::Kind::DevicePtr);
  EXPECT_TRUE(p.launches[0].notes.empty()) << joined(p.launches[0].notes);
  EXPECT_TRUE(p.notes.empty()) << joined(p.notes);
  ASSERT_EQ(p.allocations.size(), 1u);
  EXPECT_EQ(p.allocations[0].bytes, 400u);
}

// An allocation past the device's memory fails as the runtime answers it
// (core::deviceAllocationError): no allocation, the error code, a note.
TEST(LaunchExtractor, AllocationPastTheDevicesMemoryFails) {
  const char *code = R"cuda(
__global__ void k(float *a) {}
int main() {
  float *a, *b;
  int failed = cudaMalloc(&a, size_t(1) << 50);
  cudaMalloc(&b, 1024);
  k<<<failed, 32>>>(b);
}
)cuda";
  ExtractorOptions options;
  options.arch = *core::findArch("sm_90");
  HostProgram p = extract(code, options);
  ASSERT_EQ(p.allocations.size(), 1u);
  EXPECT_EQ(p.allocations[0].bytes, 1024u);
  ASSERT_EQ(p.launches.size(), 1u);
  ASSERT_TRUE(p.launches[0].grid);
  EXPECT_EQ(p.launches[0].grid->x, 2u); // cudaErrorMemoryAllocation
  bool noted = false;
  for (const std::string &n : p.notes)
    noted |= n.find("the allocation of 1125899906842624 bytes at") !=
                 std::string::npos &&
             n.find("fails (cudaErrorMemoryAllocation)") != std::string::npos;
  EXPECT_TRUE(noted);
}

} // namespace
} // namespace kcheck::analyzer
