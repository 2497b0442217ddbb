// A 512-byte struct copied into a thread's local memory at an offset that
// is not a multiple of 512: a block copy (llvm.memcpy), not a 512-byte
// access, so no misalignment.
struct Big {
  float v[128];
};

__global__ void copyLocal(const Big *in, float *out, int j) {
  float pad[3];
  for (int i = 0; i < 3; ++i)
    pad[i] = out[i];
  Big local = in[threadIdx.x];
  local.v[j & 127] += pad[j % 3];
  out[threadIdx.x] = local.v[(j + threadIdx.x) & 127];
}

int main() {
  Big *in;
  float *out;
  cudaMalloc(&in, 32 * sizeof(Big));
  cudaMalloc(&out, 32 * sizeof(float));
  cudaMemset(in, 0, 32 * sizeof(Big));
  cudaMemset(out, 0, 32 * sizeof(float));
  copyLocal<<<1, 32>>>(in, out, 5);
  cudaDeviceSynchronize();
  return 0;
}
