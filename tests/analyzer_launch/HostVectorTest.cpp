// Tests of the host evaluator's std::vector model (HostEvaluatorVector.cpp):
// each expected launch size is what the program computes with libstdc++
// (worked out by hand from the C++ standard's definitions of the calls).
#include "LaunchTestSupport.h"

namespace kcheck::analyzer {
namespace {

using namespace launch_test;

// Sizes from construction, push_back, resize, assign, clear and copies; a
// copy has elements of its own.
TEST(HostVector, SizesAndElements) {
  HostProgram p = extract(R"cuda(
#include <vector>
__global__ void k(float *p, int n) {}
int main() {
  std::vector<float> h(1000, 1.0f);
  float *d;
  cudaMalloc(&d, h.size() * sizeof(float));
  cudaMemcpy(d, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice);
  int n = (int)h.size();
  k<<<(n + 255) / 256, 256>>>(d, n);                 // 4, 256
  std::vector<int> v;
  for (int i = 0; i < 10; ++i)
    v.push_back(i * 3);
  k<<<v.size(), v[9] + v.back() + v.front()>>>(d, n); // 10, 54
  std::vector<int> w = v;
  w[2] = 100;
  w.pop_back();
  k<<<w[2] + v[2], w.size()>>>(d, v.empty());         // 106, 9
  w.resize(20, 7);
  v.assign(3, 5);
  k<<<w.size() + w[19], v.size() * v[0]>>>(d, n);     // 27, 15
  v.clear();
  std::vector<int> list{4, 5, 6};
  k<<<v.size() + 1, list[1] * list.size()>>>(d, n);   // 1, 15
}
)cuda");
  ASSERT_EQ(p.launches.size(), 5u);
  ASSERT_EQ(p.allocations.size(), 1u);
  EXPECT_EQ(p.allocations[0].bytes, 4000u);
  EXPECT_EQ(p.launches[0].grid, d3(4)) << joined(p.launches[0].notes);
  EXPECT_EQ(p.launches[0].block, d3(256));
  EXPECT_EQ(p.launches[1].grid, d3(10)) << joined(p.launches[1].notes);
  EXPECT_EQ(p.launches[1].block, d3(54));
  EXPECT_EQ(p.launches[2].grid, d3(106)) << joined(p.launches[2].notes);
  EXPECT_EQ(p.launches[2].block, d3(9));
  EXPECT_EQ(p.launches[2].args[1].value.i, 0);
  EXPECT_EQ(p.launches[3].grid, d3(27)) << joined(p.launches[3].notes);
  EXPECT_EQ(p.launches[3].block, d3(15));
  EXPECT_EQ(p.launches[4].grid, d3(1)) << joined(p.launches[4].notes);
  EXPECT_EQ(p.launches[4].block, d3(15));
}

// Range-for, a vector passed by reference and by value, a vector returned,
// a vector of structs, and one too large to track (its size still known).
TEST(HostVector, FunctionsLoopsAndLargeVectors) {
  HostProgram p = extract(R"cuda(
#include <vector>
__global__ void k(float *p, int n) {}
struct Dims { int x, y; };
static int total(const std::vector<int> &v) {
  int s = 0;
  for (int x : v)
    s += x;
  return s;
}
static int grow(std::vector<int> v) { v.push_back(1); return (int)v.size(); }
static std::vector<int> make(int n) { return std::vector<int>(n, 2); }
int main() {
  float *d;
  cudaMalloc(&d, 1024);
  std::vector<int> v = make(5);
  for (int &x : v)
    x += 1;                                          // 3 3 3 3 3
  k<<<total(v), grow(v) + v.size()>>>(d, 0);          // 15, 11
  std::vector<Dims> dims;
  dims.push_back({8, 2});
  dims.push_back(Dims{16, 4});
  k<<<dims[1].x, dims[0].y * dims.size()>>>(d, 0);    // 16, 4
  std::vector<double> big(1 << 24);
  big[5] = 3.0;                                      // not tracked
  k<<<big.size() >> 20, 32>>>(d, int(big[5]));       // 16, 32, unknown
}
)cuda");
  ASSERT_EQ(p.launches.size(), 3u);
  EXPECT_EQ(p.launches[0].grid, d3(15)) << joined(p.launches[0].notes);
  EXPECT_EQ(p.launches[0].block, d3(11));
  EXPECT_EQ(p.launches[1].grid, d3(16)) << joined(p.launches[1].notes);
  EXPECT_EQ(p.launches[1].block, d3(4));
  EXPECT_EQ(p.launches[2].grid, d3(16)) << joined(p.launches[2].notes);
  EXPECT_FALSE(p.launches[2].args[1].value.known());
}

} // namespace
} // namespace kcheck::analyzer
