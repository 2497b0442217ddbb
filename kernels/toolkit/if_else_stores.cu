#include "common.h" // if/else arms storing to one address: nvcc stores once after the join unless the else arm stores the constant zero; kcheck agrees on 16 of these 27 launches (README.md, known differences; analyzer/pipeline/IrPipelineMemory.h)
__global__ void zeroArm(float* out, const float* in) {
  int t = threadIdx.x;
  if (t == 0) { out[2*t] = 0; out[2*t+1] = in[5]; }
  else { out[2*t] = in[t]; out[2*t+1] = in[t+1]; }
}
__global__ void oneArm(float* out, const float* in) {
  int t = threadIdx.x;
  if (t == 0) { out[2*t] = 1.0f; out[2*t+1] = in[5]; }
  else { out[2*t] = in[t]; out[2*t+1] = in[t+1]; }
}
__global__ void zeroLast(float* out, const float* in) {
  int t = threadIdx.x;
  if (t == 0) { out[2*t] = in[5]; out[2*t+1] = 0; }
  else { out[2*t] = in[t]; out[2*t+1] = in[t+1]; }
}
__global__ void zeroInt(int* out, const int* in) {
  int t = threadIdx.x;
  if (t == 0) { out[2*t] = 0; out[2*t+1] = in[5]; }
  else { out[2*t] = in[t]; out[2*t+1] = in[t+1]; }
}
__global__ void valArm(float* out, const float* in, float v) {
  int t = threadIdx.x;
  if (t == 0) { out[2*t] = v; out[2*t+1] = in[5]; }
  else { out[2*t] = in[t]; out[2*t+1] = in[t+1]; }
}
__global__ void T1(float* out, const float* in, float v, float s) {
  int t = threadIdx.x; int g = blockIdx.x * blockDim.x + t;
  if (t == 0) { out[2*g] = v; out[2*g+1] = s; }
  else { out[2*g] = in[g]; out[2*g+1] = s; }
}
__global__ void T2(float* out, const float* in, float v, float s) {
  int t = threadIdx.x; int g = blockIdx.x * blockDim.x + t;
  if (t == 0) { out[2*g] = 0; out[2*g+1] = s; }
  else { out[2*g] = in[g]; out[2*g+1] = s; }
}
__global__ void T3(int* out, const int* in, int v, int s) {
  int t = threadIdx.x; int g = blockIdx.x * blockDim.x + t;
  if (t == 0) { out[2*g] = 0; out[2*g+1] = s; }
  else { out[2*g] = in[g]; out[2*g+1] = s; }
}
__global__ void T4(float* out, const float* in, float v, float s) {
  int t = threadIdx.x; int g = blockIdx.x * blockDim.x + t;
  if (t == 0) { out[2*g] = 0; }
  else { out[2*g] = in[g]; }
}
__global__ void T5(int* out, const int* in, int v, int s) {
  int t = threadIdx.x; int g = blockIdx.x * blockDim.x + t;
  if (t == 0) { out[2*g] = 0; }
  else { out[2*g] = in[g]; }
}
__global__ void V1(const float* in, float* out, int n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 0; else out[i] = in[i];
}
__global__ void V2(const float* in, float* out, int n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) out[i] = in[i]; else out[i] = 0;
}
__global__ void V3(const float* in, float* out, int n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i]; else out[i] = 1.0f;
}
__global__ void V5(const int* in, int* out, int n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i]; else out[i] = 0;
}
__global__ void V6(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i]; else out[i] = 0;
}
__global__ void V7(const float* in, float* out, int n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) out[i] = 0; else out[i] = in[i];
}
__global__ void V8(const float* in, float* out, int n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * 2.0f; else out[i] = 0;
}
__global__ void V9(const float* in, float* out, int n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i+1]; else out[i] = in[i];
}
__global__ void W1(const float* in, float* out, int n, float v) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = v; else out[i] = 0;
}
__global__ void W2(const float* in, float* out, int n, float v) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i]; else out[i] = 2.0f;
}
__global__ void W3(const float* in, float* out, int n, float v) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i]; else out[i] = -1.0f;
}
__global__ void W4(const float* in, float* out, int n, float v) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { out[i] = in[i]; } else { out[i] = 0; out[i+1] = 0; }
}
__global__ void W5(const float* in, float* out, int n, float v) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float x;
  if (i < n) x = in[i]; else x = 0;
  out[i] = x;
}
__global__ void W6(const int* in, int* out, int n, float v) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i]; else out[i] = 7;
}
__global__ void W7(const float* in, float* out, int n, float v) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] + v; else out[i] = 0;
}
__global__ void rcGlobal(const float* g_in, float* out, int n) {
  unsigned tid = threadIdx.x; unsigned i = blockIdx.x * blockDim.x + tid;
  if (i < n) out[i] = g_in[i];
  else out[i] = 0;
}
__global__ void rcGlobalV(const float* g_in, float* out, int n, float v) {
  unsigned tid = threadIdx.x; unsigned i = blockIdx.x * blockDim.x + tid;
  if (i < n) out[i] = g_in[i];
  else out[i] = v;
}
int main() {
  const int n = 4096;
  float *fi = deviceBuffer<float>(n + 64, 1), *fo; int *ii = deviceBuffer<int>(n + 64, 2), *io;
  CHECK(cudaMalloc(&fo, 3 * n * sizeof(float))); CHECK(cudaMalloc(&io, 3 * n * sizeof(int)));
  zeroArm<<<16, 128>>>(fo, fi); oneArm<<<16, 128>>>(fo, fi); zeroLast<<<16, 128>>>(fo, fi);
  zeroInt<<<16, 128>>>(io, ii); valArm<<<16, 128>>>(fo, fi, 2.0f);
  T1<<<16, 128>>>(fo, fi, 1.f, 2.f); T2<<<16, 128>>>(fo, fi, 1.f, 2.f); T3<<<16, 128>>>(io, ii, 1, 2);
  T4<<<16, 128>>>(fo, fi, 1.f, 2.f); T5<<<16, 128>>>(io, ii, 1, 2);
  V1<<<16, 128>>>(fi, fo, 1000); V2<<<16, 128>>>(fi, fo, 1000); V3<<<16, 128>>>(fi, fo, 1000);
  V5<<<16, 128>>>(ii, io, 1000); V6<<<16, 128>>>(fi, fo, 1000); V7<<<16, 128>>>(fi, fo, 1000);
  V8<<<16, 128>>>(fi, fo, 1000); V9<<<16, 128>>>(fi, fo, 1000);
  W1<<<16, 128>>>(fi, fo, 1000, 1.f); W2<<<16, 128>>>(fi, fo, 1000, 1.f); W3<<<16, 128>>>(fi, fo, 1000, 1.f);
  W4<<<16, 128>>>(fi, fo, 1000, 1.f); W5<<<16, 128>>>(fi, fo, 1000, 1.f); W6<<<16, 128>>>(ii, io, 1000, 1.f);
  W7<<<16, 128>>>(fi, fo, 1000, 1.f); rcGlobal<<<16, 128>>>(fi, fo, 1000); rcGlobalV<<<16, 128>>>(fi, fo, 1000, 1.f);
  CHECK_LAUNCH();
  return 0;
}
