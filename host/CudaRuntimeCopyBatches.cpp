// kcheck's CUDA runtime, batched copies: cudaMemcpyBatchAsync (pointer to
// pointer) and cudaMemcpy3DBatchAsync (pointers and CUDA arrays), from the
// Runtime API reference. A batch's copies are unordered among themselves, so
// copying them one after the other is one of the orders the GPU may take;
// the batch is checked whole before any copy (a malformed one copies
// nothing). The statuses of malformed batches are the H200's
// (docs/validation/data/h200-memory_batches.txt): each an invalid value,
// among them the legacy NULL stream and a copy of 0 bytes. Attributes' access
// orders and location hints decide when the GPU reads the source, which is
// at the call here: every order is the stream's.
#include "host/CudaGraph.h"

namespace kcheck::host::entry {

namespace {

// cudaMemcpyAttributes, cudaMemcpy3DOperand and cudaMemcpy3DBatchOp as
// driver_types.h lays them out.
struct CopyAttributesAbi {
  int srcAccessOrder; // cudaMemcpySrcAccessOrder: 1 stream, 2 during the
                      // call, 3 any
  MemLocationAbi srcLocHint, dstLocHint;
  unsigned flags; // cudaMemcpyFlagPreferOverlapWithCompute (1) only
};
struct Operand3DAbi {
  int type; // cudaMemcpyOperandType: 1 pointer, 2 array
  union {
    struct {
      void *ptr;
      size_t rowLength, layerHeight; // elements; 0: packed
      MemLocationAbi locHint;
    } ptr;
    struct {
      cudaArray_t array;
      size_t x, y, z; // cudaOffset3D, elements
    } array;
  } op;
};
struct BatchOp3DAbi {
  Operand3DAbi src, dst;
  cudaExtent extent;
  int srcAccessOrder;
  unsigned flags;
};

bool orderOk(int order, unsigned flags) {
  return order >= 1 && order <= 3 && (flags & ~1u) == 0;
}
bool batchStreamOk(cudaStream_t s) { // not the legacy NULL stream
  return s != nullptr && s != reinterpret_cast<cudaStream_t>(1);
}
// A side of a copy: host memory, or n bytes inside one device allocation (an
// address inside one whose bytes run past it is refused, never copied).
bool sideOk(const void *p, size_t n) {
  if (!p)
    return false;
  const sim::DeviceMemory &m = rt().device().memory();
  uint64_t a = reinterpret_cast<uint64_t>(p);
  return !m.find(a, 1) || m.find(a, n);
}

// One copy as cudaMemcpy3D takes it, or capture takes it.
cudaError_t perform(const cudaMemcpy3DParms &p, cudaStream_t stream) {
  if (capturing(stream))
    return capture(stream, graph::copyWork(p));
  return copy3D(p);
}

cudaError_t apiMemcpyBatchAsync(void *const *dsts, const void *const *srcs,
                                const size_t *sizes, size_t count,
                                CopyAttributesAbi *attrs, size_t *idx,
                                size_t numAttrs, cudaStream_t stream) {
  if (cudaError_t e = sticky())
    return e;
  if (!dsts || !srcs || !sizes || !count || !attrs || !idx || numAttrs == 0 ||
      numAttrs > count || idx[0] != 0 || !batchStreamOk(stream))
    return fail(cudaErrorInvalidValue);
  for (size_t k = 1; k < numAttrs; ++k)
    if (idx[k] <= idx[k - 1] || idx[k] >= count)
      return fail(cudaErrorInvalidValue);
  for (size_t k = 0; k < numAttrs; ++k)
    if (!orderOk(attrs[k].srcAccessOrder, attrs[k].flags))
      return fail(cudaErrorInvalidValue);
  for (size_t i = 0; i < count; ++i)
    if (!sizes[i] || !sideOk(dsts[i], sizes[i]) || !sideOk(srcs[i], sizes[i]))
      return fail(cudaErrorInvalidValue);
  for (size_t i = 0; i < count; ++i) {
    cudaMemcpy3DParms p = {};
    p.srcPtr = {const_cast<void *>(srcs[i]), sizes[i], sizes[i], 1};
    p.dstPtr = {dsts[i], sizes[i], sizes[i], 1};
    p.extent = {sizes[i], 1, 1};
    p.kind = cudaMemcpyDefault;
    if (cudaError_t e = perform(p, stream))
      return e;
  }
  return cudaSuccess;
}

// An operand as cudaMemcpy3D's side of a copy of `e` (in elements of
// `element` bytes); false where the reference refuses it.
bool operand(const Operand3DAbi &o, const cudaExtent &e, uint64_t element,
             cudaArray_t &array, cudaPos &pos, cudaPitchedPtr &ptr) {
  if (o.type == 1) {
    const auto &p = o.op.ptr;
    if ((p.rowLength && p.rowLength < e.width) ||
        (p.layerHeight && p.layerHeight < e.height))
      return false;
    size_t row = p.rowLength ? p.rowLength : e.width;
    size_t layer = p.layerHeight ? p.layerHeight : e.height;
    size_t span = ((e.depth - 1) * layer + (e.height - 1)) * row + e.width;
    if (!sideOk(p.ptr, span * element))
      return false;
    ptr = {p.ptr, row * element, e.width * element, layer};
    return true;
  }
  if (o.type == 2) {
    cudaPitchedPtr pitched;
    uint64_t bytes = 0;
    cudaExtent size;
    const auto &a = o.op.array;
    if (!arrayAsPitched(a.array, pitched, bytes, size) || bytes != element ||
        a.x + e.width > size.width ||
        a.y + e.height > std::max<size_t>(size.height, 1) ||
        a.z + e.depth > std::max<size_t>(size.depth, 1))
      return false;
    array = a.array;
    pos = {a.x, a.y, a.z};
    return true;
  }
  return false;
}
// The element size of an op: the arrays' (which must agree), else 1.
uint64_t elementBytes(const BatchOp3DAbi &op) {
  uint64_t element = 0;
  for (const Operand3DAbi *o : {&op.src, &op.dst}) {
    cudaPitchedPtr pitched;
    uint64_t bytes = 0;
    cudaExtent size;
    if (o->type != 2)
      continue;
    if (!arrayAsPitched(o->op.array.array, pitched, bytes, size) ||
        (element && element != bytes))
      return 0;
    element = bytes;
  }
  return element ? element : 1;
}

cudaError_t apiMemcpy3DBatchAsync(size_t count, BatchOp3DAbi *ops,
                                  unsigned long long flags,
                                  cudaStream_t stream) {
  if (cudaError_t e = sticky())
    return e;
  if (!count || !ops || flags || !batchStreamOk(stream))
    return fail(cudaErrorInvalidValue);
  std::vector<cudaMemcpy3DParms> copies(count);
  for (size_t i = 0; i < count; ++i) {
    const BatchOp3DAbi &op = ops[i];
    const cudaExtent &e = op.extent;
    uint64_t element = elementBytes(op);
    cudaMemcpy3DParms &p = copies[i];
    p = {};
    if (!e.width || !e.height || !e.depth || !element ||
        !orderOk(op.srcAccessOrder, op.flags) ||
        !operand(op.src, e, element, p.srcArray, p.srcPos, p.srcPtr) ||
        !operand(op.dst, e, element, p.dstArray, p.dstPos, p.dstPtr))
      return fail(cudaErrorInvalidValue);
    // cudaMemcpy3D counts an array copy's width in elements, a linear one's
    // in bytes (element 1).
    p.extent = e;
    p.kind = cudaMemcpyDefault;
  }
  for (const cudaMemcpy3DParms &p : copies)
    if (cudaError_t e = perform(p, stream))
      return e;
  return cudaSuccess;
}

} // namespace

EntryPoints copyBatchEntryPoints() {
  return {
      {"cudaMemcpyBatchAsync", serialized<apiMemcpyBatchAsync>()},
      {"cudaMemcpy3DBatchAsync", serialized<apiMemcpy3DBatchAsync>()},
  };
}

} // namespace kcheck::host::entry
