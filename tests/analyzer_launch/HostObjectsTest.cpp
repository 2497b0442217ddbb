// Tests of the host evaluator's objects (structs, classes and arrays as
// flattened slots), the library calls over them, and the launch arguments a
// struct passed by value becomes.
#include "LaunchTestSupport.h"

namespace kcheck::analyzer {
namespace {

using namespace launch_test;

const ArgField *field(const LaunchArg &a, const std::string &path) {
  if (!a.fields)
    return nullptr;
  for (const ArgField &f : *a.fields)
    if (f.path == path)
      return &f;
  return nullptr;
}

TEST(HostObjects, StructByValueFieldsAndLayout) {
  HostProgram p = extract(R"cuda(
struct Params { float *in; int n; float scale; int dims[3]; double eps; };
__global__ void k(Params p) {}
int main() {
  Params p;
  cudaMalloc(&p.in, 1024);
  p.n = 256;
  p.scale = 0.5f;
  for (int i = 0; i < 3; ++i)
    p.dims[i] = 10 * (i + 1);
  p.eps = 1e-6;
  Params q = p;          // a copy
  q.dims[2] += 1;
  Params *r = &q;        // through a pointer
  r->n *= 2;
  k<<<1, 32>>>(q);
}
)cuda");
  ASSERT_EQ(p.launches.size(), 1u);
  const LaunchArg &a = p.launches[0].args[0];
  ASSERT_TRUE(a.fields.has_value()) << joined(p.launches[0].notes);
  ASSERT_EQ(a.fields->size(), 7u);
  const ArgField *in = field(a, "q.in"), *n = field(a, "q.n");
  const ArgField *scale = field(a, "q.scale"), *d2 = field(a, "q.dims[2]");
  const ArgField *eps = field(a, "q.eps");
  ASSERT_TRUE(in && n && scale && d2 && eps);
  EXPECT_EQ(in->offset, 0u);
  EXPECT_EQ(in->type, ArgField::Type::Pointer);
  EXPECT_EQ(in->value.kind, HostValue::Kind::DevicePtr);
  EXPECT_EQ(n->offset, 8u);
  EXPECT_EQ(n->value.i, 512);
  EXPECT_EQ(scale->offset, 12u);
  EXPECT_EQ(scale->type, ArgField::Type::Float);
  EXPECT_EQ(scale->value.f, 0.5);
  EXPECT_EQ(d2->offset, 24u);
  EXPECT_EQ(d2->value.i, 31);
  EXPECT_EQ(eps->offset, 32u);
  EXPECT_EQ(eps->type, ArgField::Type::Double);
}

TEST(HostObjects, ConstructorsMethodsAndArraysOfAnyRank) {
  HostProgram p = extract(R"cuda(
#include <algorithm>
#include <iterator>
template <int N> struct Accessor {
  float *data;
  long sizes[N];
  long strides[N];
  Accessor(float *d, const long *s, const long *t) : data(d) {
    std::copy(s, s + N, std::begin(sizes));
    std::copy(t, t + N, std::begin(this->strides));
  }
  long size(int i) const { return sizes[i]; }
};
struct Base { int a; };
struct Counter { int n; Counter() : n(5) {} };
struct Derived : Base { int b; };
__global__ void k(Accessor<2> acc, int x) {}
int main() {
  int blocks[2][3] = {{16, 8, 1}, {4, 4, 4}};
  int *row = blocks[1];
  long s[2] = {row[0], blocks[0][1]}, t[2] = {8, 1};
  float *d;
  cudaMalloc(&d, 4096);
  Accessor<2> acc(d, s, t);
  Counter counters[3]; // each element constructed
  Derived der;
  der.a = counters[2].n - 2;
  der.b = 4;
  k<<<acc.size(0), blocks[0][0]>>>(acc, der.a + der.b);
}
)cuda");
  ASSERT_EQ(p.launches.size(), 1u);
  const HostLaunch &l = p.launches[0];
  EXPECT_EQ(l.grid, d3(4)) << joined(l.notes);
  EXPECT_EQ(l.block, d3(16));
  ASSERT_TRUE(l.args[0].fields.has_value());
  EXPECT_EQ(field(l.args[0], "acc.sizes[1]")->value.i, 8);
  EXPECT_EQ(field(l.args[0], "acc.strides[0]")->value.i, 8);
  EXPECT_EQ(field(l.args[0], "acc.strides[1]")->offset, 32u);
  EXPECT_EQ(l.args[1].value.i, 7);
}

TEST(HostObjects, PairsStringsAndDeviceQueryArrays) {
  ExtractorOptions h100;
  h100.deviceQuery = [](const std::string &q) -> std::optional<int64_t> {
    if (q == "maxGridSize[0]")
      return 2147483647;
    return std::nullopt;
  };
  HostProgram p = extract(R"cuda(
#include <string>
#include <utility>
__global__ void k(std::pair<unsigned long, unsigned long> seeds, bool nhwc) {}
int main() {
  std::pair<unsigned long, unsigned long> seeds;
  seeds.first = 12345;
  seeds.second = 678;
  const std::string format = "NCHW";
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  long blocks = prop.maxGridSize[0] < 100 ? prop.maxGridSize[0] : 100;
  k<<<blocks, 64>>>(seeds, format == "NHWC");
}
)cuda",
                          h100);
  ASSERT_EQ(p.launches.size(), 1u);
  const HostLaunch &l = p.launches[0];
  EXPECT_EQ(l.grid, d3(100)) << joined(l.notes);
  ASSERT_TRUE(l.args[0].fields.has_value());
  EXPECT_EQ(field(l.args[0], "seeds.first")->value.i, 12345);
  EXPECT_EQ(field(l.args[0], "seeds.second")->offset, 8u);
  EXPECT_EQ(l.args[1].value.kind, HostValue::Kind::Int);
  EXPECT_EQ(l.args[1].value.i, 0);
}

TEST(HostObjects, StdOptionalOfAScalar) {
  HostProgram p = extract(R"cuda(
#include <optional>
__global__ void k(float *p, float s) {}
int run(float *d, int dim, std::optional<float> scale = std::nullopt) {
  float s = scale.value_or(1.f / dim);
  std::optional<int> blocks;
  if (!blocks.has_value())
    blocks = 3;
  if (scale)
    blocks = *blocks + 1;
  k<<<*blocks, int(s * 64)>>>(d, s);
  return 0;
}
int main() {
  float *d;
  cudaMalloc(&d, 1024);
  run(d, 16);
  run(d, 16, 0.5f);
}
)cuda");
  ASSERT_EQ(p.launches.size(), 2u);
  EXPECT_EQ(p.launches[0].grid, d3(3)) << joined(p.launches[0].notes);
  EXPECT_EQ(p.launches[0].block, d3(4));
  EXPECT_EQ(p.launches[1].grid, d3(4)) << joined(p.launches[1].notes);
  EXPECT_EQ(p.launches[1].block, d3(32));
}

TEST(HostObjects, OptionsParsedFromArgvIntoAStruct) {
  // strcmp on argv, strncpy into a char array field, printf reading it.
  ExtractorOptions args;
  args.programArgs = std::vector<std::string>{"--op", "expand", "--n", "96"};
  HostProgram p = extract(R"cuda(
#include <cstdio>
#include <cstdlib>
#include <cstring>
struct Config { char op[32]; int n; };
static Config parse(int argc, char **argv) {
  Config cfg;
  strcpy(cfg.op, "shrink");
  cfg.n = 64;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--op") && i + 1 < argc) strncpy(cfg.op, argv[++i], 31);
    else if (!strcmp(argv[i], "--n") && i + 1 < argc) cfg.n = atoi(argv[++i]);
    else exit(0);
  }
  return cfg;
}
__global__ void k(int *p) {}
int main(int argc, char **argv) {
  Config cfg = parse(argc, argv);
  printf("op %s\n", cfg.op);
  int *d;
  cudaMalloc(&d, 4096);
  if (!strcmp(cfg.op, "shrink"))
    k<<<1, cfg.n>>>(d);
  else
    k<<<2, cfg.n>>>(d);
}
)cuda",
                          args);
  ASSERT_EQ(p.launches.size(), 1u);
  EXPECT_EQ(p.launches[0].grid, d3(2)) << joined(p.launches[0].notes);
  EXPECT_EQ(p.launches[0].block, d3(96));
}

TEST(HostObjects, SizesScannedFromArgvWithSscanf) {
  // CuTe's tutorials: `if (argc >= 2) sscanf(argv[1], "%d", &m);` and a
  // char for the layout; a format kcheck does not read stays unknown.
  ExtractorOptions args;
  args.programArgs = std::vector<std::string>{"512", "96x2.5", "T"};
  HostProgram p = extract(R"cuda(
#include <cstdio>
__global__ void k(int *p) {}
int main(int argc, char **argv) {
  int m = 64, rows = 0;
  double scale = 0;
  char trans = 'N';
  char name[8];
  if (argc >= 2) sscanf(argv[1], "%d", &m);
  if (argc >= 3) sscanf(argv[2], "%dx%lf", &rows, &scale);
  if (argc >= 4) sscanf(argv[3], "%c", &trans);
  int *d;
  cudaMalloc(&d, 4096);
  k<<<m / 128, rows + (scale == 2.5 ? 1 : 0)>>>(d);
  if (trans == 'T')
    k<<<1, 32>>>(d);
  int unknown = 1;
  sscanf(argv[1], "%3s", name);
  sscanf(argv[1], "%s%d", name, &unknown);
  k<<<unknown, 32>>>(d);
}
)cuda",
                          args);
  ASSERT_EQ(p.launches.size(), 3u);
  EXPECT_EQ(p.launches[0].grid, d3(4)) << joined(p.launches[0].notes);
  EXPECT_EQ(p.launches[0].block, d3(97)) << joined(p.launches[0].notes);
  EXPECT_EQ(p.launches[1].grid, d3(1)) << joined(p.launches[1].notes);
  EXPECT_FALSE(p.launches[2].grid.has_value());
}

TEST(HostObjects, HeapObjectsAndWritesThroughPointersInLoops) {
  // `new Matrix[3]` is tracked; a loop too long to follow writes through
  // `p`, which makes what p points to unknown, not p, nor other variables.
  HostProgram p = extract(R"cuda(
struct Matrix { int width, height; float *elements; };
__global__ void k(Matrix a, int n) {}
int main() {
  Matrix *m = new Matrix[3];
  for (int i = 0; i < 3; i++) {
    m[i].width = m[i].height = 128;
    m[i].elements = new float[128 * 128];
    for (int j = 0; j < 128 * 128; j++) m[i].elements[j] = 1.0f;
  }
  int table[4] = {1, 2, 3, 4};
  int *t = table;
  for (int j = 0; j < 5000; j++) t[j % 4] = j;
  k<<<m[1].width / 32, 32>>>(m[0], table[2]);
}
)cuda");
  ASSERT_EQ(p.launches.size(), 1u);
  const HostLaunch &l = p.launches[0];
  EXPECT_EQ(l.grid, d3(4)) << joined(l.notes);
  ASSERT_TRUE(l.args[0].fields.has_value());
  EXPECT_EQ(field(l.args[0], "m[0].height")->value.i, 128);
  EXPECT_EQ(l.args[1].value.kind, HostValue::Kind::Unknown); // via `t`
}

TEST(HostObjects, ExitAfterADroppedReturnMeansTheCallReturned) {
  // A search whose success depends on what the evaluator cannot know, with
  // exit() after the loop: the program goes on only if it returned.
  HostProgram p = extract(R"cuda(
#include <stdlib.h>
__global__ void k(int *p) {}
int pick(int h, dim3 &block) {
  for (int i = 0; i < 4; ++i) {
    int need = (h * 4 + i) % 7;
    if (need < rand()) {
      block.x = 16 >> i;
      return need;
    }
  }
  exit(1);
}
int main() {
  dim3 block;
  int smem = pick(3, block);
  int *d;
  cudaMalloc(&d, 256);
  k<<<2, block, smem>>>(d);
}
)cuda");
  ASSERT_EQ(p.launches.size(), 1u);
  const HostLaunch &l = p.launches[0];
  EXPECT_EQ(l.block, d3(16)) << joined(l.notes);
  EXPECT_FALSE(l.dynamicSharedBytes.has_value());
}

} // namespace
} // namespace kcheck::analyzer
