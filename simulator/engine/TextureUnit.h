// Textures and surfaces as the device sees them: the objects the runtime
// creates (cudaCreateTextureObject, cudaCreateSurfaceObject), each a view of
// device memory with a texel format and sampling state, and the texture
// unit's functions that execute one lane of a tex / tld4 / suld / sust
// instruction (core/TextureInstruction.h) on such a view.
//
// Storage. A CUDA array's layout on the GPU is opaque (block-linear); here
// its texels lie row by row in a DeviceMemory allocation (level by level for
// a mipmapped array; layers and cubemap faces as 2D slices), which no program
// can observe: arrays are reached only through copies, textures and surfaces.
//
// Rules and their sources:
// - addressing, point and linear filtering, normalized coordinates, address
//   modes, read modes, sRGB, cubemap face selection, gather order: the CUDA
//   C++ Programming Guide, "Texture Fetching" (linear filtering's weights are
//   9-bit fixed point with 8 fractional bits) and the PTX ISA 9.0, "Texture
//   Instructions" (tld4's order: (i,j+1) (i+1,j+1) (i+1,j) (i,j));
// - a channel the format lacks reads as 0 (w too, and the border colour's
//   too), mipmap levels blend by a weight truncated to 8 fractional bits:
//   measured on the H200 (tests/conformance/programs/textures.cu,
//   docs/validation/data/h200-textures.txt);
// - 8- and 16-bit normalized texels filter in 16-bit fixed point, sRGB
//   converts by the H200's table (SrgbTable.def), a mipmapped array's
//   coordinates are normalized: measured on the H200
//   (tests/conformance/programs/texture_filtering.cu and arrays.cu).
// Counters: texture and surface instructions run on the texture pipeline
// (SASS TEX/TLD4/SULD/SUST), which no ld/st metric counts; kcheck does not
// model its own counters, and says so per launch.
#pragma once

#include "core/TextureInstruction.h"
#include "core/TextureView.h"

#include <array>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace kcheck::sim {

/// The memory a texture instruction reads and writes (the engine's view of
/// global memory: its store buffer included). read() returns whether a byte
/// read is input-derived.
class TexelMemory {
public:
  virtual ~TexelMemory() = default;
  virtual bool valid(uint64_t addr, uint64_t n) const = 0;
  virtual bool read(uint64_t addr, void *dst, uint64_t n) = 0;
  virtual void write(uint64_t addr, const void *src, uint64_t n) = 0;
};

// The objects' plain data (core/TextureView.h): both host paths make it.
using core::TexelFormat;
using core::TextureLevel;
using core::TextureView;

/// The texture and surface objects of a device, by handle. Written by the
/// runtime between launches, read by blocks on several threads.
class TextureObjects {
public:
  /// A new handle for `view` (handles are never 0, never reused).
  uint64_t create(TextureView view, bool surface);
  bool destroy(uint64_t handle, bool surface);
  /// The view of texture (or surface) `handle`, or null.
  const TextureView *find(uint64_t handle, bool surface) const;
  /// How many objects were made and destroyed so far: a launch that reads
  /// textures repeats an earlier one only where it has not changed
  /// (RepeatedLaunches.h).
  uint64_t generation() const;

private:
  mutable std::mutex mutex_;
  std::map<uint64_t, std::pair<TextureView, bool>> objects_;
  uint64_t next_ = 1;
  uint64_t generation_ = 0;
};

/// One lane's instruction: `coords` and `extra` as the instruction's words
/// (core/TextureInstruction.h). Returns the four destination words, or an
/// error: a surface access out of range in .trap mode, a view the
/// instruction cannot read.
struct TextureResult {
  std::array<uint32_t, 4> words{};
  bool tainted = false; // a texel read was input-derived
  std::string error;    // "" when it executed
};
TextureResult executeTexture(const core::TextureInstruction &inst,
                             const TextureView &view,
                             const std::array<uint32_t, 4> &coords,
                             const std::array<uint32_t, 8> &extra,
                             TexelMemory &memory);

} // namespace kcheck::sim
