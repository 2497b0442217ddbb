// A kernel with no findings (coalesced, no shared memory, no branch), whose
// comments and strings hold text that an HTML report must escape:
// </script><img src=x onerror="alert(1)"> & "quotes" 'too' <b>bold</b> &amp;
#include <cuda_runtime.h>
#include <cstdio>

__global__ void copy(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x; /* a < b && c > d */
  out[i] = in[i];
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 1024 * sizeof(float));
  cudaMalloc(&out, 1024 * sizeof(float));
  copy<<<4, 256>>>(in, out);
  cudaDeviceSynchronize();
  printf("done </script> & <tag> \"%s\"\n", "'");
  return 0;
}
