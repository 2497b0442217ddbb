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

// The texel format of a channel descriptor, or the error the runtime gives.
cudaError_t formatOf(const ChannelFormatDesc &d, sim::TexelFormat &out) {
  using K = sim::TexelFormat::Kind;
  if (d.f >= 5 && d.f <= 16) {
    // cudaChannelFormatKind{Uns,S}ignedNormalized{8,16}X{1,2,4}.
    int i = d.f - 5;
    out.kind = i < 6 ? K::Unsigned : K::Signed;
    out.bits = i % 6 < 3 ? 8 : 16;
    out.channels = 1u << (i % 3);
    out.normalizedKind = true;
    return cudaSuccess;
  }
  if (d.f == 4 || d.f >= 17) {
    stopUnsupported("a CUDA array of channel format kind " +
                    std::to_string(d.f) +
                    " (NV12, block-compressed and 10-10-10-2 formats are not "
                    "simulated: their texels are not stored one per element)");
  }
  if (d.f > 2)
    return entry::fail(cudaErrorInvalidChannelDescriptor);
  int bits[4] = {d.x, d.y, d.z, d.w};
  unsigned channels = 0;
  for (unsigned c = 0; c < 4; ++c) {
    if (bits[c] == 0)
      break;
    if (bits[c] != d.x)
      return entry::fail(cudaErrorInvalidChannelDescriptor);
    ++channels;
  }
  for (unsigned c = channels; c < 4; ++c)
    if (bits[c] != 0)
      return entry::fail(cudaErrorInvalidChannelDescriptor);
  bool widthOk =
      d.f == 2 ? d.x == 16 || d.x == 32 : d.x == 8 || d.x == 16 || d.x == 32;
  if (channels == 0 || channels == 3 || !widthOk)
    return entry::fail(cudaErrorInvalidChannelDescriptor);
  out.kind = d.f == 0 ? K::Signed : d.f == 1 ? K::Unsigned : K::Float;
  out.bits = unsigned(d.x);
  out.channels = channels;
  return cudaSuccess;
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
  if (flags & (kArraySparse | kArrayDeferredMapping)) {
    stopUnsupported("a sparse or deferred-mapping CUDA array (its tiles are "
                    "mapped by the driver's cuMemMapArrayAsync, which kcheck's "
                    "runtime does not have)");
  }
  unsigned known = kArrayLayered | kArraySurfaceLoadStore | kArrayCubemap |
                   kArrayTextureGather;
  if (flags & ~known)
    return fail(cudaErrorInvalidValue);
  sim::TexelFormat format;
  if (cudaError_t e = formatOf(*desc, format))
    return e;
  bool layered = flags & kArrayLayered, cubemap = flags & kArrayCubemap;
  if (extent.width == 0 || (extent.height == 0 && extent.depth && !layered) ||
      (cubemap && (extent.width != extent.height ||
                   (layered ? extent.depth % 6 : extent.depth != 6))) ||
      (layered && extent.depth == 0))
    return fail(cudaErrorInvalidValue);
  // The H100's limits (cudaDevAttrMaxTexture*/MaxSurface*).
  size_t maxW = extent.depth && !layered && !cubemap ? 16384
                : extent.height                      ? 131072
                                                     : 131072;
  if (extent.width > maxW || extent.height > 65536 || extent.depth > 16384)
    return fail(cudaErrorInvalidValue);
  Array a;
  a.desc = *desc;
  a.format = format;
  a.extent = extent;
  a.flags = flags;
  a.isLevel = isLevel;
  a.pitch = uint64_t(a.width()) * format.bytes();
  a.slicePitch = a.pitch * a.rows();
  uint64_t bytes = a.slicePitch * a.slices();
  a.base = rt().device().memory().allocate(bytes, "cudaArray");
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
    *extent = a->extent;
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
  // At most 1 + floor(log2(the largest extent)) levels.
  size_t largest = std::max({extent.width, extent.height, extent.depth});
  unsigned maxLevels = 1;
  while (largest >> maxLevels)
    ++maxLevels;
  if (numLevels > maxLevels)
    return fail(cudaErrorInvalidValue);
  bool layered = flags & kArrayLayered, cubemap = flags & kArrayCubemap;
  MipmappedArray m;
  m.desc = *desc;
  m.extent = extent;
  m.flags = flags;
  for (unsigned l = 0; l < numLevels; ++l) {
    auto shrink = [&](size_t v) { return v ? std::max<size_t>(1, v >> l) : 0; };
    cudaExtent e{shrink(extent.width), shrink(extent.height),
                 layered || cubemap ? extent.depth : shrink(extent.depth)};
    cudaArray_t level;
    Array *made = nullptr;
    if (cudaError_t err = makeArray(&level, desc, e, flags, true, &made))
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
  if (cudaError_t e = formatOf(*desc, format))
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
