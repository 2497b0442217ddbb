// Element sizes: one templated copy instantiated for 1-, 2-, 4-, 8- and
// 16-byte elements (char, short, float, double, float2, float4, int4), a
// stride-3 copy of chars, a float array read as float4 (vectorized loads of a
// scalar array, n / 4 threads), and a scale of doubles read through __ldg with
// const __restrict__. Every launch has 2^20 elements (or 2^18 threads for the
// float4 view), 256 threads per block.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call,             \
              cudaGetErrorString(err_));                                       \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)
#define CHECK_LAUNCH()                                                         \
  do {                                                                         \
    CHECK(cudaGetLastError());                                                 \
    CHECK(cudaDeviceSynchronize());                                            \
  } while (0)

template <typename T>
__global__ void copy_elems(T *out, const T *in, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i];
}

template <typename T>
__global__ void copy_strided(T *out, const T *in, int stride, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i * stride] = in[i * stride];
}

// n4 = number of float4 words of the float arrays.
__global__ void scale_vec4(float *out, const float *in, float a, int n4)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 v = reinterpret_cast<const float4 *>(in)[i];
    v.x *= a;
    v.y *= a;
    v.z *= a;
    v.w *= a;
    reinterpret_cast<float4 *>(out)[i] = v;
  }
}

__global__ void scale_ldg(double *__restrict__ out, const double *__restrict__ in, double a, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = a * __ldg(&in[i]);
}

int main()
{
  const int n = 1 << 20;
  const size_t bytes = (size_t)n * 16 * 3; // room for int4 and the stride-3 chars
  char *h_buf = (char *)malloc(bytes);
  for (size_t i = 0; i < bytes; ++i) h_buf[i] = (char)(i % 100);
  char *d_in, *d_out;
  CHECK(cudaMalloc((void **)&d_in, bytes));
  CHECK(cudaMalloc((void **)&d_out, bytes));
  CHECK(cudaMemcpy(d_in, h_buf, bytes, cudaMemcpyHostToDevice));

  const int grid = n / 256;
  copy_elems<char><<<grid, 256>>>(d_out, d_in, n);
  CHECK_LAUNCH();
  copy_elems<short><<<grid, 256>>>((short *)d_out, (const short *)d_in, n);
  CHECK_LAUNCH();
  copy_elems<float><<<grid, 256>>>((float *)d_out, (const float *)d_in, n);
  CHECK_LAUNCH();
  copy_elems<double><<<grid, 256>>>((double *)d_out, (const double *)d_in, n);
  CHECK_LAUNCH();
  copy_elems<float2><<<grid, 256>>>((float2 *)d_out, (const float2 *)d_in, n);
  CHECK_LAUNCH();
  copy_elems<float4><<<grid, 256>>>((float4 *)d_out, (const float4 *)d_in, n);
  CHECK_LAUNCH();
  copy_elems<int4><<<grid, 256>>>((int4 *)d_out, (const int4 *)d_in, n);
  CHECK_LAUNCH();
  copy_strided<char><<<grid, 256>>>(d_out, d_in, 3, n);
  CHECK_LAUNCH();
  copy_strided<short><<<grid, 256>>>((short *)d_out, (const short *)d_in, 2, n);
  CHECK_LAUNCH();
  scale_vec4<<<n / 4 / 256, 256>>>((float *)d_out, (const float *)d_in, 2.0f, n / 4);
  CHECK_LAUNCH();
  scale_ldg<<<grid, 256>>>((double *)d_out, (const double *)d_in, 2.0, n);
  CHECK_LAUNCH();

  char h_out[4];
  CHECK(cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost));
  printf("types: out[1] = %d\n", (int)h_out[1]);
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  free(h_buf);
  return 0;
}
