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
  return 0;
}
