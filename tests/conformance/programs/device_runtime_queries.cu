// nvcc: -rdc=true -lcudadevrt
// Conformance program for the device runtime's queries and 2D/3D work
// (cuda_device_runtime_api.h, the Programming Guide's "Device Runtime API"):
// cudaGetErrorName/String, cudaFuncGetAttributes and the occupancy calculator
// called from a kernel, and cudaMemcpy2DAsync, cudaMemcpy3DAsync,
// cudaMemset2DAsync, cudaMemset3DAsync made by a kernel. What the reference
// fixes is checked: an error's name is its enumerator's, the device answers
// a kernel's attributes and occupancy as the host does, and the copies and
// sets write what their parameters say; what it leaves open (the strings,
// the status of a malformed call) is printed as `probe` lines. Each call is
// made by its own kernel of one thread, so each launch's counters show what
// the device runtime executes for it.
#include "conformance_checks.h"

#include <cstring>

// Kernels whose attributes the device reads.
__global__ void __launch_bounds__(256) bounded(float *p) {
  __shared__ float tile[250];
  tile[threadIdx.x % 250] = p[threadIdx.x];
  __syncthreads();
  p[threadIdx.x] = tile[(threadIdx.x + 1) % 250];
}
__global__ void plain(int *p) { p[threadIdx.x] += 1; }

#define CODES                                                                  \
  { 0, 1, 2, 9, 98, 127, 200, 400, 700, 719, 999, 10000, 12345 }
constexpr int kCodes[] = CODES;
__constant__ int dCodes[] = CODES;
constexpr int kNumCodes = sizeof kCodes / sizeof kCodes[0];
constexpr int kText = 128; // bytes per copied string

__device__ void copyText(char *to, const char *from) {
  int i = 0;
  for (; from && from[i] && i < kText - 1; ++i)
    to[i] = from[i];
  to[i] = 0;
}

__global__ void errorText(char *out) {
  for (int k = 0; k < kNumCodes; ++k) {
    copyText(out + (2 * k) * kText, cudaGetErrorName(cudaError_t(dCodes[k])));
    copyText(out + (2 * k + 1) * kText,
             cudaGetErrorString(cudaError_t(dCodes[k])));
  }
}

// The fields of cudaFuncAttributes the device gives, as ints.
constexpr int kFields = 10;
__device__ void attributeFields(const cudaFuncAttributes &a, int *out) {
  out[0] = int(a.sharedSizeBytes);
  out[1] = int(a.constSizeBytes);
  out[2] = int(a.localSizeBytes);
  out[3] = a.maxThreadsPerBlock;
  out[4] = a.numRegs;
  out[5] = a.ptxVersion;
  out[6] = a.binaryVersion;
  out[7] = a.cacheModeCA;
  out[8] = a.maxDynamicSharedSizeBytes;
  out[9] = a.preferredShmemCarveout;
}
// The whole struct as the device leaves it over a fill of 0xff bytes.
constexpr int kWords = sizeof(cudaFuncAttributes) / sizeof(int);
__global__ void funcAttributeWords(int *out) {
  cudaFuncAttributes a;
  std::memset(&a, 0xff, sizeof a);
  cudaFuncGetAttributes(&a, (const void *)bounded);
  std::memcpy(out, &a, sizeof a);
}
__global__ void funcAttributes(int *out) {
  cudaFuncAttributes a;
  std::memset(&a, 0xff, sizeof a);
  out[0] = cudaFuncGetAttributes(&a, (const void *)bounded);
  attributeFields(a, out + 1);
  std::memset(&a, 0xff, sizeof a);
  out[1 + kFields] = cudaFuncGetAttributes(&a, (const void *)plain);
  attributeFields(a, out + 2 + kFields);
}

struct OccupancyCase {
  int blockSize;
  unsigned dynamicShared;
  unsigned flags;
};
#define OCCUPANCY                                                              \
  {                                                                            \
    {32, 0, 0}, {128, 0, 0}, {256, 0, 0}, {256, 40000, 0}, {256, 200000, 0},   \
        {1024, 0, 0}, {512, 0, 1}, {0, 0, 0}, {                                \
      64, 0, 7                                                                 \
    }                                                                          \
  }
constexpr OccupancyCase kOccupancy[] = OCCUPANCY;
__constant__ OccupancyCase dOccupancy[] = OCCUPANCY;
constexpr int kNumOccupancy = sizeof kOccupancy / sizeof kOccupancy[0];
__global__ void occupancy(int *out) {
  for (int k = 0; k < kNumOccupancy; ++k) {
    const OccupancyCase &c = dOccupancy[k];
    int n = -1;
    out[4 * k] =
        c.flags ? cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
                      &n, (const void *)bounded, c.blockSize, c.dynamicShared,
                      c.flags)
                : cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                      &n, (const void *)bounded, c.blockSize, c.dynamicShared);
    out[4 * k + 1] = n;
    n = -1;
    out[4 * k + 2] = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &n, (const void *)plain, c.blockSize, c.dynamicShared);
    out[4 * k + 3] = n;
  }
}

// 2D and 3D sets and copies, each by a kernel of its own.
__global__ void memset2D(char *p, size_t pitch, int value, size_t width,
                         size_t height, int *status) {
  *status = cudaMemset2DAsync(p, pitch, value, width, height, 0);
}
__global__ void memcpy2D(char *dst, size_t dpitch, const char *src,
                         size_t spitch, size_t width, size_t height,
                         int *status) {
  *status = cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height,
                              cudaMemcpyDeviceToDevice, 0);
}
__global__ void memset3D(cudaPitchedPtr p, int value, cudaExtent e,
                         int *status) {
  *status = cudaMemset3DAsync(p, value, e, 0);
}
__global__ void memcpy3D(cudaPitchedPtr dst, cudaPos dstPos, cudaPitchedPtr src,
                         cudaPos srcPos, cudaExtent e, int *status) {
  cudaMemcpy3DParms p = {};
  p.dstPtr = dst;
  p.dstPos = dstPos;
  p.srcPtr = src;
  p.srcPos = srcPos;
  p.extent = e;
  p.kind = cudaMemcpyDeviceToDevice;
  *status = cudaMemcpy3DAsync(&p, 0);
}

constexpr size_t kBytes = 1 << 20;
static char host[kBytes], expect[kBytes];
static char *dev = nullptr, *src = nullptr;
static int *status = nullptr;

static void reset() {
  OK(cudaMemset(dev, 0x11, kBytes));
  std::memset(expect, 0x11, kBytes);
}
static int statusOf() {
  int s = -1;
  OK(cudaDeviceSynchronize());
  OK(cudaMemcpy(&s, status, sizeof s, cudaMemcpyDeviceToHost));
  return s;
}
static bool devIsExpected() {
  OK(cudaMemcpy(host, dev, kBytes, cudaMemcpyDeviceToHost));
  size_t wrong = 0, first = 0;
  for (size_t i = 0; i < kBytes; ++i)
    if (host[i] != expect[i] && !wrong++)
      first = i;
  if (wrong)
    std::printf("  %zu bytes differ, the first at %zu: %d, not %d\n", wrong,
                first, host[first], expect[first]);
  return wrong == 0;
}
// For a set: whether it wrote only the bytes inRegion marks, all of them one
// value, which it returns (-1: none).
static unsigned char inRegion[kBytes];
static int setByte(bool &onlyRegion) {
  OK(cudaMemcpy(host, dev, kBytes, cudaMemcpyDeviceToHost));
  int value = -1;
  onlyRegion = true;
  for (size_t i = 0; i < kBytes; ++i) {
    if (!inRegion[i]) {
      onlyRegion = onlyRegion && host[i] == 0x11;
      continue;
    }
    if (value < 0)
      value = (unsigned char)host[i];
    onlyRegion = onlyRegion && (unsigned char)host[i] == value;
  }
  return value;
}
// src holds byte i = i * 7 + 3.
static char srcByte(size_t i) { return char(i * 7 + 3); }

static void sets2D() {
  struct Case {
    size_t offset, pitch, width, height;
    int value;
  } cases[] = {{0, 256, 100, 3, 0x5a},  {0, 512, 256, 2, 0x01},
               {0, 256, 16, 1, 0x7f},   {256, 1024, 300, 4, 0x33},
               {100, 200, 37, 5, 0x44}, {0, 256, 0, 3, 0x55},
               {0, 64, 100, 2, 0x66}}; // the last: width past the pitch
  for (const Case &c : cases) {
    reset();
    memset2D<<<1, 1>>>(dev + c.offset, c.pitch, c.value, c.width, c.height,
                       status);
    int s = statusOf();
    char name[64];
    std::snprintf(name, sizeof name, "memset2D_%zu_%zu_%zux%zu", c.offset,
                  c.pitch, c.width, c.height);
    std::printf("probe %s %d\n", name, s);
    std::memset(inRegion, 0, kBytes);
    if (s == 0)
      for (size_t y = 0; y < c.height; ++y)
        std::memset(inRegion + c.offset + y * c.pitch, 1, c.width);
    CHECK(c.width <= c.pitch || s != 0, "a set wider than its pitch fails");
    // The reference: the region holds the value. The byte written is a
    // probe (the H200 writes 0: DeviceLaunches.h).
    bool onlyRegion = false;
    std::printf("probe %s_byte %d\n", name, setByte(onlyRegion));
    CHECK(onlyRegion, name);
  }
}

static void copies2D() {
  struct Case {
    size_t dstOffset, dpitch, srcOffset, spitch, width, height;
  } cases[] = {{0, 256, 0, 256, 96, 5},     {0, 512, 256, 256, 256, 3},
               {64, 1024, 32, 128, 100, 4}, {8, 200, 3, 150, 77, 6},
               {0, 256, 0, 256, 0, 2},      {0, 64, 0, 256, 100, 2}};
  for (const Case &c : cases) {
    reset();
    memcpy2D<<<1, 1>>>(dev + c.dstOffset, c.dpitch, src + c.srcOffset, c.spitch,
                       c.width, c.height, status);
    int s = statusOf();
    char name[80];
    std::snprintf(name, sizeof name, "memcpy2D_%zu_%zu_%zu_%zu_%zux%zu",
                  c.dstOffset, c.dpitch, c.srcOffset, c.spitch, c.width,
                  c.height);
    std::printf("probe %s %d\n", name, s);
    if (s == 0)
      for (size_t y = 0; y < c.height; ++y)
        for (size_t x = 0; x < c.width; ++x)
          expect[c.dstOffset + y * c.dpitch + x] =
              srcByte(c.srcOffset + y * c.spitch + x);
    CHECK(c.width <= c.dpitch || s != 0, "a copy wider than its pitch fails");
    CHECK(devIsExpected(), name);
  }
}

static void sets3D() {
  struct Case {
    size_t pitch, ysize, width, height, depth;
    int value;
  } cases[] = {{256, 4, 64, 4, 3, 0x21},
               {512, 8, 300, 5, 2, 0x22},
               {256, 6, 100, 3, 4, 0x23},
               {128, 2, 16, 2, 1, 0x24}};
  for (const Case &c : cases) {
    reset();
    cudaPitchedPtr p = make_cudaPitchedPtr(dev, c.pitch, c.width, c.ysize);
    memset3D<<<1, 1>>>(p, c.value, make_cudaExtent(c.width, c.height, c.depth),
                       status);
    int s = statusOf();
    char name[64];
    std::snprintf(name, sizeof name, "memset3D_%zu_%zu_%zux%zux%zu", c.pitch,
                  c.ysize, c.width, c.height, c.depth);
    std::printf("probe %s %d\n", name, s);
    std::memset(inRegion, 0, kBytes);
    if (s == 0)
      for (size_t z = 0; z < c.depth; ++z)
        for (size_t y = 0; y < c.height; ++y)
          std::memset(inRegion + (z * c.ysize + y) * c.pitch, 1, c.width);
    bool onlyRegion = false;
    std::printf("probe %s_byte %d\n", name, setByte(onlyRegion));
    CHECK(onlyRegion, name);
  }
}

static void copies3D() {
  struct Case {
    size_t dpitch, dysize, spitch, sysize, width, height, depth;
    cudaPos dpos, spos;
  } cases[] = {
      {256, 4, 256, 4, 48, 3, 2, {0, 0, 0}, {0, 0, 0}},
      {512, 6, 256, 5, 200, 4, 3, {16, 1, 0}, {8, 0, 1}},
      {256, 3, 384, 4, 256, 3, 2, {0, 0, 1}, {64, 1, 0}},
  };
  for (const Case &c : cases) {
    reset();
    cudaPitchedPtr d = make_cudaPitchedPtr(dev, c.dpitch, c.dpitch, c.dysize);
    cudaPitchedPtr s3 = make_cudaPitchedPtr(src, c.spitch, c.spitch, c.sysize);
    memcpy3D<<<1, 1>>>(d, c.dpos, s3, c.spos,
                       make_cudaExtent(c.width, c.height, c.depth), status);
    int s = statusOf();
    char name[80];
    std::snprintf(name, sizeof name, "memcpy3D_%zu_%zu_%zu_%zux%zux%zu",
                  c.dpitch, c.spitch, c.dpos.x, c.width, c.height, c.depth);
    std::printf("probe %s %d\n", name, s);
    if (s == 0)
      for (size_t z = 0; z < c.depth; ++z)
        for (size_t y = 0; y < c.height; ++y)
          for (size_t x = 0; x < c.width; ++x)
            expect[((c.dpos.z + z) * c.dysize + c.dpos.y + y) * c.dpitch +
                   c.dpos.x + x] =
                srcByte(((c.spos.z + z) * c.sysize + c.spos.y + y) * c.spitch +
                        c.spos.x + x);
    CHECK(devIsExpected(), name);
  }
}

int main() {
  OK(cudaMalloc(&dev, kBytes));
  OK(cudaMalloc(&src, kBytes));
  OK(cudaMalloc(&status, sizeof(int)));
  for (size_t i = 0; i < kBytes; ++i)
    host[i] = srcByte(i);
  OK(cudaMemcpy(src, host, kBytes, cudaMemcpyHostToDevice));

  // Error names and strings.
  char *text = nullptr;
  OK(cudaMalloc(&text, 2 * kNumCodes * kText));
  OK(cudaMemset(text, 0, 2 * kNumCodes * kText));
  errorText<<<1, 1>>>(text);
  static char texts[2 * kNumCodes * kText];
  OK(cudaMemcpy(texts, text, sizeof texts, cudaMemcpyDeviceToHost));
  for (int k = 0; k < kNumCodes; ++k) {
    const char *name = texts + 2 * k * kText, *str = name + kText;
    std::printf("probe error_name_%d %s\n", kCodes[k], name);
    std::printf("probe error_string_%d %s\n", kCodes[k], str);
    if (kCodes[k] != 127 && kCodes[k] < 10000) // names the host gives too
      CHECK(std::strcmp(name, cudaGetErrorName(cudaError_t(kCodes[k]))) == 0,
            "the device names an error as the host does");
  }
  CHECK(std::strcmp(texts, "cudaSuccess") == 0, "cudaSuccess by name");

  // A kernel's attributes, on the device and on the host.
  int *ints = nullptr;
  OK(cudaMalloc(&ints,
                4 * kNumOccupancy * sizeof(int) + sizeof(cudaFuncAttributes)));
  funcAttributes<<<1, 1>>>(ints);
  int got[2 + 2 * kFields];
  OK(cudaMemcpy(got, ints, sizeof got, cudaMemcpyDeviceToHost));
  const void *kernels[] = {(const void *)bounded, (const void *)plain};
  const char *fieldNames[kFields] = {
      "sharedSizeBytes",       "constSizeBytes", "localSizeBytes",
      "maxThreadsPerBlock",    "numRegs",        "ptxVersion",
      "binaryVersion",         "cacheModeCA",    "maxDynamicSharedSizeBytes",
      "preferredShmemCarveout"};
  for (int k = 0; k < 2; ++k) {
    const int *d = got + k * (1 + kFields);
    CHECK(d[0] == 0, "cudaFuncGetAttributes on the device succeeds");
    cudaFuncAttributes a;
    OK(cudaFuncGetAttributes(&a, kernels[k]));
    int h[kFields] = {int(a.sharedSizeBytes),
                      int(a.constSizeBytes),
                      int(a.localSizeBytes),
                      a.maxThreadsPerBlock,
                      a.numRegs,
                      a.ptxVersion,
                      a.binaryVersion,
                      a.cacheModeCA,
                      a.maxDynamicSharedSizeBytes,
                      a.preferredShmemCarveout};
    for (int f = 0; f < kFields; ++f) {
      std::printf("probe func_%d_%s %d %d\n", k, fieldNames[f], d[1 + f], h[f]);
      if (f == 0 || f == 3) // what the program's source fixes
        CHECK(d[1 + f] == h[f], fieldNames[f]);
    }
  }

  int words[kWords];
  funcAttributeWords<<<1, 1>>>(ints);
  OK(cudaMemcpy(words, ints, sizeof words, cudaMemcpyDeviceToHost));
  for (int w = 0; w < kWords; ++w)
    std::printf("probe func_word_%d %d\n", w, words[w]);

  // Occupancy, on the device and on the host.
  occupancy<<<1, 1>>>(ints);
  int occ[4 * kNumOccupancy];
  OK(cudaMemcpy(occ, ints, sizeof occ, cudaMemcpyDeviceToHost));
  for (int k = 0; k < kNumOccupancy; ++k) {
    const OccupancyCase &c = kOccupancy[k];
    for (int which = 0; which < 2; ++which) {
      int n = -1;
      cudaError_t e =
          which == 0 && c.flags
              ? cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
                    &n, kernels[0], c.blockSize, c.dynamicShared, c.flags)
              : cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                    &n, kernels[which], c.blockSize, c.dynamicShared);
      cudaGetLastError();
      std::printf("probe occupancy_%d_%d_%u_%u %d %d (host %d %d)\n", which,
                  c.blockSize, c.dynamicShared, c.flags, occ[4 * k + 2 * which],
                  occ[4 * k + 2 * which + 1], int(e), n);
      if (e == cudaSuccess)
        CHECK(occ[4 * k + 2 * which] == 0 && occ[4 * k + 2 * which + 1] == n,
              "the device's occupancy is the host's");
    }
  }

  sets2D();
  copies2D();
  sets3D();
  copies3D();
  OK(cudaFree(ints));
  OK(cudaFree(text));
  OK(cudaFree(dev));
  OK(cudaFree(src));
  OK(cudaFree(status));
  std::printf("device_runtime_queries: %d checks, %d failures\n", checks,
              failures);
  return failures ? 1 : 0;
}
