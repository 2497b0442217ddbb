// Host code that needs what kcheck cannot simulate: the driver API.
#include <cstdio>
#include <cuda.h>

__global__ void noop() {}

int main() {
  std::printf("before\n");
  noop<<<1, 32>>>();
  cuInit(0);
  std::printf("after\n");
  return 0;
}
