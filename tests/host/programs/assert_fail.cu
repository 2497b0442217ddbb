// A failed host assert aborts the program like on a GPU machine.
#include <cassert>
#include <cstdio>

int main() {
  int *d = nullptr;
  cudaMalloc(&d, 16);
  assert(d == nullptr && "device pointer");
  return 0;
}
