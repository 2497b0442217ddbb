// A spin on a flag nobody sets, whose body has no side effect: C++'s
// forward-progress rule would let Clang delete the loop (a launch with no
// load), but nvcc keeps it and the GPU spins for ever. kcheck keeps it too
// and reports the launch as one that never ends, naming the loop.
__global__ void spin(const int *flag, float *out) {
  float v = 0;
  while (flag[0] == 0)
    v += 1.0f;
  out[threadIdx.x] = v;
}

int main() {
  int *flag;
  float *out;
  cudaMalloc(&flag, sizeof(int));
  cudaMalloc(&out, 32 * sizeof(float));
  cudaMemset(flag, 0, sizeof(int));
  spin<<<1, 32>>>(flag, out);
  cudaDeviceSynchronize();
  return 0;
}
