// Launches the GPU refuses (cudaErrorInvalidValue, nothing runs): a block
// over 1024 threads, and dynamic shared memory over 48 KB without the
// kernel's opt-in. Both host paths leave them out and number the launch
// that runs #0, as Nsight Compute does (core::launchRefusal).
__global__ void big(float *x) { x[threadIdx.x] = 1.0f; }
__global__ void wide(float *x) {
  extern __shared__ float s[];
  s[threadIdx.x] = x[threadIdx.x];
  x[threadIdx.x] = s[threadIdx.x ^ 1];
}
int main() {
  float *x;
  cudaMalloc(&x, 4096 * sizeof(float));
  big<<<1, 2048>>>(x);
  wide<<<1, 32, 100000>>>(x);
  cudaFuncSetAttribute(wide, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       100000);
  wide<<<1, 32, 100000>>>(x);
  return 0;
}
