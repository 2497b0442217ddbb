// A grid-wide barrier (cooperative groups' grid.sync() reads the driver's
// grid workspace from %envreg1/2): kcheck runs blocks one after another, so
// it names the construct and its line, exit 3, rather than hang.
__device__ unsigned long long gridWorkspace() {
  unsigned lo, hi;
  asm("mov.u32 %0, %%envreg2;" : "=r"(lo));
  asm("mov.u32 %0, %%envreg1;" : "=r"(hi));
  return (unsigned long long)hi << 32 | lo;
}

__global__ void usesGridSync(unsigned long long *out) {
  out[threadIdx.x] = gridWorkspace();
}

int main() {
  unsigned long long *d;
  cudaMalloc(&d, 32 * sizeof(unsigned long long));
  usesGridSync<<<2, 32>>>(d);
  return 0;
}
