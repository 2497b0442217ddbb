// The grid comes from device queries, as in reduce_bbuf.cu's GetNumBlocks:
// min((N + 255) / 256, SMs * threads per SM / 256).
#include <algorithm>
#include <cstdio>
#include <vector>

constexpr int kBlock = 256;

__global__ void gridStrideSum(const int *in, unsigned long long *sum, int n) {
  unsigned long long mine = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    mine += in[i];
  atomicAdd(sum, mine);
}

int numBlocks(int n) {
  int dev, sms, tpm;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  cudaDeviceGetAttribute(&tpm, cudaDevAttrMaxThreadsPerMultiProcessor, dev);
  return std::max(1, std::min((n + kBlock - 1) / kBlock, sms * tpm / kBlock));
}

int main() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  std::printf("cc %d.%d, %d SMs, warp %d, %zu bytes shared per block\n",
              prop.major, prop.minor, prop.multiProcessorCount, prop.warpSize,
              prop.sharedMemPerBlock);
  const int n = 1 << 20;
  std::vector<int> h(n);
  long long want = 0;
  for (int i = 0; i < n; ++i)
    want += h[i] = i % 7;
  int *dIn;
  unsigned long long *dSum;
  cudaMalloc(&dIn, n * sizeof(int));
  cudaMalloc(&dSum, sizeof(unsigned long long));
  cudaMemcpy(dIn, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(dSum, 0, sizeof(unsigned long long));
  int grid = numBlocks(n);
  gridStrideSum<<<grid, kBlock>>>(dIn, dSum, n);
  cudaError_t err = cudaGetLastError();
  unsigned long long got = 0;
  cudaMemcpy(&got, dSum, sizeof got, cudaMemcpyDeviceToHost);
  std::printf("grid=%d sum=%llu want=%lld %s (%s)\n", grid, got, want,
              (long long)got == want ? "PASS" : "FAIL",
              cudaGetErrorString(err));
  return 0;
}
