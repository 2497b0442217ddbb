// Texture and surface objects (CudaTextures.h): each a view of an array, a
// mipmapped array, or linear or pitched memory, with a texture's sampling
// state, that the texture unit samples (simulator/engine/TextureUnit.h).
// Errors are those the CUDA runtime documents for each call; what the H200
// answers where the documentation is silent is checked by
// tests/conformance/programs/textures.cu and arrays.cu.
#include "host/CudaTextures.h"

#include <algorithm>

namespace kcheck::host::entry {

namespace {

using namespace texture;

sim::TextureLevel levelOf(const Array &a) {
  sim::TextureLevel l;
  l.base = a.base;
  l.pitch = a.pitch;
  l.slicePitch = a.slicePitch;
  l.width = uint32_t(a.width());
  l.height = uint32_t(a.rows());
  bool volume = a.extent.depth && !(a.flags & (kArrayLayered | kArrayCubemap));
  l.depth = volume ? uint32_t(a.extent.depth) : 1;
  return l;
}

void describeArray(const Array &a, sim::TextureView &v) {
  v.format = a.format;
  bool cubemap = a.flags & kArrayCubemap;
  v.cubemap = cubemap;
  if (a.flags & kArrayLayered)
    v.layers = uint32_t(cubemap ? a.extent.depth / 6 : a.extent.depth);
  v.levels.push_back(levelOf(a));
}

cudaError_t viewOf(const ResourceDesc &r, sim::TextureView &v, bool surface) {
  using R = sim::TextureView::Resource;
  switch (r.resType) {
  case 0: { // cudaResourceTypeArray
    Array *a = arrayOf(r.res.array.array);
    // cudaArraySurfaceLoadStore is documented as required; the H200
    // makes a surface without it all the same.
    if (!a)
      return fail(cudaErrorInvalidValue);
    v.resource = R::Array;
    describeArray(*a, v);
    return cudaSuccess;
  }
  case 1: { // cudaResourceTypeMipmappedArray
    MipmappedArray *m = mipmapOf(r.res.mipmap.mipmap);
    if (!m || surface)
      return fail(cudaErrorInvalidValue);
    v.resource = R::MipmappedArray;
    describeArray(*m->levels[0], v);
    for (size_t l = 1; l < m->levels.size(); ++l)
      v.levels.push_back(levelOf(*m->levels[l]));
    return cudaSuccess;
  }
  case 2: { // cudaResourceTypeLinear
    uint64_t ptr = reinterpret_cast<uint64_t>(r.res.linear.devPtr);
    if (surface || !ptr || ptr % kTextureAlignment)
      return fail(cudaErrorInvalidValue);
    if (cudaError_t e = formatOf(r.res.linear.desc, v.format))
      return e;
    v.resource = R::Linear;
    sim::TextureLevel l;
    l.base = ptr;
    l.width = uint32_t(r.res.linear.sizeInBytes / v.format.bytes());
    l.pitch = r.res.linear.sizeInBytes;
    if (r.res.linear.sizeInBytes > (uint64_t(1) << 28) * v.format.bytes())
      return fail(cudaErrorInvalidValue);
    v.levels.push_back(l);
    return cudaSuccess;
  }
  case 3: { // cudaResourceTypePitch2D
    const auto &p = r.res.pitch2D;
    uint64_t ptr = reinterpret_cast<uint64_t>(p.devPtr);
    if (surface || !ptr || ptr % kTextureAlignment ||
        p.pitchInBytes % kTexturePitchAlignment)
      return fail(cudaErrorInvalidValue);
    if (cudaError_t e = formatOf(p.desc, v.format))
      return e;
    if (p.width == 0 || p.height == 0 ||
        p.width * v.format.bytes() > p.pitchInBytes || p.width > 131072 ||
        p.height > 65000)
      return fail(cudaErrorInvalidValue);
    v.resource = R::Pitch2D;
    sim::TextureLevel l;
    l.base = ptr;
    l.pitch = p.pitchInBytes;
    l.slicePitch = p.pitchInBytes * p.height;
    l.width = uint32_t(p.width);
    l.height = uint32_t(p.height);
    v.levels.push_back(l);
    return cudaSuccess;
  }
  default:
    return fail(cudaErrorInvalidValue);
  }
}

// cudaResourceViewFormat 1 to 24 (driver_types.h): 1, 2 and 4 channels of
// each kind and width in turn.
bool viewFormatOf(int f, sim::TexelFormat &out) {
  using K = sim::TexelFormat::Kind;
  static const struct {
    K kind;
    unsigned bits;
  } groups[8] = {{K::Unsigned, 8}, {K::Signed, 8},    {K::Unsigned, 16},
                 {K::Signed, 16},  {K::Unsigned, 32}, {K::Signed, 32},
                 {K::Float, 16},   {K::Float, 32}};
  if (f < 1 || f > 24)
    return false;
  out = sim::TexelFormat{};
  out.kind = groups[(f - 1) / 3].kind;
  out.bits = groups[(f - 1) / 3].bits;
  out.channels = 1u << ((f - 1) % 3);
  return true;
}

// A resource view (cudaResourceViewDesc), as the runtime API documents it
// and the H200 answers (tests/conformance/programs/arrays.cu): a format of
// the resource's element size read in place of its own (none: invalid); the
// resource's own width, height and depth; a range of levels (level
// `firstMipmapLevel` becomes level 0, the clamps count from it) and of
// layers, 0 to 0 for a resource without them. Layers count 2D slices, six
// to a cubemap of a layered cubemap; a range past the resource's end is cut
// to its last level or layer. A view of linear or pitched memory is
// ignored.
cudaError_t applyView(const ResourceViewDesc &view, const ResourceDesc &r,
                      sim::TextureView &v) {
  const cudaExtent *extent = nullptr;
  if (r.resType == 0)
    extent = &arrayOf(r.res.array.array)->extent;
  else if (r.resType == 1)
    extent = &mipmapOf(r.res.mipmap.mipmap)->extent;
  else
    return cudaSuccess;
  if (view.format > 24) {
    stopUnsupported("a resource view of a block-compressed format "
                    "(cudaResViewFormat*BlockCompressed*: its texels are "
                    "decoded from 4x4 blocks, which kcheck's texture unit "
                    "does not do)");
  }
  sim::TexelFormat f;
  if (!viewFormatOf(view.format, f) || f.bytes() != v.format.bytes())
    return fail(cudaErrorInvalidValue);
  v.format = f;
  if (view.width != extent->width || view.height != extent->height ||
      view.depth != extent->depth)
    return fail(cudaErrorInvalidValue);
  uint64_t slices = v.layers * (v.cubemap ? 6 : 1);
  bool mipmapped = r.resType == 1;
  if (view.firstMipmapLevel > view.lastMipmapLevel ||
      (!mipmapped && view.lastMipmapLevel != 0) ||
      view.firstLayer > view.lastLayer || (!v.layers && view.lastLayer != 0))
    return fail(cudaErrorInvalidValue);
  size_t lastLevel =
      std::min<size_t>(view.lastMipmapLevel, v.levels.size() - 1);
  size_t firstLevel = std::min<size_t>(view.firstMipmapLevel, lastLevel);
  v.levels.erase(v.levels.begin() + lastLevel + 1, v.levels.end());
  v.levels.erase(v.levels.begin(), v.levels.begin() + firstLevel);
  if (v.layers) {
    uint64_t last = std::min<uint64_t>(view.lastLayer, slices - 1);
    uint64_t first = std::min<uint64_t>(view.firstLayer, last);
    for (sim::TextureLevel &l : v.levels)
      l.base += first * l.slicePitch;
    uint64_t count = last - first + 1;
    v.layers = uint32_t(v.cubemap ? std::max<uint64_t>(1, count / 6) : count);
  }
  return cudaSuccess;
}

cudaError_t apiCreateTextureObject(unsigned long long *object,
                                   const ResourceDesc *resource,
                                   const TextureDesc *tex,
                                   const ResourceViewDesc *view) {
  if (cudaError_t e = sticky())
    return e;
  if (!object || !resource || !tex)
    return fail(cudaErrorInvalidValue);
  sim::TextureView v;
  if (cudaError_t e = viewOf(*resource, v, false))
    return e;
  if (view)
    if (cudaError_t e = applyView(*view, *resource, v))
      return e;
  for (unsigned d = 0; d < 3; ++d)
    v.addressMode[d] = uint8_t(tex->addressMode[d]);
  v.filterMode = uint8_t(tex->filterMode);
  v.mipmapFilterMode = uint8_t(tex->mipmapFilterMode);
  v.readMode = uint8_t(tex->readMode);
  v.normalizedCoords = tex->normalizedCoords;
  v.srgb = tex->sRGB;
  std::copy(tex->borderColor, tex->borderColor + 4, v.borderColor.begin());
  v.mipmapLevelBias = tex->mipmapLevelBias;
  v.minMipmapLevelClamp = tex->minMipmapLevelClamp;
  v.maxMipmapLevelClamp = tex->maxMipmapLevelClamp;
  // Normalized-float reads of 32-bit integers do not exist.
  if (v.readMode == 1 && v.format.kind != sim::TexelFormat::Kind::Float &&
      v.format.bits == 32)
    return fail(cudaErrorInvalidValue);
  Object o;
  o.resource = *resource;
  o.texture = *tex;
  if (view)
    o.view = *view, o.hasView = true;
  *object = rt().device().memory().textures.create(std::move(v), false);
  state().objects[*object] = o;
  return cudaSuccess;
}

Object *objectOf(unsigned long long handle, bool surface) {
  State *s = rt().textures.get();
  if (!s)
    return nullptr;
  auto it = s->objects.find(handle);
  return it == s->objects.end() || it->second.surface != surface ? nullptr
                                                                 : &it->second;
}

// Texture and surface handles are one namespace: the H200 destroys a
// surface given to cudaDestroyTextureObject too, and destroying it again
// succeeds.
cudaError_t destroyObject(unsigned long long handle) {
  if (cudaError_t e = sticky())
    return e;
  Object *o = objectOf(handle, false);
  if (!o)
    o = objectOf(handle, true);
  if (!o)
    return cudaSuccess;
  rt().device().memory().textures.destroy(handle, o->surface);
  state().objects.erase(handle);
  return cudaSuccess;
}
cudaError_t apiDestroyTextureObject(unsigned long long handle) {
  return destroyObject(handle);
}
cudaError_t apiGetTextureObjectResourceDesc(ResourceDesc *out,
                                            unsigned long long handle) {
  Object *o = objectOf(handle, false);
  if (!o || !out)
    return fail(cudaErrorInvalidValue);
  *out = o->resource;
  return cudaSuccess;
}
cudaError_t apiGetTextureObjectTextureDesc(TextureDesc *out,
                                           unsigned long long handle) {
  Object *o = objectOf(handle, false);
  if (!o || !out)
    return fail(cudaErrorInvalidValue);
  *out = o->texture;
  return cudaSuccess;
}
cudaError_t apiGetTextureObjectResourceViewDesc(ResourceViewDesc *out,
                                                unsigned long long handle) {
  Object *o = objectOf(handle, false);
  if (!o || !out)
    return fail(cudaErrorInvalidValue);
  // A texture made without a view: the H200 answers success (the runtime's
  // documentation says an invalid value), with a view of zeros.
  *out = o->hasView ? o->view : ResourceViewDesc{};
  return cudaSuccess;
}

cudaError_t apiCreateSurfaceObject(unsigned long long *object,
                                   const ResourceDesc *resource) {
  if (cudaError_t e = sticky())
    return e;
  if (!object || !resource)
    return fail(cudaErrorInvalidValue);
  sim::TextureView v;
  if (cudaError_t e = viewOf(*resource, v, true))
    return e;
  Object o;
  o.resource = *resource;
  o.surface = true;
  *object = rt().device().memory().textures.create(std::move(v), true);
  state().objects[*object] = o;
  return cudaSuccess;
}
cudaError_t apiDestroySurfaceObject(unsigned long long handle) {
  return destroyObject(handle);
}
cudaError_t apiGetSurfaceObjectResourceDesc(ResourceDesc *out,
                                            unsigned long long handle) {
  Object *o = objectOf(handle, true);
  if (!o || !out)
    return fail(cudaErrorInvalidValue);
  *out = o->resource;
  return cudaSuccess;
}

} // namespace

EntryPoints textureObjectEntryPoints() {
  return {
      {"cudaCreateTextureObject", serialized<apiCreateTextureObject>()},
      {"cudaDestroyTextureObject", serialized<apiDestroyTextureObject>()},
      {"cudaGetTextureObjectResourceDesc",
       serialized<apiGetTextureObjectResourceDesc>()},
      {"cudaGetTextureObjectTextureDesc",
       serialized<apiGetTextureObjectTextureDesc>()},
      {"cudaGetTextureObjectResourceViewDesc",
       serialized<apiGetTextureObjectResourceViewDesc>()},
      {"cudaCreateSurfaceObject", serialized<apiCreateSurfaceObject>()},
      {"cudaDestroySurfaceObject", serialized<apiDestroySurfaceObject>()},
      {"cudaGetSurfaceObjectResourceDesc",
       serialized<apiGetSurfaceObjectResourceDesc>()},
  };
}

} // namespace kcheck::host::entry
