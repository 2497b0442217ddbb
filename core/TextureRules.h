// What the CUDA runtime makes of a texture's descriptors, whichever side
// asks: the simulated host runtime (host/CudaRuntimeTexture*.cpp), which
// holds real cudaArrays, and the static host evaluator
// (analyzer/host/HostEvaluatorTextures.cpp), which follows the calls
// without running them. One set of rules, so that both paths accept the
// same arrays and objects, lay an array out alike and sample the same view.
//
// Sources: the runtime API's documentation of cudaMallocArray,
// cudaMalloc3DArray, cudaCreateTextureObject, cudaCreateSurfaceObject and
// cudaResourceViewDesc; where it is silent, what the H200 answers
// (tests/conformance/programs/textures.cu and arrays.cu,
// docs/validation/data/h200-textures.txt). An array's texels lie row by row
// (core/TextureView.h): its layout on the GPU is opaque to programs.
#pragma once

#include "core/CudaErrors.h"
#include "core/TextureView.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace kcheck::core::textures {

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

/// cudaExtent.
struct Extent {
  size_t width = 0, height = 0, depth = 0;
};

// cudaArray* flags (driver_types.h).
constexpr unsigned kArrayLayered = 1, kArraySurfaceLoadStore = 2,
                   kArrayCubemap = 4, kArrayTextureGather = 8,
                   kArraySparse = 0x40, kArrayDeferredMapping = 0x80;
// textureAlignment is 512 bytes, which the GPU's cudaMalloc gives every
// allocation; kcheck's simulated device memory aligns every allocation to
// 256 bytes (sim::DeviceMemory::kAlignment), so that is what a texture's
// base must meet here.
constexpr uint64_t kTextureAlignment = 256, kTexturePitchAlignment = 32;

/// What a call answers: an error code, or a construct kcheck does not
/// simulate (`unsupported` names it; the caller stops or notes it).
struct Answer {
  CudaError error = CudaError::cudaSuccess;
  std::string unsupported;
  bool ok() const {
    return error == CudaError::cudaSuccess && unsupported.empty();
  }
};

/// A CUDA array (or one level of a mipmapped array) as made: its
/// descriptor, extent as given (0 height or depth for 1D and 2D), flags and
/// row-by-row layout, `bytes` in all.
struct ArrayShape {
  ChannelFormatDesc desc{};
  TexelFormat format;
  Extent extent;
  unsigned flags = 0;
  uint64_t pitch = 0, slicePitch = 0, bytes = 0;
  size_t width() const { return extent.width; }
  size_t rows() const { return extent.height ? extent.height : 1; }
  size_t slices() const { return extent.depth ? extent.depth : 1; }
};

/// The texel format of a channel descriptor, or the error the runtime
/// gives (cudaErrorInvalidChannelDescriptor for one no array can have).
Answer formatOf(const ChannelFormatDesc &d, TexelFormat &out);

/// cudaMalloc3DArray's checks and layout of an array of `extent` and
/// `flags` (cudaMallocArray's are those of a depth of 0 and no layered or
/// cubemap flag, which it refuses itself).
Answer arrayShape(const ChannelFormatDesc &desc, Extent extent, unsigned flags,
                  ArrayShape &out);

/// The levels cudaMallocMipmappedArray makes of `extent`, or an error.
Answer mipmapLevelExtents(Extent extent, unsigned numLevels, unsigned flags,
                          std::vector<Extent> &out);

/// An array as a resource descriptor names it: its shape and where its
/// texels start on the device.
struct PlacedArray {
  const ArrayShape *shape = nullptr;
  uint64_t base = 0;
};
/// How the caller finds the arrays a descriptor's handles name: nullopt for
/// a handle that is not a live array (mipmapped array: its levels).
struct ArrayLookup {
  std::function<std::optional<PlacedArray>(const void *)> array;
  std::function<std::optional<std::vector<PlacedArray>>(const void *)> mipmap;
};

/// cudaCreateTextureObject's view of `resource` sampled as `texture`
/// describes, through `view` if given.
Answer textureView(const ResourceDesc &resource, const TextureDesc &texture,
                   const ResourceViewDesc *view, const ArrayLookup &arrays,
                   TextureView &out);
/// cudaCreateSurfaceObject's view of `resource` (an array).
Answer surfaceView(const ResourceDesc &resource, const ArrayLookup &arrays,
                   TextureView &out);

} // namespace kcheck::core::textures
