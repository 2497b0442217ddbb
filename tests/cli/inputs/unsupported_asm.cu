// Inline PTX is not simulated: kcheck names it and its line, exit 3.
__global__ void readsClock(unsigned *out) {
  unsigned t;
  asm volatile("mov.u32 %0, %%clock;" : "=r"(t));
  out[threadIdx.x] = t;
}

int main() {
  unsigned *d;
  cudaMalloc(&d, 32 * sizeof(unsigned));
  readsClock<<<1, 32>>>(d);
  return 0;
}
