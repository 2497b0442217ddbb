// Tests of the host evaluator's <random> models (HostEvaluatorRandom.cpp):
// every expected value is what the program compiled with g++ and libstdc++
// printed (the same seeds and calls, in the same order), and of the
// self-check `break` a loop is assumed not to take.
#include "LaunchTestSupport.h"

namespace kcheck::analyzer {
namespace {

using namespace launch_test;

TEST(HostRandom, LinearCongruentialEnginesAndUniformDistributions) {
  HostProgram p = extract(R"cuda(
#include <random>
__global__ void k(int *p) {}
int main() {
  int *d;
  cudaMalloc(&d, 1024);
  std::default_random_engine g(123);
  std::uniform_int_distribution<int> d4(100, 9999);
  std::uniform_real_distribution<float> f(0.f, 1.f);
  std::uniform_real_distribution<double> fd(2.0, 4.0);
  int a = d4(g);
  float x = f(g);      // one draw (24 bits from a 31-bit engine)
  int b = d4(g);
  double y = fd(g);    // two draws (53 bits)
  int c = d4(g);
  std::minstd_rand m;  // default seed 1, multiplier 48271
  std::uniform_int_distribution<long long> big(0, 1LL << 40); // upscaling
  long long e = big(m);
  std::uniform_int_distribution<int> neg(-5, 5);
  int n1 = neg(m), n2 = neg(m);
  unsigned long r = g();
  k<<<a, int(x * 1000)>>>(d);
  k<<<b, int(y * 100)>>>(d);
  k<<<c, n1 + 5>>>(d);
  k<<<unsigned(e), n2 + 5>>>(d);
  k<<<unsigned(r % 1000), 32>>>(d);
}
)cuda");
  ASSERT_EQ(p.launches.size(), 5u);
  // g++: 109 0.179147944 9400 3.0607404033417875 9326 182605793 1 4
  // 1688969677
  EXPECT_EQ(p.launches[0].grid, d3(109)) << joined(p.launches[0].notes);
  EXPECT_EQ(p.launches[0].block, d3(179));
  EXPECT_EQ(p.launches[1].grid, d3(9400)) << joined(p.launches[1].notes);
  EXPECT_EQ(p.launches[1].block, d3(306));
  EXPECT_EQ(p.launches[2].grid, d3(9326));
  EXPECT_EQ(p.launches[2].block, d3(6));
  EXPECT_EQ(p.launches[3].grid, d3(182605793)) << joined(p.launches[3].notes);
  EXPECT_EQ(p.launches[3].block, d3(9));
  EXPECT_EQ(p.launches[4].grid, d3(677)) << joined(p.launches[4].notes);
}

TEST(HostRandom, LaunchCountDrawnPerIteration) {
  HostProgram p = extract(R"cuda(
#include <random>
__global__ void k(int *p) {}
int main() {
  int *d;
  cudaMalloc(&d, 1024);
  std::default_random_engine generator(123);
  std::uniform_int_distribution<int> distribution(1, 6);
  for (int i = 0; i < 3; i++) {
    int count = distribution(generator);
    for (int j = 0; j < count; j++)
      k<<<1, 32>>>(d);
  }
}
)cuda");
  // g++: 1, 2, 6 (the first three draws)
  EXPECT_EQ(p.launches.size(), 9u) << joined(p.notes);
}

TEST(HostRandom, UnknownSeedOrUnmodelledUseIsSaidSo) {
  HostProgram p = extract(R"cuda(
#include <random>
#include <ctime>
__global__ void k(int *p) {}
int main() {
  int *d;
  cudaMalloc(&d, 1024);
  std::default_random_engine g(time(nullptr));
  std::uniform_int_distribution<int> dist(1, 6);
  k<<<dist(g), 32>>>(d);
}
)cuda");
  ASSERT_EQ(p.launches.size(), 1u);
  EXPECT_FALSE(p.launches[0].grid.has_value());
  EXPECT_NE(joined(p.launches[0].notes).find("seed"), std::string::npos)
      << joined(p.launches[0].notes);
}

TEST(HostRandom, SelfCheckBreakAssumedNotTaken) {
  HostProgram p = extract(R"cuda(
#include <cstring>
__global__ void k(int *p) {}
int main() {
  int *d, h[4], gold[4] = {1, 2, 3, 4};
  cudaMalloc(&d, sizeof h);
  int error = 0;
  for (int i = 0; i < 3; i++) {
    k<<<1, 32>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    error = memcmp(h, gold, sizeof h);
    if (error) break;
  }
}
)cuda");
  EXPECT_EQ(p.launches.size(), 3u) << joined(p.notes);
  EXPECT_NE(joined(p.notes).find("assumed not taken"), std::string::npos)
      << joined(p.notes);
}

} // namespace
} // namespace kcheck::analyzer
