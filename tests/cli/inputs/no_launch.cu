// Kernels without host code: the launch comes from the command line.
__global__ void transposeNaive(float *out, const float *in) {
  __shared__ float tile[32][32];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y]; // expected-warning {{32-way shared-memory bank conflict on 'tile'}}
}
