// A loop that never ends: the step budget stops it and names the line.
__global__ void spins(int *flag) {
  int n = 0;
  while (flag[0] == 0)
    n += flag[1];
  flag[2] = n;
}

int main() {
  int *d;
  cudaMalloc(&d, 16);
  cudaMemset(d, 0, 16);
  spins<<<1, 32>>>(d);
  return 0;
}
