// kcheck's CUDA arrays and the records of texture and surface objects
// (internal to host/): what CudaRuntimeTextures.cpp keeps for the
// runtime's queries. The device side of an object, the view the texture
// unit samples, is in DeviceMemory::textures (simulator/engine/
// TextureUnit.h).
#pragma once

#include "host/CudaRuntimeEntry.h"
#include "simulator/engine/DeviceMemory.h"
#include "simulator/engine/TextureUnit.h"

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <string>

namespace kcheck::host::texture {

/// cudaChannelFormatDesc, cudaResourceDesc, cudaTextureDesc and
/// cudaResourceViewDesc as texture_types.h and driver_types.h lay them out.
struct ChannelFormatDesc {
  int x, y, z, w;
  int f; // cudaChannelFormatKind
};
struct ResourceDesc {
  int resType; // cudaResourceType: array, mipmapped array, linear, pitch2D
  union {
    struct {
      void *array;
    } array;
    struct {
      void *mipmap;
    } mipmap;
    struct {
      void *devPtr;
      ChannelFormatDesc desc;
      size_t sizeInBytes;
    } linear;
    struct {
      void *devPtr;
      ChannelFormatDesc desc;
      size_t width, height, pitchInBytes;
    } pitch2D;
    int reserved[32];
  } res;
  unsigned flags;
};
struct TextureDesc {
  int addressMode[3];
  int filterMode, readMode, sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned maxAnisotropy;
  int mipmapFilterMode;
  float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
  int disableTrilinearOptimization, seamlessCubemap;
};
struct ResourceViewDesc {
  int format;
  size_t width, height, depth;
  unsigned firstMipmapLevel, lastMipmapLevel, firstLayer, lastLayer;
  unsigned reserved[16];
};
static_assert(sizeof(ChannelFormatDesc) == 20 && sizeof(ResourceDesc) == 144 &&
              sizeof(TextureDesc) == 72 && sizeof(ResourceViewDesc) == 112);

/// A CUDA array (cudaArray_t points at one), or a level of a mipmapped
/// array. Texels row by row from `base` (TextureUnit.h: the layout is
/// kcheck's own).
struct Array {
  ChannelFormatDesc desc{};
  sim::TexelFormat format;
  cudaExtent extent{}; // as given: 0 height or depth for 1D and 2D
  unsigned flags = 0;
  uint64_t base = 0, pitch = 0, slicePitch = 0;
  bool freed = false;
  bool isLevel = false; // of a mipmapped array: freed with it
  size_t width() const { return extent.width; }
  size_t rows() const { return extent.height ? extent.height : 1; }
  size_t slices() const { return extent.depth ? extent.depth : 1; }
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

// cudaArray* flags (driver_types.h).
constexpr unsigned kArrayLayered = 1, kArraySurfaceLoadStore = 2,
                   kArrayCubemap = 4, kArrayTextureGather = 8,
                   kArraySparse = 0x40, kArrayDeferredMapping = 0x80;
// textureAlignment is 512 bytes, which the GPU's cudaMalloc gives every
// allocation; the simulated one aligns to DeviceMemory::kAlignment (256),
// so that is what a texture's base must meet here.
constexpr uint64_t kTextureAlignment = sim::DeviceMemory::kAlignment,
                   kTexturePitchAlignment = 32;

/// The runtime's texture state, made on first use.
State &state();
/// A live array (mipmapped array) of the runtime, or null.
Array *arrayOf(const void *handle);
MipmappedArray *mipmapOf(const void *handle);
/// The texel format of a channel descriptor, or the error the runtime
/// gives (cudaErrorInvalidChannelDescriptor for one no array can have).
cudaError_t formatOf(const ChannelFormatDesc &d, sim::TexelFormat &out);
/// A construct the simulated runtime does not have: the run stops, naming
/// it.
[[noreturn]] void stopUnsupported(std::string what);

} // namespace kcheck::host::texture
