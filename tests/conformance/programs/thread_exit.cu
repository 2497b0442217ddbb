// Clang's __nvvm_exit (PTX exit: the thread ends there), written from the
// PTX ISA's exit: the threads that exit store nothing after it, and a
// barrier after it waits only for the threads still running. Self-checking;
// built with Clang (nvcc has no __nvvm_* builtins):
//   clang++ -x cuda --cuda-gpu-arch=sm_90 -O3 thread_exit.cu
//     -L$CUDA/lib64 -lcudart_static -ldl -lrt -lpthread
#include "conformance_checks.h"

constexpr int kThreads = 128;

__device__ void leaveIfOdd(int t) {
  if (t & 1)
    __nvvm_exit();
}

__global__ void exits(int *out) {
  __shared__ int seen[kThreads];
  const int t = threadIdx.x;
  seen[t] = 0;
  leaveIfOdd(t); // odd threads end here
  out[t] = t;
  seen[t] = 1;
  __syncthreads(); // the even threads only
  if (t == 0) {
    int n = 0;
    for (int i = 0; i < kThreads; ++i)
      n += seen[i];
    out[kThreads] = n;
  }
}

int main() {
  int *out;
  OK(cudaMalloc(&out, (kThreads + 1) * sizeof(int)));
  OK(cudaMemset(out, 0xff, (kThreads + 1) * sizeof(int))); // -1 each
  exits<<<1, kThreads>>>(out);
  OK(cudaDeviceSynchronize());
  static int r[kThreads + 1];
  OK(cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost));
  for (int t = 0; t < kThreads; ++t)
    CHECK(r[t] == (t & 1 ? -1 : t), "an exited thread stores nothing after");
  CHECK(r[kThreads] == kThreads / 2, "the barrier waits for the rest");
  std::printf("thread_exit: %d checks, %d failures\n", checks, failures);
  return failures != 0;
}
