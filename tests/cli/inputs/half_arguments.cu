// Half-precision scalar arguments made by host code: __float2half, and a
// 16-bit struct filled through reinterpret_cast of a __half bound to a
// const reference (CUTLASS half_t). Only the right values make lanes store.
#include <cstdint>
#include <cstdio>
#include <cuda_fp16.h>

struct my_half {
  uint16_t storage;
  my_half() = default;
  __host__ __device__ explicit my_half(__half const &x) {
#if defined(__CUDA_ARCH__)
    storage = reinterpret_cast<uint16_t const &>(x);
#else
    __half_raw raw(x);
    storage = raw.x;
#endif
  }
  __host__ __device__ static my_half convert(float f) {
    return my_half(__float2half_rn(f));
  }
  __host__ __device__ explicit my_half(float f) {
    storage = convert(f).storage;
  }
};
__global__ void scale(float *out, my_half a, __half b) {
  // Lanes whose scale is exactly 1.5 store: the arguments decide the count.
  float s = __half2float(reinterpret_cast<__half const &>(a.storage));
  if (s == 1.5f && __half2float(b) == -2.0f)
    out[threadIdx.x] = s;
}
int main() {
  float *d;
  cudaMalloc(&d, 128 * sizeof(float));
  scale<<<1, 128>>>(d, my_half(1.5f), __float2half(-2.0f));
  cudaDeviceSynchronize();
  printf("done\n");
}
