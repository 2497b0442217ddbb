// Data-dependent addresses: gathers and scatters through an index array that
// the host fills with a known permutation (identity, reversal, a 1024 x 1024
// transpose, neighbour-pair swap, and a multiplicative hash i * 40503 mod n),
// then array-of-structs against struct-of-arrays updates: a 12-byte struct
// (three scalar loads per element, 12-byte stride), a 16-byte aligned struct
// (one 16-byte load) and separate arrays.
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

__global__ void gather(float *out, const float *in, const int *idx, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[idx[i]];
}

__global__ void scatter(float *out, const float *in, const int *idx, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[idx[i]] = in[i];
}

struct Particle3 {
  float x, y, z;
};

struct __align__(16) Particle4 {
  float x, y, z, w;
};

__global__ void aos3_update(Particle3 *p, float dt, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i].x = p[i].x + dt * p[i].y * p[i].z;
}

__global__ void aos4_update(Particle4 *p, float dt, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i].x = p[i].x + dt * (p[i].y + p[i].z + p[i].w);
}

__global__ void soa_update(float *x, const float *y, const float *z, float dt, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = x[i] + dt * y[i] * z[i];
}

int main()
{
  const int n = 1 << 20;
  const int side = 1024; // n = side * side
  const int n_parts = 300000;
  int *h_idx = (int *)malloc(5 * n * sizeof(int));
  float *h_in = (float *)malloc(4 * n * sizeof(float));
  for (int i = 0; i < n; ++i) {
    h_idx[i] = i;                                    // identity
    h_idx[n + i] = n - 1 - i;                        // reversal
    h_idx[2 * n + i] = (i % side) * side + i / side; // transpose
    h_idx[3 * n + i] = i ^ 1;                        // swap neighbours
    h_idx[4 * n + i] = (int)(((long long)i * 40503) % n); // hash
  }
  for (int i = 0; i < 4 * n; ++i) h_in[i] = (float)(i % 17);
  int *d_idx;
  float *d_in, *d_out;
  CHECK(cudaMalloc((void **)&d_idx, 5 * n * sizeof(int)));
  CHECK(cudaMalloc((void **)&d_in, 4 * n * sizeof(float)));
  CHECK(cudaMalloc((void **)&d_out, 4 * n * sizeof(float)));
  CHECK(cudaMemcpy(d_idx, h_idx, 5 * n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_in, h_in, 4 * n * sizeof(float), cudaMemcpyHostToDevice));

  for (int p = 0; p < 5; ++p) {
    gather<<<n / 256, 256>>>(d_out, d_in, d_idx + p * n, n);
    CHECK_LAUNCH();
  }
  scatter<<<n / 256, 256>>>(d_out, d_in, d_idx + 2 * n, n);
  CHECK_LAUNCH();
  scatter<<<n / 256, 256>>>(d_out, d_in, d_idx + 4 * n, n);
  CHECK_LAUNCH();

  const int blocks = (n_parts + 255) / 256;
  aos3_update<<<blocks, 256>>>((Particle3 *)d_out, 0.1f, n_parts);
  CHECK_LAUNCH();
  aos4_update<<<blocks, 256>>>((Particle4 *)d_out, 0.1f, n_parts);
  CHECK_LAUNCH();
  soa_update<<<blocks, 256>>>(d_out, d_out + n, d_out + 2 * n, 0.1f, n_parts);
  CHECK_LAUNCH();

  float h_out[4];
  CHECK(cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost));
  printf("gather: out[1] = %f\n", h_out[1]);
  CHECK(cudaFree(d_idx));
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  free(h_idx);
  free(h_in);
  return 0;
}
