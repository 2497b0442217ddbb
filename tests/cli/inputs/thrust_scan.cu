// thrust::exclusive_scan over device_ptr iterators: Thrust's iterator
// arithmetic (CRTP facades), then CUB's scan dispatch with its tile state in
// temporary storage that Thrust allocates.
#include <thrust/device_ptr.h>
#include <thrust/scan.h>
#include <cstdio>

int main() {
  const int n = 1 << 20;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemset(in, 0, n * sizeof(float));
  thrust::device_ptr<float> first(in), result(out);
  thrust::exclusive_scan(first, first + n, result, 1.f);
  float last = 0;
  cudaMemcpy(&last, out + n - 1, sizeof last, cudaMemcpyDeviceToHost);
  printf("%s\n", last == 1.f ? "PASS" : "FAIL");
  return 0;
}
