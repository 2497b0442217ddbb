// Tests of the host evaluator on the C++ that header-only template libraries
// (CuTe, CUTLASS) compute launches with: methods of temporaries, fold
// adaptors, `[&]` lambdas passed down and called elsewhere, getters that
// return references, inherited constructors. Each shape is a minimal copy of
// one that stopped a real program.
#include "LaunchTestSupport.h"

namespace kcheck::analyzer {
namespace {

using namespace launch_test;

TEST(HostTemplates, FoldOverTemporariesWithLambdasMadeUpTheStack) {
  HostProgram p = extract(R"cuda(
template <class Fn, class Val> struct FoldAdaptor {
  template <class X> constexpr auto operator|(X &&x) {
    auto r = fn_(val_, static_cast<X &&>(x));
    return FoldAdaptor<Fn, decltype(r)>{fn_, r};
  }
  Fn fn_;
  Val val_;
};
template <class F, class... T> int fold(int v, F &&f, T... t) {
  return (FoldAdaptor<F, int>{f, v} | ... | t).val_;
}
struct Add { int operator()(int a, int b) const { return a + b; } };
// The lambda reads `scale` of the frame it was made in, two calls below.
int scaledSum(int scale) {
  return fold(0, [&](int a, int b) { return a + scale * b; }, 1, 2, 3);
}
__global__ void k(int *p) {}
int main() {
  int *d;
  cudaMalloc(&d, 4096);
  auto mul = [](int a, int b) { return a * b; };
  k<<<fold(2, Add{}, 3, 4), fold(2, mul, 3, 4)>>>(d);
  k<<<scaledSum(10), 32>>>(d);
}
)cuda");
  ASSERT_EQ(p.launches.size(), 2u);
  EXPECT_EQ(p.launches[0].grid, d3(9)) << joined(p.launches[0].notes);
  EXPECT_EQ(p.launches[0].block, d3(24));
  EXPECT_EQ(p.launches[1].grid, d3(60)) << joined(p.launches[1].notes);
}

TEST(HostTemplates, GettersReturningReferencesAndInheritedConstructors) {
  HostProgram p = extract(R"cuda(
// A tuple whose get<N> forwards a reference down its members (CuTe's ESO).
template <class First, class Rest> struct Pair { First first_; Rest rest_; };
template <int N, class S> constexpr auto &getr(S &&s) {
  if constexpr (N == 0)
    return static_cast<S &&>(s).first_;
  else
    return static_cast<S &&>(s).rest_;
}
template <class It, class Derived> struct iter_adaptor {
  It ptr_;
  constexpr iter_adaptor(It p = {}) : ptr_(p) {}
  constexpr It get() const { return ptr_; }
};
template <class It> struct gmem_ptr : iter_adaptor<It, gmem_ptr<It>> {
  using iter_adaptor<It, gmem_ptr<It>>::iter_adaptor;
};
struct Tensor {
  Pair<int, gmem_ptr<float *>> rep_;
  const gmem_ptr<float *> &engine() const { return getr<1>(rep_); }
  int &extent() { return getr<0>(rep_); }
  float *data() const { return engine().get(); }
};
__global__ void k(float *p, int n) {}
int main() {
  float *d;
  cudaMalloc(&d, 4096);
  Tensor t{{128, gmem_ptr<float *>(d + 4)}};
  t.extent() *= 2;           // written through the reference
  k<<<t.extent(), 32>>>(t.data(), getr<0>(t.rep_));
}
)cuda");
  ASSERT_EQ(p.launches.size(), 1u);
  const HostLaunch &l = p.launches[0];
  EXPECT_EQ(l.grid, d3(256)) << joined(l.notes);
  EXPECT_EQ(l.args[0].value.kind, HostValue::Kind::DevicePtr);
  EXPECT_EQ(l.args[0].value.offset, 16);
  EXPECT_EQ(l.args[1].value.i, 256);
}

TEST(HostTemplates, ACallReturningAReferenceRunsOnce) {
  // What it refers to is not known (a `?:`), so binding `r` falls back to
  // the value: the call, its launch and its count happen once.
  HostProgram p = extract(R"cuda(
__global__ void k(int *p) {}
int calls = 0;
int &counted(int *d) {
  static int n = 4;
  ++calls;
  k<<<1, 32>>>(d);
  return calls > 100 ? n : calls;
}
int use(const int &r) { return r * 10; }
int main() {
  int *d;
  cudaMalloc(&d, 64);
  int x = use(counted(d));
  k<<<x + calls, 32>>>(d);
}
)cuda");
  ASSERT_EQ(p.launches.size(), 2u);
  EXPECT_EQ(p.launches[1].grid, d3(11)) << joined(p.launches[1].notes);
}

TEST(HostTemplates, ALongStreamChainIsEvaluatedOnce) {
  // Each `<<` returns the stream by reference; a library call is not entered
  // to learn what it refers to (re-evaluating each link doubled the work per
  // link: this chain would not finish).
  HostProgram p = extract(R"cuda(
#include <iostream>
__global__ void k(int *p) {}
int main() {
  int x = 1, *d;
  cudaMalloc(&d, 64);
  std::cout << x << x << x << x << x << x << x << x << x << x << x << x << x << x << x << x << x << x << x << x << x << x << x << x << x << x << x << x << x << x << x << x << x << x << x << x << x << x << x << x << x << x << x << x << x << x << x << x << std::endl;
  k<<<x, 32>>>(d);
}
)cuda");
  ASSERT_EQ(p.launches.size(), 1u);
  EXPECT_EQ(p.launches[0].grid, d3(1)) << joined(p.launches[0].notes);
}

// What following CUB's dispatch needs of the evaluator (LibraryLaunches.h),
// written here without the library.

TEST(HostTemplates, AReferenceMemberAliasesItsReferent) {
  // CUB's Dispatch objects keep `size_t &temp_storage_bytes` and write it.
  HostProgram p = extract(R"cuda(
__global__ void k(int *p) {}
struct Dispatch {
  size_t &bytes;
  int n;
  Dispatch(size_t &b, int n) : bytes(b), n(n) {}
  void run() { bytes = size_t(n) * 4; }
};
int main() {
  size_t bytes = 0;
  Dispatch d(bytes, 100);
  d.run();
  int *p;
  cudaMalloc(&p, bytes);
  k<<<int(bytes) / 16, int(d.bytes) / 4>>>(p);
}
)cuda");
  ASSERT_EQ(p.launches.size(), 1u);
  EXPECT_EQ(p.launches[0].grid, d3(25)) << joined(p.launches[0].notes);
  EXPECT_EQ(p.launches[0].block, d3(100)) << joined(p.launches[0].notes);
  ASSERT_EQ(p.allocations.size(), 1u);
  EXPECT_EQ(p.allocations[0].bytes, 400u);
}

TEST(HostTemplates, AnAggregateWithAReferenceMemberWritesThroughIt) {
  HostProgram p = extract(R"cuda(
__global__ void k(int *p) {}
struct Out {
  int &count;
  int step;
};
void add(Out o) { o.count += o.step; }
int main() {
  int n = 3;
  Out o{n, 4};
  add(o);
  add(o);
  int *d;
  cudaMalloc(&d, 64);
  k<<<n, 32>>>(d);
}
)cuda");
  ASSERT_EQ(p.launches.size(), 1u);
  EXPECT_EQ(p.launches[0].grid, d3(11)) << joined(p.launches[0].notes);
}

TEST(HostTemplates, ACrtpDowncastReachesTheDerivedObject) {
  // Thrust's iterator_facade: `static_cast<Derived *>(this)`.
  HostProgram p = extract(R"cuda(
__global__ void k(float *p) {}
template <class D> struct Facade {
  int distance(const D &other) const {
    return other.pos - static_cast<const D *>(this)->pos;
  }
  D &self() { return static_cast<D &>(*this); }
};
struct Iter : Facade<Iter> {
  int pos;
  explicit Iter(int p) : pos(p) {}
};
int main() {
  Iter a(3), b(67);
  float *d;
  cudaMalloc(&d, 64);
  k<<<a.distance(b), b.self().pos>>>(d);
}
)cuda");
  ASSERT_EQ(p.launches.size(), 1u);
  EXPECT_EQ(p.launches[0].grid, d3(64)) << joined(p.launches[0].notes);
  EXPECT_EQ(p.launches[0].block, d3(67)) << joined(p.launches[0].notes);
}

TEST(HostTemplates, ADevicePointerRoundedUpThroughAnIntegerStaysInItsBuffer) {
  // CUB's AliasTemporaries: `(uintptr_t(p) + 255) & ~255`, then back.
  HostProgram p = extract(R"cuda(
#include <cstdint>
__global__ void k(float *p) {}
int main() {
  char *temp;
  cudaMalloc(&temp, 4096);
  char *q = temp + 10;
  float *aligned = reinterpret_cast<float *>(
      (reinterpret_cast<uintptr_t>(q) + 255) & ~uintptr_t(255));
  k<<<1, 32>>>(aligned);
  k<<<1, 32>>>(reinterpret_cast<float *>(reinterpret_cast<uintptr_t>(q) | 1));
}
)cuda");
  ASSERT_EQ(p.launches.size(), 2u);
  const HostValue &v = p.launches[0].args[0].value;
  EXPECT_EQ(v.kind, HostValue::Kind::DevicePtr) << v.why;
  EXPECT_EQ(v.allocation, 0);
  EXPECT_EQ(v.offset, 256);
  // An `or` is not a rounding kcheck can follow: unknown, not a guess.
  EXPECT_EQ(p.launches[1].args[0].value.kind, HostValue::Kind::Unknown);
}

TEST(HostTemplates, ABreakOutOfDoWhileZeroIsAnErrorExit) {
  // CUB: `do { error = f(); if (error) break; ...launch... } while (0)`:
  // with `error` unknown the side that breaks is dropped, as an early return
  // is; in a real loop such a break still ends what is known.
  HostProgram p = extract(R"cuda(
__global__ void k(int *p) {}
int unknownStatus() { return rand(); }
int main() {
  int *d;
  cudaMalloc(&d, 64);
  do {
    if (unknownStatus() != 0)
      break;
    k<<<2, 32>>>(d);
  } while (0);
  int n = 0;
  for (int i = 0; i < 10; ++i) {
    if (unknownStatus() == 3)
      break;
    ++n;
  }
  k<<<n, 32>>>(d);
}
)cuda");
  ASSERT_EQ(p.launches.size(), 2u);
  EXPECT_EQ(p.launches[0].grid, d3(2)) << joined(p.launches[0].notes);
  EXPECT_FALSE(p.launches[1].grid) << "a loop's unknown break decides n";
}

TEST(HostTemplates, AFunctionPassedToAWrapperMakesItsLoopALaunchLoop) {
  // HeCBench softmax-online: `benchmark_kernel(100, softmax_forward, ...)`
  // calls the function it is given. The loop around it is a loop of
  // launches, followed whole, not host work cut short at 20000 steps.
  HostProgram p = extract(R"cuda(
#include <utility>
__global__ void k(int *p, int n) {}
void forward(int *d, int block) { k<<<64 / block, block>>>(d, block); }
template <class Kernel, class... Args>
float bench(int repeats, Kernel kernel, Args &&...args) {
  float t = 0;
  for (int i = 0; i < repeats; i++) {
    for (int j = 0; j < 50; j++)
      t += j * 0.5f;
    kernel(std::forward<Args>(args)...);
  }
  return t;
}
int main() {
  int *d;
  cudaMalloc(&d, 64 * 4);
  for (int b = 1; b <= 32; b *= 2)
    bench(100, forward, d, b);
}
)cuda");
  ASSERT_EQ(p.launches.size(), 600u)
      << joined(p.notes) << joined(p.launches[0].notes);
  EXPECT_EQ(p.launches[0].grid, d3(64));
  EXPECT_EQ(p.launches[599].grid, d3(2));
  EXPECT_EQ(p.launches[599].block, d3(32));
}

} // namespace
} // namespace kcheck::analyzer
