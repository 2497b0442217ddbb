// What the texture unit computes where the CUDA C++ Programming Guide gives
// no bit-exact formula: the sRGB conversion of each 8-bit value, the
// normalized value of each 8-bit texel, and linear filtering of 8- and
// 16-bit normalized texels (and of sRGB ones) at each of the 257 weights
// between two texels. Each is printed as `probe` lines, which the test
// compares with the H200's (docs/validation/data/h200-texture_filtering.txt);
// the checks are what the guide does define (a weight of 0 or 1 returns a
// texel, filtering is monotonic between two texels).
#include "conformance_checks.h"
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

static uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
static void probeLine(const char *name, const std::vector<float> &v) {
  std::printf("probe %s", name);
  for (float f : v)
    std::printf(" %08x", bits(f));
  std::printf("\n");
}

// out[i] = channel `c` of tex1D at x[i].
__global__ void fetch1D(cudaTextureObject_t t, const float *x, float *out,
                        int n, int c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float4 r = tex1D<float4>(t, x[i]);
  out[i] = c == 0 ? r.x : r.w;
}

// out[i] = tex2D at (x[2i], x[2i+1]).
__global__ void fetch2D(cudaTextureObject_t t, const float *x, float *out,
                        int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = tex2D<float4>(t, x[2 * i], x[2 * i + 1]).x;
}

// A 1D array of `n` texels of `desc` with the bytes of `texels`, sampled at
// `x` (unnormalized coordinates, clamp, normalized-float reads).
// (`rows` > 1: a 2D array of n x rows texels, sampled at the pairs of x.)
static std::vector<float> sample(const cudaChannelFormatDesc &desc,
                                 const void *texels, int n,
                                 cudaTextureFilterMode filter, bool srgb,
                                 const std::vector<float> &x, int channel,
                                 int rows = 1) {
  cudaArray_t a;
  OK(cudaMallocArray(&a, &desc, n, rows > 1 ? rows : 0));
  int bytes = (desc.x + desc.y + desc.z + desc.w) / 8;
  OK(cudaMemcpy2DToArray(a, 0, 0, texels, n * bytes, n * bytes, rows,
                         cudaMemcpyHostToDevice));
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = a;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = filter;
  td.readMode = cudaReadModeNormalizedFloat;
  td.sRGB = srgb;
  cudaTextureObject_t t;
  OK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
  float *xd, *od;
  OK(cudaMalloc(&xd, x.size() * 4));
  OK(cudaMalloc(&od, x.size() * 4));
  OK(cudaMemcpy(xd, x.data(), x.size() * 4, cudaMemcpyHostToDevice));
  int count = int(x.size()) / (rows > 1 ? 2 : 1); // 2D: (x, y) pairs
  if (rows > 1)
    fetch2D<<<(count + 127) / 128, 128>>>(t, xd, od, count);
  else
    fetch1D<<<(count + 127) / 128, 128>>>(t, xd, od, count, channel);
  std::vector<float> out(count);
  OK(cudaMemcpy(out.data(), od, count * 4, cudaMemcpyDeviceToHost));
  OK(cudaDestroyTextureObject(t));
  OK(cudaFreeArray(a));
  OK(cudaFree(xd));
  OK(cudaFree(od));
  return out;
}

// The 257 positions between texels p and p + 1 (weights 0/256 to 256/256).
static std::vector<float> between(int p) {
  std::vector<float> x;
  for (int w = 0; w <= 256; ++w)
    x.push_back(float(p) + 0.5f + float(w) / 256.0f);
  return x;
}

static bool monotonic(const std::vector<float> &v) {
  bool up = true, down = true;
  for (size_t i = 1; i < v.size(); ++i)
    up = up && v[i] >= v[i - 1], down = down && v[i] <= v[i - 1];
  return up || down;
}

int main() {
  // Each 8-bit value, point-sampled: unorm8 and sRGB (alpha stays linear).
  std::vector<uchar4> ramp(256);
  std::vector<float> centres;
  for (int i = 0; i < 256; ++i) {
    ramp[i] = make_uchar4(i, i, i, i);
    centres.push_back(float(i) + 0.5f);
  }
  cudaChannelFormatDesc u8x4 = cudaCreateChannelDesc<uchar4>();
  std::vector<float> unorm =
      sample(u8x4, ramp.data(), 256, cudaFilterModePoint, false, centres, 0);
  std::vector<float> srgb =
      sample(u8x4, ramp.data(), 256, cudaFilterModePoint, true, centres, 0);
  std::vector<float> alpha =
      sample(u8x4, ramp.data(), 256, cudaFilterModePoint, true, centres, 3);
  CHECK(unorm[0] == 0 && unorm[255] == 1 && srgb[0] == 0 && srgb[255] == 1,
        "0 and 255 are 0 and 1");
  CHECK(alpha == unorm, "sRGB leaves alpha linear");
  CHECK(monotonic(srgb), "sRGB is monotonic");
  for (int i = 0; i < 256; i += 32) {
    char name[32];
    std::snprintf(name, sizeof name, "unorm8[%d]", i);
    probeLine(name,
              std::vector<float>(unorm.begin() + i, unorm.begin() + i + 32));
    std::snprintf(name, sizeof name, "srgb8[%d]", i);
    probeLine(name,
              std::vector<float>(srgb.begin() + i, srgb.begin() + i + 32));
  }

  // Linear filtering between two texels, at each weight.
  const int pairs8[][2] = {{0, 255},   {255, 0}, {1, 254},   {17, 200},
                           {100, 101}, {3, 250}, {128, 129}, {0, 1}};
  for (const auto &p : pairs8) {
    uchar4 two[2] = {make_uchar4(p[0], p[0], p[0], p[0]),
                     make_uchar4(p[1], p[1], p[1], p[1])};
    std::vector<float> v =
        sample(u8x4, two, 2, cudaFilterModeLinear, false, between(0), 0);
    CHECK(v[0] == unorm[p[0]] && v[256] == unorm[p[1]],
          "unorm8 filtering's ends are the texels");
    CHECK(monotonic(v), "unorm8 filtering is monotonic");
    char name[48];
    std::snprintf(name, sizeof name, "unorm8-linear[%d,%d]", p[0], p[1]);
    probeLine(name, v);
    std::vector<float> s =
        sample(u8x4, two, 2, cudaFilterModeLinear, true, between(0), 0);
    CHECK(s[0] == srgb[p[0]] && s[256] == srgb[p[1]],
          "sRGB filtering's ends are the texels");
    std::snprintf(name, sizeof name, "srgb8-linear[%d,%d]", p[0], p[1]);
    probeLine(name, s);
  }
  cudaChannelFormatDesc u16 = cudaCreateChannelDesc<unsigned short>();
  cudaChannelFormatDesc s8 = cudaCreateChannelDesc<signed char>();
  const int pairs16[][2] = {{0, 65535}, {1000, 50000}, {12345, 12346}};
  for (const auto &p : pairs16) {
    unsigned short two[2] = {uint16_t(p[0]), uint16_t(p[1])};
    std::vector<float> v =
        sample(u16, two, 2, cudaFilterModeLinear, false, between(0), 0);
    CHECK(monotonic(v), "unorm16 filtering is monotonic");
    char name[48];
    std::snprintf(name, sizeof name, "unorm16-linear[%d,%d]", p[0], p[1]);
    probeLine(name, v);
  }
  const int pairsS8[][2] = {{-128, 127}, {-1, 1}, {-127, -100}};
  for (const auto &p : pairsS8) {
    signed char two[2] = {int8_t(p[0]), int8_t(p[1])};
    std::vector<float> v =
        sample(s8, two, 2, cudaFilterModeLinear, false, between(0), 0);
    char name[48];
    std::snprintf(name, sizeof name, "snorm8-linear[%d,%d]", p[0], p[1]);
    probeLine(name, v);
  }
  // 8-bit signed normalized values, point-sampled.
  std::vector<signed char> sramp(256);
  for (int i = 0; i < 256; ++i)
    sramp[i] = int8_t(i - 128);
  std::vector<float> snorm =
      sample(s8, sramp.data(), 256, cudaFilterModePoint, false, centres, 0);
  for (int i = 0; i < 256; i += 32) {
    char name[32];
    std::snprintf(name, sizeof name, "snorm8[%d]", i - 128);
    probeLine(name,
              std::vector<float>(snorm.begin() + i, snorm.begin() + i + 32));
  }
  // 2D: 2 x 2 texels, at pairs of weights.
  const int wts[] = {0, 1, 3, 17, 64, 100, 128, 129, 200, 255};
  std::vector<float> xy;
  for (int wy : wts)
    for (int wx : wts)
      xy.push_back(0.5f + wx / 256.0f), xy.push_back(0.5f + wy / 256.0f);
  unsigned char quad8[4] = {0, 255, 37, 200};
  cudaChannelFormatDesc u8 = cudaCreateChannelDesc<unsigned char>();
  probeLine("unorm8-linear-2d",
            sample(u8, quad8, 2, cudaFilterModeLinear, false, xy, 0, 2));
  signed char quadS8[4] = {-128, 127, -1, 1};
  probeLine("snorm8-linear-2d",
            sample(s8, quadS8, 2, cudaFilterModeLinear, false, xy, 0, 2));
  OK(cudaDeviceSynchronize());
  std::printf("texture_filtering: %d checks, %d failures\n", checks, failures);
  return failures != 0;
}
