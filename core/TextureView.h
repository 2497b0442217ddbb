// What a texture or surface object is to the device: a view of device
// memory (an array's texels, its mipmap levels, linear or pitched memory)
// with a texel format and the sampling state of cudaTextureDesc. Plain data,
// made by the CUDA runtime's rules (core/TextureRules.h) on either host path
// and read by the engine's texture unit (simulator/engine/TextureUnit.h),
// which documents the sampling rules and their sources.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace kcheck::core {

/// cudaChannelFormatDesc, reduced to what sampling needs.
struct TexelFormat {
  enum class Kind : uint8_t { Signed, Unsigned, Float };
  Kind kind = Kind::Float;
  unsigned channels = 1;
  unsigned bits = 32; // per channel (every channel alike)
  // The kind was one of cudaChannelFormatKind{Uns,S}ignedNormalized*: the
  // texture returns normalized floats whatever the read mode.
  bool normalizedKind = false;
  unsigned bytes() const { return channels * bits / 8; }
};

/// One mipmap level (level 0 for a plain array, linear or pitched memory).
struct TextureLevel {
  uint64_t base = 0;       // device address of texel (0, 0, 0)
  uint64_t pitch = 0;      // bytes between rows
  uint64_t slicePitch = 0; // bytes between 2D slices (3D depth, layers, faces)
  uint32_t width = 1, height = 1, depth = 1; // depth: 3D only
};

struct TextureView {
  enum class Resource : uint8_t { Array, MipmappedArray, Linear, Pitch2D };
  Resource resource = Resource::Array;
  TexelFormat format;
  std::vector<TextureLevel> levels; // at least one
  uint32_t layers = 0;              // layered: layer count; 0: not layered
  bool cubemap = false;             // 6 faces per layer, as slices
  // Sampling state (textures; cudaTextureDesc's values).
  std::array<uint8_t, 3> addressMode{};         // cudaTextureAddressMode
  uint8_t filterMode = 0, mipmapFilterMode = 0; // 0 point, 1 linear
  uint8_t readMode = 0; // 0 element type, 1 normalized float
  bool normalizedCoords = false, srgb = false;
  std::array<float, 4> borderColor{};
  float mipmapLevelBias = 0, minMipmapLevelClamp = 0, maxMipmapLevelClamp = 0;
};

} // namespace kcheck::core
