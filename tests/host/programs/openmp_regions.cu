// OpenMP regions as the static analysis follows them (-fopenmp): each
// thread of a parallel region launches on its share of the data
// (omp_set_num_threads, omp_get_thread_num, omp_get_num_threads, as
// HeCBench's openmp does); a num_threads clause; single runs once (in
// whichever thread: its launch does not depend on which); a private
// variable starts each thread as the region found it; a parallel for and a
// for inside a region run each iteration once (the launches' order then
// is the threads' schedule's: kcheck makes them in iteration order).
#include <cstdio>
#include <cstdlib>
#include <omp.h>

__global__ void addConstant(int *a, int b) {
  a[blockIdx.x * blockDim.x + threadIdx.x] += b;
}

int main() {
  const unsigned words = 1 << 16;
  int *host = (int *)calloc(words, sizeof(int));
  for (int f = 1; f <= 4; f *= 2) {
    omp_set_num_threads(f);
#pragma omp parallel
    {
      unsigned t = omp_get_thread_num(), n = omp_get_num_threads();
      unsigned share = words / n;
      int *d = nullptr;
      cudaMalloc(&d, share * sizeof(int));
      cudaMemcpy(d, host + t * share, share * sizeof(int),
                 cudaMemcpyHostToDevice);
      addConstant<<<share / 256, 256>>>(d, int(t));
      cudaMemcpy(host + t * share, d, share * sizeof(int),
                 cudaMemcpyDeviceToHost);
      cudaFree(d);
    }
  }
  int blocks = 5;
#pragma omp parallel num_threads(3) private(blocks)
  {
    blocks = 5 + omp_get_thread_num();
#pragma omp single
    {
      int *d = nullptr;
      cudaMalloc(&d, 1024 * sizeof(int));
      addConstant<<<omp_get_num_threads() + 7, 32>>>(d, 1);
      cudaFree(d);
    }
  }
  // Work shared by the team runs once in all: a parallel for of three
  // launches, and a for inside a region of four threads (two launches).
#pragma omp parallel for num_threads(4)
  for (int i = 0; i < 3; ++i) {
    int *d = nullptr;
    cudaMalloc(&d, 1024 * sizeof(int));
    addConstant<<<i + 1, 64>>>(d, 1);
    cudaFree(d);
  }
#pragma omp parallel num_threads(4)
  {
#pragma omp for
    for (int i = 0; i < 2; ++i) {
      int *d = nullptr;
      cudaMalloc(&d, 1024 * sizeof(int));
      addConstant<<<20 + i, 32>>>(d, 1);
      cudaFree(d);
    }
  }
  long sum = 0;
  for (unsigned i = 0; i < words; ++i)
    sum += host[i];
  printf("sum %ld blocks %d\n", sum, blocks);
  free(host);
  return 0;
}
