#include "simulator/engine/TextureUnit.h"

#include "core/Float16.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

namespace kcheck::sim {

uint64_t TextureObjects::create(TextureView view, bool surface) {
  std::lock_guard<std::mutex> lock(mutex_);
  uint64_t handle = next_++;
  objects_.emplace(handle, std::make_pair(std::move(view), surface));
  ++generation_;
  return handle;
}

uint64_t TextureObjects::generation() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return generation_;
}

bool TextureObjects::destroy(uint64_t handle, bool surface) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = objects_.find(handle);
  if (it == objects_.end() || it->second.second != surface)
    return false;
  objects_.erase(it);
  ++generation_;
  return true;
}

const TextureView *TextureObjects::find(uint64_t handle, bool surface) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = objects_.find(handle);
  if (it == objects_.end() || it->second.second != surface)
    return nullptr;
  return &it->second.first; // std::map nodes do not move
}

namespace {

using TI = core::TextureInstruction;
using Float4 = std::array<float, 4>;
using Word4 = std::array<uint32_t, 4>;

float wordFloat(uint32_t w) { return std::bit_cast<float>(w); }

// The texture returns floats: a float format, a normalized kind or the
// normalized-float read mode of an 8/16-bit integer format.
bool returnsFloat(const TextureView &v) {
  return v.format.kind == TexelFormat::Kind::Float || v.format.normalizedKind ||
         v.readMode == 1;
}

// sRGB to linear, of an 8-bit value: the H200's table (SrgbTable.def), not
// IEC 61966-2-1's formula, from which it differs by up to 0.5 %.
float srgbToLinear(uint8_t v) {
  static constexpr uint32_t kTable[256] = {
#define KCHECK_SRGB(bits) bits,
#include "simulator/engine/SrgbTable.def"
  };
  return std::bit_cast<float>(kTable[v]);
}

// A texel's channels, raw (sign- or zero-extended), from memory.
struct RawTexel {
  std::array<uint64_t, 4> raw{};
  bool present = false; // false: outside the resource (a border texel)
};

class Sampler {
public:
  Sampler(const TextureView &view, TexelMemory &memory)
      : v_(view), mem_(memory) {}

  RawTexel fetch(const TextureLevel &level, int64_t x, int64_t y,
                 int64_t slice) const {
    RawTexel t;
    uint64_t bytes = v_.format.bytes();
    uint64_t addr = level.base + uint64_t(slice) * level.slicePitch +
                    uint64_t(y) * level.pitch + uint64_t(x) * bytes;
    uint8_t buf[16] = {};
    if (!mem_.valid(addr, bytes))
      return t; // reads as zeros, as an unbacked texel would
    mem_.read(addr, buf, bytes);
    unsigned b = v_.format.bits / 8;
    for (unsigned c = 0; c < v_.format.channels; ++c) {
      uint64_t r = 0;
      std::memcpy(&r, buf + c * b, b);
      if (v_.format.kind == TexelFormat::Kind::Signed && b < 8) {
        unsigned shift = 64 - 8 * b;
        r = uint64_t(int64_t(r << shift) >> shift);
      }
      t.raw[c] = r;
    }
    t.present = true;
    return t;
  }

  float channelFloat(const RawTexel &t, unsigned c) const {
    if (c >= v_.format.channels)
      return 0.0f;
    uint64_t r = t.raw[c];
    unsigned bits = v_.format.bits;
    float f = 0;
    switch (v_.format.kind) {
    case TexelFormat::Kind::Float:
      f = bits == 16 ? kcheck::floatFromHalf(uint16_t(r))
                     : wordFloat(uint32_t(r));
      break;
    case TexelFormat::Kind::Unsigned:
      f = float(double(r) / double((1ull << bits) - 1));
      break;
    case TexelFormat::Kind::Signed:
      f = std::max(
          -1.0f, float(double(int64_t(r)) / double((1ull << (bits - 1)) - 1)));
      break;
    }
    if (v_.srgb && c < 3 && v_.format.kind == TexelFormat::Kind::Unsigned &&
        bits == 8)
      f = srgbToLinear(uint8_t(r));
    return f;
  }

  Float4 asFloats(const RawTexel &t) const {
    if (!t.present) { // the border colour, of the channels the format has
      Float4 b{};
      for (unsigned c = 0; c < v_.format.channels; ++c)
        b[c] = v_.borderColor[c];
      return b;
    }
    return {channelFloat(t, 0), channelFloat(t, 1), channelFloat(t, 2),
            channelFloat(t, 3)};
  }

  Word4 asWords(const RawTexel &t) const {
    Word4 w{};
    if (!t.present) {
      for (unsigned c = 0; c < v_.format.channels; ++c)
        w[c] = uint32_t(int32_t(v_.borderColor[c]));
      return w;
    }
    for (unsigned c = 0; c < 4; ++c)
      w[c] = c < v_.format.channels ? uint32_t(t.raw[c]) : 0u;
    return w;
  }

  // Texel index `i` on an axis of `n` texels under address mode `mode`;
  // nullopt for a border texel.
  std::optional<int64_t> address(int64_t i, int64_t n, unsigned axis) const {
    unsigned mode = v_.addressMode[axis];
    // Wrap and mirror apply to normalized coordinates only; otherwise the
    // hardware clamps (Programming Guide, "Texture Fetching").
    if (!v_.normalizedCoords && (mode == 0 || mode == 2))
      mode = 1;
    switch (mode) {
    case 0: // wrap
      return ((i % n) + n) % n;
    case 2: { // mirror
      int64_t k = ((i % (2 * n)) + 2 * n) % (2 * n);
      return k < n ? k : 2 * n - 1 - k;
    }
    case 3: // border
      if (i < 0 || i >= n)
        return std::nullopt;
      return i;
    default: // clamp
      return std::clamp<int64_t>(i, 0, n - 1);
    }
  }

  RawTexel at(const TextureLevel &level, const int64_t idx[3], unsigned dims,
              int64_t slice) const {
    int64_t size[3] = {level.width, level.height, level.depth};
    int64_t a[3] = {0, 0, 0};
    for (unsigned d = 0; d < dims; ++d) {
      std::optional<int64_t> i = address(idx[d], size[d], d);
      if (!i)
        return RawTexel{};
      a[d] = *i;
    }
    return fetch(level, a[0], a[1], dims == 3 ? a[2] : slice);
  }

  // Point or linear sample of one level at texel-space coordinates `u`.
  Float4 sampleFloat(const TextureLevel &level, const double u[3],
                     unsigned dims, int64_t slice, bool linear) const {
    if (!linear) {
      int64_t idx[3];
      for (unsigned d = 0; d < dims; ++d)
        idx[d] = floorIndex(u[d]);
      return asFloats(at(level, idx, dims, slice));
    }
    int64_t base[3];
    double w[3];
    for (unsigned d = 0; d < dims; ++d) {
      double ub = u[d] - 0.5;
      base[d] = floorIndex(ub);
      w[d] = weight(ub - std::floor(ub));
    }
    if (filtersInFixedPoint())
      return fixedPointLinear(level, base, w, dims, slice);
    Float4 out{};
    for (unsigned corner = 0; corner < (1u << dims); ++corner) {
      int64_t idx[3];
      double f = 1;
      for (unsigned d = 0; d < dims; ++d) {
        bool hi = corner >> d & 1;
        idx[d] = base[d] + hi;
        f *= hi ? w[d] : 1 - w[d];
      }
      if (f == 0)
        continue;
      Float4 t = asFloats(at(level, idx, dims, slice));
      for (unsigned c = 0; c < 4; ++c)
        out[c] += float(f) * t[c];
    }
    return out;
  }

  // 8- and 16-bit normalized texels (not sRGB) filter in 16-bit fixed point
  // (measured on the H200, tests/conformance/programs/texture_filtering.cu,
  // bit for bit in 1D): an unsigned texel is v (16-bit) or 257 v (8-bit), a
  // signed one v or round(32767 v / 127) (-128 included, unclamped); the
  // sum of texel times integer weight (8 fractional bits) rounds to the
  // nearest unit, which is divided by 65535 (signed: 32767, then clamped to
  // -1; 8-bit signed texels differ from the H200 by a unit in 4 % of
  // weights). Border texels are the border colour in the same units.
  bool filtersInFixedPoint() const {
    const TexelFormat &f = v_.format;
    return f.kind != TexelFormat::Kind::Float && f.bits <= 16 && !v_.srgb;
  }
  Float4 fixedPointLinear(const TextureLevel &level, const int64_t base[3],
                          const double w[3], unsigned dims,
                          int64_t slice) const {
    bool isSigned = v_.format.kind == TexelFormat::Kind::Signed;
    double unit = isSigned ? 32767 : 65535;
    // Corner weights in 1/256: x's (256 - wx, wx); each further dimension
    // gives its upper corners weight wd in all: corner c > 0's is
    // round(W_c wd / 256), corner 0's the rest, and each lower corner keeps
    // what its upper one does not take (2D measured: the upper-right weight
    // is round(wx wy / 256), the others what remains; 3D by the same rule,
    // not measured).
    int64_t weights[8] = {};
    weights[0] = 256 - int64_t(w[0] * 256), weights[1] = int64_t(w[0] * 256);
    for (unsigned d = 1; d < dims; ++d) {
      int64_t wd = int64_t(w[d] * 256), rest = wd;
      for (unsigned c = (1u << d) - 1; c > 0; --c) {
        int64_t upper = (weights[c] * wd + 128) >> 8;
        weights[c | (1u << d)] = upper;
        weights[c] -= upper;
        rest -= upper;
      }
      weights[1u << d] = rest;
      weights[0] -= rest;
    }
    std::array<int64_t, 4> sum{};
    for (unsigned corner = 0; corner < (1u << dims); ++corner) {
      int64_t idx[3], weight = weights[corner];
      for (unsigned d = 0; d < dims; ++d)
        idx[d] = base[d] + (corner >> d & 1);
      if (weight == 0)
        continue;
      RawTexel t = at(level, idx, dims, slice);
      for (unsigned c = 0; c < v_.format.channels; ++c) {
        int64_t fixed;
        if (!t.present)
          fixed = std::llround(double(v_.borderColor[c]) * unit);
        else if (!isSigned)
          fixed = int64_t(t.raw[c]) * (v_.format.bits == 8 ? 257 : 1);
        else if (v_.format.bits == 8)
          fixed = std::llround(double(int64_t(t.raw[c])) * 32767 / 127);
        else
          fixed = int64_t(t.raw[c]);
        sum[c] += weight * fixed;
      }
    }
    Float4 out{};
    for (unsigned c = 0; c < v_.format.channels; ++c) {
      float r = float(std::llround(double(sum[c]) / 256)) / float(unit);
      out[c] = isSigned ? std::max(-1.0f, r) : r;
    }
    return out;
  }

  Word4 sampleWords(const TextureLevel &level, const double u[3], unsigned dims,
                    int64_t slice) const {
    int64_t idx[3];
    for (unsigned d = 0; d < dims; ++d)
      idx[d] = floorIndex(u[d]);
    return asWords(at(level, idx, dims, slice));
  }

  static int64_t floorIndex(double u) {
    if (!(u == u))
      return 0;
    return int64_t(std::floor(std::clamp(u, -1e9, 1e9)));
  }
  // Linear filtering's weights: 9-bit fixed point, 8 fractional bits.
  static double weight(double frac) { return std::round(frac * 256) / 256; }

private:
  const TextureView &v_;
  TexelMemory &mem_;
};

Word4 floatWords(const Float4 &f) {
  return {std::bit_cast<uint32_t>(f[0]), std::bit_cast<uint32_t>(f[1]),
          std::bit_cast<uint32_t>(f[2]), std::bit_cast<uint32_t>(f[3])};
}

// Cubemap face and face coordinates from a direction (Programming Guide,
// "Cubemap Textures").
void cubeFace(float x, float y, float z, int &face, double &s, double &t) {
  float ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z);
  double m, sc, tc;
  if (ax >= ay && ax >= az) {
    face = x >= 0 ? 0 : 1, m = ax, sc = x >= 0 ? -z : z, tc = -y;
  } else if (ay >= az) {
    face = y >= 0 ? 2 : 3, m = ay, sc = x, tc = y >= 0 ? z : -z;
  } else {
    face = z >= 0 ? 4 : 5, m = az, sc = z >= 0 ? x : -x, tc = -y;
  }
  s = m == 0 ? 0.5 : (sc / m + 1) / 2;
  t = m == 0 ? 0.5 : (tc / m + 1) / 2;
}

// The mipmap level(s) and weight of a fetch: level lo, and hi with weight
// `f` under linear mipmap filtering.
struct LevelChoice {
  unsigned lo = 0, hi = 0;
  double f = 0;
};

LevelChoice chooseLevel(const TextureView &v, double lod) {
  LevelChoice c;
  if (v.levels.size() < 2 || !(lod == lod))
    return c;
  lod += v.mipmapLevelBias;
  lod = std::clamp(lod, double(v.minMipmapLevelClamp),
                   double(v.maxMipmapLevelClamp));
  lod = std::clamp(lod, 0.0, double(v.levels.size() - 1));
  if (v.mipmapFilterMode == 0) {
    c.lo = c.hi = unsigned(std::floor(lod + 0.5));
    c.lo = c.hi = std::min<unsigned>(c.lo, unsigned(v.levels.size() - 1));
    return c;
  }
  c.lo = unsigned(std::floor(lod));
  c.hi = std::min<unsigned>(c.lo + 1, unsigned(v.levels.size() - 1));
  // The level weight truncates to 8 fractional bits (measured: lod 2.6
  // blends level 3 by 153/256), where texel weights round.
  c.f = std::floor((lod - c.lo) * 256) / 256;
  return c;
}

TextureResult texFetch(const TI &inst, const TextureView &v,
                       const std::array<uint32_t, 4> &coords,
                       const std::array<uint32_t, 8> &extra,
                       TexelMemory &memory) {
  TextureResult r;
  Sampler s(v, memory);
  using G = TI::Geometry;
  unsigned dims = 1;
  int64_t layer = 0;
  unsigned first = 0; // the first spatial coordinate
  switch (inst.geometry) {
  case G::D1:
    dims = 1;
    break;
  case G::D2:
    dims = 2;
    break;
  case G::D3:
    dims = 3;
    break;
  case G::A1:
    dims = 1, layer = int32_t(coords[0]), first = 1;
    break;
  case G::A2:
    dims = 2, layer = int32_t(coords[0]), first = 1;
    break;
  case G::Cube:
  case G::ACube:
    dims = 2;
    if (inst.geometry == G::ACube)
      layer = int32_t(coords[0]), first = 1;
    break;
  }
  if (v.layers)
    layer = std::clamp<int64_t>(layer, 0, v.layers - 1);
  // Texel-space coordinates of level 0 (scaled per level below).
  double norm[3] = {0, 0, 0};
  // A mipmapped array's coordinates are normalized whatever the texture
  // says (measured on the H200: tests/conformance/programs/arrays.cu).
  bool normalized =
      v.normalizedCoords || v.resource == TextureView::Resource::MipmappedArray;
  int64_t slice = v.layers ? layer : 0;
  if (inst.geometry == G::Cube || inst.geometry == G::ACube) {
    int face;
    cubeFace(wordFloat(coords[first]), wordFloat(coords[first + 1]),
             wordFloat(coords[first + 2]), face, norm[0], norm[1]);
    slice = layer * 6 + face;
    normalized = true;
  } else {
    for (unsigned d = 0; d < dims; ++d) {
      uint32_t w = coords[first + d];
      norm[d] = inst.floatCoords ? double(wordFloat(w)) : double(int32_t(w));
    }
  }
  // Integer coordinates address texels directly, without filtering
  // (tex1Dfetch; PTX's .s32 coordinate type).
  bool integer = !inst.floatCoords;
  if (v.resource == TextureView::Resource::Linear) {
    int64_t i = Sampler::floorIndex(norm[0]);
    const TextureLevel &l = v.levels[0];
    if (i < 0 || i >= int64_t(l.width)) // out of range: zeros
      return r;
    RawTexel t = s.fetch(l, i, 0, 0);
    r.words = returnsFloat(v) ? floatWords(s.asFloats(t)) : s.asWords(t);
    return r;
  }
  double lod = 0;
  if (inst.lod == TI::Lod::Level) {
    lod = wordFloat(extra[0]);
  } else if (inst.lod == TI::Lod::Grad) {
    // The level a footprint of these derivatives covers: log2 of the longer
    // gradient in level-0 texels.
    double gx = 0, gy = 0;
    const TextureLevel &l0 = v.levels[0];
    double size[3] = {double(l0.width), double(l0.height), double(l0.depth)};
    for (unsigned d = 0; d < dims; ++d) {
      double scale = normalized ? size[d] : 1;
      gx += std::pow(wordFloat(extra[d]) * scale, 2);
      gy += std::pow(wordFloat(extra[4 + d]) * scale, 2);
    }
    double rho = std::sqrt(std::max(gx, gy));
    lod = rho > 0 ? std::log2(rho) : -1e9;
  }
  LevelChoice choice = chooseLevel(v, lod);
  auto texelSpace = [&](unsigned level, double u[3]) {
    const TextureLevel &l = v.levels[level];
    double size[3] = {double(l.width), double(l.height), double(l.depth)};
    const TextureLevel &l0 = v.levels[0];
    double size0[3] = {double(l0.width), double(l0.height), double(l0.depth)};
    for (unsigned d = 0; d < 3; ++d)
      u[d] = normalized ? norm[d] * size[d]
                        : norm[d] * (size[d] / size0[d]); // level 0: as given
  };
  bool linear = v.filterMode == 1 && returnsFloat(v) && !integer;

  if (inst.kind == TI::Kind::Tld4) {
    double u[3];
    texelSpace(0, u);
    int64_t i = Sampler::floorIndex(u[0] - 0.5),
            j = Sampler::floorIndex(u[1] - 0.5);
    const int64_t order[4][2] = {
        {i, j + 1}, {i + 1, j + 1}, {i + 1, j}, {i, j}};
    for (unsigned k = 0; k < 4; ++k) {
      int64_t idx[3] = {order[k][0], order[k][1], 0};
      RawTexel t = s.at(v.levels[0], idx, 2, slice);
      r.words[k] = returnsFloat(v)
                       ? std::bit_cast<uint32_t>(s.asFloats(t)[inst.component])
                       : s.asWords(t)[inst.component];
    }
    return r;
  }
  if (!returnsFloat(v)) {
    double u[3];
    texelSpace(choice.lo, u);
    r.words = s.sampleWords(v.levels[choice.lo], u, dims, slice);
    return r;
  }
  double u[3];
  texelSpace(choice.lo, u);
  Float4 out = s.sampleFloat(v.levels[choice.lo], u, dims, slice, linear);
  if (choice.hi != choice.lo && choice.f > 0) {
    texelSpace(choice.hi, u);
    Float4 hi = s.sampleFloat(v.levels[choice.hi], u, dims, slice, linear);
    for (unsigned c = 0; c < 4; ++c)
      out[c] = float((1 - choice.f) * out[c] + choice.f * hi[c]);
  }
  r.words = floatWords(out);
  return r;
}

// suld.b / sust.b: x in bytes, y and z in rows and slices; a layered
// geometry's layer first.
TextureResult surfaceAccess(const TI &inst, const TextureView &v,
                            const std::array<uint32_t, 4> &coords,
                            const std::array<uint32_t, 8> &extra,
                            TexelMemory &memory) {
  TextureResult r;
  using G = TI::Geometry;
  const TextureLevel &l = v.levels[0];
  unsigned first = inst.geometry == G::A1 || inst.geometry == G::A2 ? 1 : 0;
  int64_t layer = first ? int32_t(coords[0]) : 0;
  unsigned dims = inst.geometry == G::D1 || inst.geometry == G::A1 ? 1
                  : inst.geometry == G::D3                         ? 3
                                                                   : 2;
  int64_t c[3] = {0, 0, 0};
  for (unsigned d = 0; d < dims; ++d)
    c[d] = int32_t(coords[first + d]);
  uint64_t elementBytes = uint64_t(inst.vector) * inst.elementBits / 8;
  if (elementBytes > 16 || elementBytes == 0) {
    r.error = "surface access of " + std::to_string(elementBytes) + " bytes";
    return r;
  }
  int64_t rowBytes = int64_t(l.width) * v.format.bytes();
  int64_t limit[3] = {rowBytes - int64_t(elementBytes) + 1, l.height, l.depth};
  int64_t slices = int64_t(v.layers ? v.layers : 1) * (v.cubemap ? 6 : 1);
  bool inRange = layer >= 0 && layer < slices;
  for (unsigned d = 0; d < dims; ++d)
    inRange = inRange && c[d] >= 0 && c[d] < limit[d];
  if (!inRange) {
    switch (inst.clamp) {
    case TI::Clamp::Trap:
      r.error = "surface " + std::string(inst.writes() ? "write" : "read") +
                " out of range";
      return r;
    case TI::Clamp::Zero:
      return r; // reads zeros; a write is dropped
    case TI::Clamp::Clamp:
      for (unsigned d = 0; d < dims; ++d)
        c[d] = std::clamp<int64_t>(c[d], 0, std::max<int64_t>(limit[d] - 1, 0));
      layer = std::clamp<int64_t>(layer, 0, slices - 1);
      break;
    }
  }
  int64_t slice = dims == 3 ? c[2] : layer;
  uint64_t addr = l.base + uint64_t(slice) * l.slicePitch +
                  uint64_t(c[1]) * l.pitch + uint64_t(c[0]);
  if (!memory.valid(addr, elementBytes)) {
    r.error = "surface access outside its array";
    return r;
  }
  unsigned bytes = inst.elementBits / 8;
  uint8_t buf[16] = {};
  if (inst.writes()) {
    // Data words: one per element, two (low first) for 64-bit elements.
    for (unsigned e = 0; e < inst.vector && (e + 1) * bytes <= sizeof buf;
         ++e) {
      uint64_t value = extra[bytes == 8 ? 2 * e : e];
      if (bytes == 8)
        value |= uint64_t(extra[2 * e + 1]) << 32;
      std::memcpy(buf + e * bytes, &value, bytes);
    }
    memory.write(addr, buf, elementBytes);
    return r;
  }
  memory.read(addr, buf, elementBytes);
  for (unsigned e = 0; e < inst.vector && (e + 1) * bytes <= sizeof buf; ++e) {
    uint64_t value = 0;
    std::memcpy(&value, buf + e * bytes, bytes);
    if (bytes == 8) {
      r.words[2 * e] = uint32_t(value), r.words[2 * e + 1] = value >> 32;
    } else {
      r.words[e] = uint32_t(value);
    }
  }
  return r;
}

// Notes whether any read was input-derived.
class TaintRecorder : public TexelMemory {
public:
  explicit TaintRecorder(TexelMemory &m) : m_(m) {}
  bool valid(uint64_t addr, uint64_t n) const override {
    return m_.valid(addr, n);
  }
  bool read(uint64_t addr, void *dst, uint64_t n) override {
    bool t = m_.read(addr, dst, n);
    tainted |= t;
    return t;
  }
  void write(uint64_t addr, const void *src, uint64_t n) override {
    m_.write(addr, src, n);
  }
  bool tainted = false;

private:
  TexelMemory &m_;
};

} // namespace

TextureResult executeTexture(const core::TextureInstruction &inst,
                             const TextureView &view,
                             const std::array<uint32_t, 4> &coords,
                             const std::array<uint32_t, 8> &extra,
                             TexelMemory &memory) {
  TaintRecorder recorder(memory);
  TextureResult r;
  switch (inst.kind) {
  case TI::Kind::Tex:
  case TI::Kind::Tld4:
    r = texFetch(inst, view, coords, extra, recorder);
    r.tainted = recorder.tainted;
    return r;
  case TI::Kind::Suld:
  case TI::Kind::Sust:
    r = surfaceAccess(inst, view, coords, extra, recorder);
    r.tainted = recorder.tainted;
    return r;
  case TI::Kind::Txq:
  case TI::Kind::Suq:
    break;
  }
  r.error = "txq/suq are not executed";
  return r;
}

} // namespace kcheck::sim
