// A PTX texture or surface instruction (tex, tld4, txq, suld, sust, suq) as
// the IR pipeline lowers it (analyzer/ptx/PtxLowerTexture.cpp writes it, one
// 64-bit constant operand of a kcheck.texture.* call) and the engine executes
// it (simulator/engine/TextureUnit.h). No LLVM: fields only.
//
// The calls, as the pipeline declares them (every operand word is an i32;
// float coordinates are their bits):
//   <4 x i32> kcheck.texture.read(i64 desc, i64 handle, <4 x i32> coords,
//                                 <8 x i32> extra)    tex, tld4, suld, txq, suq
//   void kcheck.texture.write(i64 desc, i64 handle, <4 x i32> coords,
//                             <8 x i32> extra)        sust
// `coords` as PTX orders them (a layered geometry's layer first); `extra`:
// tex.level's level in word 0; tex.grad's dPdx in words 0-3 and dPdy in 4-7;
// sust's data in words 0-3 (a 64-bit element: low word first).
#pragma once

#include <cstdint>

namespace kcheck::core {

inline constexpr const char *kTextureReadFunction = "kcheck.texture.read";
inline constexpr const char *kTextureWriteFunction = "kcheck.texture.write";

struct TextureInstruction {
  enum class Kind : uint8_t { Tex, Tld4, Txq, Suld, Sust, Suq };
  // PTX's .1d .2d .3d .a1d .a2d .cube .acube (2dms/a2dms are excluded).
  enum class Geometry : uint8_t { D1, D2, D3, A1, A2, Cube, ACube };
  enum class Lod : uint8_t { None, Level, Grad };
  // tex's destination type (.f32, .s32, .u32); the texel's conversion is the
  // texture object's (format and read mode), as on the hardware.
  enum class Result : uint8_t { F32, S32, U32 };
  // suld/sust out-of-range handling.
  enum class Clamp : uint8_t { Trap, Clamp, Zero };
  // txq/suq: what is asked.
  enum class Query : uint8_t {
    Width,
    Height,
    Depth,
    ChannelDataType,
    ChannelOrder,
    NormalizedCoords,
    FilterMode,
    AddrMode0,
    AddrMode1,
    AddrMode2,
    ArraySize,
    NumMipmapLevels,
    NumSamples,
    MemoryLayout
  };

  Kind kind = Kind::Tex;
  Geometry geometry = Geometry::D1;
  Lod lod = Lod::None;
  Result result = Result::F32;
  bool floatCoords = true;  // .f32 coordinates (tex: else .s32)
  uint8_t component = 0;    // tld4: r g b a = 0..3
  uint8_t vector = 1;       // suld/sust: elements (1, 2, 4)
  uint8_t elementBits = 32; // suld/sust: .b8 .b16 .b32 .b64
  Clamp clamp = Clamp::Trap;
  Query query = Query::Width;
  bool queryLevel = false; // txq.level: of mipmap level extra[0]

  uint64_t encode() const {
    return uint64_t(kind) | uint64_t(geometry) << 4 | uint64_t(lod) << 8 |
           uint64_t(result) << 10 | uint64_t(floatCoords) << 12 |
           uint64_t(component) << 13 | uint64_t(vector) << 16 |
           uint64_t(elementBits) << 24 | uint64_t(clamp) << 32 |
           uint64_t(query) << 36 | uint64_t(queryLevel) << 44;
  }
  static TextureInstruction decode(uint64_t v) {
    TextureInstruction t;
    t.kind = Kind(v & 15);
    t.geometry = Geometry(v >> 4 & 15);
    t.lod = Lod(v >> 8 & 3);
    t.result = Result(v >> 10 & 3);
    t.floatCoords = v >> 12 & 1;
    t.component = uint8_t(v >> 13 & 7);
    t.vector = uint8_t(v >> 16);
    t.elementBits = uint8_t(v >> 24);
    t.clamp = Clamp(v >> 32 & 15);
    t.query = Query(v >> 36 & 255);
    t.queryLevel = v >> 44 & 1;
    return t;
  }
  bool writes() const { return kind == Kind::Sust; }
};

/// Coordinates a geometry takes (PTX's vector: a1d {layer, x}, a2d {layer,
/// x, y}; cube {x, y, z}; acube {layer, x, y, z}).
inline unsigned textureCoordinates(TextureInstruction::Geometry g) {
  using G = TextureInstruction::Geometry;
  switch (g) {
  case G::D1:
    return 1;
  case G::D2:
  case G::A1:
    return 2;
  case G::D3:
  case G::A2:
  case G::Cube:
    return 3;
  case G::ACube:
    return 4;
  }
  return 0;
}

} // namespace kcheck::core
