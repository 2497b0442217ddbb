// Two identical launches reading a texture object, destroyed between them:
// the second is simulated again (it reads a handle that names no live
// object, and faults), not taken from the first (RepeatedLaunches.h).
#include <cstdio>

__global__ void fetch(cudaTextureObject_t t, float *out) {
  out[threadIdx.x] = tex1Dfetch<float>(t, int(threadIdx.x));
}

int main() {
  float *data, *out;
  cudaMalloc(&data, 32 * sizeof(float));
  cudaMalloc(&out, 32 * sizeof(float));
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeLinear;
  res.res.linear.devPtr = data;
  res.res.linear.desc = cudaCreateChannelDesc<float>();
  res.res.linear.sizeInBytes = 32 * sizeof(float);
  cudaTextureDesc desc = {};
  desc.readMode = cudaReadModeElementType;
  cudaTextureObject_t t = 0;
  cudaCreateTextureObject(&t, &res, &desc, nullptr);
  fetch<<<1, 32>>>(t, out);
  cudaDeviceSynchronize();
  cudaDestroyTextureObject(t);
  fetch<<<1, 32>>>(t, out);
  printf("second launch: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
