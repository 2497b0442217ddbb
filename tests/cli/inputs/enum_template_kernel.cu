// A kernel instantiated on an enumerator and a character: the static path
// and --run-host must name it as the demangler (and Nsight) do.
#include <cuda_runtime.h>

namespace stage {
enum Phase { First, Second };
}

template <stage::Phase P, char C> __global__ void scale(float *x) {
  x[threadIdx.x] *= P == stage::Second ? float(C) : 1.0f;
}

int main() {
  float *x;
  cudaMalloc(&x, 32 * sizeof(float));
  scale<stage::Second, 'a'><<<1, 32>>>(x);
  cudaDeviceSynchronize();
  cudaFree(x);
  return 0;
}
