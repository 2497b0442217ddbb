// Conformance program for batched copies, prefetches and discards
// (cudaMemcpyBatchAsync, cudaMemcpy3DBatchAsync, cudaMemPrefetchBatchAsync,
// cudaMemDiscardBatchAsync, cudaMemDiscardAndPrefetchBatchAsync) and for
// managed-memory advice read back as range attributes (cudaMemAdvise,
// cudaMemPrefetchAsync, cudaMemRangeGetAttribute(s)), written from the
// Runtime API reference: copied bytes and the attributes the reference
// defines are checked; the status of each call the reference leaves open
// (which error a malformed batch gets, whether advice on cudaMalloc memory
// is refused) is printed as a `probe` line.
#include "conformance_checks.h"

#include <cstring>
#include <vector>

__global__ void bump(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] += 1;
}

static cudaMemLocation device0() {
  cudaMemLocation l;
  l.type = cudaMemLocationTypeDevice;
  l.id = 0;
  return l;
}
static cudaMemLocation host() {
  cudaMemLocation l;
  l.type = cudaMemLocationTypeHost;
  l.id = 0;
  return l;
}

static int attribute(cudaMemRangeAttribute a, const void *p, size_t n,
                     cudaError_t *status = nullptr) {
  int v = 12345;
  cudaError_t e = cudaMemRangeGetAttribute(&v, sizeof v, a, p, n);
  if (status)
    *status = e;
  cudaGetLastError();
  return e == cudaSuccess ? v : -100 - int(e);
}

static void rangeAttributes() {
  const size_t size = 1 << 20;
  char *m = nullptr;
  OK(cudaMallocManaged(&m, size));
  std::memset(m, 1, size);
  typedef cudaMemRangeAttribute A;
  // Nothing advised yet.
  CHECK(attribute(cudaMemRangeAttributeReadMostly, m, size) == 0,
        "not read-mostly before advice");
  CHECK(attribute(cudaMemRangeAttributePreferredLocation, m, size) ==
            cudaInvalidDeviceId,
        "no preferred location before advice");
  CHECK(attribute(cudaMemRangeAttributePreferredLocationType, m, size) ==
            cudaMemLocationTypeInvalid,
        "no preferred location type before advice");
  std::printf("probe fresh_last_prefetch %d\n",
              attribute(cudaMemRangeAttributeLastPrefetchLocation, m, size));
  std::printf(
      "probe fresh_last_prefetch_type %d\n",
      attribute(cudaMemRangeAttributeLastPrefetchLocationType, m, size));
  std::printf("probe fresh_preferred_id %d\n",
              attribute(cudaMemRangeAttributePreferredLocationId, m, size));
  {
    int by[4] = {7, 7, 7, 7};
    OK(cudaMemRangeGetAttribute(by, sizeof by, cudaMemRangeAttributeAccessedBy,
                                m, size));
    CHECK(by[0] == cudaInvalidDeviceId && by[3] == cudaInvalidDeviceId,
          "accessed by nobody before advice");
  }

  // Read-mostly on the whole range, then undone on its second half.
  OK(cudaMemAdvise(m, size, cudaMemAdviseSetReadMostly, device0()));
  CHECK(attribute(cudaMemRangeAttributeReadMostly, m, size) == 1,
        "read-mostly after advice");
  OK(cudaMemAdvise(m + size / 2, size / 2, cudaMemAdviseUnsetReadMostly,
                   device0()));
  CHECK(attribute(cudaMemRangeAttributeReadMostly, m, size) == 0,
        "read-mostly only where every page is");
  CHECK(attribute(cudaMemRangeAttributeReadMostly, m, size / 2) == 1,
        "the first half stays read-mostly");
  // Page granularity: advice on 100 bytes, read back on 100 and on 64 KB.
  OK(cudaMemAdvise(m + size / 2, 100, cudaMemAdviseSetReadMostly, device0()));
  std::printf("probe read_mostly_100_bytes %d\n",
              attribute(cudaMemRangeAttributeReadMostly, m + size / 2, 100));
  for (size_t span : {size_t(4096), size_t(65536), size_t(2 << 20)})
    if (span <= size / 2)
      std::printf(
          "probe read_mostly_after_100_bytes_%zu %d\n", span,
          attribute(cudaMemRangeAttributeReadMostly, m + size / 2, span));
  std::printf(
      "probe read_mostly_next_4k %d\n",
      attribute(cudaMemRangeAttributeReadMostly, m + size / 2 + 4096, 4096));

  // Preferred location: the device, then the host, on parts of the range.
  OK(cudaMemAdvise(m, size, cudaMemAdviseSetPreferredLocation, device0()));
  CHECK(attribute(cudaMemRangeAttributePreferredLocation, m, size) == 0,
        "preferred location device 0");
  CHECK(attribute(cudaMemRangeAttributePreferredLocationType, m, size) ==
            cudaMemLocationTypeDevice,
        "preferred location type device");
  CHECK(attribute(cudaMemRangeAttributePreferredLocationId, m, size) == 0,
        "preferred location id 0");
  OK(cudaMemAdvise(m, size / 4, cudaMemAdviseSetPreferredLocation, host()));
  CHECK(attribute(cudaMemRangeAttributePreferredLocation, m, size / 4) ==
            cudaCpuDeviceId,
        "preferred location the host");
  CHECK(attribute(cudaMemRangeAttributePreferredLocationType, m, size / 4) ==
            cudaMemLocationTypeHost,
        "preferred location type host");
  CHECK(attribute(cudaMemRangeAttributePreferredLocation, m, size) ==
            cudaInvalidDeviceId,
        "mixed preferred locations read as none");
  std::printf("probe mixed_preferred_type %d\n",
              attribute(cudaMemRangeAttributePreferredLocationType, m, size));
  std::printf("probe host_preferred_id %d\n",
              attribute(cudaMemRangeAttributePreferredLocationId, m, size / 4));
  OK(cudaMemAdvise(m, size, cudaMemAdviseUnsetPreferredLocation, device0()));
  CHECK(attribute(cudaMemRangeAttributePreferredLocation, m, size) ==
            cudaInvalidDeviceId,
        "preferred location unset");

  // Accessed by device 0 on the first half.
  OK(cudaMemAdvise(m, size / 2, cudaMemAdviseSetAccessedBy, device0()));
  {
    int by[3] = {7, 7, 7};
    OK(cudaMemRangeGetAttribute(by, sizeof by, cudaMemRangeAttributeAccessedBy,
                                m, size / 2));
    CHECK(by[0] == 0 && by[1] == cudaInvalidDeviceId &&
              by[2] == cudaInvalidDeviceId,
          "accessed by device 0");
    OK(cudaMemRangeGetAttribute(by, sizeof by, cudaMemRangeAttributeAccessedBy,
                                m, size));
    CHECK(by[0] == cudaInvalidDeviceId, "accessed by 0 on half the range only");
    OK(cudaMemAdvise(m, size / 2, cudaMemAdviseSetAccessedBy, host()));
    OK(cudaMemRangeGetAttribute(by, sizeof by, cudaMemRangeAttributeAccessedBy,
                                m, size / 2));
    std::printf("probe accessed_by_device_and_host %d %d %d\n", by[0], by[1],
                by[2]);
    OK(cudaMemAdvise(m, size / 2, cudaMemAdviseUnsetAccessedBy, device0()));
    OK(cudaMemAdvise(m, size / 2, cudaMemAdviseUnsetAccessedBy, host()));
    OK(cudaMemRangeGetAttribute(by, sizeof by, cudaMemRangeAttributeAccessedBy,
                                m, size / 2));
    CHECK(by[0] == cudaInvalidDeviceId, "accessed-by unset");
  }

  // Prefetches: the last location, by range.
  OK(cudaMemPrefetchAsync(m, size, device0(), 0, 0));
  OK(cudaDeviceSynchronize());
  CHECK(attribute(cudaMemRangeAttributeLastPrefetchLocation, m, size) == 0,
        "prefetched to device 0");
  CHECK(attribute(cudaMemRangeAttributeLastPrefetchLocationType, m, size) ==
            cudaMemLocationTypeDevice,
        "prefetched to a device");
  CHECK(attribute(cudaMemRangeAttributeLastPrefetchLocationId, m, size) == 0,
        "prefetched to id 0");
  OK(cudaMemPrefetchAsync(m, size / 2, host(), 0, 0));
  OK(cudaDeviceSynchronize());
  CHECK(attribute(cudaMemRangeAttributeLastPrefetchLocation, m, size / 2) ==
            cudaCpuDeviceId,
        "prefetched to the host");
  CHECK(attribute(cudaMemRangeAttributeLastPrefetchLocation, m, size) ==
            cudaInvalidDeviceId,
        "prefetched to two places reads as none");
  std::printf(
      "probe mixed_prefetch_type %d\n",
      attribute(cudaMemRangeAttributeLastPrefetchLocationType, m, size));

  // Several attributes at once.
  {
    int readMostly = -1, preferred = -1, last = -1, by[2] = {-1, -1};
    void *data[] = {&readMostly, &preferred, &last, by};
    size_t sizes[] = {4, 4, 4, 8};
    cudaMemRangeAttribute attrs[] = {cudaMemRangeAttributeReadMostly,
                                     cudaMemRangeAttributePreferredLocation,
                                     cudaMemRangeAttributeLastPrefetchLocation,
                                     cudaMemRangeAttributeAccessedBy};
    OK(cudaMemRangeGetAttributes(data, sizes, attrs, 4, m, size / 2));
    CHECK(readMostly == 1 && preferred == cudaInvalidDeviceId &&
              last == cudaCpuDeviceId && by[0] == cudaInvalidDeviceId,
          "cudaMemRangeGetAttributes reads each");
    PROBE_ERROR("attributes_zero",
                cudaMemRangeGetAttributes(data, sizes, attrs, 0, m, size));
  }

  // What the reference leaves open: malformed queries and other memory.
  int v = 0;
  PROBE_ERROR("attribute_size_8",
              cudaMemRangeGetAttribute(&v, 8, cudaMemRangeAttributeReadMostly,
                                       m, size));
  PROBE_ERROR("attribute_size_2",
              cudaMemRangeGetAttribute(&v, 2, cudaMemRangeAttributeReadMostly,
                                       m, size));
  PROBE_ERROR(
      "attribute_count_0",
      cudaMemRangeGetAttribute(&v, 4, cudaMemRangeAttributeReadMostly, m, 0));
  PROBE_ERROR("attribute_99", cudaMemRangeGetAttribute(
                                  &v, 4, cudaMemRangeAttribute(99), m, size));
  PROBE_ERROR("attribute_past_end",
              cudaMemRangeGetAttribute(&v, 4, cudaMemRangeAttributeReadMostly,
                                       m, size + 4096));
  PROBE_ERROR("attribute_null_data",
              cudaMemRangeGetAttribute(
                  nullptr, 4, cudaMemRangeAttributeReadMostly, m, size));
  PROBE_ERROR("accessed_by_size_6",
              cudaMemRangeGetAttribute(&v, 6, cudaMemRangeAttributeAccessedBy,
                                       m, size));
  int *d = nullptr;
  OK(cudaMalloc(&d, size));
  std::printf("probe device_memory_attribute %d\n",
              attribute(cudaMemRangeAttributeReadMostly, d, size));
  PROBE_ERROR("device_memory_advise",
              cudaMemAdvise(d, size, cudaMemAdviseSetReadMostly, device0()));
  PROBE_ERROR("device_memory_prefetch",
              cudaMemPrefetchAsync(d, size, device0(), 0, 0));
  std::vector<char> pageable(size);
  PROBE_ERROR("pageable_advise",
              cudaMemAdvise(pageable.data(), size, cudaMemAdviseSetReadMostly,
                            device0()));
  std::printf(
      "probe pageable_attribute %d\n",
      attribute(cudaMemRangeAttributeReadMostly, pageable.data(), size));
  cudaMemLocation bad = device0();
  bad.id = 5;
  PROBE_ERROR("advise_device_5",
              cudaMemAdvise(m, size, cudaMemAdviseSetPreferredLocation, bad));
  PROBE_ERROR("prefetch_device_5", cudaMemPrefetchAsync(m, size, bad, 0, 0));
  PROBE_ERROR("advise_7",
              cudaMemAdvise(m, size, cudaMemoryAdvise(7), device0()));
  PROBE_ERROR("advise_count_0",
              cudaMemAdvise(m, 0, cudaMemAdviseSetReadMostly, device0()));
  PROBE_ERROR(
      "advise_past_end",
      cudaMemAdvise(m, size + 4096, cudaMemAdviseSetReadMostly, device0()));
  int dev = 0;
  OK(cudaDeviceGetAttribute(&dev, cudaDevAttrConcurrentManagedAccess, 0));
  std::printf("probe concurrent_managed_access %d\n", dev);
  OK(cudaDeviceGetAttribute(&dev, cudaDevAttrPageableMemoryAccess, 0));
  std::printf("probe pageable_memory_access %d\n", dev);
  // The advised memory still holds what the host wrote.
  bump<<<int(size / 4 / 256), 256>>>(reinterpret_cast<int *>(m), int(size / 4));
  OK(cudaDeviceSynchronize());
  CHECK(reinterpret_cast<int *>(m)[size / 4 - 1] == 0x01010101 + 1,
        "advised managed memory keeps its bytes");
  cudaFree(d);
  cudaFree(m);
}

// How far advice on 100 bytes reaches, read back over spans around it, for
// each kind of hint (the reference leaves the granularity open).
static void granularity() {
  const size_t size = 4 << 20;
  char *m = nullptr;
  OK(cudaMallocManaged(&m, size));
  std::memset(m, 1, size);
  char *at = m + (1 << 20);
  OK(cudaMemAdvise(at, 100, cudaMemAdviseSetReadMostly, device0()));
  OK(cudaMemAdvise(at, 100, cudaMemAdviseSetPreferredLocation, device0()));
  OK(cudaMemPrefetchAsync(at, 100, device0(), 0, 0));
  OK(cudaDeviceSynchronize());
  const struct {
    const char *name;
    cudaMemRangeAttribute a;
  } kinds[] = {{"read_mostly", cudaMemRangeAttributeReadMostly},
               {"preferred", cudaMemRangeAttributePreferredLocation},
               {"prefetch", cudaMemRangeAttributeLastPrefetchLocation}};
  const long offsets[] = {-4096, 0, 4096, 8192, 61440, 65536};
  const size_t spans[] = {4096, 8192, 16384, 32768, 65536, 131072, 2 << 20};
  for (const auto &k : kinds)
    for (long off : offsets)
      for (size_t span : spans)
        std::printf("probe grain_%s_at%ld_span%zu %d\n", k.name, off, span,
                    attribute(k.a, at + off, span));
  PROBE_ERROR("prefetch_count_0", cudaMemPrefetchAsync(m, 0, device0(), 0, 0));
  PROBE_ERROR("prefetch_flags_1", cudaMemPrefetchAsync(m, 64, device0(), 1, 0));
  cudaMemLocation numa = host();
  numa.type = cudaMemLocationTypeHostNuma;
  PROBE_ERROR("prefetch_numa_0", cudaMemPrefetchAsync(m, 64, numa, 0, 0));
  std::printf("probe numa_last_prefetch_type %d\n",
              attribute(cudaMemRangeAttributeLastPrefetchLocationType, m, 64));
  std::printf("probe numa_last_prefetch_id %d\n",
              attribute(cudaMemRangeAttributeLastPrefetchLocationId, m, 64));
  std::printf("probe numa_last_prefetch %d\n",
              attribute(cudaMemRangeAttributeLastPrefetchLocation, m, 64));
  numa.type = cudaMemLocationTypeHostNumaCurrent;
  PROBE_ERROR("prefetch_numa_current", cudaMemPrefetchAsync(m, 64, numa, 0, 0));
  std::printf("probe numa_current_last_prefetch_type %d\n",
              attribute(cudaMemRangeAttributeLastPrefetchLocationType, m, 64));
  cudaMemLocation none = host();
  none.type = cudaMemLocationTypeInvalid;
  PROBE_ERROR("prefetch_type_invalid", cudaMemPrefetchAsync(m, 64, none, 0, 0));
  PROBE_ERROR("advise_preferred_type_invalid",
              cudaMemAdvise(m, 64, cudaMemAdviseSetPreferredLocation, none));
  PROBE_ERROR("advise_read_mostly_type_invalid",
              cudaMemAdvise(m, 64, cudaMemAdviseSetReadMostly, none));
  OK(cudaFree(m));
}

static void copyBatches() {
  const int n = 1024;
  cudaStream_t s;
  OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  std::vector<int> a(n), b(n, -1), c(n, -1);
  for (int i = 0; i < n; ++i)
    a[i] = i * 3;
  int *d0 = nullptr, *d1 = nullptr;
  OK(cudaMalloc(&d0, n * sizeof(int)));
  OK(cudaMalloc(&d1, n * sizeof(int)));
  // Host to device, then (a second batch) device to device and to host.
  {
    void *dsts[] = {d0};
    const void *srcs[] = {a.data()};
    size_t sizes[] = {n * sizeof(int)};
    cudaMemcpyAttributes at;
    std::memset(&at, 0, sizeof at);
    at.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
    size_t idx[] = {0};
    OK(cudaMemcpyBatchAsync(dsts, srcs, sizes, 1, &at, idx, 1, s));
    bump<<<n / 256, 256, 0, s>>>(d0, n);
    void *dsts2[] = {d1, b.data(), c.data()};
    const void *srcs2[] = {d0, d0, d0};
    size_t sizes2[] = {n * sizeof(int), n * sizeof(int), n * sizeof(int) / 2};
    cudaMemcpyAttributes at2[2];
    std::memset(at2, 0, sizeof at2);
    at2[0].srcAccessOrder = cudaMemcpySrcAccessOrderStream;
    at2[1].srcAccessOrder = cudaMemcpySrcAccessOrderAny;
    at2[1].flags = cudaMemcpyFlagPreferOverlapWithCompute;
    size_t idx2[] = {0, 1};
    OK(cudaMemcpyBatchAsync(dsts2, srcs2, sizes2, 3, at2, idx2, 2, s));
    OK(cudaStreamSynchronize(s));
    bool ok = true;
    for (int i = 0; i < n; ++i)
      ok &= b[i] == i * 3 + 1 && (i >= n / 2 || c[i] == i * 3 + 1) &&
            (i < n / 2 || c[i] == -1);
    CHECK(ok, "a batch copies each of its copies, in stream order");
    std::vector<int> e(n);
    OK(cudaMemcpy(e.data(), d1, n * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(e[n - 1] == (n - 1) * 3 + 1, "a batch's device-to-device copy");
    // Malformed batches.
    PROBE_ERROR("batch_null_stream",
                cudaMemcpyBatchAsync(dsts, srcs, sizes, 1, &at, idx, 1, 0));
    PROBE_ERROR("batch_per_thread_stream",
                cudaMemcpyBatchAsync(dsts, srcs, sizes, 1, &at, idx, 1,
                                     cudaStreamPerThread));
    PROBE_ERROR("batch_legacy_stream",
                cudaMemcpyBatchAsync(dsts, srcs, sizes, 1, &at, idx, 1,
                                     cudaStreamLegacy));
    PROBE_ERROR("batch_count_0",
                cudaMemcpyBatchAsync(dsts, srcs, sizes, 0, &at, idx, 1, s));
    PROBE_ERROR("batch_attrs_0",
                cudaMemcpyBatchAsync(dsts, srcs, sizes, 1, &at, idx, 0, s));
    size_t idx1[] = {1};
    PROBE_ERROR("batch_first_index_1",
                cudaMemcpyBatchAsync(dsts, srcs, sizes, 1, &at, idx1, 1, s));
    size_t idxDown[] = {0, 0};
    PROBE_ERROR(
        "batch_indices_not_rising",
        cudaMemcpyBatchAsync(dsts2, srcs2, sizes2, 3, at2, idxDown, 2, s));
    PROBE_ERROR("batch_more_attrs_than_copies",
                cudaMemcpyBatchAsync(dsts, srcs, sizes, 1, at2, idx2, 2, s));
    cudaMemcpyAttributes inval;
    std::memset(&inval, 0, sizeof inval);
    PROBE_ERROR("batch_order_invalid",
                cudaMemcpyBatchAsync(dsts, srcs, sizes, 1, &inval, idx, 1, s));
    inval.srcAccessOrder = cudaMemcpySrcAccessOrder(9);
    PROBE_ERROR("batch_order_9",
                cudaMemcpyBatchAsync(dsts, srcs, sizes, 1, &inval, idx, 1, s));
    inval.srcAccessOrder = cudaMemcpySrcAccessOrderDuringApiCall;
    inval.flags = 8;
    PROBE_ERROR("batch_flags_8",
                cudaMemcpyBatchAsync(dsts, srcs, sizes, 1, &inval, idx, 1, s));
    size_t zero[] = {0};
    PROBE_ERROR("batch_size_0",
                cudaMemcpyBatchAsync(dsts, srcs, zero, 1, &at, idx, 1, s));
    void *nulls[] = {nullptr};
    PROBE_ERROR("batch_null_dst",
                cudaMemcpyBatchAsync(nulls, srcs, sizes, 1, &at, idx, 1, s));
    size_t tooBig[] = {n * sizeof(int) + 4096};
    PROBE_ERROR("batch_past_allocation",
                cudaMemcpyBatchAsync(dsts, srcs, tooBig, 1, &at, idx, 1, s));
    OK(cudaStreamSynchronize(s));
    cudaGetLastError();
  }
  // 3D batches: a pitched box between pointers, and through a CUDA array.
  {
    const size_t w = 16, h = 8, dz = 4, row = 32, layer = 12;
    std::vector<unsigned char> src(row * layer * dz), dst(w * h * dz, 0),
        back(row * layer * dz, 0);
    for (size_t i = 0; i < src.size(); ++i)
      src[i] = (unsigned char)(i * 7 + 1);
    unsigned char *dbox = nullptr;
    OK(cudaMalloc(&dbox, w * h * dz));
    cudaChannelFormatDesc f = cudaCreateChannelDesc<unsigned char>();
    cudaArray_t arr = nullptr;
    OK(cudaMalloc3DArray(&arr, &f, make_cudaExtent(w, h, dz)));
    cudaMemcpy3DBatchOp ops[3];
    std::memset(ops, 0, sizeof ops);
    ops[0].src.type = cudaMemcpyOperandTypePointer;
    ops[0].src.op.ptr.ptr = src.data();
    ops[0].src.op.ptr.rowLength = row;
    ops[0].src.op.ptr.layerHeight = layer;
    ops[0].dst.type = cudaMemcpyOperandTypePointer;
    ops[0].dst.op.ptr.ptr = dbox; // tightly packed
    ops[0].extent = make_cudaExtent(w, h, dz);
    ops[0].srcAccessOrder = cudaMemcpySrcAccessOrderStream;
    OK(cudaMemcpy3DBatchAsync(1, ops, 0, s));
    // Pointer to array and array to pointer in a second and third batch
    // (a batch's copies are unordered).
    ops[1].src.type = cudaMemcpyOperandTypePointer;
    ops[1].src.op.ptr.ptr = dbox;
    ops[1].dst.type = cudaMemcpyOperandTypeArray;
    ops[1].dst.op.array.array = arr;
    ops[1].extent = make_cudaExtent(w, h, dz);
    ops[1].srcAccessOrder = cudaMemcpySrcAccessOrderStream;
    OK(cudaMemcpy3DBatchAsync(1, ops + 1, 0, s));
    ops[2].src.type = cudaMemcpyOperandTypeArray;
    ops[2].src.op.array.array = arr;
    ops[2].src.op.array.offset.x = 2;
    ops[2].src.op.array.offset.y = 1;
    ops[2].src.op.array.offset.z = 1;
    ops[2].dst.type = cudaMemcpyOperandTypePointer;
    ops[2].dst.op.ptr.ptr = back.data();
    ops[2].dst.op.ptr.rowLength = row;
    ops[2].dst.op.ptr.layerHeight = layer;
    ops[2].extent = make_cudaExtent(w - 2, h - 1, dz - 1);
    ops[2].srcAccessOrder = cudaMemcpySrcAccessOrderStream;
    OK(cudaMemcpy3DBatchAsync(1, ops + 2, 0, s));
    OK(cudaStreamSynchronize(s));
    OK(cudaMemcpy(dst.data(), dbox, w * h * dz, cudaMemcpyDeviceToHost));
    bool packed = true, viaArray = true;
    for (size_t z = 0; z < dz; ++z)
      for (size_t y = 0; y < h; ++y)
        for (size_t x = 0; x < w; ++x)
          packed &= dst[(z * h + y) * w + x] == src[(z * layer + y) * row + x];
    for (size_t z = 0; z + 1 < dz; ++z)
      for (size_t y = 0; y + 1 < h; ++y)
        for (size_t x = 0; x + 2 < w; ++x)
          viaArray &= back[(z * layer + y) * row + x] ==
                      src[((z + 1) * layer + y + 1) * row + x + 2];
    CHECK(packed, "a 3D batch copies a pitched box into a packed one");
    CHECK(viaArray, "a 3D batch copies through a CUDA array at an offset");
    PROBE_ERROR("batch3d_flags_1", cudaMemcpy3DBatchAsync(1, ops, 1, s));
    PROBE_ERROR("batch3d_null_stream", cudaMemcpy3DBatchAsync(1, ops, 0, 0));
    PROBE_ERROR("batch3d_count_0", cudaMemcpy3DBatchAsync(0, ops, 0, s));
    cudaMemcpy3DBatchOp bad = ops[0];
    bad.extent.depth = 0;
    PROBE_ERROR("batch3d_depth_0", cudaMemcpy3DBatchAsync(1, &bad, 0, s));
    bad = ops[0];
    bad.src.op.ptr.rowLength = w - 1;
    PROBE_ERROR("batch3d_row_short", cudaMemcpy3DBatchAsync(1, &bad, 0, s));
    bad = ops[0];
    bad.srcAccessOrder = cudaMemcpySrcAccessOrderInvalid;
    PROBE_ERROR("batch3d_order_invalid", cudaMemcpy3DBatchAsync(1, &bad, 0, s));
    bad = ops[0];
    bad.src.type = cudaMemcpy3DOperandType(5);
    PROBE_ERROR("batch3d_type_5", cudaMemcpy3DBatchAsync(1, &bad, 0, s));
    bad = ops[2];
    bad.extent = make_cudaExtent(w, h, dz); // past the array at the offset
    PROBE_ERROR("batch3d_past_array", cudaMemcpy3DBatchAsync(1, &bad, 0, s));
    OK(cudaStreamSynchronize(s));
    cudaGetLastError();
    cudaFreeArray(arr);
    cudaFree(dbox);
  }
  cudaFree(d0);
  cudaFree(d1);
  OK(cudaStreamDestroy(s));
}

static void prefetchAndDiscardBatches() {
  const size_t size = 1 << 20;
  cudaStream_t s;
  OK(cudaStreamCreate(&s));
  char *m0 = nullptr, *m1 = nullptr;
  OK(cudaMallocManaged(&m0, size));
  OK(cudaMallocManaged(&m1, size));
  std::memset(m0, 2, size);
  std::memset(m1, 3, size);
  void *ptrs[] = {m0, m1};
  size_t sizes[] = {size, size / 2};
  cudaMemLocation locs[] = {device0(), host()};
  size_t idx[] = {0, 1};
  OK(cudaMemPrefetchBatchAsync(ptrs, sizes, 2, locs, idx, 2, 0, s));
  OK(cudaStreamSynchronize(s));
  CHECK(attribute(cudaMemRangeAttributeLastPrefetchLocation, m0, size) == 0,
        "a batch prefetches its first range to the device");
  CHECK(attribute(cudaMemRangeAttributeLastPrefetchLocation, m1, size / 2) ==
            cudaCpuDeviceId,
        "a batch prefetches its second range to the host");
  CHECK(m0[size - 1] == 2 && m1[0] == 3, "prefetches keep the bytes");
  size_t idx0[] = {0};
  OK(cudaMemPrefetchBatchAsync(ptrs, sizes, 2, locs, idx0, 1, 0, s));
  OK(cudaStreamSynchronize(s));
  CHECK(attribute(cudaMemRangeAttributeLastPrefetchLocation, m1, size / 2) == 0,
        "one location for the whole batch");
  PROBE_ERROR("prefetch_batch_flags_1",
              cudaMemPrefetchBatchAsync(ptrs, sizes, 2, locs, idx, 2, 1, s));
  PROBE_ERROR("prefetch_batch_null_stream",
              cudaMemPrefetchBatchAsync(ptrs, sizes, 2, locs, idx, 2, 0, 0));
  PROBE_ERROR("prefetch_batch_count_0",
              cudaMemPrefetchBatchAsync(ptrs, sizes, 0, locs, idx, 2, 0, s));
  PROBE_ERROR("prefetch_batch_locs_0",
              cudaMemPrefetchBatchAsync(ptrs, sizes, 2, locs, idx, 0, 0, s));
  size_t idx1[] = {1};
  PROBE_ERROR("prefetch_batch_first_index_1",
              cudaMemPrefetchBatchAsync(ptrs, sizes, 2, locs, idx1, 1, 0, s));
  int *d = nullptr;
  OK(cudaMalloc(&d, size));
  void *dptrs[] = {d};
  PROBE_ERROR("prefetch_batch_device_memory",
              cudaMemPrefetchBatchAsync(dptrs, sizes, 1, locs, idx, 1, 0, s));
  // Discards: the bytes become indeterminate until written or prefetched;
  // a write after the discard is what a later read sees.
  OK(cudaMemDiscardBatchAsync(ptrs, sizes, 2, 0, s));
  OK(cudaStreamSynchronize(s));
  std::memset(m0, 4, size);
  bump<<<1, 32, 0, s>>>(reinterpret_cast<int *>(m0), 32);
  OK(cudaStreamSynchronize(s));
  CHECK(reinterpret_cast<int *>(m0)[5] == 0x04040404 + 1,
        "a discarded range written again holds the new bytes");
  PROBE_ERROR("discard_batch_flags_1",
              cudaMemDiscardBatchAsync(ptrs, sizes, 2, 1, s));
  PROBE_ERROR("discard_batch_null_stream",
              cudaMemDiscardBatchAsync(ptrs, sizes, 2, 0, 0));
  PROBE_ERROR("discard_batch_count_0",
              cudaMemDiscardBatchAsync(ptrs, sizes, 0, 0, s));
  PROBE_ERROR("discard_batch_device_memory",
              cudaMemDiscardBatchAsync(dptrs, sizes, 1, 0, s));
  OK(cudaMemDiscardAndPrefetchBatchAsync(ptrs, sizes, 2, locs, idx, 2, 0, s));
  OK(cudaStreamSynchronize(s));
  CHECK(attribute(cudaMemRangeAttributeLastPrefetchLocation, m1, size / 2) ==
            cudaCpuDeviceId,
        "discard and prefetch: the prefetch location");
  PROBE_ERROR(
      "discard_prefetch_batch_locs_0",
      cudaMemDiscardAndPrefetchBatchAsync(ptrs, sizes, 2, locs, idx, 0, 0, s));
  PROBE_ERROR(
      "discard_prefetch_batch_device_memory",
      cudaMemDiscardAndPrefetchBatchAsync(dptrs, sizes, 1, locs, idx, 1, 0, s));
  OK(cudaStreamSynchronize(s));
  cudaGetLastError();
  cudaFree(d);
  cudaFree(m0);
  cudaFree(m1);
  OK(cudaStreamDestroy(s));
}

int main() {
  rangeAttributes();
  granularity();
  copyBatches();
  prefetchAndDiscardBatches();
  std::printf("memory_batches: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
