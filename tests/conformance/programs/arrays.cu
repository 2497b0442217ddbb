// Conformance program for copies to, from and between CUDA arrays (2D and
// the deprecated linear forms, synchronous, on a stream and captured into a
// graph), resource views of arrays and mipmapped arrays (formats, levels,
// layers) and the descriptor queries of texture and surface objects, written
// from the CUDA runtime API's documentation ("Memory Management", "Texture
// Object Management", "Surface Object Management"). What the documents
// define is checked (CHECK); what they leave open (error codes of odd calls,
// linear copies that cross rows, the layer unit of a layered cubemap's view)
// is printed as `probe` lines, which the test compares with the H200's
// (docs/validation/data/h200-arrays.txt). It prints one line per failed
// check and a summary.
#include "conformance_checks.h"
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <vector>

static void probeFloats(const char *name, const std::vector<float> &v) {
  std::printf("probe %s", name);
  for (float f : v)
    std::printf(" %g", f);
  std::printf("\n");
}

enum Fetch { k2D, k2DLod, k2DLayered, kCubeLayered, k2DUint };

// One fetch per thread at c[i] (x, y, z; w: the level or layer).
__global__ void fetch(cudaTextureObject_t t, Fetch f, const float4 *c,
                      float *out) {
  int i = threadIdx.x;
  float4 p = c[i];
  float r = 0;
  switch (f) {
  case k2D:
    r = tex2D<float>(t, p.x, p.y);
    break;
  case k2DLod:
    r = tex2DLod<float>(t, p.x, p.y, p.w);
    break;
  case k2DLayered:
    r = tex2DLayered<float>(t, p.x, p.y, int(p.w));
    break;
  case kCubeLayered:
    r = texCubemapLayered<float>(t, p.x, p.y, p.z, int(p.w));
    break;
  case k2DUint:
    r = float(tex2D<unsigned>(t, p.x, p.y));
    break;
  }
  out[i] = r;
}

constexpr int kN = 32;
static float4 *coordsDev;
static float *outDev;
static std::vector<float> run(cudaTextureObject_t t, Fetch f,
                              const std::vector<float4> &c) {
  std::vector<float4> padded(kN, float4{0, 0, 0, 0});
  std::vector<float> out(kN);
  for (size_t i = 0; i < c.size(); ++i)
    padded[i] = c[i];
  OK(cudaMemcpy(coordsDev, padded.data(), sizeof(float4) * kN,
                cudaMemcpyHostToDevice));
  fetch<<<1, kN>>>(t, f, coordsDev, outDev);
  OK(cudaMemcpy(out.data(), outDev, sizeof(float) * kN,
                cudaMemcpyDeviceToHost));
  out.resize(c.size());
  return out;
}

static cudaTextureObject_t pointTexture(const cudaResourceDesc &rd,
                                        const cudaResourceViewDesc *view,
                                        cudaError_t *status = nullptr,
                                        bool normalized = false) {
  cudaTextureDesc td = {};
  td.normalizedCoords = normalized;
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] =
      cudaAddressModeClamp;
  td.filterMode = cudaFilterModePoint;
  td.readMode = cudaReadModeElementType;
  td.maxMipmapLevelClamp = 15;
  cudaTextureObject_t t = 0;
  cudaError_t e = cudaCreateTextureObject(&t, &rd, &td, view);
  if (status)
    *status = e;
  else
    OK(e);
  cudaGetLastError();
  return t;
}

static cudaResourceViewDesc viewOf(cudaResourceViewFormat format,
                                   cudaExtent e) {
  cudaResourceViewDesc v = {};
  v.format = format;
  v.width = e.width, v.height = e.height, v.depth = e.depth;
  return v;
}

// An 8 x 4 float array's texels, read back whole.
constexpr int W = 8, H = 4;
static std::vector<float> contents(cudaArray_t a) {
  std::vector<float> v(W * H);
  OK(cudaMemcpy2DFromArray(v.data(), W * 4, a, 0, 0, W * 4, H,
                           cudaMemcpyDeviceToHost));
  return v;
}

static void copies() {
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t a, b;
  OK(cudaMallocArray(&a, &fd, W, H));
  OK(cudaMallocArray(&b, &fd, W, H));
  std::vector<float> zero(W * H, 0.0f), src(W * H);
  for (int i = 0; i < W * H; ++i)
    src[i] = float(100 + i);
  cudaStream_t s;
  OK(cudaStreamCreate(&s));

  // 2D copies on a stream: a 4 x 2 block at byte 8 of row 1.
  OK(cudaMemcpy2DToArrayAsync(a, 0, 0, zero.data(), W * 4, W * 4, H,
                              cudaMemcpyHostToDevice, s));
  OK(cudaMemcpy2DToArrayAsync(a, 8, 1, src.data(), W * 4, 16, 2,
                              cudaMemcpyHostToDevice, s));
  std::vector<float> back(W * H, -1.0f);
  OK(cudaMemcpy2DFromArrayAsync(back.data(), W * 4, a, 0, 0, W * 4, H,
                                cudaMemcpyDeviceToHost, s));
  OK(cudaStreamSynchronize(s));
  bool placed = true;
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      bool inside = y >= 1 && y < 3 && x >= 2 && x < 6;
      float want = inside ? src[(y - 1) * W + (x - 2)] : 0.0f;
      placed = placed && back[y * W + x] == want;
    }
  CHECK(placed, "cudaMemcpy2DToArrayAsync at an offset");
  std::vector<float> part(6, -1.0f);
  OK(cudaMemcpy2DFromArrayAsync(part.data(), 12, a, 8, 1, 12, 2,
                                cudaMemcpyDeviceToHost, s));
  OK(cudaStreamSynchronize(s));
  CHECK(part[0] == 100 && part[2] == 102 && part[3] == 108 && part[5] == 110,
        "cudaMemcpy2DFromArrayAsync at an offset");

  // Array to array, 2D: a's block to b's top-left corner.
  OK(cudaMemcpy2DToArray(b, 0, 0, zero.data(), W * 4, W * 4, H,
                         cudaMemcpyHostToDevice));
  OK(cudaMemcpy2DArrayToArray(b, 0, 0, a, 8, 1, 16, 2));
  std::vector<float> bb = contents(b);
  CHECK(bb[0] == 100 && bb[3] == 103 && bb[W] == 108 && bb[W + 3] == 111 &&
            bb[4] == 0 && bb[2 * W] == 0,
        "cudaMemcpy2DArrayToArray");
  cudaChannelFormatDesc i2 = cudaCreateChannelDesc<int2>();
  cudaArray_t c2;
  OK(cudaMallocArray(&c2, &i2, W, H));
  PROBE_ERROR("array-to-array-element-sizes",
              cudaMemcpy2DArrayToArray(c2, 0, 0, a, 0, 0, 16, 1));
  PROBE_ERROR("array-to-array-past-end",
              cudaMemcpy2DArrayToArray(b, 16, 0, a, 0, 0, 32, 1));
  PROBE_ERROR("array-2d-width-not-elements",
              cudaMemcpy2DToArray(a, 0, 0, src.data(), 6, 6, 1,
                                  cudaMemcpyHostToDevice));
  std::vector<float> firstRow = contents(a);
  firstRow.resize(3);
  probeFloats("array-2d-width-not-elements-contents", firstRow);

  // The deprecated linear copies, within a row (documented) and across rows.
  OK(cudaMemcpyToArrayAsync(a, 4, 3, src.data(), 8, cudaMemcpyHostToDevice, s));
  float two[2] = {-1, -1};
  OK(cudaMemcpyFromArrayAsync(two, a, 4, 3, 8, cudaMemcpyDeviceToHost, s));
  OK(cudaStreamSynchronize(s));
  CHECK(two[0] == 100 && two[1] == 101, "cudaMemcpyToArrayAsync in a row");
  OK(cudaMemcpyArrayToArray(b, 8, 2, a, 4, 3, 8));
  bb = contents(b);
  CHECK(bb[2 * W + 2] == 100 && bb[2 * W + 3] == 101,
        "cudaMemcpyArrayToArray in a row");
  OK(cudaMemcpy2DToArray(a, 0, 0, zero.data(), W * 4, W * 4, H,
                         cudaMemcpyHostToDevice));
  cudaError_t across =
      cudaMemcpyToArray(a, 16, 1, src.data(), 64, cudaMemcpyHostToDevice);
  std::printf("probe linear-across-rows %d\n", int(across));
  cudaGetLastError();
  probeFloats("linear-across-rows-contents", contents(a));
  std::vector<float> lin(10, -1.0f);
  PROBE_ERROR(
      "linear-from-across-rows",
      cudaMemcpyFromArray(lin.data(), a, 24, 1, 40, cudaMemcpyDeviceToHost));
  probeFloats("linear-from-across-rows-contents", lin);
  PROBE_ERROR("linear-past-end", cudaMemcpyToArray(a, 0, 3, src.data(), 64,
                                                   cudaMemcpyHostToDevice));

  // Captured (from and to pinned memory): nothing is copied until the
  // graph runs.
  OK(cudaMemcpy2DToArray(a, 0, 0, zero.data(), W * 4, W * 4, H,
                         cudaMemcpyHostToDevice));
  float *pinned, *row, *block;
  OK(cudaMallocHost(&pinned, sizeof(float) * (W * H + W + 4)));
  std::memcpy(pinned, src.data(), sizeof(float) * W * H);
  row = pinned + W * H, block = row + W;
  for (int i = 0; i < W + 4; ++i)
    row[i] = -1.0f;
  OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  OK(cudaMemcpyToArrayAsync(a, 0, 0, pinned, W * 4, cudaMemcpyHostToDevice, s));
  OK(cudaMemcpy2DToArrayAsync(a, 0, 2, pinned + W, 8, 8, 2,
                              cudaMemcpyHostToDevice, s));
  OK(cudaMemcpyFromArrayAsync(row, a, 0, 0, W * 4, cudaMemcpyDeviceToHost, s));
  OK(cudaMemcpy2DFromArrayAsync(block, 8, a, 0, 2, 8, 2, cudaMemcpyDeviceToHost,
                                s));
  cudaGraph_t g;
  OK(cudaStreamEndCapture(s, &g));
  size_t nodes = 0;
  OK(cudaGraphGetNodes(g, nullptr, &nodes));
  CHECK(nodes == 4, "four captured array copies are four nodes");
  CHECK(contents(a)[0] == 0 && row[0] == -1,
        "captured array copies do not run");
  cudaGraphExec_t x;
  OK(cudaGraphInstantiate(&x, g, 0));
  OK(cudaGraphLaunch(x, s));
  OK(cudaStreamSynchronize(s));
  CHECK(row[0] == 100 && row[7] == 107, "captured linear copies ran");
  CHECK(block[0] == 108 && block[1] == 109 && block[2] == 110 &&
            block[3] == 111,
        "captured 2D copies ran");
  OK(cudaGraphExecDestroy(x));
  OK(cudaGraphDestroy(g));
  OK(cudaFreeHost(pinned));
  OK(cudaStreamDestroy(s));
  OK(cudaFreeArray(a));
  OK(cudaFreeArray(b));
  OK(cudaFreeArray(c2));
}

static void views() {
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t a;
  OK(cudaMallocArray(&a, &fd, W, H));
  std::vector<float> texels(W * H);
  for (int i = 0; i < W * H; ++i)
    texels[i] = float(i) + 0.5f;
  OK(cudaMemcpy2DToArray(a, 0, 0, texels.data(), W * 4, W * 4, H,
                         cudaMemcpyHostToDevice));
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = a;
  cudaExtent e2 = {W, H, 0};

  cudaTextureObject_t plain = pointTexture(rd, nullptr);
  cudaResourceViewDesc got;
  std::memset(&got, 0xff, sizeof got);
  PROBE_ERROR("view-of-texture-without-one",
              cudaGetTextureObjectResourceViewDesc(&got, plain));
  std::printf("probe view-of-texture-without-one-fields %d %zu %zu %zu %u %u "
              "%u %u\n",
              int(got.format), got.width, got.height, got.depth,
              got.firstMipmapLevel, got.lastMipmapLevel, got.firstLayer,
              got.lastLayer);
  // tex2DLod over a plain array, unnormalized coordinates.
  std::vector<float> r = run(plain, k2DLod, {{1.5f, 0.5f, 0, 0}});
  std::printf("probe plain-array-lod-unnormalized %g\n", r[0]);
  cudaResourceDesc rgot = {};
  OK(cudaGetTextureObjectResourceDesc(&rgot, plain));
  CHECK(rgot.resType == cudaResourceTypeArray && rgot.res.array.array == a,
        "cudaGetTextureObjectResourceDesc");

  // The same format: the texture reads the array unchanged.
  cudaResourceViewDesc same = viewOf(cudaResViewFormatFloat1, e2);
  cudaTextureObject_t t = pointTexture(rd, &same);
  std::memset(&got, 0xff, sizeof got);
  OK(cudaGetTextureObjectResourceViewDesc(&got, t));
  CHECK(got.format == cudaResViewFormatFloat1 && got.width == W &&
            got.height == H && got.depth == 0 && got.firstMipmapLevel == 0 &&
            got.lastLayer == 0,
        "cudaGetTextureObjectResourceViewDesc");
  std::vector<float4> c = {{2.5f, 1.5f, 0, 0}, {7.5f, 3.5f, 0, 0}};
  r = run(t, k2D, c);
  CHECK(r[0] == texels[W + 2] && r[1] == texels[3 * W + 7],
        "a view of the array's own format");

  // A format of the same size reinterprets the texels.
  cudaResourceViewDesc asUint = viewOf(cudaResViewFormatUnsignedInt1, e2);
  cudaTextureObject_t tu = pointTexture(rd, &asUint);
  r = run(tu, k2DUint, c);
  unsigned want;
  std::memcpy(&want, &texels[W + 2], 4);
  CHECK(r[0] == float(want), "a view as unsigned int reads the float's bits");

  cudaError_t status;
  cudaResourceViewDesc wide = viewOf(cudaResViewFormatFloat2, e2);
  pointTexture(rd, &wide, &status);
  std::printf("probe view-format-of-other-size %d\n", int(status));
  cudaResourceViewDesc narrow = viewOf(cudaResViewFormatFloat1, {W / 2, H, 0});
  pointTexture(rd, &narrow, &status);
  std::printf("probe view-of-other-width %d\n", int(status));
  cudaResourceViewDesc zeroSize = viewOf(cudaResViewFormatFloat1, {0, 0, 0});
  pointTexture(rd, &zeroSize, &status);
  std::printf("probe view-of-zero-size %d\n", int(status));
  cudaResourceViewDesc noFormat = viewOf(cudaResViewFormatNone, e2);
  pointTexture(rd, &noFormat, &status);
  std::printf("probe view-without-format %d\n", int(status));
  cudaResourceViewDesc levels = same;
  levels.lastMipmapLevel = 1;
  pointTexture(rd, &levels, &status);
  std::printf("probe view-levels-of-plain-array %d\n", int(status));

  // A mipmapped array, 16 x 16, 4 levels; level l holds 1000 l + x.
  cudaMipmappedArray_t m;
  OK(cudaMallocMipmappedArray(&m, &fd, {16, 16, 0}, 4));
  for (unsigned l = 0; l < 4; ++l) {
    cudaArray_t level;
    OK(cudaGetMipmappedArrayLevel(&level, m, l));
    int n = 16 >> l;
    std::vector<float> px(n * n);
    for (int i = 0; i < n * n; ++i)
      px[i] = 1000.0f * l + float(i % n);
    OK(cudaMemcpy2DToArray(level, 0, 0, px.data(), n * 4, n * 4, n,
                           cudaMemcpyHostToDevice));
  }
  cudaResourceDesc md = {};
  md.resType = cudaResourceTypeMipmappedArray;
  md.res.mipmap.mipmap = m;
  cudaResourceViewDesc mid = viewOf(cudaResViewFormatFloat1, {16, 16, 0});
  mid.firstMipmapLevel = 1;
  mid.lastMipmapLevel = 2;
  cudaTextureObject_t tm = pointTexture(md, &mid, nullptr, true);
  r = run(tm, k2DLod,
          {{0.1f, 0.5f, 0, 0}, {0.1f, 0.5f, 0, 1}, {0.6f, 0.5f, 0, 5}});
  CHECK(r[0] == 1000 && r[1] == 2000 && r[2] == 2002,
        "a view's first level is level 0, its last the clamp");
  // Unnormalized coordinates of a mipmapped array.
  cudaTextureObject_t tmu = pointTexture(md, nullptr);
  r = run(tmu, k2DLod, {{1.5f, 0.5f, 0, 0}, {0.25f, 0.5f, 0, 1}});
  std::printf("probe mipmap-unnormalized %g %g\n", r[0], r[1]);
  cudaResourceViewDesc lateFirst = mid;
  lateFirst.firstMipmapLevel = lateFirst.lastMipmapLevel = 4;
  pointTexture(md, &lateFirst, &status);
  std::printf("probe view-levels-first-past-allocated %d\n", int(status));
  cudaResourceViewDesc farLast = mid;
  farLast.lastMipmapLevel = 5;
  pointTexture(md, &farLast, &status);
  std::printf("probe view-levels-last-past-possible %d\n", int(status));
  cudaResourceViewDesc levelWidth = mid;
  levelWidth.width = levelWidth.height = 8;
  pointTexture(md, &levelWidth, &status);
  std::printf("probe view-levels-width-of-first-level %d\n", int(status));
  cudaResourceViewDesc pastLevels = mid;
  pastLevels.lastMipmapLevel = 4;
  pointTexture(md, &pastLevels, &status);
  std::printf("probe view-levels-past-last %d\n", int(status));
  PROBE_ERROR("mipmap-sparse-properties", [&] {
    cudaArraySparseProperties sp;
    return cudaMipmappedArrayGetSparseProperties(&sp, m);
  }());
  PROBE_ERROR("mipmap-memory-requirements", [&] {
    cudaArrayMemoryRequirements mr;
    return cudaMipmappedArrayGetMemoryRequirements(&mr, m, 0);
  }());

  // A layered array of 4 layers, layer l holding 100 l + x; a view of
  // layers 1 and 2.
  cudaArray_t la;
  OK(cudaMalloc3DArray(&la, &fd, {4, 4, 4}, cudaArrayLayered));
  std::vector<float> lt(64);
  for (int i = 0; i < 64; ++i)
    lt[i] = 100.0f * (i / 16) + float(i % 4);
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(lt.data(), 16, 4, 4);
  p.dstArray = la;
  p.extent = {4, 4, 4};
  p.kind = cudaMemcpyHostToDevice;
  OK(cudaMemcpy3D(&p));
  cudaResourceDesc ld = {};
  ld.resType = cudaResourceTypeArray;
  ld.res.array.array = la;
  cudaResourceViewDesc two = viewOf(cudaResViewFormatFloat1, {4, 4, 4});
  two.firstLayer = 1;
  two.lastLayer = 2;
  cudaTextureObject_t tl = pointTexture(ld, &two);
  r = run(tl, k2DLayered,
          {{0.5f, 0.5f, 0, 0}, {2.5f, 0.5f, 0, 1}, {0.5f, 0.5f, 0, 3}});
  CHECK(r[0] == 100 && r[1] == 202, "a view's first layer is layer 0");
  std::printf("probe view-layer-past-last %g\n", r[2]);
  cudaResourceViewDesc pastLayers = two;
  pastLayers.lastLayer = 4;
  pointTexture(ld, &pastLayers, &status);
  std::printf("probe view-layers-past-last %d\n", int(status));
  pastLayers.lastLayer = 100;
  pointTexture(ld, &pastLayers, &status);
  std::printf("probe view-layers-far-past-last %d\n", int(status));
  cudaResourceViewDesc lateLayer = two;
  lateLayer.firstLayer = lateLayer.lastLayer = 4;
  pointTexture(ld, &lateLayer, &status);
  std::printf("probe view-layers-first-past-last %d\n", int(status));

  // A layered cubemap of 2 cubemaps: face f of cubemap k holds 10 k + f.
  cudaArray_t ca;
  OK(cudaMalloc3DArray(&ca, &fd, {2, 2, 12},
                       cudaArrayLayered | cudaArrayCubemap));
  std::vector<float> ct(48);
  for (int i = 0; i < 48; ++i)
    ct[i] = float(10 * (i / 24) + (i / 4) % 6);
  cudaMemcpy3DParms q = {};
  q.srcPtr = make_cudaPitchedPtr(ct.data(), 8, 2, 2);
  q.dstArray = ca;
  q.extent = {2, 2, 12};
  q.kind = cudaMemcpyHostToDevice;
  OK(cudaMemcpy3D(&q));
  cudaResourceDesc cd = {};
  cd.resType = cudaResourceTypeArray;
  cd.res.array.array = ca;
  cudaResourceViewDesc second = viewOf(cudaResViewFormatFloat1, {2, 2, 12});
  second.firstLayer = second.lastLayer = 1;
  cudaTextureObject_t tc = pointTexture(cd, &second, &status);
  std::printf("probe view-cubemap-layer-1 %d\n", int(status));
  if (status == cudaSuccess) {
    r = run(tc, kCubeLayered, {{1, 0, 0, 0}, {0, 0, -1, 0}});
    std::printf("probe view-cubemap-layer-1-faces %g %g\n", r[0], r[1]);
  }
  cudaResourceViewDesc faces = viewOf(cudaResViewFormatFloat1, {2, 2, 12});
  faces.firstLayer = 6;
  faces.lastLayer = 11;
  pointTexture(cd, &faces, &status);
  std::printf("probe view-cubemap-faces-6-11 %d\n", int(status));

  // Views exist for arrays and mipmapped arrays only.
  float *lin;
  OK(cudaMalloc(&lin, 256));
  cudaResourceDesc lr = {};
  lr.resType = cudaResourceTypeLinear;
  lr.res.linear.devPtr = lin;
  lr.res.linear.desc = fd;
  lr.res.linear.sizeInBytes = 256;
  cudaResourceViewDesc linView = viewOf(cudaResViewFormatFloat1, {64, 0, 0});
  pointTexture(lr, &linView, &status);
  std::printf("probe view-of-linear-memory %d\n", int(status));

  // Surface objects' resource descriptors.
  cudaArray_t sa;
  OK(cudaMallocArray(&sa, &fd, W, H, cudaArraySurfaceLoadStore));
  cudaResourceDesc sd = {};
  sd.resType = cudaResourceTypeArray;
  sd.res.array.array = sa;
  cudaSurfaceObject_t surf = 0;
  OK(cudaCreateSurfaceObject(&surf, &sd));
  cudaResourceDesc sgot = {};
  OK(cudaGetSurfaceObjectResourceDesc(&sgot, surf));
  CHECK(sgot.resType == cudaResourceTypeArray && sgot.res.array.array == sa,
        "cudaGetSurfaceObjectResourceDesc");
  PROBE_ERROR("surface-desc-of-texture",
              cudaGetSurfaceObjectResourceDesc(&sgot, plain));
  OK(cudaDestroySurfaceObject(surf));
  for (cudaTextureObject_t o : {plain, t, tu, tm, tmu, tl})
    OK(cudaDestroyTextureObject(o));
  OK(cudaFreeMipmappedArray(m));
  OK(cudaFreeArray(a));
  OK(cudaFreeArray(la));
  OK(cudaFreeArray(ca));
  OK(cudaFreeArray(sa));
  OK(cudaFree(lin));
}

int main() {
  OK(cudaMalloc(&coordsDev, sizeof(float4) * kN));
  OK(cudaMalloc(&outDev, sizeof(float) * kN));
  copies();
  views();
  OK(cudaDeviceSynchronize());
  std::printf("arrays: %d checks, %d failures\n", checks, failures);
  return failures != 0;
}
