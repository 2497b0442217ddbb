// Host code that fails an assert before its launch, whatever the input: the
// GPU runs nothing, and kcheck predicts nothing, without an error.
#include <cassert>

__global__ void fill(float *x) { x[threadIdx.x] = 1; }

void gemmNotImplemented() { assert(false && "Not implemented"); }

int main() {
  float *x;
  cudaMalloc(&x, 32 * sizeof(float));
  gemmNotImplemented();
  fill<<<1, 32>>>(x);
  return 0;
}
