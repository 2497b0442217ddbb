// The texture unit (simulator/engine/TextureUnit.h) against brute force:
// point sampling under each address mode against an independent index map,
// linear filtering of 8-bit normalized texels against the measured
// fixed-point rule written out here on its own (1D and 2D, random texels and
// weights), of float texels against a double bilinear blend, and the
// instruction's encoding round trip.
#include "simulator/engine/TextureUnit.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

namespace kcheck::sim {
namespace {

using core::TextureInstruction;

constexpr uint64_t kBase = 0x1000;

class Bytes : public TexelMemory {
public:
  std::vector<uint8_t> data;
  bool valid(uint64_t addr, uint64_t n) const override {
    return addr >= kBase && addr + n <= kBase + data.size();
  }
  bool read(uint64_t addr, void *dst, uint64_t n) override {
    std::memcpy(dst, data.data() + (addr - kBase), n);
    return false;
  }
  void write(uint64_t addr, const void *src, uint64_t n) override {
    std::memcpy(data.data() + (addr - kBase), src, n);
  }
};

TextureView view2D(TexelFormat format, uint32_t w, uint32_t h) {
  TextureView v;
  v.format = format;
  TextureLevel l;
  l.base = kBase;
  l.width = w, l.height = h;
  l.pitch = uint64_t(w) * format.bytes();
  l.slicePitch = l.pitch * h;
  v.levels.push_back(l);
  return v;
}

float fetch2D(const TextureView &v, Bytes &mem, float x, float y) {
  TextureInstruction inst;
  inst.kind = TextureInstruction::Kind::Tex;
  inst.geometry = TextureInstruction::Geometry::D2;
  inst.result = TextureInstruction::Result::F32;
  TextureResult r = executeTexture(
      inst, v, {std::bit_cast<uint32_t>(x), std::bit_cast<uint32_t>(y), 0, 0},
      {}, mem);
  EXPECT_EQ(r.error, "");
  return std::bit_cast<float>(r.words[0]);
}

// The texel index an address mode gives (the Programming Guide's rules, on
// texel indices): clamp, wrap, mirror, border (-1: outside).
int64_t mapped(int64_t i, int64_t n, int mode) {
  switch (mode) {
  case 0: // wrap
    return ((i % n) + n) % n;
  case 2: { // mirror
    int64_t k = ((i % (2 * n)) + 2 * n) % (2 * n);
    return k < n ? k : 2 * n - 1 - k;
  }
  case 3: // border
    return i < 0 || i >= n ? -1 : i;
  default: // clamp
    return std::clamp<int64_t>(i, 0, n - 1);
  }
}

TEST(TextureUnit, PointSamplingMatchesTheIndexMapOfEachAddressMode) {
  const uint32_t W = 7, H = 5;
  Bytes mem;
  mem.data.resize(W * H * 4);
  for (uint32_t i = 0; i < W * H; ++i) {
    float f = float(i) + 0.25f;
    std::memcpy(&mem.data[4 * i], &f, 4);
  }
  std::mt19937 random(7);
  std::uniform_real_distribution<float> coord(-2.5f, 3.5f);
  for (int mode : {0, 1, 2, 3})
    for (bool normalized : {false, true}) {
      if (!normalized && (mode == 0 || mode == 2))
        continue; // wrap and mirror need normalized coordinates
      TextureView v = view2D(TexelFormat{}, W, H);
      v.addressMode = {uint8_t(mode), uint8_t(mode), uint8_t(mode)};
      v.normalizedCoords = normalized;
      v.borderColor = {-7, 0, 0, 0};
      for (int k = 0; k < 400; ++k) {
        float x = coord(random), y = coord(random);
        if (!normalized)
          x *= W, y *= H;
        double ux = normalized ? double(x) * W : x;
        double uy = normalized ? double(y) * H : y;
        int64_t ix = mapped(int64_t(std::floor(ux)), W, mode);
        int64_t iy = mapped(int64_t(std::floor(uy)), H, mode);
        float want = ix < 0 || iy < 0 ? -7.0f : float(iy * W + ix) + 0.25f;
        EXPECT_EQ(fetch2D(v, mem, x, y), want)
            << "mode " << mode << " normalized " << normalized << " at " << x
            << ", " << y;
      }
    }
}

// The measured rule (docs/validation/conformance-h200.md,
// texture_filtering.cu), written out for a 2 x 2 footprint of 8-bit
// unsigned texels t[y][x] and weights wx, wy in 1/256.
float unorm8Bilinear(const uint8_t t[2][2], int64_t wx, int64_t wy) {
  int64_t p = (wx * wy + 128) / 256;
  int64_t w00 = 256 - wx - wy + p, w10 = wx - p, w01 = wy - p, w11 = p;
  int64_t s =
      257 * (w00 * t[0][0] + w10 * t[0][1] + w01 * t[1][0] + w11 * t[1][1]);
  return float((s + 128) / 256) / 65535.0f;
}

TEST(TextureUnit, Unorm8LinearFilteringIsTheMeasuredFixedPointRule) {
  std::mt19937 random(11);
  TexelFormat u8;
  u8.kind = TexelFormat::Kind::Unsigned;
  u8.bits = 8;
  for (int k = 0; k < 3000; ++k) {
    uint8_t t[2][2];
    Bytes mem;
    mem.data.resize(4);
    for (int i = 0; i < 4; ++i)
      mem.data[i] = t[i / 2][i % 2] = uint8_t(random());
    TextureView v = view2D(u8, 2, 2);
    v.filterMode = 1, v.readMode = 1;
    int64_t wx = random() % 257, wy = random() % 257;
    bool oneD = k % 4 == 0;
    if (oneD)
      wy = 0;
    float x = 0.5f + float(wx) / 256, y = 0.5f + float(wy) / 256;
    float got = fetch2D(v, mem, x, y);
    EXPECT_EQ(got, unorm8Bilinear(t, wx, wy))
        << int(t[0][0]) << " " << int(t[0][1]) << " " << int(t[1][0]) << " "
        << int(t[1][1]) << " at " << wx << ", " << wy;
    // Near the exact blend of the normalized texels: a unit of 16 bits, and
    // the rounding of the product weight (half of 1/256) times the
    // footprint's cross term.
    double fx = wx / 256.0, fy = wy / 256.0;
    double exact = ((1 - fx) * (1 - fy) * t[0][0] + fx * (1 - fy) * t[0][1] +
                    (1 - fx) * fy * t[1][0] + fx * fy * t[1][1]) /
                   255;
    double cross = std::abs(int(t[0][0]) - t[0][1] - t[1][0] + t[1][1]) / 255.0;
    EXPECT_NEAR(got, exact, 1.01 / 65535 + cross * 0.5 / 256);
  }
}

TEST(TextureUnit, FloatLinearFilteringIsTheBilinearBlendOfRoundedWeights) {
  std::mt19937 random(13);
  std::uniform_real_distribution<float> value(-100, 100), frac(0, 1);
  for (int k = 0; k < 2000; ++k) {
    Bytes mem;
    mem.data.resize(16);
    float t[4];
    for (int i = 0; i < 4; ++i) {
      t[i] = value(random);
      std::memcpy(&mem.data[4 * i], &t[i], 4);
    }
    TextureView v = view2D(TexelFormat{}, 2, 2);
    v.filterMode = 1;
    float x = 0.5f + frac(random), y = 0.5f + frac(random);
    // 9-bit fixed point weights with 8 fractional bits.
    double fx = std::round((x - 0.5) * 256) / 256;
    double fy = std::round((y - 0.5) * 256) / 256;
    double want = (1 - fx) * (1 - fy) * t[0] + fx * (1 - fy) * t[1] +
                  (1 - fx) * fy * t[2] + fx * fy * t[3];
    EXPECT_NEAR(fetch2D(v, mem, x, y), want, 1e-4);
  }
}

TEST(TextureUnit, InstructionEncodingRoundTrips) {
  using T = TextureInstruction;
  for (int kind = 0; kind < 6; ++kind)
    for (int geometry = 0; geometry < 7; ++geometry)
      for (int lod = 0; lod < 3; ++lod)
        for (int clamp = 0; clamp < 3; ++clamp) {
          T t;
          t.kind = T::Kind(kind);
          t.geometry = T::Geometry(geometry);
          t.lod = T::Lod(lod);
          t.clamp = T::Clamp(clamp);
          t.result = T::Result((kind + geometry) % 3);
          t.floatCoords = (lod + clamp) % 2;
          t.component = uint8_t(geometry % 4);
          t.vector = uint8_t(1 << (kind % 3));
          t.elementBits = uint8_t(8 << (clamp % 4));
          t.query = T::Query((kind * 7 + geometry) % 14);
          t.queryLevel = kind % 2;
          T u = T::decode(t.encode());
          EXPECT_EQ(u.encode(), t.encode());
          EXPECT_EQ(int(u.kind), kind);
          EXPECT_EQ(int(u.geometry), geometry);
          EXPECT_EQ(u.elementBits, t.elementBits);
          EXPECT_EQ(int(u.query), int(t.query));
        }
}

} // namespace
} // namespace kcheck::sim
