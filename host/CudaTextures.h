// kcheck's CUDA arrays and the records of texture and surface objects
// (internal to host/): what CudaRuntimeTextures.cpp keeps for the
// runtime's queries. The device side of an object, the view the texture
// unit samples, is in DeviceMemory::textures (simulator/engine/
// TextureUnit.h).
#pragma once

#include "core/TextureRules.h"
#include "host/CudaRuntimeEntry.h"
#include "simulator/engine/DeviceMemory.h"
#include "simulator/engine/TextureUnit.h"

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <string>

namespace kcheck::host::texture {

// The descriptors as texture_types.h and driver_types.h lay them out, and
// the runtime's rules for them (core/TextureRules.h, shared with the static
// host evaluator).
using core::textures::ChannelFormatDesc;
using core::textures::ResourceDesc;
using core::textures::ResourceViewDesc;
using core::textures::TextureDesc;
using namespace core::textures; // kArray* flags, kTexture*Alignment

/// A CUDA array (cudaArray_t points at one), or a level of a mipmapped
/// array. Texels row by row from `base` (TextureUnit.h: the layout is
/// kcheck's own).
struct Array : ArrayShape {
  uint64_t base = 0;
  bool freed = false;
  bool isLevel = false; // of a mipmapped array: freed with it
};

struct MipmappedArray {
  ChannelFormatDesc desc{};
  cudaExtent extent{};
  unsigned flags = 0;
  std::vector<Array *> levels;
  bool freed = false;
};

struct Object {
  ResourceDesc resource{};
  TextureDesc texture{};
  ResourceViewDesc view{};
  bool hasView = false;
  bool surface = false;
};

struct State {
  std::deque<Array> arrays; // handles are pointers to elements
  std::deque<MipmappedArray> mipmaps;
  std::map<uint64_t, Object> objects; // by handle
};

static_assert(kTextureAlignment == sim::DeviceMemory::kAlignment,
              "a texture's base is checked against the simulated alignment");

/// The runtime's texture state, made on first use.
State &state();
/// A live array (mipmapped array) of the runtime, or null.
Array *arrayOf(const void *handle);
MipmappedArray *mipmapOf(const void *handle);
/// cudaSuccess, or `a`'s error recorded as the last error (a construct
/// the runtime does not simulate stops the run, naming it).
cudaError_t answer(const Answer &a);
/// How the shared rules find this runtime's arrays.
ArrayLookup arrayLookup();
/// A construct the simulated runtime does not have: the run stops, naming
/// it.
[[noreturn]] void stopUnsupported(std::string what);

} // namespace kcheck::host::texture
