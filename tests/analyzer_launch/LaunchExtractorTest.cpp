// Tests of the host launch extractor on small CUDA programs, parsed in
// device-only CUDA mode with the minimal stub headers of LaunchTestSupport.h.
#include "LaunchTestSupport.h"

namespace kcheck::analyzer {
namespace {

using namespace launch_test;

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

TEST(LaunchExtractor, LaunchThroughADereferencedFunctionPointer) {
  // CUB's histogram benchmark: RunTest(..., run_smem_atomics<...>) calls
  // `(*f)(...)`, the function pointer dereferenced.
  HostProgram p = extract(R"cuda(
__global__ void k(float *p) {}
template <int N> double run(float *d, bool warm) {
  k<<<N, 32>>>(d);
  return 0;
}
template <int N>
void runTest(float *d, double (*f)(float *, bool)) {
  (*f)(d, true);
  (**f)(d, false);
}
int main() {
  float *d;
  cudaMalloc((void **)&d, 1024);
  runTest<1>(d, run<4>);
}
)cuda");
  ASSERT_EQ(p.launches.size(), 2u);
  for (const HostLaunch &l : p.launches) {
    EXPECT_EQ(l.grid, d3(4));
    EXPECT_TRUE(l.notes.empty()) << joined(l.notes);
  }
}

TEST(LaunchExtractor, LaunchThroughAPerfectForwardingWrapper) {
  // HeCBench's benchmark_kernel(repeats, kernel, std::forward<Args>(args)...)
  // around a lambda that launches.
  HostProgram p = extract(R"cuda(
#include <utility>
__global__ void k(float *p, int n) {}
template <class Kernel, class... Args>
void bench(int repeats, Kernel kernel, Args &&...args) {
  for (int i = 0; i < repeats; i++)
    kernel(std::forward<Args>(args)...);
}
void launch(float *d, int n, const int block) {
  k<<<(n + block - 1) / block, block>>>(d, n);
}
int main() {
  float *d;
  cudaMalloc((void **)&d, 4096);
  int n = 1000;
  bench(2, launch, d, std::move(n), 128);
}
)cuda");
  ASSERT_EQ(p.launches.size(), 2u);
  for (const HostLaunch &l : p.launches) {
    EXPECT_EQ(l.grid, d3(8));
    EXPECT_EQ(l.block, d3(128));
    EXPECT_EQ(l.args[1].value.i, 1000);
    EXPECT_TRUE(l.notes.empty()) << joined(l.notes);
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
                       "`atoi(argv[1])` at t.cu:4"),
            std::string::npos)
      << notes;
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
  EXPECT_NE(joined(p.launches[2].notes).find("not unrolled"), std::string::npos)
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

// A range-for over an array of arrays or of structs visits its elements,
// not its scalars: by reference and by copy.
TEST(LaunchExtractor, RangeForOverArraysOfObjects) {
  HostProgram p = extract(R"cuda(
__global__ void k(int v) {}
struct Shape { int grid, block; };
int main() {
  const int pairs[][2] = {{1, 32}, {2, 64}, {3, 96}};
  for (const auto &q : pairs) k<<<q[0], q[1]>>>(q[0] + q[1]);
  Shape shapes[2] = {{4, 128}, {5, 160}};
  for (Shape s : shapes) k<<<s.grid, s.block>>>(0);
}
)cuda");
  ASSERT_EQ(p.launches.size(), 5u);
  EXPECT_EQ(p.launches[0].grid, d3(1));
  EXPECT_EQ(p.launches[0].block, d3(32));
  EXPECT_EQ(p.launches[2].grid, d3(3));
  EXPECT_EQ(p.launches[2].block, d3(96));
  EXPECT_EQ(p.launches[2].args[0].value.i, 99);
  EXPECT_EQ(p.launches[3].block, d3(128));
  EXPECT_EQ(p.launches[4].grid, d3(5));
  EXPECT_EQ(p.launches[4].block, d3(160));
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

} // namespace
} // namespace kcheck::analyzer
