// The CUDA runtime's rules for arrays and texture and surface objects
// (core/TextureRules.h): errors as the runtime documents each call; where it
// is silent, what the H200 answers (tests/conformance/programs/textures.cu,
// arrays.cu).
#include "core/TextureRules.h"

#include <algorithm>

namespace kcheck::core::textures {

namespace {

Answer error(CudaError e) {
  Answer a;
  a.error = e;
  return a;
}
Answer unsupported(std::string what) {
  Answer a;
  a.unsupported = std::move(what);
  return a;
}
Answer invalid() { return error(CudaError::cudaErrorInvalidValue); }

TextureLevel levelOf(const PlacedArray &p) {
  const ArrayShape &a = *p.shape;
  TextureLevel l;
  l.base = p.base;
  l.pitch = a.pitch;
  l.slicePitch = a.slicePitch;
  l.width = uint32_t(a.width());
  l.height = uint32_t(a.rows());
  bool volume = a.extent.depth && !(a.flags & (kArrayLayered | kArrayCubemap));
  l.depth = volume ? uint32_t(a.extent.depth) : 1;
  return l;
}

void describeArray(const PlacedArray &p, TextureView &v) {
  const ArrayShape &a = *p.shape;
  v.format = a.format;
  bool cubemap = a.flags & kArrayCubemap;
  v.cubemap = cubemap;
  if (a.flags & kArrayLayered)
    v.layers = uint32_t(cubemap ? a.extent.depth / 6 : a.extent.depth);
  v.levels.push_back(levelOf(p));
}

// The resource's texels and format; `extent` the array's as made (an
// array's or mipmapped array's only).
Answer resourceOf(const ResourceDesc &r, bool surface,
                  const ArrayLookup &arrays, TextureView &v,
                  std::optional<Extent> &extent) {
  using R = TextureView::Resource;
  switch (r.resType) {
  case 0: { // cudaResourceTypeArray
    // cudaArraySurfaceLoadStore is documented as required; the H200
    // makes a surface without it all the same.
    std::optional<PlacedArray> a =
        arrays.array ? arrays.array(r.res.array.array) : std::nullopt;
    if (!a)
      return invalid();
    v.resource = R::Array;
    describeArray(*a, v);
    extent = a->shape->extent;
    return {};
  }
  case 1: { // cudaResourceTypeMipmappedArray
    std::optional<std::vector<PlacedArray>> m =
        arrays.mipmap ? arrays.mipmap(r.res.mipmap.mipmap) : std::nullopt;
    if (!m || m->empty() || surface)
      return invalid();
    v.resource = R::MipmappedArray;
    describeArray((*m)[0], v);
    for (size_t l = 1; l < m->size(); ++l)
      v.levels.push_back(levelOf((*m)[l]));
    extent = (*m)[0].shape->extent;
    return {};
  }
  case 2: { // cudaResourceTypeLinear
    uint64_t ptr = reinterpret_cast<uint64_t>(r.res.linear.devPtr);
    if (surface || !ptr || ptr % kTextureAlignment)
      return invalid();
    if (Answer a = formatOf(r.res.linear.desc, v.format); !a.ok())
      return a;
    v.resource = R::Linear;
    TextureLevel l;
    l.base = ptr;
    l.width = uint32_t(r.res.linear.sizeInBytes / v.format.bytes());
    l.pitch = r.res.linear.sizeInBytes;
    if (r.res.linear.sizeInBytes > (uint64_t(1) << 28) * v.format.bytes())
      return invalid();
    v.levels.push_back(l);
    return {};
  }
  case 3: { // cudaResourceTypePitch2D
    const auto &p = r.res.pitch2D;
    uint64_t ptr = reinterpret_cast<uint64_t>(p.devPtr);
    if (surface || !ptr || ptr % kTextureAlignment ||
        p.pitchInBytes % kTexturePitchAlignment)
      return invalid();
    if (Answer a = formatOf(p.desc, v.format); !a.ok())
      return a;
    if (p.width == 0 || p.height == 0 ||
        p.width * v.format.bytes() > p.pitchInBytes || p.width > 131072 ||
        p.height > 65000)
      return invalid();
    v.resource = R::Pitch2D;
    TextureLevel l;
    l.base = ptr;
    l.pitch = p.pitchInBytes;
    l.slicePitch = p.pitchInBytes * p.height;
    l.width = uint32_t(p.width);
    l.height = uint32_t(p.height);
    v.levels.push_back(l);
    return {};
  }
  default:
    return invalid();
  }
}

// cudaResourceViewFormat 1 to 24 (driver_types.h): 1, 2 and 4 channels of
// each kind and width in turn.
bool viewFormatOf(int f, TexelFormat &out) {
  using K = TexelFormat::Kind;
  static const struct {
    K kind;
    unsigned bits;
  } groups[8] = {{K::Unsigned, 8}, {K::Signed, 8},    {K::Unsigned, 16},
                 {K::Signed, 16},  {K::Unsigned, 32}, {K::Signed, 32},
                 {K::Float, 16},   {K::Float, 32}};
  if (f < 1 || f > 24)
    return false;
  out = TexelFormat{};
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
Answer applyView(const ResourceViewDesc &view, bool mipmapped,
                 const std::optional<Extent> &extent, TextureView &v) {
  if (!extent)
    return {};
  if (view.format > 24)
    return unsupported("a resource view of a block-compressed format "
                       "(cudaResViewFormat*BlockCompressed*: its texels are "
                       "decoded from 4x4 blocks, which kcheck's texture unit "
                       "does not do)");
  TexelFormat f;
  if (!viewFormatOf(view.format, f) || f.bytes() != v.format.bytes())
    return invalid();
  v.format = f;
  if (view.width != extent->width || view.height != extent->height ||
      view.depth != extent->depth)
    return invalid();
  uint64_t slices = v.layers * (v.cubemap ? 6 : 1);
  if (view.firstMipmapLevel > view.lastMipmapLevel ||
      (!mipmapped && view.lastMipmapLevel != 0) ||
      view.firstLayer > view.lastLayer || (!v.layers && view.lastLayer != 0))
    return invalid();
  size_t lastLevel =
      std::min<size_t>(view.lastMipmapLevel, v.levels.size() - 1);
  size_t firstLevel = std::min<size_t>(view.firstMipmapLevel, lastLevel);
  v.levels.erase(v.levels.begin() + lastLevel + 1, v.levels.end());
  v.levels.erase(v.levels.begin(), v.levels.begin() + firstLevel);
  if (v.layers) {
    uint64_t last = std::min<uint64_t>(view.lastLayer, slices - 1);
    uint64_t first = std::min<uint64_t>(view.firstLayer, last);
    for (TextureLevel &l : v.levels)
      l.base += first * l.slicePitch;
    uint64_t count = last - first + 1;
    v.layers = uint32_t(v.cubemap ? std::max<uint64_t>(1, count / 6) : count);
  }
  return {};
}

} // namespace

Answer formatOf(const ChannelFormatDesc &d, TexelFormat &out) {
  using K = TexelFormat::Kind;
  if (d.f >= 5 && d.f <= 16) {
    // cudaChannelFormatKind{Uns,S}ignedNormalized{8,16}X{1,2,4}.
    int i = d.f - 5;
    out.kind = i < 6 ? K::Unsigned : K::Signed;
    out.bits = i % 6 < 3 ? 8 : 16;
    out.channels = 1u << (i % 3);
    out.normalizedKind = true;
    return {};
  }
  if (d.f == 4 || d.f >= 17)
    return unsupported(
        "a CUDA array of channel format kind " + std::to_string(d.f) +
        " (NV12, block-compressed and 10-10-10-2 formats are not simulated: "
        "their texels are not stored one per element)");
  Answer badDesc = error(CudaError::cudaErrorInvalidChannelDescriptor);
  if (d.f > 2 || d.f < 0)
    return badDesc;
  int bits[4] = {d.x, d.y, d.z, d.w};
  unsigned channels = 0;
  for (unsigned c = 0; c < 4; ++c) {
    if (bits[c] == 0)
      break;
    if (bits[c] != d.x)
      return badDesc;
    ++channels;
  }
  for (unsigned c = channels; c < 4; ++c)
    if (bits[c] != 0)
      return badDesc;
  bool widthOk =
      d.f == 2 ? d.x == 16 || d.x == 32 : d.x == 8 || d.x == 16 || d.x == 32;
  if (channels == 0 || channels == 3 || !widthOk)
    return badDesc;
  out.kind = d.f == 0 ? K::Signed : d.f == 1 ? K::Unsigned : K::Float;
  out.bits = unsigned(d.x);
  out.channels = channels;
  out.normalizedKind = false;
  return {};
}

Answer arrayShape(const ChannelFormatDesc &desc, Extent extent, unsigned flags,
                  ArrayShape &out) {
  if (flags & (kArraySparse | kArrayDeferredMapping))
    return unsupported("a sparse or deferred-mapping CUDA array (its tiles "
                       "are mapped by the driver's cuMemMapArrayAsync, which "
                       "kcheck's runtime does not have)");
  unsigned known = kArrayLayered | kArraySurfaceLoadStore | kArrayCubemap |
                   kArrayTextureGather;
  if (flags & ~known)
    return invalid();
  TexelFormat format;
  if (Answer a = formatOf(desc, format); !a.ok())
    return a;
  bool layered = flags & kArrayLayered, cubemap = flags & kArrayCubemap;
  if (extent.width == 0 || (extent.height == 0 && extent.depth && !layered) ||
      (cubemap && (extent.width != extent.height ||
                   (layered ? extent.depth % 6 : extent.depth != 6))) ||
      (layered && extent.depth == 0))
    return invalid();
  // The H100's limits (cudaDevAttrMaxTexture*/MaxSurface*).
  size_t maxW = extent.depth && !layered && !cubemap ? 16384 : 131072;
  if (extent.width > maxW || extent.height > 65536 || extent.depth > 16384)
    return invalid();
  out = ArrayShape{};
  out.desc = desc;
  out.format = format;
  out.extent = extent;
  out.flags = flags;
  out.pitch = uint64_t(out.width()) * format.bytes();
  out.slicePitch = out.pitch * out.rows();
  out.bytes = out.slicePitch * out.slices();
  return {};
}

Answer mipmapLevelExtents(Extent extent, unsigned numLevels, unsigned flags,
                          std::vector<Extent> &out) {
  if (numLevels == 0)
    return invalid();
  // At most 1 + floor(log2(the largest extent)) levels.
  size_t largest = std::max({extent.width, extent.height, extent.depth});
  unsigned maxLevels = 1;
  while (largest >> maxLevels)
    ++maxLevels;
  if (numLevels > maxLevels)
    return invalid();
  bool layers = flags & (kArrayLayered | kArrayCubemap);
  out.clear();
  for (unsigned l = 0; l < numLevels; ++l) {
    auto shrink = [&](size_t v) { return v ? std::max<size_t>(1, v >> l) : 0; };
    out.push_back({shrink(extent.width), shrink(extent.height),
                   layers ? extent.depth : shrink(extent.depth)});
  }
  return {};
}

Answer textureView(const ResourceDesc &resource, const TextureDesc &tex,
                   const ResourceViewDesc *view, const ArrayLookup &arrays,
                   TextureView &v) {
  v = TextureView{};
  std::optional<Extent> extent;
  if (Answer a = resourceOf(resource, false, arrays, v, extent); !a.ok())
    return a;
  if (view)
    if (Answer a = applyView(*view, resource.resType == 1, extent, v); !a.ok())
      return a;
  for (unsigned d = 0; d < 3; ++d)
    v.addressMode[d] = uint8_t(tex.addressMode[d]);
  v.filterMode = uint8_t(tex.filterMode);
  v.mipmapFilterMode = uint8_t(tex.mipmapFilterMode);
  v.readMode = uint8_t(tex.readMode);
  v.normalizedCoords = tex.normalizedCoords;
  v.srgb = tex.sRGB;
  std::copy(tex.borderColor, tex.borderColor + 4, v.borderColor.begin());
  v.mipmapLevelBias = tex.mipmapLevelBias;
  v.minMipmapLevelClamp = tex.minMipmapLevelClamp;
  v.maxMipmapLevelClamp = tex.maxMipmapLevelClamp;
  // Normalized-float reads of 32-bit integers do not exist.
  if (v.readMode == 1 && v.format.kind != TexelFormat::Kind::Float &&
      v.format.bits == 32)
    return invalid();
  return {};
}

Answer surfaceView(const ResourceDesc &resource, const ArrayLookup &arrays,
                   TextureView &v) {
  v = TextureView{};
  std::optional<Extent> extent;
  return resourceOf(resource, true, arrays, v, extent);
}

} // namespace kcheck::core::textures
