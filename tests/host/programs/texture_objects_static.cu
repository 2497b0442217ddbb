// Texture and surface objects as host code makes them field by field: the
// static analysis must follow each (its descriptors, the array it views, the
// handle the runtime gives) to simulate the launches that read them, and
// make exactly the launches running the host code makes
// (tests/host/static_equals_run.sh). Under `kcheck run` the program checks
// its results.
#include <cstdio>
#include <cstring>

__global__ void linearCopy(float *out, cudaTextureObject_t t, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = tex1Dfetch<float>(t, i);
}

__global__ void pitchedCopy(float *out, cudaTextureObject_t t, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < w && y < h)
    out[y * w + x] = tex2D<float>(t, x + 0.5f, y + 0.5f);
}

struct Pair {
  cudaTextureObject_t a, b;
};

// Two objects through a struct: each read from the object its handle names.
__global__ void arraySum(float *out, Pair p, int w, int h) {
  int x = threadIdx.x, y = blockIdx.x;
  if (x < w && y < h) {
    float2 v = tex2D<float2>(p.a, x, y);
    float u = tex3D<float>(p.b, x % 16, y % 8, 1);
    out[(y * w + x) * 3] = v.x;
    out[(y * w + x) * 3 + 1] = v.y;
    out[(y * w + x) * 3 + 2] = u;
  }
}

__global__ void surfaceDouble(cudaSurfaceObject_t s, int *out, int w) {
  int x = threadIdx.x, y = blockIdx.x;
  int v;
  surf2Dread(&v, s, x * 4, y);
  surf2Dwrite(2 * v, s, x * 4, y);
  out[y * w + x] = v;
}

int main() {
  const int n = 1000, w = 64, h = 16, pitchFloats = 128;
  float host[pitchFloats * h];
  for (int i = 0; i < pitchFloats * h; ++i)
    host[i] = float(i);
  float *in, *out;
  cudaMalloc(&in, sizeof(host));
  cudaMalloc(&out, 3 * w * h * sizeof(float));
  cudaMemcpy(in, host, sizeof(host), cudaMemcpyHostToDevice);
  int failures = 0;

  // Linear memory.
  cudaResourceDesc res;
  memset(&res, 0, sizeof(res));
  res.resType = cudaResourceTypeLinear;
  res.res.linear.devPtr = in;
  res.res.linear.desc = cudaCreateChannelDesc<float>();
  res.res.linear.sizeInBytes = n * sizeof(float);
  cudaTextureDesc td;
  memset(&td, 0, sizeof(td));
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t linear = 0;
  cudaCreateTextureObject(&linear, &res, &td, nullptr);
  linearCopy<<<(n + 255) / 256, 256>>>(out, linear, n);
  float back[3 * w * h];
  cudaMemcpy(back, out, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i)
    failures += back[i] != float(i);

  // Pitched memory, 512-byte rows.
  memset(&res, 0, sizeof(res));
  res.resType = cudaResourceTypePitch2D;
  res.res.pitch2D.devPtr = in;
  res.res.pitch2D.desc =
      cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
  res.res.pitch2D.width = w;
  res.res.pitch2D.height = h;
  res.res.pitch2D.pitchInBytes = pitchFloats * sizeof(float);
  cudaTextureObject_t pitched = 0;
  cudaCreateTextureObject(&pitched, &res, &td, nullptr);
  pitchedCopy<<<dim3(1, h), w>>>(out, pitched, w, h);
  cudaMemcpy(back, out, w * h * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < w * h; ++i)
    failures += back[i] != float((i / w) * pitchFloats + i % w);

  // A misaligned base: the runtime refuses it, and no launch reads it.
  res.res.pitch2D.devPtr = in + 1;
  cudaTextureObject_t refused = 0;
  cudaError_t e = cudaCreateTextureObject(&refused, &res, &td, nullptr);
  printf("misaligned pitch2D: %s\n", cudaGetErrorName(e));
  if (e == cudaSuccess)
    pitchedCopy<<<1, 32>>>(out, refused, 32, 1);

  // A 2D array of float2 and a 3D array, copied in, read through a struct.
  cudaChannelFormatDesc two = cudaCreateChannelDesc<float2>();
  cudaArray_t plane, volume;
  cudaMallocArray(&plane, &two, w, h);
  cudaMemcpy2DToArray(plane, 0, 0, host, w * sizeof(float2), w * sizeof(float2),
                      h / 2, cudaMemcpyHostToDevice);
  cudaChannelFormatDesc one = cudaCreateChannelDesc<float>();
  cudaMalloc3DArray(&volume, &one, make_cudaExtent(16, 8, 4));
  cudaMemcpy3DParms p;
  memset(&p, 0, sizeof(p));
  p.srcPtr = make_cudaPitchedPtr(host, 16 * sizeof(float), 16, 8);
  p.dstArray = volume;
  p.extent = make_cudaExtent(16, 8, 4);
  p.kind = cudaMemcpyHostToDevice;
  cudaMemcpy3D(&p);
  Pair pair;
  memset(&res, 0, sizeof(res));
  res.resType = cudaResourceTypeArray;
  res.res.array.array = plane;
  cudaCreateTextureObject(&pair.a, &res, &td, nullptr);
  res.res.array.array = volume;
  cudaCreateTextureObject(&pair.b, &res, &td, nullptr);
  arraySum<<<h / 2, w>>>(out, pair, w, h / 2);
  cudaMemcpy(back, out, 3 * w * (h / 2) * sizeof(float),
             cudaMemcpyDeviceToHost);
  for (int y = 0; y < h / 2; ++y)
    for (int x = 0; x < w; ++x) {
      const float *o = back + (y * w + x) * 3;
      failures += o[0] != host[2 * (y * w + x)];
      failures += o[1] != host[2 * (y * w + x) + 1];
      failures += o[2] != host[16 * 8 + (y % 8) * 16 + x % 16];
    }

  // A surface over an array made for load and store.
  cudaChannelFormatDesc ints = cudaCreateChannelDesc<int>();
  cudaArray_t grid;
  cudaMallocArray(&grid, &ints, 32, 8, cudaArraySurfaceLoadStore);
  int values[32 * 8];
  for (int i = 0; i < 32 * 8; ++i)
    values[i] = i;
  cudaMemcpy2DToArray(grid, 0, 0, values, 32 * sizeof(int), 32 * sizeof(int), 8,
                      cudaMemcpyHostToDevice);
  memset(&res, 0, sizeof(res));
  res.resType = cudaResourceTypeArray;
  res.res.array.array = grid;
  cudaSurfaceObject_t surface = 0;
  cudaCreateSurfaceObject(&surface, &res);
  int *seen;
  cudaMalloc(&seen, sizeof(values));
  surfaceDouble<<<8, 32>>>(surface, seen, 32);
  surfaceDouble<<<8, 32>>>(surface, seen, 32);
  int got[32 * 8];
  cudaMemcpy(got, seen, sizeof(got), cudaMemcpyDeviceToHost);
  for (int i = 0; i < 32 * 8; ++i)
    failures += got[i] != 2 * i;

  cudaDestroySurfaceObject(surface);
  cudaDestroyTextureObject(linear);
  cudaDestroyTextureObject(pitched);
  cudaDestroyTextureObject(pair.a);
  cudaDestroyTextureObject(pair.b);
  cudaFreeArray(plane);
  cudaFreeArray(volume);
  cudaFreeArray(grid);
  printf("objects %llu %llu %llu %llu %llu, %d failures: %s\n", linear, pitched,
         pair.a, pair.b, surface, failures, failures ? "FAIL" : "PASS");
  return failures != 0;
}
