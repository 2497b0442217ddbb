// Kernels launched from the threads of an OpenMP region (as nvcc
// -Xcompiler -fopenmp builds it): each thread sets its own stream, copies
// its slice in, launches on it with <<<>>>, copies back and checks the last
// error, all at once; kcheck's runtime takes the threads' calls one at a
// time, each <<<>>> with its own thread's configuration.
#include <cstdio>
#include <omp.h>

__global__ void addThread(int *x, int n, int value) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += value;
}

int main() {
  const int threads = 4, perThread = 1000;
  static int h[threads * perThread];
  int *d = nullptr;
  cudaMalloc(&d, sizeof h);
  int failed = 0, ran = 0;
  omp_set_num_threads(threads);
#pragma omp parallel reduction(+ : failed, ran)
  {
    int t = omp_get_thread_num();
    int *slice = d + t * perThread;
    cudaStream_t s;
    cudaStreamCreate(&s);
    for (int i = 0; i < perThread; ++i)
      h[t * perThread + i] = i;
    cudaMemcpyAsync(slice, h + t * perThread, perThread * sizeof(int),
                    cudaMemcpyHostToDevice, s);
    addThread<<<(perThread + 127) / 128, 128, 0, s>>>(slice, perThread,
                                                      100 * (t + 1));
    failed += cudaGetLastError() != cudaSuccess;
    cudaMemcpyAsync(h + t * perThread, slice, perThread * sizeof(int),
                    cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);
    cudaStreamDestroy(s);
    ran = 1;
  }
  long sum = 0;
  for (int i = 0; i < threads * perThread; ++i)
    sum += h[i];
  // 4 * (0 + ... + 999) + 1000 * (100 + 200 + 300 + 400)
  std::printf("threads %d sum %ld %s\n", ran, sum,
              !failed && sum == 4L * 499500 + 1000L * 1000 ? "PASS" : "FAIL");
  cudaFree(d);
  return 0;
}
