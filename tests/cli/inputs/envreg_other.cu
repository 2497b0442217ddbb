// A driver environment register other than the grid workspace (%envreg1/2,
// cooperative groups' grid.sync()): what the driver puts there is not
// documented, so kcheck names the construct and its line, exit 3.
__global__ void readsEnvreg0(unsigned *out) {
  unsigned r;
  asm("mov.u32 %0, %%envreg0;" : "=r"(r));
  out[threadIdx.x] = r;
}

int main() {
  unsigned *d;
  cudaMalloc(&d, 32 * sizeof(unsigned));
  readsEnvreg0<<<1, 32>>>(d);
  return 0;
}
