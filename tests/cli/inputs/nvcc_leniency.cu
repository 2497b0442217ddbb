// Two constructs nvcc compiles and Clang rejects, compiled by kcheck on a
// rewritten copy: `h2 = {};` for a half2 (ambiguous operator= in Clang), and
// a member template of a dependent class called without `template`.
#include <cuda_fp16.h>

template <typename D, typename S> struct vec_cast {
  template <size_t N> __device__ static void cast(D *d, const S *s) {
    for (size_t i = 0; i < N; ++i)
      d[i] = D(s[i]);
  }
};
template <> struct vec_cast<float, half> {
  template <size_t N> __device__ static void cast(float *d, const half *s) {
    for (size_t i = 0; i < N; ++i)
      d[i] = __half2float(s[i]);
  }
};
template <typename S, typename D, size_t N>
__device__ void castAll(D *d, const S *s) {
  vec_cast<D, S>::cast<N>(d, s);
}

__global__ void widen(float *out, const half *in, half2 *acc) {
  float v[4];
  castAll<half, float, 4>(v, in + 4 * threadIdx.x);
  half2 r;
  r = {};
  r = __hadd2(r, __floats2half2_rn(v[0] + v[1], v[2] + v[3]));
  acc[threadIdx.x] = r;
  out[threadIdx.x] = v[0];
}

int main() {
  float *out;
  half *in;
  half2 *acc;
  cudaMalloc(&out, 64 * sizeof(float));
  cudaMalloc(&in, 256 * sizeof(half));
  cudaMalloc(&acc, 64 * sizeof(half2));
  widen<<<1, 64>>>(out, in, acc);
  cudaDeviceSynchronize();
  return 0;
}
