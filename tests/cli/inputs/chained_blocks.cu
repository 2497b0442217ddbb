// Blocks that wait for the block before them, as CUB's decoupled look-back
// does: a volatile load (or PTX ld.acquire) spins on a flag the previous block
// stores. On the GPU the earlier block has run; kcheck must let later blocks
// see earlier blocks' stores, not hang.
__global__ void chainVolatile(volatile int *flags, int *out) {
  int b = blockIdx.x;
  if (threadIdx.x == 0) {
    if (b > 0)
      while (flags[b - 1] == 0) {
      }
    out[b] = b;
    __threadfence();
    flags[b] = 1;
  }
}

__device__ int loadAcquire(const int *p) {
  int v;
  asm volatile("ld.acquire.gpu.global.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

__global__ void chainAcquire(int *flags, int *out) {
  int b = blockIdx.x;
  if (threadIdx.x == 0) {
    if (b > 0)
      while (loadAcquire(flags + b - 1) == 0) {
      }
    out[b] = b;
    asm volatile("st.release.gpu.global.b32 [%0], %1;" ::"l"(flags + b), "r"(1) : "memory");
  }
}

int main() {
  int *flags, *out;
  cudaMalloc(&flags, 16 * sizeof(int));
  cudaMalloc(&out, 16 * sizeof(int));
  cudaMemset(flags, 0, 16 * sizeof(int));
  chainVolatile<<<16, 32>>>(flags, out);
  cudaMemset(flags, 0, 16 * sizeof(int));
  chainAcquire<<<16, 32>>>(flags, out);
  return 0;
}
