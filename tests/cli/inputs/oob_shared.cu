// Off-by-one shared write: thread 31 writes tile[32], past the end.
__global__ void offByOne(float *out) {
  __shared__ float tile[32];
  tile[threadIdx.x + 1] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x];
}

int main() {
  float *d;
  cudaMalloc(&d, 32 * sizeof(float));
  offByOne<<<1, 32>>>(d);
  return 0;
}
