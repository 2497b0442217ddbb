// Inline PTX kcheck cannot execute (vabsdiff): it names the statement and its
// line, exit 3.
__global__ void findsBit(unsigned *out) {
  unsigned t;
  asm volatile("vabsdiff.u32.u32.u32 %0, %1, %2;" : "=r"(t) : "r"(threadIdx.x), "r"(7u));
  out[threadIdx.x] = t;
}

int main() {
  unsigned *d;
  cudaMalloc(&d, 32 * sizeof(unsigned));
  findsBit<<<1, 32>>>(d);
  return 0;
}
