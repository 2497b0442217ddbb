// Prefix sums in shared memory: Hillis-Steele (double-buffered, one element
// per thread), Blelloch's work-efficient up-sweep/down-sweep (two elements per
// thread, GPU Gems 3 ch. 39) without and with the conflict-avoiding padding,
// and a warp-shuffle scan (__shfl_up_sync) with per-warp totals in shared.
// Each block scans its own 256-element segment; n = 1000000 leaves a partial
// last block for the guarded kernels.
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

#define SEG 256
#define LOG_BANKS 5
#define PAD(i) ((i) >> LOG_BANKS)

__global__ void scan_hillis_steele(float *out, const float *in, int n)
{
  __shared__ float buf[2][SEG];
  int tid = threadIdx.x;
  int i = blockIdx.x * SEG + tid;
  int pout = 0, pin = 1;
  buf[pout][tid] = (i < n) ? in[i] : 0.0f;
  __syncthreads();
  for (int offset = 1; offset < SEG; offset *= 2) {
    pout = 1 - pout;
    pin = 1 - pout;
    if (tid >= offset)
      buf[pout][tid] = buf[pin][tid] + buf[pin][tid - offset];
    else
      buf[pout][tid] = buf[pin][tid];
    __syncthreads();
  }
  if (i < n)
    out[i] = buf[pout][tid];
}

// Exclusive scan, SEG / 2 threads per block.
__global__ void scan_blelloch(float *out, const float *in)
{
  __shared__ float temp[SEG];
  int tid = threadIdx.x;
  int base = blockIdx.x * SEG;
  temp[2 * tid] = in[base + 2 * tid];
  temp[2 * tid + 1] = in[base + 2 * tid + 1];
  int offset = 1;
  for (int d = SEG >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (tid < d) {
      int ai = offset * (2 * tid + 1) - 1;
      int bi = offset * (2 * tid + 2) - 1;
      temp[bi] += temp[ai];
    }
    offset *= 2;
  }
  if (tid == 0)
    temp[SEG - 1] = 0.0f;
  for (int d = 1; d < SEG; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (tid < d) {
      int ai = offset * (2 * tid + 1) - 1;
      int bi = offset * (2 * tid + 2) - 1;
      float t = temp[ai];
      temp[ai] = temp[bi];
      temp[bi] += t;
    }
  }
  __syncthreads();
  out[base + 2 * tid] = temp[2 * tid];
  out[base + 2 * tid + 1] = temp[2 * tid + 1];
}

// The same with one padding word every 32 elements.
__global__ void scan_blelloch_padded(float *out, const float *in)
{
  __shared__ float temp[SEG + SEG / 32];
  int tid = threadIdx.x;
  int base = blockIdx.x * SEG;
  int a = tid, b = tid + SEG / 2;
  temp[a + PAD(a)] = in[base + a];
  temp[b + PAD(b)] = in[base + b];
  int offset = 1;
  for (int d = SEG >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (tid < d) {
      int ai = offset * (2 * tid + 1) - 1;
      int bi = offset * (2 * tid + 2) - 1;
      temp[bi + PAD(bi)] += temp[ai + PAD(ai)];
    }
    offset *= 2;
  }
  if (tid == 0)
    temp[SEG - 1 + PAD(SEG - 1)] = 0.0f;
  for (int d = 1; d < SEG; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (tid < d) {
      int ai = offset * (2 * tid + 1) - 1;
      int bi = offset * (2 * tid + 2) - 1;
      ai += PAD(ai);
      bi += PAD(bi);
      float t = temp[ai];
      temp[ai] = temp[bi];
      temp[bi] += t;
    }
  }
  __syncthreads();
  out[base + a] = temp[a + PAD(a)];
  out[base + b] = temp[b + PAD(b)];
}

// Inclusive scan of ints: shuffles within each warp, then the warp totals.
__global__ void scan_warp_shuffle(int *out, const int *in, int n)
{
  __shared__ int warp_sums[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  int warp = threadIdx.x >> 5;
  int v = (i < n) ? in[i] : 0;
#pragma unroll
  for (int o = 1; o < 32; o *= 2) {
    int t = __shfl_up_sync(0xffffffff, v, o);
    if (lane >= o)
      v += t;
  }
  if (lane == 31)
    warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int s = (lane < blockDim.x / 32) ? warp_sums[lane] : 0;
#pragma unroll
    for (int o = 1; o < 32; o *= 2) {
      int t = __shfl_up_sync(0xffffffff, s, o);
      if (lane >= o)
        s += t;
    }
    warp_sums[lane] = s;
  }
  __syncthreads();
  if (warp > 0)
    v += warp_sums[warp - 1];
  if (i < n)
    out[i] = v;
}

int main()
{
  const int n = 1000000;
  const int n_full = 1024 * 1024; // the Blelloch kernels scan whole segments
  float *h_in = (float *)malloc(n_full * sizeof(float));
  int *h_ints = (int *)malloc(n_full * sizeof(int));
  for (int i = 0; i < n_full; ++i) {
    h_in[i] = (float)(i % 7);
    h_ints[i] = i % 5;
  }
  float *d_in, *d_out;
  int *d_ints, *d_iout;
  CHECK(cudaMalloc((void **)&d_in, n_full * sizeof(float)));
  CHECK(cudaMalloc((void **)&d_out, n_full * sizeof(float)));
  CHECK(cudaMalloc((void **)&d_ints, n_full * sizeof(int)));
  CHECK(cudaMalloc((void **)&d_iout, n_full * sizeof(int)));
  CHECK(cudaMemcpy(d_in, h_in, n_full * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_ints, h_ints, n_full * sizeof(int), cudaMemcpyHostToDevice));

  scan_hillis_steele<<<(n + SEG - 1) / SEG, SEG>>>(d_out, d_in, n);
  CHECK_LAUNCH();
  scan_blelloch<<<n_full / SEG, SEG / 2>>>(d_out, d_in);
  CHECK_LAUNCH();
  scan_blelloch_padded<<<n_full / SEG, SEG / 2>>>(d_out, d_in);
  CHECK_LAUNCH();
  scan_warp_shuffle<<<(n + 255) / 256, 256>>>(d_iout, d_ints, n);
  CHECK_LAUNCH();
  scan_warp_shuffle<<<(n + 95) / 96, 96>>>(d_iout, d_ints, n);
  CHECK_LAUNCH();

  float h_out[4];
  CHECK(cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost));
  printf("scan: out[3] = %f\n", h_out[3]);
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(d_ints));
  CHECK(cudaFree(d_iout));
  free(h_in);
  free(h_ints);
  return 0;
}
