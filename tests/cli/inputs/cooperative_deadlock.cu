// A cooperative launch whose blocks wait for a flag that no block sets: on a
// GPU it hangs; kcheck names where the first block waits and stops.
__global__ void waitsForAFlag(volatile int *flag) {
  if (threadIdx.x == 0)
    while (*flag == 0) {
    }
}

int main() {
  int *flag;
  cudaMalloc(&flag, sizeof(int));
  cudaMemset(flag, 0, sizeof(int));
  void *args[] = {&flag};
  cudaLaunchCooperativeKernel((void *)waitsForAFlag, dim3(2), dim3(32), args,
                              0, 0);
  cudaDeviceSynchronize();
  return 0;
}
