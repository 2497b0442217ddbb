#include <cstdint>
// Which adjacent shared accesses ptxas merges
// (analyzer/pipeline/IrPipelinePtxasMerge.h). nvcc -arch=sm_90 -O3 -cubin ptxas_merge.cu
// && cuobjdump -sass ptxas_merge.cubin | grep -E "Function|LDS|STS" Which
// adjacent shared i64/i32 pairs does ptxas merge when NVVM left them scalar
// (declared alignment 8/4, offsets proving 16)?
#define KDYN(name, T, BODY)                                                    \
  __global__ void name(T *out, const signed char *ks) {                        \
    __shared__ int pad[60];                                                    \
    __shared__ T open[4][30 * 8 / sizeof(T)];                                  \
    pad[threadIdx.x] = threadIdx.x;                                            \
    T *o = open[threadIdx.x];                                                  \
    o[threadIdx.x & 1] = 0;                                                    \
    o[2] = 1;                                                                  \
    int k = ks[threadIdx.x];                                                   \
    T *op = o + 2 * k + 2;                                                     \
    BODY out[threadIdx.x] = op[0] + op[1] + o[3] + pad[threadIdx.x ^ 1];       \
  }
KDYN(dyn_inter64, int64_t, op[0] = op[-2]; op[1] = op[-1];)
KDYN(dyn_group64, int64_t, int64_t a = op[-2]; int64_t b = op[-1]; op[0] = a;
     op[1] = b;)
KDYN(dyn_inter32, int, op[0] = op[-2]; op[1] = op[-1];)
KDYN(dyn_group32, int, int a = op[-2]; int b = op[-1]; op[0] = a; op[1] = b;)
#define KCONST(name, T, BODY)                                                  \
  __global__ void name(T *out) {                                               \
    __shared__ int pad[60];                                                    \
    __shared__ T open[4][30 * 8 / sizeof(T)];                                  \
    pad[threadIdx.x] = threadIdx.x;                                            \
    T *o = open[threadIdx.x];                                                  \
    o[threadIdx.x & 1] = 0;                                                    \
    o[2] = 1;                                                                  \
    T *op = o + 8;                                                             \
    BODY out[threadIdx.x] = op[0] + op[1] + o[3] + pad[threadIdx.x ^ 1];       \
  }
KCONST(c_inter64, int64_t, op[0] = op[-2]; op[1] = op[-1];)
KCONST(c_group64, int64_t, int64_t a = op[-2]; int64_t b = op[-1]; op[0] = a;
       op[1] = b;)
KCONST(c_inter32, int, op[0] = op[-2]; op[1] = op[-1];)
KCONST(c_group32, int, int a = op[-2]; int b = op[-1]; op[0] = a; op[1] = b;)
// a shared array indexed by tid only
__global__ void tid_pair64(int64_t *out) {
  __shared__ int pad[60];
  __shared__ int64_t s[256];
  pad[threadIdx.x] = 1;
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[2 * (threadIdx.x & 63)] * s[2 * (threadIdx.x & 63) + 1] +
                     pad[threadIdx.x ^ 1];
}
__global__ void tid_pair32(int *out) {
  __shared__ int pad[60];
  __shared__ int s[256];
  pad[threadIdx.x] = 1;
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[2 * (threadIdx.x & 63)] * s[2 * (threadIdx.x & 63) + 1] +
                     pad[threadIdx.x ^ 1];
}
__global__ void ld_gld_ld(int64_t *out, const int64_t *g,
                          const signed char *ks) {
  __shared__ int pad[60];
  __shared__ int64_t s[4][32];
  pad[threadIdx.x] = threadIdx.x;
  for (int i = 0; i < 32; ++i)
    s[threadIdx.x][i] = i;
  int k = ks[threadIdx.x];
  int64_t *o = s[threadIdx.x] + 2 * k;
  int64_t a = o[0];
  int64_t x = g[threadIdx.x * 7];
  int64_t b = o[1];
  out[threadIdx.x] = a * x + b + pad[threadIdx.x ^ 1];
}
__global__ void st_gst_st(int64_t *out, const signed char *ks) {
  __shared__ int pad[60];
  __shared__ int64_t s[4][32];
  pad[threadIdx.x] = threadIdx.x;
  int k = ks[threadIdx.x];
  int64_t *o = s[threadIdx.x] + 2 * k;
  o[0] = k;
  out[threadIdx.x * 9] = k * 3;
  o[1] = k + 5;
  __syncthreads();
  out[threadIdx.x] += s[threadIdx.x][3] + pad[threadIdx.x ^ 1];
}
__global__ void ld_gst_ld(int64_t *out, const signed char *ks) {
  __shared__ int pad[60];
  __shared__ int64_t s[4][32];
  pad[threadIdx.x] = threadIdx.x;
  for (int i = 0; i < 32; ++i)
    s[threadIdx.x][i] = i;
  int k = ks[threadIdx.x];
  int64_t *o = s[threadIdx.x] + 2 * k;
  int64_t a = o[0];
  out[threadIdx.x * 9] = a;
  int64_t b = o[1];
  out[threadIdx.x] = b + pad[threadIdx.x ^ 1];
}
__global__ void ld_sld_ld(int64_t *out, const signed char *ks) {
  __shared__ int pad[60];
  __shared__ int64_t s[4][32];
  pad[threadIdx.x] = threadIdx.x;
  for (int i = 0; i < 32; ++i)
    s[threadIdx.x][i] = i;
  int k = ks[threadIdx.x];
  int64_t *o = s[threadIdx.x] + 2 * k;
  int64_t a = o[0];
  int p = pad[(threadIdx.x * 5) & 63];
  int64_t b = o[1];
  out[threadIdx.x] = a * p + b;
}
__global__ void st_sst_st(int64_t *out, const signed char *ks) {
  __shared__ int pad[60];
  __shared__ int64_t s[4][32];
  int k = ks[threadIdx.x];
  int64_t *o = s[threadIdx.x] + 2 * k;
  o[0] = k;
  pad[threadIdx.x] = threadIdx.x;
  o[1] = k + 5;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x][3] + pad[threadIdx.x ^ 1];
}
