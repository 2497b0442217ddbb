// Host-filled data decides a kernel's branch: the launch's counters and the
// program's checksum depend on the values the host wrote.
#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void threshold(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = in[i];
  if (v > 4.0f)
    out[i] = v * 2.0f;
  else
    out[i] = -v;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 10000;
  std::vector<float> h(n), back(n);
  unsigned seed = 12345;
  for (int i = 0; i < n; ++i) {
    seed = seed * 1664525u + 1013904223u;
    h[i] = float(seed >> 24) / 32.0f; // 0 .. 8
  }
  float *dIn, *dOut;
  cudaMalloc(&dIn, n * sizeof(float));
  cudaMalloc(&dOut, n * sizeof(float));
  cudaMemcpy(dIn, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  threshold<<<(n + 255) / 256, 256>>>(dIn, dOut, n);
  cudaMemcpy(back.data(), dOut, n * sizeof(float), cudaMemcpyDeviceToHost);
  double sum = 0;
  int bad = 0, above = 0;
  for (int i = 0; i < n; ++i) {
    float want = h[i] > 4.0f ? h[i] * 2.0f : -h[i];
    bad += back[i] != want;
    above += h[i] > 4.0f;
    sum += back[i];
  }
  std::printf("n=%d above=%d checksum=%.3f %s\n", n, above, sum,
              bad ? "FAIL" : "PASS");
  cudaFree(dIn);
  cudaFree(dOut);
  return bad != 0;
}
