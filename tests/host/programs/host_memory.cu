// Host memory kernels read and write directly (issue 18): managed memory
// written by the host and updated by a kernel, a linked list built on the
// host and walked by a kernel, zero-copy mapped memory, and the program's own
// memory registered with cudaHostRegister. Every pointer is the host's own
// (unified addressing).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
struct Node { int value; Node *next; };
__global__ void addOne(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += 1;
}
__global__ void walk(Node *head, int *sum) {
  int s = 0;
  for (Node *p = head; p; p = p->next) s += p->value;
  *sum = s;
}
int main() {
  int n = 1000;
  int *a;
  cudaMallocManaged(&a, n * sizeof(int));
  for (int i = 0; i < n; ++i) a[i] = i;
#if CUDART_VERSION >= 13000
  cudaMemLocation device = {cudaMemLocationTypeDevice, 0};
  cudaMemPrefetchAsync(a, n * sizeof(int), device, 0);
  cudaMemAdvise(a, n * sizeof(int), cudaMemAdviseSetReadMostly, device);
#else
  cudaMemPrefetchAsync(a, n * sizeof(int), 0);
  cudaMemAdvise(a, n * sizeof(int), cudaMemAdviseSetReadMostly, 0);
#endif
  addOne<<<(n + 255) / 256, 256>>>(a, n);
  cudaDeviceSynchronize();
  long total = 0;
  for (int i = 0; i < n; ++i) total += a[i];
  printf("managed sum %ld\n", total);
  // a linked list in managed memory, built on the host
  Node *nodes;
  cudaMallocManaged(&nodes, 5 * sizeof(Node));
  for (int i = 0; i < 5; ++i) { nodes[i].value = i + 1; nodes[i].next = i < 4 ? &nodes[i + 1] : nullptr; }
  int *sum;
  cudaMallocManaged(&sum, sizeof(int));
  walk<<<1, 1>>>(nodes, sum);
  cudaDeviceSynchronize();
  printf("list sum %d\n", *sum);
  // zero-copy mapped memory
  int *h, *d;
  cudaHostAlloc(&h, n * sizeof(int), cudaHostAllocMapped);
  for (int i = 0; i < n; ++i) h[i] = 2 * i;
  cudaHostGetDevicePointer((void **)&d, h, 0);
  addOne<<<(n + 255) / 256, 256>>>(d, n);
  cudaDeviceSynchronize();
  printf("mapped h[10] %d\n", h[10]);
  // registered host memory
  int *r = (int *)aligned_alloc(4096, 4096); // page-aligned: counts do not
                                             // depend on where malloc puts it
  for (int i = 0; i < n; ++i) r[i] = 3 * i;
  cudaError_t e = cudaHostRegister(r, n * sizeof(int), cudaHostRegisterMapped);
  int *rd;
  cudaHostGetDevicePointer((void **)&rd, r, 0);
  addOne<<<(n + 255) / 256, 256>>>(rd, n);
  cudaDeviceSynchronize();
  printf("registered %s r[10] %d\n", cudaGetErrorName(e), r[10]);
  cudaHostUnregister(r);
  free(r);
  cudaFreeHost(h);
  cudaFree(a);
  return 0;
}
