// Branch shapes for the divergence tests: each kernel has one branch of
// interest, named after what the analysis must say about it.
#define WARP_SIZE 32

__global__ void uniformLoop(float *out) {
  float acc = 0;
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) // uniform
    acc += s;
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

__global__ void modulo(float *out) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  sdata[tid] = tid;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) // thread-dependent
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

__global__ void warpUniformSlides(float *out) {
  // The body stores, so -O3 keeps a real branch (no select).
  if (threadIdx.x / WARP_SIZE > 2) // warp-uniform (the slides' example)
    out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
  // (no else)
}

__global__ void dataDependent(const int *in, float *out) {
  if (in[threadIdx.x] > 0) // thread-dependent through loaded data
    out[threadIdx.x] = 1;
}

__global__ void barrierInBranch(float *out) {
  __shared__ float s[64];
  if (threadIdx.x < 16) { // threads 16-63 skip the barrier
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
  }
  out[threadIdx.x] = s[threadIdx.x % 16];
}

// SASS branch-divergence facts (cli/Divergence's rule) and active lanes.
__global__ void gridStride(float *y, const float *x, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; // loop exit
       i += blockDim.x * gridDim.x)
    y[i] = 2.0f * x[i];
}

__global__ void ternaryGlobalLoad(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = (i < n) ? in[i] : 0.0f; // merges a value loaded from global
  out[i] = v * 2.0f;
}

__global__ void ternarySharedLoad(float *out, int n) {
  __shared__ float s[64];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  float v = (threadIdx.x < n) ? s[threadIdx.x ^ 1] : 0.0f; // shared: no
  out[threadIdx.x] = v;
}

__global__ void storeThenUse(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) // GVN merges the address i, not a loaded value
    out[i] = in[i] + 1.0f;
  out[1000 + i] = __shfl_down_sync(0xffffffff, (float)i, 1);
}

__global__ void atomics(int *out) {
  __shared__ int s;
  if (threadIdx.x == 0)
    s = 0;
  __syncthreads();
  atomicAdd(&s, 1); // atomics count in no ld/st metric
  __syncthreads();
  if (threadIdx.x == 0)
    atomicAdd(out, s);
}

int main() {
  float *out;
  int *in;
  cudaMalloc(&out, 1 << 20);
  cudaMalloc(&in, 1 << 20);
  uniformLoop<<<2, 256>>>(out);
  modulo<<<2, 256>>>(out);
  warpUniformSlides<<<2, 256>>>(out);
  dataDependent<<<1, 64>>>(in, out);
  barrierInBranch<<<1, 64>>>(out);
  gridStride<<<2, 64>>>(out, out, 200);
  ternaryGlobalLoad<<<2, 64>>>(out, out, 45);
  ternarySharedLoad<<<1, 64>>>(out, 45);
  storeThenUse<<<2, 64>>>(out, out, 45);
  atomics<<<2, 64>>>(in);
  return 0;
}
