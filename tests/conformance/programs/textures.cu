// Conformance program for textures, surfaces and CUDA arrays, written from
// the CUDA C++ Programming Guide ("Texture and Surface Memory", "Texture
// Fetching") and the runtime API's documentation: arrays of each dimension
// and format, copies to and from them, texture objects over arrays, mipmapped
// arrays, linear and pitched memory (point and linear filtering, normalized
// coordinates, the four address modes, both read modes, layers, cubemaps,
// levels, gradients, gathers) and surface objects (reads, writes and their
// boundary modes). What the documents define is checked (CHECK); what they
// leave to the hardware (linear filtering's rounding, channels a format
// lacks, the level a gradient selects, error codes of odd calls) is printed
// as `probe` lines, which the test compares with the H200's
// (docs/validation/data/h200-textures.txt). It prints one line per failed
// check and a summary.
#include "conformance_checks.h"
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

static uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
static void probe(const char *name, int i, float4 v) {
  std::printf("probe %s[%d] %08x %08x %08x %08x\n", name, i, bits(v.x),
              bits(v.y), bits(v.z), bits(v.w));
}
static void probeInt(const char *name, int i, int4 v) {
  std::printf("probe %s[%d] %08x %08x %08x %08x\n", name, i, unsigned(v.x),
              unsigned(v.y), unsigned(v.z), unsigned(v.w));
}

constexpr int kN = 64; // coordinates per launch

enum Fetch {
  k1D,
  k2D,
  k3D,
  k1DLayered,
  k2DLayered,
  kCube,
  kCubeLayered,
  k2DLod,
  k2DGrad,
  k2DGather,
  k1DFetch
};

// One float4 fetch per thread, of the kind `f`, at c[i] (x, y, z, w: the
// layer, level or gather component where the kind has one).
__global__ void fetchFloat(cudaTextureObject_t t, Fetch f, const float4 *c,
                           float4 *out) {
  int i = threadIdx.x;
  float4 p = c[i];
  float4 r = {};
  switch (f) {
  case k1D:
    r = tex1D<float4>(t, p.x);
    break;
  case k2D:
    r = tex2D<float4>(t, p.x, p.y);
    break;
  case k3D:
    r = tex3D<float4>(t, p.x, p.y, p.z);
    break;
  case k1DLayered:
    r = tex1DLayered<float4>(t, p.x, int(p.w));
    break;
  case k2DLayered:
    r = tex2DLayered<float4>(t, p.x, p.y, int(p.w));
    break;
  case kCube:
    r = texCubemap<float4>(t, p.x, p.y, p.z);
    break;
  case kCubeLayered:
    r = texCubemapLayered<float4>(t, p.x, p.y, p.z, int(p.w));
    break;
  case k2DLod:
    r = tex2DLod<float4>(t, p.x, p.y, p.w);
    break;
  case k2DGrad:
    r = tex2DGrad<float4>(t, p.x, p.y, make_float2(p.z, 0),
                          make_float2(0, p.z));
    break;
  case k2DGather:
    r = tex2Dgather<float4>(t, p.x, p.y, int(p.w));
    break;
  case k1DFetch:
    r = tex1Dfetch<float4>(t, int(p.x));
    break;
  }
  out[i] = r;
}

__global__ void fetchInt(cudaTextureObject_t t, Fetch f, const float4 *c,
                         int4 *out) {
  int i = threadIdx.x;
  float4 p = c[i];
  int4 r = {};
  switch (f) {
  case k2D:
    r = tex2D<int4>(t, p.x, p.y);
    break;
  case k1DFetch:
    r = tex1Dfetch<int4>(t, int(p.x));
    break;
  case k2DGather:
    r = tex2Dgather<int4>(t, p.x, p.y, int(p.w));
    break;
  default:
    break;
  }
  out[i] = r;
}

// Surfaces: each thread reads element (x, y) of `src` and writes it plus
// one to `dst`; a second pass tests the boundary modes at x = -1 and past
// the end (zero and clamp).
__global__ void surfaceStep(cudaSurfaceObject_t src, cudaSurfaceObject_t dst,
                            int width, int height) {
  int x = threadIdx.x, y = blockIdx.x;
  if (x >= width || y >= height)
    return;
  float v;
  surf2Dread(&v, src, x * 4, y);
  surf2Dwrite(v + 1.0f, dst, x * 4, y);
}
__global__ void surfaceBoundaries(cudaSurfaceObject_t s, int width,
                                  float *out) {
  float a = -1, b = -1, c = -1;
  surf2Dread(&a, s, -4, 0, cudaBoundaryModeZero);
  surf2Dread(&b, s, width * 4, 0, cudaBoundaryModeClamp);
  surf2Dread(&c, s, width * 4 + 64, 1, cudaBoundaryModeZero);
  surf2Dwrite(99.0f, s, width * 4, 0, cudaBoundaryModeZero); // dropped
  out[0] = a, out[1] = b, out[2] = c;
}
__global__ void surfaceTypes(cudaSurfaceObject_t s1, cudaSurfaceObject_t s3,
                             cudaSurfaceObject_t sl, uchar4 *out8,
                             float *out3) {
  int x = threadIdx.x;
  uchar4 v;
  surf1Dread(&v, s1, x * 4);
  v.x += 1;
  surf1Dwrite(v, s1, x * 4);
  out8[x] = v;
  float w;
  surf3Dread(&w, s3, x * 4, 1, 2);
  surf3Dwrite(w * 2, s3, x * 4, 1, 2);
  float l;
  surf2DLayeredread(&l, sl, x * 4, 1, 2);
  out3[x] = w + l;
}

struct Texture {
  cudaTextureObject_t object = 0;
};

static cudaTextureObject_t
textureOver(const cudaResourceDesc &rd, cudaTextureAddressMode mode,
            cudaTextureFilterMode filter, cudaTextureReadMode read,
            bool normalized, float border = 0,
            cudaTextureFilterMode mip = cudaFilterModePoint,
            float maxLevel = 0) {
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = mode;
  td.filterMode = filter;
  td.readMode = read;
  td.normalizedCoords = normalized;
  td.borderColor[0] = td.borderColor[1] = border;
  td.borderColor[2] = td.borderColor[3] = border;
  td.mipmapFilterMode = mip;
  td.maxMipmapLevelClamp = maxLevel;
  cudaTextureObject_t t = 0;
  OK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
  return t;
}

static float4 *coordsDev, *outDev;
static int4 *outIntDev;
static std::vector<float4> run(cudaTextureObject_t t, Fetch f,
                               const std::vector<float4> &c) {
  std::vector<float4> padded(kN, float4{0, 0, 0, 0}), out(kN);
  for (size_t i = 0; i < c.size(); ++i)
    padded[i] = c[i];
  OK(cudaMemcpy(coordsDev, padded.data(), kN * sizeof(float4),
                cudaMemcpyHostToDevice));
  fetchFloat<<<1, kN>>>(t, f, coordsDev, outDev);
  OK(cudaMemcpy(out.data(), outDev, kN * sizeof(float4),
                cudaMemcpyDeviceToHost));
  out.resize(c.size());
  return out;
}
static std::vector<int4> runInt(cudaTextureObject_t t, Fetch f,
                                const std::vector<float4> &c) {
  std::vector<float4> padded(kN, float4{0, 0, 0, 0});
  std::vector<int4> out(kN);
  for (size_t i = 0; i < c.size(); ++i)
    padded[i] = c[i];
  OK(cudaMemcpy(coordsDev, padded.data(), kN * sizeof(float4),
                cudaMemcpyHostToDevice));
  fetchInt<<<1, kN>>>(t, f, coordsDev, outIntDev);
  OK(cudaMemcpy(out.data(), outIntDev, kN * sizeof(int4),
                cudaMemcpyDeviceToHost));
  out.resize(c.size());
  return out;
}
static bool same(float a, float b) { return bits(a) == bits(b); }

int main() {
  OK(cudaMalloc(&coordsDev, kN * sizeof(float4)));
  OK(cudaMalloc(&outDev, kN * sizeof(float4)));
  OK(cudaMalloc(&outIntDev, kN * sizeof(int4)));
  const int W = 8, H = 4;

  // A 2D float array: texel (x, y) = 10 y + x.
  cudaChannelFormatDesc fdesc = cudaCreateChannelDesc<float>();
  CHECK(fdesc.x == 32 && fdesc.y == 0 && fdesc.f == cudaChannelFormatKindFloat,
        "cudaCreateChannelDesc<float>");
  cudaArray_t a2;
  OK(cudaMallocArray(&a2, &fdesc, W, H, cudaArraySurfaceLoadStore));
  std::vector<float> host(W * H);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x)
      host[y * W + x] = 10.0f * y + x;
  OK(cudaMemcpy2DToArray(a2, 0, 0, host.data(), W * 4, W * 4, H,
                         cudaMemcpyHostToDevice));
  {
    cudaChannelFormatDesc d;
    cudaExtent e;
    unsigned flags;
    OK(cudaArrayGetInfo(&d, &e, &flags, a2));
    CHECK(e.width == W && e.height == H && e.depth == 0 &&
              flags == cudaArraySurfaceLoadStore && d.x == 32,
          "cudaArrayGetInfo");
    OK(cudaGetChannelDesc(&d, a2));
    CHECK(d.f == cudaChannelFormatKindFloat, "cudaGetChannelDesc");
    std::vector<float> back(W * H);
    OK(cudaMemcpy2DFromArray(back.data(), W * 4, a2, 0, 0, W * 4, H,
                             cudaMemcpyDeviceToHost));
    CHECK(back == host, "cudaMemcpy2DFromArray round trip");
    float part[2];
    OK(cudaMemcpy2DFromArray(part, 8, a2, 12, 2, 8, 1, cudaMemcpyDeviceToHost));
    CHECK(part[0] == 23 && part[1] == 24, "cudaMemcpy2DFromArray offsets");
  }
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = a2;

  // Point filtering, unnormalized coordinates, clamp: texel centres.
  cudaTextureObject_t point =
      textureOver(rd, cudaAddressModeClamp, cudaFilterModePoint,
                  cudaReadModeElementType, false);
  {
    std::vector<float4> c;
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x)
        c.push_back({x + 0.5f, y + 0.5f, 0, 0});
    c.push_back({-3.0f, 1.5f, 0, 0}); // clamped to x = 0
    c.push_back({100.0f, 100.0f, 0, 0});
    auto r = run(point, k2D, c);
    bool ok = true;
    for (int i = 0; i < W * H; ++i)
      ok = ok && r[i].x == host[i];
    CHECK(ok, "point-filtered texel centres");
    CHECK(r[W * H].x == 10.0f, "clamp below 0");
    CHECK(r[W * H + 1].x == host[W * H - 1], "clamp past the end");
    for (size_t i = 0; i < 2; ++i)
      probe("float1-missing-channels", int(i), r[i]);
  }
  // Normalized coordinates with wrap, mirror and border, point filtering.
  {
    std::vector<float4> c = {{0.30f, 0.40f, 0, 0},
                             {1.30f, 0.40f, 0, 0},
                             {-0.70f, 1.40f, 0, 0},
                             {1.10f, 0.10f, 0, 0}};
    auto wrap = run(textureOver(rd, cudaAddressModeWrap, cudaFilterModePoint,
                                cudaReadModeElementType, true),
                    k2D, c);
    float t0 = host[1 * W + 2]; // (0.3 * 8, 0.4 * 4) = (2.4, 1.6)
    CHECK(wrap[0].x == t0 && wrap[1].x == t0 && wrap[2].x == t0,
          "wrap repeats the texture");
    auto mirror =
        run(textureOver(rd, cudaAddressModeMirror, cudaFilterModePoint,
                        cudaReadModeElementType, true),
            k2D, c);
    CHECK(mirror[0].x == t0, "mirror inside");
    CHECK(mirror[3].x == host[0 * W + 7], "mirror past 1 reflects");
    for (size_t i = 0; i < c.size(); ++i)
      probe("mirror", int(i), mirror[i]);
    auto border =
        run(textureOver(rd, cudaAddressModeBorder, cudaFilterModePoint,
                        cudaReadModeElementType, true, 7.5f),
            k2D, c);
    CHECK(border[0].x == t0, "border inside");
    CHECK(border[1].x == 7.5f && border[3].x == 7.5f,
          "border outside is the border colour");
    for (size_t i = 0; i < c.size(); ++i)
      probe("border", int(i), border[i]);
  }
  // Linear filtering: weights of 8 fractional bits.
  {
    cudaTextureObject_t lin =
        textureOver(rd, cudaAddressModeClamp, cudaFilterModeLinear,
                    cudaReadModeElementType, false);
    std::vector<float4> c;
    for (int k = 0; k < 24; ++k)
      c.push_back({1.0f + k * 0.0437f, 1.0f + k * 0.0913f, 0, 0});
    c.push_back({0.0f, 0.0f, 0, 0});
    c.push_back({7.9f, 3.9f, 0, 0});
    auto r = run(lin, k2D, c);
    bool ok = true;
    for (size_t i = 0; i < c.size(); ++i) {
      float xb = c[i].x - 0.5f, yb = c[i].y - 0.5f;
      int x0 = int(std::floor(xb)), y0 = int(std::floor(yb));
      float ax = xb - x0, ay = yb - y0;
      auto T = [&](int x, int y) {
        x = x < 0 ? 0 : x >= W ? W - 1 : x;
        y = y < 0 ? 0 : y >= H ? H - 1 : y;
        return host[y * W + x];
      };
      float want = (1 - ax) * (1 - ay) * T(x0, y0) +
                   ax * (1 - ay) * T(x0 + 1, y0) +
                   (1 - ax) * ay * T(x0, y0 + 1) + ax * ay * T(x0 + 1, y0 + 1);
      ok = ok && std::fabs(r[i].x - want) < 0.2f; // within 1/256 of a step
      probe("linear2d", int(i), r[i]);
    }
    CHECK(ok, "bilinear filtering");
  }
  // Gathers (tld4): the four texels of the bilinear footprint.
  {
    cudaArray_t ga;
    OK(cudaMallocArray(&ga, &fdesc, W, H, cudaArrayTextureGather));
    OK(cudaMemcpy2DToArray(ga, 0, 0, host.data(), W * 4, W * 4, H,
                           cudaMemcpyHostToDevice));
    cudaResourceDesc grd = {};
    grd.resType = cudaResourceTypeArray;
    grd.res.array.array = ga;
    cudaTextureObject_t g =
        textureOver(grd, cudaAddressModeClamp, cudaFilterModePoint,
                    cudaReadModeElementType, false);
    auto r = run(g, k2DGather, {{2.2f, 1.7f, 0, 0}, {0.1f, 0.1f, 0, 0}});
    // Footprint of (2.2, 1.7): texels x 1-2, y 1-2.
    CHECK(r[0].x == host[2 * W + 1] && r[0].y == host[2 * W + 2] &&
              r[0].z == host[1 * W + 2] && r[0].w == host[1 * W + 1],
          "gather order (i,j+1) (i+1,j+1) (i+1,j) (i,j)");
    probe("gather", 0, r[0]);
    probe("gather", 1, r[1]);
    OK(cudaDestroyTextureObject(g));
    OK(cudaFreeArray(ga));
  }
  // uchar4 texels, normalized-float and element-type reads, sRGB.
  {
    cudaChannelFormatDesc d = cudaCreateChannelDesc<uchar4>();
    cudaArray_t a;
    OK(cudaMallocArray(&a, &d, 16, 1));
    std::vector<uchar4> px(16);
    for (int i = 0; i < 16; ++i)
      px[i] = make_uchar4(i * 17, 255 - i * 16, i * 3, 128);
    OK(cudaMemcpy2DToArray(a, 0, 0, px.data(), 64, 64, 1,
                           cudaMemcpyHostToDevice));
    cudaResourceDesc r1 = {};
    r1.resType = cudaResourceTypeArray;
    r1.res.array.array = a;
    std::vector<float4> c;
    for (int i = 0; i < 16; ++i)
      c.push_back({i + 0.5f, 0.5f, 0, 0});
    auto nf = run(textureOver(r1, cudaAddressModeClamp, cudaFilterModePoint,
                              cudaReadModeNormalizedFloat, false),
                  k2D, c);
    bool ok = true;
    for (int i = 0; i < 16; ++i) {
      ok = ok && std::fabs(nf[i].x - px[i].x / 255.0f) < 1e-6f &&
           std::fabs(nf[i].w - 128 / 255.0f) < 1e-6f;
      probe("unorm8", i, nf[i]);
    }
    CHECK(ok, "normalized-float read of uchar4");
    auto el = runInt(textureOver(r1, cudaAddressModeClamp, cudaFilterModePoint,
                                 cudaReadModeElementType, false),
                     k2D, c);
    ok = true;
    for (int i = 0; i < 16; ++i)
      ok = ok && el[i].x == px[i].x && el[i].y == px[i].y && el[i].w == 128;
    CHECK(ok, "element-type read of uchar4");
    cudaTextureDesc td = {};
    td.readMode = cudaReadModeNormalizedFloat;
    td.sRGB = 1;
    cudaTextureObject_t s;
    OK(cudaCreateTextureObject(&s, &r1, &td, nullptr));
    auto srgb = run(s, k2D, c);
    for (int i = 0; i < 16; i += 3)
      probe("srgb", i, srgb[i]);
    cudaTextureObject_t lin =
        textureOver(r1, cudaAddressModeClamp, cudaFilterModeLinear,
                    cudaReadModeNormalizedFloat, false);
    auto l = run(lin, k2D, {{3.3f, 0.5f, 0, 0}, {7.77f, 0.5f, 0, 0}});
    probe("unorm8-linear", 0, l[0]);
    probe("unorm8-linear", 1, l[1]);
  }
  // short2 (signed normalized), half.
  {
    cudaChannelFormatDesc d = cudaCreateChannelDesc<short2>();
    cudaArray_t a;
    OK(cudaMallocArray(&a, &d, 4, 0));
    short2 px[4] = {{-32768, 32767}, {-1, 1}, {16384, -16384}, {0, 100}};
    OK(cudaMemcpy2DToArray(a, 0, 0, px, 16, 16, 1, cudaMemcpyHostToDevice));
    cudaResourceDesc r1 = {};
    r1.resType = cudaResourceTypeArray;
    r1.res.array.array = a;
    auto nf = run(
        textureOver(r1, cudaAddressModeClamp, cudaFilterModePoint,
                    cudaReadModeNormalizedFloat, false),
        k1D,
        {{0.5f, 0, 0, 0}, {1.5f, 0, 0, 0}, {2.5f, 0, 0, 0}, {3.5f, 0, 0, 0}});
    CHECK(nf[0].x == -1.0f && nf[0].y == 1.0f, "snorm16 extremes");
    for (int i = 0; i < 4; ++i)
      probe("snorm16", i, nf[i]);
    cudaChannelFormatDesc hd = cudaCreateChannelDescHalf();
    cudaArray_t ha;
    OK(cudaMallocArray(&ha, &hd, 4, 0));
    unsigned short hp[4] = {0x3c00, 0xc000, 0x3555, 0x7bff};
    OK(cudaMemcpyToArray(ha, 0, 0, hp, 8, cudaMemcpyHostToDevice));
    r1.res.array.array = ha;
    auto hf = run(
        textureOver(r1, cudaAddressModeClamp, cudaFilterModePoint,
                    cudaReadModeElementType, false),
        k1D,
        {{0.5f, 0, 0, 0}, {1.5f, 0, 0, 0}, {2.5f, 0, 0, 0}, {3.5f, 0, 0, 0}});
    CHECK(hf[0].x == 1.0f && hf[1].x == -2.0f && hf[3].x == 65504.0f,
          "half texels read as float");
    probe("half", 2, hf[2]);
  }
  // 3D, layered and cubemap arrays (cudaMalloc3DArray), 3D copies.
  {
    const int D = 3;
    cudaArray_t a3;
    OK(cudaMalloc3DArray(&a3, &fdesc, make_cudaExtent(W, H, D),
                         cudaArraySurfaceLoadStore));
    std::vector<float> vol(W * H * D);
    for (int i = 0; i < W * H * D; ++i)
      vol[i] = float(i);
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(vol.data(), W * 4, W, H);
    p.dstArray = a3;
    p.extent = make_cudaExtent(W, H, D);
    p.kind = cudaMemcpyHostToDevice;
    OK(cudaMemcpy3D(&p));
    cudaResourceDesc r3 = {};
    r3.resType = cudaResourceTypeArray;
    r3.res.array.array = a3;
    auto v = run(textureOver(r3, cudaAddressModeClamp, cudaFilterModePoint,
                             cudaReadModeElementType, false),
                 k3D, {{3.5f, 2.5f, 1.5f, 0}, {7.5f, 0.5f, 2.5f, 0}});
    CHECK(v[0].x == vol[(1 * H + 2) * W + 3] && v[1].x == vol[(2 * H) * W + 7],
          "3D texels");
    auto tl = run(textureOver(r3, cudaAddressModeClamp, cudaFilterModeLinear,
                              cudaReadModeElementType, false),
                  k3D, {{3.3f, 2.1f, 1.8f, 0}});
    probe("trilinear", 0, tl[0]);
    // Part of the volume back: a 2 x 2 x 2 box from (1, 1, 1).
    std::vector<float> box(8, -1);
    cudaMemcpy3DParms q = {};
    q.srcArray = a3;
    q.srcPos = make_cudaPos(1, 1, 1);
    q.dstPtr = make_cudaPitchedPtr(box.data(), 8, 2, 2);
    q.extent = make_cudaExtent(2, 2, 2);
    q.kind = cudaMemcpyDeviceToHost;
    OK(cudaMemcpy3D(&q));
    CHECK(box[0] == vol[(1 * H + 1) * W + 1] &&
              box[7] == vol[(2 * H + 2) * W + 2],
          "cudaMemcpy3D from an array, with a position");

    cudaArray_t layered;
    OK(cudaMalloc3DArray(&layered, &fdesc, make_cudaExtent(W, H, D),
                         cudaArrayLayered | cudaArraySurfaceLoadStore));
    p.dstArray = layered;
    OK(cudaMemcpy3D(&p));
    cudaResourceDesc rl = {};
    rl.resType = cudaResourceTypeArray;
    rl.res.array.array = layered;
    auto lv = run(textureOver(rl, cudaAddressModeClamp, cudaFilterModePoint,
                              cudaReadModeElementType, false),
                  k2DLayered, {{3.5f, 2.5f, 0, 2}, {0.5f, 0.5f, 0, 1}});
    CHECK(lv[0].x == vol[(2 * H + 2) * W + 3] && lv[1].x == vol[1 * H * W],
          "2D layered texels");

    cudaArray_t l1;
    OK(cudaMalloc3DArray(&l1, &fdesc, make_cudaExtent(W, 0, 2),
                         cudaArrayLayered));
    cudaMemcpy3DParms p1 = {};
    p1.srcPtr = make_cudaPitchedPtr(vol.data(), W * 4, W, 1);
    p1.dstArray = l1;
    p1.extent = make_cudaExtent(W, 1, 2);
    p1.kind = cudaMemcpyHostToDevice;
    OK(cudaMemcpy3D(&p1));
    cudaResourceDesc r1l = {};
    r1l.resType = cudaResourceTypeArray;
    r1l.res.array.array = l1;
    auto l1v = run(textureOver(r1l, cudaAddressModeClamp, cudaFilterModePoint,
                               cudaReadModeElementType, false),
                   k1DLayered, {{5.5f, 0, 0, 1}});
    CHECK(l1v[0].x == vol[W + 5], "1D layered texel");

    // A cubemap: face f, texel (x, y) = 100 f + 10 y + x.
    const int C = 4;
    cudaArray_t cube;
    OK(cudaMalloc3DArray(&cube, &fdesc, make_cudaExtent(C, C, 6),
                         cudaArrayCubemap));
    std::vector<float> faces(C * C * 6);
    for (int f = 0; f < 6; ++f)
      for (int y = 0; y < C; ++y)
        for (int x = 0; x < C; ++x)
          faces[(f * C + y) * C + x] = 100.0f * f + 10 * y + x;
    cudaMemcpy3DParms pc = {};
    pc.srcPtr = make_cudaPitchedPtr(faces.data(), C * 4, C, C);
    pc.dstArray = cube;
    pc.extent = make_cudaExtent(C, C, 6);
    pc.kind = cudaMemcpyHostToDevice;
    OK(cudaMemcpy3D(&pc));
    cudaResourceDesc rc = {};
    rc.resType = cudaResourceTypeArray;
    rc.res.array.array = cube;
    std::vector<float4> dirs = {{1, 0.2f, -0.3f, 0}, {-1, 0.5f, 0.1f, 0},
                                {0.1f, 1, 0.6f, 0},  {-0.4f, -1, 0.2f, 0},
                                {0.3f, 0.3f, 1, 0},  {-0.7f, 0.2f, -1, 0}};
    auto cv = run(textureOver(rc, cudaAddressModeClamp, cudaFilterModePoint,
                              cudaReadModeElementType, true),
                  kCube, dirs);
    bool facesOk = true;
    for (int f = 0; f < 6; ++f) {
      facesOk = facesOk && int(cv[f].x) / 100 == f;
      probe("cubemap", f, cv[f]);
    }
    CHECK(facesOk, "cubemap face selection");
  }
  // Mipmapped arrays: level l of a 16 x 16 texture holds 1000 l + texel.
  {
    cudaMipmappedArray_t mip;
    OK(cudaMallocMipmappedArray(&mip, &fdesc, make_cudaExtent(16, 16, 0), 5));
    for (int l = 0; l < 5; ++l) {
      cudaArray_t level;
      OK(cudaGetMipmappedArrayLevel(&level, mip, l));
      int n = 16 >> l;
      std::vector<float> px(n * n);
      for (int i = 0; i < n * n; ++i)
        px[i] = 1000.0f * l + i;
      OK(cudaMemcpy2DToArray(level, 0, 0, px.data(), n * 4, n * 4, n,
                             cudaMemcpyHostToDevice));
    }
    cudaArray_t none;
    std::printf("probe mip-level-5 %d\n",
                int(cudaGetMipmappedArrayLevel(&none, mip, 5)));
    cudaGetLastError();
    cudaResourceDesc rm = {};
    rm.resType = cudaResourceTypeMipmappedArray;
    rm.res.mipmap.mipmap = mip;
    std::vector<float4> c = {{0.3f, 0.3f, 0, 0},    {0.3f, 0.3f, 0, 1},
                             {0.3f, 0.3f, 0, 2.4f}, {0.3f, 0.3f, 0, 2.6f},
                             {0.3f, 0.3f, 0, 9},    {0.3f, 0.3f, 0, -1}};
    auto pt = run(textureOver(rm, cudaAddressModeClamp, cudaFilterModePoint,
                              cudaReadModeElementType, true, 0,
                              cudaFilterModePoint, 4),
                  k2DLod, c);
    CHECK(pt[0].x == 4 * 16 + 4 && pt[1].x == 1000 + 2 * 8 + 2,
          "tex2DLod picks the level");
    for (size_t i = 0; i < c.size(); ++i)
      probe("lod-point", int(i), pt[i]);
    auto ln = run(textureOver(rm, cudaAddressModeClamp, cudaFilterModePoint,
                              cudaReadModeElementType, true, 0,
                              cudaFilterModeLinear, 4),
                  k2DLod, c);
    for (size_t i = 0; i < c.size(); ++i)
      probe("lod-linear", int(i), ln[i]);
    std::vector<float4> g = {{0.3f, 0.3f, 1.0f / 16, 0},
                             {0.3f, 0.3f, 2.0f / 16, 0},
                             {0.3f, 0.3f, 5.0f / 16, 0}};
    auto gr = run(textureOver(rm, cudaAddressModeClamp, cudaFilterModePoint,
                              cudaReadModeElementType, true, 0,
                              cudaFilterModePoint, 4),
                  k2DGrad, g);
    CHECK(gr[0].x == 4 * 16 + 4 && gr[1].x == 1000 + 2 * 8 + 2,
          "tex2DGrad's level from the gradients");
    for (size_t i = 0; i < g.size(); ++i)
      probe("grad", int(i), gr[i]);
    OK(cudaFreeMipmappedArray(mip));
  }
  // Linear and pitched memory.
  {
    float4 *lin;
    OK(cudaMalloc(&lin, 32 * sizeof(float4)));
    std::vector<float4> v(32);
    for (int i = 0; i < 32; ++i)
      v[i] = {float(i), float(-i), 0.5f, 2.0f};
    OK(cudaMemcpy(lin, v.data(), 32 * sizeof(float4), cudaMemcpyHostToDevice));
    cudaResourceDesc rl = {};
    rl.resType = cudaResourceTypeLinear;
    rl.res.linear.devPtr = lin;
    rl.res.linear.desc = cudaCreateChannelDesc<float4>();
    rl.res.linear.sizeInBytes = 32 * sizeof(float4);
    cudaTextureDesc td = {};
    cudaTextureObject_t t;
    OK(cudaCreateTextureObject(&t, &rl, &td, nullptr));
    auto r = run(t, k1DFetch,
                 {{5, 0, 0, 0}, {31, 0, 0, 0}, {32, 0, 0, 0}, {-1, 0, 0, 0}});
    CHECK(same(r[0].x, 5) && same(r[0].y, -5) && same(r[1].w, 2),
          "tex1Dfetch texels");
    probe("fetch-out-of-range", 0, r[2]);
    probe("fetch-out-of-range", 1, r[3]);
    cudaResourceDesc back;
    OK(cudaGetTextureObjectResourceDesc(&back, t));
    CHECK(back.resType == cudaResourceTypeLinear &&
              back.res.linear.devPtr == lin,
          "cudaGetTextureObjectResourceDesc");
    cudaTextureDesc tdBack;
    OK(cudaGetTextureObjectTextureDesc(&tdBack, t));
    CHECK(tdBack.filterMode == cudaFilterModePoint,
          "cudaGetTextureObjectTextureDesc");
    OK(cudaDestroyTextureObject(t));

    int *ints;
    OK(cudaMalloc(&ints, 64 * sizeof(int)));
    std::vector<int> iv(64);
    for (int i = 0; i < 64; ++i)
      iv[i] = i * 7 - 100;
    OK(cudaMemcpy(ints, iv.data(), 64 * sizeof(int), cudaMemcpyHostToDevice));
    rl.res.linear.devPtr = ints;
    rl.res.linear.desc = cudaCreateChannelDesc<int>();
    rl.res.linear.sizeInBytes = 64 * sizeof(int);
    OK(cudaCreateTextureObject(&t, &rl, &td, nullptr));
    auto ir = runInt(t, k1DFetch, {{3, 0, 0, 0}, {63, 0, 0, 0}});
    CHECK(ir[0].x == iv[3] && ir[1].x == iv[63], "integer tex1Dfetch");
    probeInt("int1-missing-channels", 0, ir[0]);

    size_t pitch;
    float *pitched;
    OK(cudaMallocPitch(&pitched, &pitch, W * 4, H));
    OK(cudaMemcpy2D(pitched, pitch, host.data(), W * 4, W * 4, H,
                    cudaMemcpyHostToDevice));
    cudaResourceDesc rp = {};
    rp.resType = cudaResourceTypePitch2D;
    rp.res.pitch2D.devPtr = pitched;
    rp.res.pitch2D.desc = fdesc;
    rp.res.pitch2D.width = W;
    rp.res.pitch2D.height = H;
    rp.res.pitch2D.pitchInBytes = pitch;
    auto pr = run(textureOver(rp, cudaAddressModeClamp, cudaFilterModePoint,
                              cudaReadModeElementType, false),
                  k2D, {{6.5f, 3.5f, 0, 0}});
    CHECK(pr[0].x == host[3 * W + 6], "pitch2D texel");
    rp.res.pitch2D.pitchInBytes = pitch + 4; // not a multiple of 32
    cudaTextureObject_t bad;
    cudaTextureDesc tb = {};
    PROBE_ERROR("pitch2d-misaligned-pitch",
                cudaCreateTextureObject(&bad, &rp, &tb, nullptr));
  }
  // Surfaces.
  {
    cudaResourceDesc rs = {};
    rs.resType = cudaResourceTypeArray;
    rs.res.array.array = a2;
    cudaSurfaceObject_t s;
    OK(cudaCreateSurfaceObject(&s, &rs));
    cudaArray_t out;
    OK(cudaMallocArray(&out, &fdesc, W, H, cudaArraySurfaceLoadStore));
    rs.res.array.array = out;
    cudaSurfaceObject_t so;
    OK(cudaCreateSurfaceObject(&so, &rs));
    surfaceStep<<<H, W>>>(s, so, W, H);
    OK(cudaGetLastError());
    std::vector<float> back(W * H);
    OK(cudaMemcpy2DFromArray(back.data(), W * 4, out, 0, 0, W * 4, H,
                             cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int i = 0; i < W * H; ++i)
      ok = ok && back[i] == host[i] + 1;
    CHECK(ok, "surf2Dread and surf2Dwrite");
    float *bd;
    OK(cudaMalloc(&bd, 3 * sizeof(float)));
    surfaceBoundaries<<<1, 1>>>(so, W, bd);
    float b[3];
    OK(cudaMemcpy(b, bd, sizeof b, cudaMemcpyDeviceToHost));
    CHECK(b[0] == 0 && b[2] == 0, "cudaBoundaryModeZero reads zero");
    CHECK(b[1] == host[W - 1] + 1, "cudaBoundaryModeClamp reads the edge");
    OK(cudaMemcpy2DFromArray(back.data(), W * 4, out, 0, 0, W * 4, H,
                             cudaMemcpyDeviceToHost));
    CHECK(back[W - 1] == host[W - 1] + 1, "a zero-mode write past the end");

    cudaResourceDesc rt = {};
    rt.resType = cudaResourceTypeArray;
    rt.res.array.array = a2;
    cudaTextureObject_t t;
    cudaTextureDesc td = {};
    OK(cudaCreateTextureObject(&t, &rt, &td, nullptr));
    PROBE_ERROR("surface-destroyed-as-texture", cudaDestroyTextureObject(s));
    OK(cudaDestroySurfaceObject(s));
    OK(cudaDestroyTextureObject(t));

    cudaArray_t noSurface;
    OK(cudaMallocArray(&noSurface, &fdesc, W, H));
    rs.res.array.array = noSurface;
    cudaSurfaceObject_t ns;
    PROBE_ERROR("surface-without-loadstore-flag",
                cudaCreateSurfaceObject(&ns, &rs));

    cudaChannelFormatDesc u4 = cudaCreateChannelDesc<uchar4>();
    cudaArray_t s1a, s3a, sla;
    OK(cudaMallocArray(&s1a, &u4, 32, 0, cudaArraySurfaceLoadStore));
    OK(cudaMalloc3DArray(&s3a, &fdesc, make_cudaExtent(32, 2, 3),
                         cudaArraySurfaceLoadStore));
    OK(cudaMalloc3DArray(&sla, &fdesc, make_cudaExtent(32, 2, 3),
                         cudaArrayLayered | cudaArraySurfaceLoadStore));
    std::vector<uchar4> bytes(32);
    for (int i = 0; i < 32; ++i)
      bytes[i] = make_uchar4(i, 2 * i, 3 * i, 255);
    OK(cudaMemcpyToArray(s1a, 0, 0, bytes.data(), 128, cudaMemcpyHostToDevice));
    std::vector<float> f3(32 * 2 * 3);
    for (size_t i = 0; i < f3.size(); ++i)
      f3[i] = float(i);
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(f3.data(), 128, 32, 2);
    p.dstArray = s3a;
    p.extent = make_cudaExtent(32, 2, 3);
    p.kind = cudaMemcpyHostToDevice;
    OK(cudaMemcpy3D(&p));
    p.dstArray = sla;
    OK(cudaMemcpy3D(&p));
    cudaSurfaceObject_t s1, s3, sl;
    rs.res.array.array = s1a;
    OK(cudaCreateSurfaceObject(&s1, &rs));
    rs.res.array.array = s3a;
    OK(cudaCreateSurfaceObject(&s3, &rs));
    rs.res.array.array = sla;
    OK(cudaCreateSurfaceObject(&sl, &rs));
    uchar4 *o8;
    float *o3;
    OK(cudaMalloc(&o8, 32 * sizeof(uchar4)));
    OK(cudaMalloc(&o3, 32 * sizeof(float)));
    surfaceTypes<<<1, 32>>>(s1, s3, sl, o8, o3);
    std::vector<uchar4> r8(32);
    std::vector<float> r3(32);
    OK(cudaMemcpy(r8.data(), o8, 128, cudaMemcpyDeviceToHost));
    OK(cudaMemcpy(r3.data(), o3, 128, cudaMemcpyDeviceToHost));
    bool ok8 = true, ok3 = true;
    for (int i = 0; i < 32; ++i) {
      ok8 = ok8 && r8[i].x == i + 1 && r8[i].y == 2 * i;
      float w = f3[(2 * 2 + 1) * 32 + i];
      ok3 = ok3 && r3[i] == w + w;
    }
    CHECK(ok8, "surf1Dread/surf1Dwrite of uchar4");
    CHECK(ok3, "surf3Dread and surf2DLayeredread");
    std::vector<uchar4> back8(32);
    OK(cudaMemcpyFromArray(back8.data(), s1a, 0, 0, 128,
                           cudaMemcpyDeviceToHost));
    CHECK(back8[5].x == 6, "cudaMemcpyFromArray after a surface write");
  }
  // Channel descriptors and array calls the documents leave open.
  {
    cudaArray_t a;
    cudaChannelFormatDesc three =
        cudaCreateChannelDesc(32, 32, 32, 0, cudaChannelFormatKindFloat);
    PROBE_ERROR("array-3-channels", cudaMallocArray(&a, &three, 4, 4));
    cudaChannelFormatDesc odd =
        cudaCreateChannelDesc(8, 16, 0, 0, cudaChannelFormatKindSigned);
    PROBE_ERROR("array-mixed-widths", cudaMallocArray(&a, &odd, 4, 4));
    PROBE_ERROR("array-zero-width", cudaMallocArray(&a, &fdesc, 0, 4));
    cudaArray_t plane;
    PROBE_ERROR("array-get-plane", cudaArrayGetPlane(&plane, a2, 0));
    cudaArraySparseProperties sp;
    PROBE_ERROR("array-sparse-properties",
                cudaArrayGetSparseProperties(&sp, a2));
    cudaArrayMemoryRequirements mr;
    PROBE_ERROR("array-memory-requirements",
                cudaArrayGetMemoryRequirements(&mr, a2, 0));
    size_t maxWidth = 0;
    OK(cudaDeviceGetTexture1DLinearMaxWidth(&maxWidth, &fdesc, 0));
    std::printf("probe linear-max-width-float %zu\n", maxWidth);
    cudaChannelFormatDesc f4 = cudaCreateChannelDesc<float4>();
    OK(cudaDeviceGetTexture1DLinearMaxWidth(&maxWidth, &f4, 0));
    std::printf("probe linear-max-width-float4 %zu\n", maxWidth);
    PROBE_ERROR("copy-past-array-end",
                cudaMemcpy2DToArray(a2, 4 * 4, 0, host.data(), W * 4, W * 4, 1,
                                    cudaMemcpyHostToDevice));
    OK(cudaFreeArray(a2));
    PROBE_ERROR("array-double-free", cudaFreeArray(a2));
  }
  OK(cudaDeviceSynchronize());
  std::printf("textures: %d checks, %d failures\n", checks, failures);
  return failures != 0;
}
