// A captured graph launched through a handle the static analysis cannot
// tell (chosen by an input it does not see): the launch is named in a
// note, not dropped silently; --run-host runs it.
#include <cstdlib>

__global__ void k(float *x) { x[threadIdx.x] += 1.0f; }

int main(int argc, char **argv) {
  float *d = nullptr;
  cudaMalloc(&d, 64 * sizeof(float));
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaGraph_t graph;
  cudaGraphExec_t execs[2];
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  k<<<1, 64, 0, s>>>(d);
  cudaStreamEndCapture(s, &graph);
  cudaGraphInstantiate(&execs[0], graph, nullptr, nullptr, 0);
  cudaGraphInstantiate(&execs[1], graph, nullptr, nullptr, 0);
  int which = std::getenv("GRAPH_ONE") ? 1 : 0;
  cudaGraphLaunch(execs[which], s);
  cudaStreamSynchronize(s);
  return 0;
}
