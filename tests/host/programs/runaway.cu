// Host code that never ends: --host-budget stops it.
#include <cstdio>

__global__ void noop() {}

int main() {
  noop<<<1, 32>>>();
  volatile unsigned long long spins = 0;
  while (true)
    spins = spins + 1;
  return 0;
}
