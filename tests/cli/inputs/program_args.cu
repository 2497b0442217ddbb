// Launch sizes from the program's arguments: static extraction reads argc and
// atoi(argv[1]) as the program would with --program-args (default: none).
#include <cstdlib>

__global__ void fill(float *out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
}

int main(int argc, char **argv) {
  int blocks = argc > 1 ? atoi(argv[1]) : 32;
  float *d;
  cudaMalloc(&d, blocks * 64 * sizeof(float));
  fill<<<blocks, 64>>>(d);
  cudaDeviceSynchronize();
  return 0;
}
