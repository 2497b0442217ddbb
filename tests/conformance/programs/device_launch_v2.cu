// nvcc: -rdc=true -lcudadevrt
// Conformance program for the device runtime's launch-configuration form of
// a launch (cuda_device_runtime_api.h: cudaGetParameterBufferV2, which
// takes the kernel and its configuration, and cudaLaunchDeviceV2, which
// launches the buffer), written from the header and the Programming Guide's
// "Device-side Launch from PTX": a child launched so runs with the
// configuration and arguments given; what the reference leaves open (the
// buffer a refused configuration gets, the status of a launch of a buffer
// no call gave) is printed as `probe` lines.
#include "conformance_checks.h"

__global__ void child(int *out, int add) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = add + int(threadIdx.x);
}

struct Args {
  int *out;
  int add;
};

__global__ void parent(int *out, int *status) {
  if (threadIdx.x != 0)
    return;
  // 2 blocks of 64 threads, each thread writing add + its index.
  void *buffer = cudaGetParameterBufferV2((void *)child, dim3(2), dim3(64), 0);
  status[0] = buffer != nullptr;
  if (buffer) {
    Args *a = static_cast<Args *>(buffer);
    a->out = out;
    a->add = 1000;
    status[1] = cudaLaunchDeviceV2(buffer, 0);
  }
  // A block of 2048 threads, which the device refuses.
  void *refused =
      cudaGetParameterBufferV2((void *)child, dim3(1), dim3(2048), 0);
  status[2] = refused != nullptr;
  status[3] = cudaGetLastError();
  if (refused) {
    Args *a = static_cast<Args *>(refused);
    a->out = out + 256;
    a->add = 2000;
    status[4] = cudaLaunchDeviceV2(refused, 0);
    status[5] = cudaGetLastError();
  }
  // Into the tail-launch stream.
  void *tail = cudaGetParameterBufferV2((void *)child, dim3(1), dim3(32), 0);
  if (tail) {
    Args *a = static_cast<Args *>(tail);
    a->out = out + 512;
    a->add = 3000;
    status[6] = cudaLaunchDeviceV2(tail, cudaStreamTailLaunch);
  }
}

int main() {
  int *out = nullptr, *status = nullptr;
  OK(cudaMalloc(&out, 1024 * sizeof(int)));
  OK(cudaMalloc(&status, 8 * sizeof(int)));
  OK(cudaMemset(out, 0, 1024 * sizeof(int)));
  OK(cudaMemset(status, 0xff, 8 * sizeof(int)));
  parent<<<1, 32>>>(out, status);
  OK(cudaDeviceSynchronize());
  static int h[1024], s[8];
  OK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
  OK(cudaMemcpy(s, status, sizeof s, cudaMemcpyDeviceToHost));
  CHECK(s[0] == 1 && s[1] == 0, "a buffer, launched");
  int wrong = 0;
  for (int i = 0; i < 128; ++i)
    wrong += h[i] != 1000 + i % 64;
  CHECK(wrong == 0, "the child ran with its configuration and arguments");
  CHECK(s[6] == 0 && h[512] == 3000 && h[543] == 3031, "a tail launch ran");
  const char *names[] = {"buffer",        "launch",         "refused_buffer",
                         "refused_error", "refused_launch", "refused_last",
                         "tail_launch"};
  for (int i = 0; i < 7; ++i)
    std::printf("probe %s %d\n", names[i], s[i]);
  std::printf("probe refused_wrote %d\n", h[256]);
  std::printf("device_launch_v2: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
