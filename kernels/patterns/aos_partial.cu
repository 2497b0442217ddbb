// Array-of-structs updates that read only some fields of a 16-byte aligned
// struct. LLVM 22's load-store vectorizer joins the field loads with a gap
// (x and w; x and z) into a masked <4 x float> load, which kcheck once
// rejected ("unsupported construct: call to external function
// llvm.masked.load"); nvcc 13.0 emits one ld.global.v4.f32 for them (PTX of
// this file) and scalar stores for the fields written back.
//
// Not measured on the H100: the expected counters (h100/derived.csv) follow
// from the PTX and the coalescing model. n = 300000 = 9375 full warps:
// - aos4_xw: one LDG.128 per warp, 32 lanes x 16 contiguous bytes = 16
//   sectors; one STG.32 of x per warp at a 16-byte stride, 16 sectors.
// - aos4_xz: the same load; two STG.32 (x, z) per warp, 16 sectors each.
// - aos4_copy: `Particle4 q = p[i]; q.x += dt * q.w; p[i] = q;` nvcc stores
//   all of q (st.global.v4.f32, 16 sectors); LLVM drops the three fields
//   stored back unchanged and stores x alone, which at a 16-byte stride
//   touches the same 16 sectors with the same one instruction per warp.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

struct __align__(16) Particle4 {
  float x, y, z, w;
};

__global__ void aos4_xw(Particle4 *p, float dt, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i].x += dt * p[i].w;
}

__global__ void aos4_xz(Particle4 *p, float dt, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    p[i].x += dt * p[i].z;
    p[i].z = 0.5f * p[i].x;
  }
}

__global__ void aos4_copy(Particle4 *p, float dt, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    Particle4 q = p[i];
    q.x += dt * q.w;
    p[i] = q;
  }
}

int main()
{
  const int n = 300000;
  Particle4 *h = (Particle4 *)malloc(n * sizeof(Particle4));
  for (int i = 0; i < n; ++i)
    h[i] = Particle4{1.0f * i, 0.0f, 2.0f, 3.0f};
  Particle4 *p;
  cudaMalloc(&p, n * sizeof(Particle4));
  cudaMemcpy(p, h, n * sizeof(Particle4), cudaMemcpyHostToDevice);
  const int threads = 256, blocks = (n + threads - 1) / threads;
  aos4_xw<<<blocks, threads>>>(p, 0.1f, n);
  aos4_xz<<<blocks, threads>>>(p, 0.1f, n);
  aos4_copy<<<blocks, threads>>>(p, 0.1f, n);
  cudaMemcpy(h, p, n * sizeof(Particle4), cudaMemcpyDeviceToHost);
  printf("%f\n", h[n - 1].x + h[n - 1].z);
  cudaFree(p);
  free(h);
  return 0;
}
