// Texture and surface objects (CudaTextures.h): each a view of an array, a
// mipmapped array, or linear or pitched memory, with a texture's sampling
// state, that the texture unit samples (simulator/engine/TextureUnit.h).
// Errors are those the CUDA runtime documents for each call; what the H200
// answers where the documentation is silent is checked by
// tests/conformance/programs/textures.cu and arrays.cu.
#include "host/CudaTextures.h"

namespace kcheck::host::entry {

namespace {

using namespace texture;

cudaError_t apiCreateTextureObject(unsigned long long *object,
                                   const ResourceDesc *resource,
                                   const TextureDesc *tex,
                                   const ResourceViewDesc *view) {
  if (cudaError_t e = sticky())
    return e;
  if (!object || !resource || !tex)
    return fail(cudaErrorInvalidValue);
  sim::TextureView v;
  if (cudaError_t e =
          answer(textureView(*resource, *tex, view, arrayLookup(), v)))
    return e;
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
  if (cudaError_t e = answer(surfaceView(*resource, arrayLookup(), v)))
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
