// A range-for over a std::vector of pairs (of pairs), made from a braced
// list at the call and from a named vector: one launch per element, its
// geometry from the element's fields. The static analysis once iterated such
// a vector once, over the vector object, and made 1 launch where the program
// makes 3 (SYCLomatic's math-ext tests: 38 launches of 144).
#include <utility>
#include <vector>

typedef std::pair<float, int> fi_pair;

__global__ void k(float *r, float x) { r[threadIdx.x] = x; }

void cases(const std::vector<std::pair<float, fi_pair>> &testCases) {
  float *r;
  cudaMalloc(&r, 64 * sizeof(float));
  for (const auto &t : testCases)
    k<<<t.second.second, int(t.first * 10)>>>(r, t.second.first);
  cudaFree(r);
}

void plain(const std::vector<float> &v) {
  float *r;
  cudaMalloc(&r, 64 * sizeof(float));
  for (const auto &t : v)
    k<<<1, int(t)>>>(r, t);
  cudaFree(r);
}

int main() {
  cases({{0.3f, {1.0f, 15}}, {0.5f, {1.1f, 14}}, {0.8f, {1.2f, 13}}});
  plain({1, 2, 3, 4});
  std::vector<std::pair<float, fi_pair>> named = {{0.3f, {1.0f, 2}},
                                                  {0.5f, {1.1f, 3}}};
  cases(named);
  return 0;
}
