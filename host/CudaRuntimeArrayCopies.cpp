// Copies between CUDA arrays and memory (CudaTextures.h): each is a 3D copy
// (entry::copy3D, which reads an array as its texels row by row), as a
// graph's copy node is too, so capture and graphs take them unchanged.
#include "host/CudaTextures.h"

#include "host/CudaGraph.h"

#include <vector>

namespace kcheck::host::entry {

namespace {

using texture::Array;
using texture::arrayOf;

// Copies between arrays and memory, each a 3D copy of pitched memory
// (copy3D) over the array's texels, as a graph's copy node is too.
cudaError_t arrayCopy(cudaMemcpy3DParms p, cudaStream_t stream, bool async) {
  if (async && capturing(stream))
    return capture(stream, graph::copyWork(p));
  return copy3D(p);
}

// A 2D region of an array in bytes, as pitched memory: its texels row by
// row. The H200 copies any whole number of bytes, not of elements (a 6-byte
// row of a float array, arrays of different element sizes), within the
// array's rows; past them is an invalid value.
bool region(cudaArray_const_t array, size_t wOffset, size_t hOffset,
            size_t width, size_t height, cudaPitchedPtr &out, cudaPos &pos) {
  Array *a = arrayOf(array);
  if (!a)
    return false;
  uint64_t rowBytes = a->width() * a->format.bytes();
  if (wOffset + width > rowBytes || hOffset + height > a->rows())
    return false;
  out = {reinterpret_cast<void *>(a->base), a->pitch, rowBytes, a->rows()};
  pos = {wOffset, hOffset, 0};
  return true;
}

cudaError_t toArray2D(cudaArray_t dst, size_t wOffset, size_t hOffset,
                      const void *src, size_t spitch, size_t width,
                      size_t height, cudaMemcpyKind kind, cudaStream_t stream,
                      bool async) {
  cudaMemcpy3DParms p{};
  if (!region(dst, wOffset, hOffset, width, height, p.dstPtr, p.dstPos) ||
      spitch < width)
    return fail(cudaErrorInvalidValue);
  p.srcPtr = {const_cast<void *>(src), spitch, width, height};
  p.extent = {width, height, 1};
  p.kind = kind;
  return arrayCopy(p, stream, async);
}

cudaError_t fromArray2D(void *dst, size_t dpitch, cudaArray_const_t src,
                        size_t wOffset, size_t hOffset, size_t width,
                        size_t height, cudaMemcpyKind kind, cudaStream_t stream,
                        bool async) {
  cudaMemcpy3DParms p{};
  if (!region(src, wOffset, hOffset, width, height, p.srcPtr, p.srcPos) ||
      dpitch < width)
    return fail(cudaErrorInvalidValue);
  p.dstPtr = {dst, dpitch, width, height};
  p.extent = {width, height, 1};
  p.kind = kind;
  return arrayCopy(p, stream, async);
}

cudaError_t apiMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset,
                               const void *src, size_t spitch, size_t width,
                               size_t height, cudaMemcpyKind kind) {
  return toArray2D(dst, wOffset, hOffset, src, spitch, width, height, kind,
                   nullptr, false);
}
cudaError_t apiMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset,
                                    size_t hOffset, const void *src,
                                    size_t spitch, size_t width, size_t height,
                                    cudaMemcpyKind kind, cudaStream_t stream) {
  return toArray2D(dst, wOffset, hOffset, src, spitch, width, height, kind,
                   stream, true);
}
cudaError_t apiMemcpy2DFromArray(void *dst, size_t dpitch,
                                 cudaArray_const_t src, size_t wOffset,
                                 size_t hOffset, size_t width, size_t height,
                                 cudaMemcpyKind kind) {
  return fromArray2D(dst, dpitch, src, wOffset, hOffset, width, height, kind,
                     nullptr, false);
}
cudaError_t apiMemcpy2DFromArrayAsync(void *dst, size_t dpitch,
                                      cudaArray_const_t src, size_t wOffset,
                                      size_t hOffset, size_t width,
                                      size_t height, cudaMemcpyKind kind,
                                      cudaStream_t stream) {
  return fromArray2D(dst, dpitch, src, wOffset, hOffset, width, height, kind,
                     stream, true);
}
cudaError_t apiMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst,
                                    size_t hOffsetDst, cudaArray_const_t src,
                                    size_t wOffsetSrc, size_t hOffsetSrc,
                                    size_t width, size_t height,
                                    cudaMemcpyKind) {
  cudaMemcpy3DParms p{};
  if (!region(src, wOffsetSrc, hOffsetSrc, width, height, p.srcPtr, p.srcPos) ||
      !region(dst, wOffsetDst, hOffsetDst, width, height, p.dstPtr, p.dstPos))
    return fail(cudaErrorInvalidValue);
  p.extent = {width, height, 1};
  p.kind = cudaMemcpyDeviceToDevice;
  return copy3D(p);
}

// The deprecated linear copies: `count` bytes from (wOffset, hOffset) on,
// row after row.
cudaError_t linearArrayCopy(Array *a, size_t wOffset, size_t hOffset,
                            size_t count, void *host, bool toArray,
                            cudaMemcpyKind kind, cudaStream_t stream = nullptr,
                            bool async = false) {
  if (!a)
    return fail(cudaErrorInvalidValue);
  uint64_t start = hOffset * a->pitch + wOffset;
  if (wOffset > a->pitch || start + count > a->slicePitch * a->slices())
    return fail(cudaErrorInvalidValue);
  void *arrayBytes = reinterpret_cast<void *>(a->base + start);
  if (kind == cudaMemcpyDefault)
    kind = toArray ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
  cudaMemcpy3DParms p{};
  p.srcPtr = {toArray ? host : arrayBytes, count, count, 1};
  p.dstPtr = {toArray ? arrayBytes : host, count, count, 1};
  p.extent = {count, 1, 1};
  p.kind = kind;
  return arrayCopy(p, stream, async);
}
cudaError_t apiMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset,
                             const void *src, size_t count,
                             cudaMemcpyKind kind) {
  return linearArrayCopy(arrayOf(dst), wOffset, hOffset, count,
                         const_cast<void *>(src), true, kind);
}
cudaError_t apiMemcpyToArrayAsync(cudaArray_t dst, size_t wOffset,
                                  size_t hOffset, const void *src, size_t count,
                                  cudaMemcpyKind kind, cudaStream_t stream) {
  return linearArrayCopy(arrayOf(dst), wOffset, hOffset, count,
                         const_cast<void *>(src), true, kind, stream, true);
}
cudaError_t apiMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset,
                               size_t hOffset, size_t count,
                               cudaMemcpyKind kind) {
  return linearArrayCopy(arrayOf(src), wOffset, hOffset, count, dst, false,
                         kind);
}
cudaError_t apiMemcpyFromArrayAsync(void *dst, cudaArray_const_t src,
                                    size_t wOffset, size_t hOffset,
                                    size_t count, cudaMemcpyKind kind,
                                    cudaStream_t stream) {
  return linearArrayCopy(arrayOf(src), wOffset, hOffset, count, dst, false,
                         kind, stream, true);
}
cudaError_t apiMemcpyArrayToArray(cudaArray_t dst, size_t wOffsetDst,
                                  size_t hOffsetDst, cudaArray_const_t src,
                                  size_t wOffsetSrc, size_t hOffsetSrc,
                                  size_t count, cudaMemcpyKind) {
  Array *s = arrayOf(src), *d = arrayOf(dst);
  if (!s || !d)
    return fail(cudaErrorInvalidValue);
  std::vector<uint8_t> bytes(count);
  if (cudaError_t e =
          linearArrayCopy(s, wOffsetSrc, hOffsetSrc, count, bytes.data(), false,
                          cudaMemcpyDeviceToHost))
    return e;
  return linearArrayCopy(d, wOffsetDst, hOffsetDst, count, bytes.data(), true,
                         cudaMemcpyHostToDevice);
}

} // namespace

EntryPoints arrayCopyEntryPoints() {
  return {
      {"cudaMemcpy2DToArray", serialized<apiMemcpy2DToArray>()},
      {"cudaMemcpy2DToArrayAsync", serialized<apiMemcpy2DToArrayAsync>()},
      {"cudaMemcpy2DFromArray", serialized<apiMemcpy2DFromArray>()},
      {"cudaMemcpy2DFromArrayAsync", serialized<apiMemcpy2DFromArrayAsync>()},
      {"cudaMemcpy2DArrayToArray", serialized<apiMemcpy2DArrayToArray>()},
      {"cudaMemcpyToArray", serialized<apiMemcpyToArray>()},
      {"cudaMemcpyToArrayAsync", serialized<apiMemcpyToArrayAsync>()},
      {"cudaMemcpyFromArray", serialized<apiMemcpyFromArray>()},
      {"cudaMemcpyFromArrayAsync", serialized<apiMemcpyFromArrayAsync>()},
      {"cudaMemcpyArrayToArray", serialized<apiMemcpyArrayToArray>()},
  };
}

} // namespace kcheck::host::entry
