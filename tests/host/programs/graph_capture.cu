// A CUDA graph made by stream capture and launched three times, as the
// static analysis follows it: the captured launches are made at each
// cudaGraphLaunch, not where they are captured; a launch after the capture
// is made at once.
#include <cstdio>

__global__ void scale(float *x, float f) {
  x[blockIdx.x * blockDim.x + threadIdx.x] *= f;
}

int main() {
  float *d = nullptr;
  cudaMalloc(&d, 4096 * sizeof(float));
  cudaMemset(d, 0, 4096 * sizeof(float));
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  scale<<<2, 32, 0, s>>>(d, 2.0f);
  scale<<<3, 64, 0, s>>>(d, 0.5f);
  cudaStreamEndCapture(s, &graph);
  scale<<<9, 32, 0, s>>>(d, 1.0f);
  cudaGraphInstantiate(&exec, graph, nullptr, nullptr, 0);
  for (int i = 0; i < 3; ++i)
    cudaGraphLaunch(exec, s);
  cudaStreamSynchronize(s);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(s);
  printf("graph launched: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
