// A compare-and-swap loop left by a `break` (HeCBench atomicCAS's
// atomic_min): its loop has no llvm.loop metadata at all after the
// optimizer, which IrPipelineUnroll once read through a null node (a crash:
// SIGSEGV). Checked by nocrash.loop_without_loop_id.
__device__ __forceinline__ long long atomicMin64(long long *address,
                                                 long long val) {
  long long ret = *address;
  while (val < ret) {
    long long old = ret;
    if ((ret = atomicCAS((unsigned long long *)address,
                         (unsigned long long)old, (unsigned long long)val)) ==
        old)
      break;
  }
  return ret;
}

__global__ void minimum(long long *res) {
  int i = threadIdx.x + blockIdx.x * blockDim.x + 1;
  atomicMin64(res, (long long)i);
}

int main() {
  long long *r;
  cudaMalloc(&r, sizeof(long long));
  minimum<<<4, 256>>>(r);
  return 0;
}
