// A spin-wait on a flag nobody sets: the step budget stops it and names the
// line.
__global__ void spins(int *flag) {
  volatile int *f = flag;
  while (f[0] == 0)
    f[1] += 1;
}

int main() {
  int *d;
  cudaMalloc(&d, 16);
  cudaMemset(d, 0, 16);
  spins<<<1, 32>>>(d);
  return 0;
}
