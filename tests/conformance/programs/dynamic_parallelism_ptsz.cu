// Conformance program for dynamic parallelism with per-thread default
// streams (nvcc --default-stream per-thread, which defines
// CUDA_API_PER_THREAD_DEFAULT_STREAM before the CUDA headers): the device
// runtime's _ptsz entry points (launch, cudaMemcpyAsync, cudaMemsetAsync,
// event record and wait). Checked on whatever runs it, as
// dynamic_parallelism.cu; kcheck reads the flag from a compile database.
// nvcc: -rdc=true -lcudadevrt --default-stream per-thread
#include "conformance_checks.h"

__global__ void addOne(int *cell) { *cell += 1; }

__global__ void parent(int *cells, int *status) {
  cudaStream_t s;
  cudaEvent_t e;
  status[0] = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  status[1] = cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
  status[2] = cudaMemsetAsync(cells, 0, 4 * sizeof(int), 0);
  addOne<<<1, 1>>>(&cells[0]);
  status[3] = cudaEventRecord(e, 0);
  status[4] = cudaStreamWaitEvent(s, e, 0);
  status[5] = cudaMemcpyAsync(&cells[1], &cells[0], sizeof(int),
                              cudaMemcpyDeviceToDevice, s);
  status[6] = cudaEventRecord(e, s);
  status[7] = cudaEventDestroy(e);
  status[8] = cudaStreamDestroy(s);
}

int main() {
  int *cells, *status, host[16];
  OK(cudaMalloc(&cells, 4 * sizeof(int)));
  OK(cudaMalloc(&status, 16 * sizeof(int)));
  OK(cudaMemset(cells, 0xff, 4 * sizeof(int)));
  parent<<<1, 1>>>(cells, status);
  OK(cudaDeviceSynchronize());
  OK(cudaMemcpy(host, status, 9 * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < 9; ++i)
    CHECK(host[i] == cudaSuccess, "a per-thread-stream device call succeeds");
  OK(cudaMemcpy(host, cells, 4 * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(host[0] == 1 && host[1] == 1 && host[2] == 0,
        "per-thread-stream work ran in order");
  std::printf("dynamic_parallelism_ptsz: %d checks, %d failures\n", checks,
              failures);
  return failures != 0;
}
