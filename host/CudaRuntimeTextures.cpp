// CUDA arrays and mipmapped arrays (CudaTextures.h; copies to and from
// arrays: CudaRuntimeArrayCopies.cpp; texture and surface objects:
// CudaRuntimeTextureObjects.cpp). An array is a DeviceMemory allocation whose
// texels lie row by row. Errors are those the
// CUDA runtime documents for each call; what the H200 answers where the
// documentation is silent is checked by tests/conformance/programs/textures.cu.
#include "host/CudaTextures.h"

#include "host/CudaGraph.h"
#include "simulator/engine/DeviceMemory.h"

#include <algorithm>
#include <cstring>

namespace kcheck::host {

namespace texture {

Array *arrayOf(const void *handle) {
  State *s = entry::rt().textures.get();
  if (!s || !handle)
    return nullptr;
  for (Array &a : s->arrays)
    if (&a == handle)
      return a.freed ? nullptr : &a;
  return nullptr;
}

MipmappedArray *mipmapOf(const void *handle) {
  State *s = entry::rt().textures.get();
  if (!s || !handle)
    return nullptr;
  for (MipmappedArray &m : s->mipmaps)
    if (&m == handle)
      return m.freed ? nullptr : &m;
  return nullptr;
}

// A construct the simulated runtime does not have: the run stops, naming it.
[[noreturn]] void stopUnsupported(std::string what) {
  Stop why;
  why.kind = Stop::Kind::Unsupported;
  why.message = std::move(what);
  entry::rt().stop(std::move(why));
}

State &state() {
  CudaRuntime &r = entry::rt();
  if (!r.textures)
    r.textures = std::make_unique<State>();
  return *r.textures;
}

cudaError_t answer(const Answer &a) {
  if (!a.unsupported.empty())
    stopUnsupported(a.unsupported);
  return a.error == core::CudaError::cudaSuccess
             ? cudaSuccess
             : entry::fail(cudaError_t(int(a.error)));
}

ArrayLookup arrayLookup() {
  ArrayLookup l;
  l.array = [](const void *h) -> std::optional<PlacedArray> {
    const Array *a = arrayOf(h);
    if (!a)
      return std::nullopt;
    return PlacedArray{a, a->base};
  };
  l.mipmap = [](const void *h) -> std::optional<std::vector<PlacedArray>> {
    const MipmappedArray *m = mipmapOf(h);
    if (!m)
      return std::nullopt;
    std::vector<PlacedArray> levels;
    for (const Array *a : m->levels)
      levels.push_back({a, a->base});
    return levels;
  };
  return l;
}

} // namespace texture

namespace entry {

namespace {

using namespace texture;

cudaError_t makeArray(cudaArray_t *handle, const ChannelFormatDesc *desc,
                      cudaExtent extent, unsigned flags, bool isLevel,
                      Array **made = nullptr) {
  if (cudaError_t e = sticky())
    return e;
  if (!handle || !desc)
    return fail(cudaErrorInvalidValue);
  Array a;
  if (cudaError_t e = answer(arrayShape(
          *desc, {extent.width, extent.height, extent.depth}, flags, a)))
    return e;
  a.isLevel = isLevel;
  a.base = rt().device().memory().allocate(a.bytes, "cudaArray");
  State &s = state();
  s.arrays.push_back(a);
  *handle = reinterpret_cast<cudaArray_t>(&s.arrays.back());
  if (made)
    *made = &s.arrays.back();
  return cudaSuccess;
}

ChannelFormatDesc apiCreateChannelDesc(int x, int y, int z, int w, int f) {
  return {x, y, z, w, f};
}

cudaError_t apiMallocArray(cudaArray_t *array, const ChannelFormatDesc *desc,
                           size_t width, size_t height, unsigned flags) {
  if (flags & (kArrayLayered | kArrayCubemap))
    return fail(cudaErrorInvalidValue); // cudaMalloc3DArray's flags
  return makeArray(array, desc, {width, height, 0}, flags, false);
}

cudaError_t apiMalloc3DArray(cudaArray_t *array, const ChannelFormatDesc *desc,
                             cudaExtent extent, unsigned flags) {
  return makeArray(array, desc, extent, flags, false);
}

cudaError_t apiFreeArray(cudaArray_t array) {
  if (cudaError_t e = sticky())
    return e;
  if (!array)
    return cudaSuccess;
  Array *a = arrayOf(array);
  if (!a)                          // freed already: what the H200 answers
    return fail(cudaError_t(709)); // cudaErrorContextIsDestroyed
  if (a->isLevel)
    return fail(cudaErrorInvalidValue);
  a->freed = true;
  return cudaSuccess;
}

cudaError_t apiArrayGetInfo(ChannelFormatDesc *desc, cudaExtent *extent,
                            unsigned *flags, cudaArray_t array) {
  Array *a = arrayOf(array);
  if (!a)
    return fail(cudaErrorInvalidResourceHandle);
  if (desc)
    *desc = a->desc;
  if (extent)
    *extent = {a->extent.width, a->extent.height, a->extent.depth};
  if (flags)
    *flags = a->flags;
  return cudaSuccess;
}

cudaError_t apiGetChannelDesc(ChannelFormatDesc *desc, cudaArray_t array) {
  Array *a = arrayOf(array);
  if (!a)
    return fail(cudaErrorInvalidResourceHandle);
  if (!desc)
    return fail(cudaErrorInvalidValue);
  *desc = a->desc;
  return cudaSuccess;
}

// Planes exist only in NV12 arrays, sparse properties only in sparse
// arrays, memory requirements only in deferred-mapping arrays: none of
// those can be made here, so each query is about an array without them: an
// invalid value, whatever the arguments (the H200's answer for a plain array).
cudaError_t apiArrayGetPlane(cudaArray_t *, cudaArray_t, unsigned) {
  return fail(cudaErrorInvalidValue);
}
cudaError_t apiArrayGetSparseProperties(void *, cudaArray_t) {
  return fail(cudaErrorInvalidValue);
}
cudaError_t apiArrayGetMemoryRequirements(void *, cudaArray_t, int) {
  return fail(cudaErrorInvalidValue);
}

cudaError_t apiMallocMipmappedArray(void **mipmap,
                                    const ChannelFormatDesc *desc,
                                    cudaExtent extent, unsigned numLevels,
                                    unsigned flags) {
  if (cudaError_t e = sticky())
    return e;
  if (!mipmap || !desc || numLevels == 0)
    return fail(cudaErrorInvalidValue);
  std::vector<core::textures::Extent> extents;
  if (cudaError_t e =
          answer(mipmapLevelExtents({extent.width, extent.height, extent.depth},
                                    numLevels, flags, extents)))
    return e;
  MipmappedArray m;
  m.desc = *desc;
  m.extent = extent;
  m.flags = flags;
  for (const core::textures::Extent &x : extents) {
    cudaArray_t level;
    Array *made = nullptr;
    if (cudaError_t err = makeArray(&level, desc, {x.width, x.height, x.depth},
                                    flags, true, &made))
      return err;
    m.levels.push_back(made);
  }
  State &s = state();
  s.mipmaps.push_back(std::move(m));
  *mipmap = &s.mipmaps.back();
  return cudaSuccess;
}

cudaError_t apiGetMipmappedArrayLevel(cudaArray_t *level, const void *mipmap,
                                      unsigned index) {
  MipmappedArray *m = mipmapOf(mipmap);
  if (!m)
    return fail(cudaErrorInvalidResourceHandle);
  if (!level || index >= m->levels.size())
    return fail(cudaErrorInvalidValue);
  *level = reinterpret_cast<cudaArray_t>(m->levels[index]);
  return cudaSuccess;
}

cudaError_t apiFreeMipmappedArray(void *mipmap) {
  if (cudaError_t e = sticky())
    return e;
  if (!mipmap)
    return cudaSuccess;
  MipmappedArray *m = mipmapOf(mipmap);
  if (!m)
    return fail(cudaErrorInvalidValue);
  m->freed = true;
  for (Array *a : m->levels)
    a->freed = true;
  return cudaSuccess;
}
cudaError_t apiMipmappedArrayGetSparseProperties(void *, void *) {
  return fail(cudaErrorInvalidValue);
}
cudaError_t apiMipmappedArrayGetMemoryRequirements(void *, void *, int) {
  return fail(cudaErrorInvalidValue);
}

cudaError_t apiDeviceGetTexture1DLinearMaxWidth(size_t *width,
                                                const ChannelFormatDesc *desc,
                                                int device) {
  if (!width || !desc)
    return fail(cudaErrorInvalidValue);
  if (device != 0)
    return fail(cudaErrorInvalidDevice);
  sim::TexelFormat format;
  if (cudaError_t e = answer(formatOf(*desc, format)))
    return e;
  // 2^32 bytes, as the H200 answers (2^30 floats, 2^28 float4s).
  *width = (size_t(1) << 32) / format.bytes();
  return cudaSuccess;
}

} // namespace

bool arrayAsPitched(cudaArray_const_t handle, cudaPitchedPtr &out,
                    uint64_t &elementBytes, cudaExtent &size) {
  texture::Array *a = texture::arrayOf(handle);
  if (!a)
    return false;
  out = {reinterpret_cast<void *>(a->base), a->pitch, a->width(), a->rows()};
  elementBytes = a->format.bytes();
  size = {a->width(), a->rows(), a->slices()};
  return true;
}

EntryPoints textureEntryPoints() {
  return {
      {"cudaCreateChannelDesc", serialized<apiCreateChannelDesc>()},
      {"cudaMallocArray", serialized<apiMallocArray>()},
      {"cudaMalloc3DArray", serialized<apiMalloc3DArray>()},
      {"cudaFreeArray", serialized<apiFreeArray>()},
      {"cudaArrayGetInfo", serialized<apiArrayGetInfo>()},
      {"cudaGetChannelDesc", serialized<apiGetChannelDesc>()},
      {"cudaArrayGetPlane", serialized<apiArrayGetPlane>()},
      {"cudaArrayGetSparseProperties",
       serialized<apiArrayGetSparseProperties>()},
      {"cudaArrayGetMemoryRequirements",
       serialized<apiArrayGetMemoryRequirements>()},
      {"cudaMallocMipmappedArray", serialized<apiMallocMipmappedArray>()},
      {"cudaGetMipmappedArrayLevel", serialized<apiGetMipmappedArrayLevel>()},
      {"cudaFreeMipmappedArray", serialized<apiFreeMipmappedArray>()},
      {"cudaMipmappedArrayGetSparseProperties",
       serialized<apiMipmappedArrayGetSparseProperties>()},
      {"cudaMipmappedArrayGetMemoryRequirements",
       serialized<apiMipmappedArrayGetMemoryRequirements>()},
      {"cudaDeviceGetTexture1DLinearMaxWidth",
       serialized<apiDeviceGetTexture1DLinearMaxWidth>()},
  };
}

} // namespace entry
} // namespace kcheck::host
