// kcheck's CUDA runtime, managed memory's hints: advice (cudaMemAdvise),
// prefetches (cudaMemPrefetchAsync and its batches), discards, and the range
// attributes that read them back (cudaMemRangeGetAttribute(s)).
//
// Where managed memory lives is a performance hint for a device that
// simulates every access at once, so a hint changes no byte: what it
// changes is what the program reads back. kcheck keeps it per 4 KB page of
// each managed allocation (the host's page; the allocation is page-aligned,
// CudaRuntime::mapHostMemory), and answers a range as the H200 does
// (docs/validation/data/h200-memory_batches.txt): a value where every page
// of the range has it, else the "none" of the attribute. A discarded range
// keeps its bytes (the reference's "indeterminate value": the old one is
// one). Rules from the Runtime API reference; statuses the reference leaves
// open (each an invalid value unless said) measured on the H200.
#include "host/CudaGraph.h"

#include <algorithm>

namespace kcheck::host::entry {

namespace {

constexpr uint64_t kPageBytes = 4096;
constexpr int kInvalidDevice = -2; // cudaInvalidDeviceId
constexpr int kCpuDevice = -1;     // cudaCpuDeviceId

using MemLocation = MemLocationAbi;
using Location = CudaRuntime::ManagedLocation;

// The pages of the managed allocation holding all of [p, p + n), or null
// (not managed memory, past its end, an empty range).
std::vector<CudaRuntime::ManagedPage> *
pagesOf(const void *p, size_t n, uint64_t &first, uint64_t &last) {
  if (!p || !n)
    return nullptr;
  uint64_t a = reinterpret_cast<uint64_t>(p);
  const sim::DeviceMemory::Allocation *alloc =
      rt().device().memory().find(a, n);
  if (!alloc || alloc->label != "cudaMallocManaged" ||
      rt().freed.count(alloc->base))
    return nullptr;
  std::vector<CudaRuntime::ManagedPage> &pages = rt().managedPages[alloc->base];
  pages.resize((alloc->size + kPageBytes - 1) / kPageBytes);
  first = (a - alloc->base) / kPageBytes;
  last = (a + n - 1 - alloc->base) / kPageBytes;
  return &pages;
}

// A location a hint may name: device 0, or the host (any of its forms).
std::optional<Location> locationOf(MemLocation l, cudaError_t &error) {
  error = cudaErrorInvalidValue;
  if (l.type == 1) { // device: only device 0 exists
    if (l.id != 0)
      return std::nullopt;
    return Location{1, 0};
  }
  if (l.type == 2 || l.type == 4)
    return Location{l.type, 0};
  if (l.type == 3) // a NUMA node: this process sees node 0 only
    return l.id == 0 ? std::optional<Location>(Location{3, 0}) : std::nullopt;
  return std::nullopt;
}

cudaError_t apiMemAdvise(const void *p, size_t n, int advice,
                         MemLocation where) {
  if (cudaError_t e = sticky())
    return e;
  uint64_t first = 0, last = 0;
  std::vector<CudaRuntime::ManagedPage> *pages = pagesOf(p, n, first, last);
  if (!pages || advice < 1 || advice > 6)
    return fail(cudaErrorInvalidValue);
  cudaError_t error = cudaSuccess;
  std::optional<Location> loc = locationOf(where, error);
  // Every advice names a valid location, even read-mostly's, which does not
  // use it (the H200 refuses an invalid one).
  if (!loc)
    return fail(error);
  for (uint64_t i = first; i <= last; ++i) {
    CudaRuntime::ManagedPage &page = (*pages)[i];
    switch (advice) {
    case 1: // cudaMemAdviseSetReadMostly
    case 2: // Unset
      page.readMostly = advice == 1;
      break;
    case 3: // cudaMemAdviseSetPreferredLocation
      page.preferred = *loc;
      break;
    case 4:
      page.preferred = {};
      break;
    case 5: // cudaMemAdviseSetAccessedBy: device 0 or the host
    case 6: {
      uint8_t bit = loc->type == 1 ? 1 : 2;
      page.accessedBy = advice == 5 ? uint8_t(page.accessedBy | bit)
                                    : uint8_t(page.accessedBy & ~bit);
      break;
    }
    }
  }
  return cudaSuccess;
}

// A prefetch's checks and effect (the batches' too): device 5 is an invalid
// device, as the H200 answers.
cudaError_t prefetch(const void *p, size_t n, MemLocation where) {
  uint64_t first = 0, last = 0;
  std::vector<CudaRuntime::ManagedPage> *pages = pagesOf(p, n, first, last);
  if (!pages)
    return cudaErrorInvalidValue;
  if (where.type == 1 && where.id != 0)
    return cudaErrorInvalidDevice;
  cudaError_t error = cudaSuccess;
  std::optional<Location> loc = locationOf(where, error);
  if (!loc)
    return error;
  for (uint64_t i = first; i <= last; ++i)
    (*pages)[i].lastPrefetch = *loc;
  return cudaSuccess;
}

cudaError_t apiMemPrefetchAsync(const void *p, size_t n, MemLocation where,
                                unsigned flags, cudaStream_t) {
  if (cudaError_t e = sticky())
    return e;
  if (flags) // "flags for future use, must be zero now"
    return fail(cudaErrorInvalidValue);
  cudaError_t e = prefetch(p, n, where);
  return e ? fail(e) : cudaSuccess;
}

// CUDA 12's forms, a device ordinal for a location (cudaCpuDeviceId: the
// host), as kcheck's stub headers declare them (CUDART_VERSION 12080).
MemLocation ofOrdinal(int device) {
  return device == kCpuDevice ? MemLocation{2, 0} : MemLocation{1, device};
}
cudaError_t apiMemAdviseOrdinal(const void *p, size_t n, int advice,
                                int device) {
  return apiMemAdvise(p, n, advice, ofOrdinal(device));
}
cudaError_t apiMemPrefetchAsyncOrdinal(const void *p, size_t n, int device,
                                       cudaStream_t stream) {
  return apiMemPrefetchAsync(p, n, ofOrdinal(device), 0, stream);
}

// The value every page of the range has, else `none`.
template <class F>
int common(const std::vector<CudaRuntime::ManagedPage> &pages, uint64_t first,
           uint64_t last, int none, F f) {
  int v = f(pages[first]);
  for (uint64_t i = first + 1; i <= last; ++i)
    if (f(pages[i]) != v)
      return none;
  return v;
}
// A location as the legacy attributes give it (a device's ordinal, the CPU,
// or none), and its type and id.
int legacyId(const Location &l) {
  return l.type == 1 ? l.id : l.type ? kCpuDevice : kInvalidDevice;
}
int locationId(const Location &l) {
  return l.type == 1 || l.type == 3 ? l.id
         : l.type                   ? kCpuDevice
                                    : kInvalidDevice;
}
int packed(const Location &l) { return (l.type << 16) | (l.id & 0xffff); }

cudaError_t rangeAttribute(void *data, size_t bytes, int attribute,
                           const void *p, size_t n) {
  uint64_t first = 0, last = 0;
  std::vector<CudaRuntime::ManagedPage> *pages = pagesOf(p, n, first, last);
  bool list = attribute == 3; // cudaMemRangeAttributeAccessedBy
  if (!pages || !data || attribute < 1 || attribute > 8 ||
      (list ? bytes == 0 || bytes % 4 : bytes != 4))
    return cudaErrorInvalidValue;
  const auto &pg = *pages;
  int *out = static_cast<int *>(data);
  auto where = [&](auto field) {
    // The location if every page has the same one, else none.
    int same = common(pg, first, last, -1,
                      [&](const auto &page) { return packed(page.*field); });
    return same == -1 ? Location{} : pg[first].*field;
  };
  using Page = CudaRuntime::ManagedPage;
  switch (attribute) {
  case 1: // cudaMemRangeAttributeReadMostly
    *out = common(pg, first, last, 0,
                  [](const Page &page) { return page.readMostly ? 1 : 0; });
    break;
  case 2: // PreferredLocation
    *out = legacyId(where(&Page::preferred));
    break;
  case 3: { // AccessedBy: devices, then the CPU, then none
    uint8_t all = 3;
    for (uint64_t i = first; i <= last; ++i)
      all &= pg[i].accessedBy;
    size_t k = 0, count = bytes / 4;
    if ((all & 1) && k < count)
      out[k++] = 0;
    if ((all & 2) && k < count)
      out[k++] = kCpuDevice;
    while (k < count)
      out[k++] = kInvalidDevice;
    break;
  }
  case 4: // LastPrefetchLocation
    *out = legacyId(where(&Page::lastPrefetch));
    break;
  case 5: // PreferredLocationType
    *out = where(&Page::preferred).type;
    break;
  case 6: // PreferredLocationId
    *out = locationId(where(&Page::preferred));
    break;
  case 7: // LastPrefetchLocationType
    *out = where(&Page::lastPrefetch).type;
    break;
  case 8: // LastPrefetchLocationId
    *out = locationId(where(&Page::lastPrefetch));
    break;
  }
  return cudaSuccess;
}
cudaError_t apiMemRangeGetAttribute(void *data, size_t bytes, int attribute,
                                    const void *p, size_t n) {
  cudaError_t e = rangeAttribute(data, bytes, attribute, p, n);
  return e ? fail(e) : cudaSuccess;
}
cudaError_t apiMemRangeGetAttributes(void **data, size_t *bytes,
                                     int *attributes, size_t count,
                                     const void *p, size_t n) {
  if (!data || !bytes || !attributes || !count)
    return fail(cudaErrorInvalidValue);
  for (size_t i = 0; i < count; ++i)
    if (cudaError_t e = rangeAttribute(data[i], bytes[i], attributes[i], p, n))
      return fail(e);
  return cudaSuccess;
}

// The batches' shared checks: a stream other than the legacy NULL stream
// (the per-thread default stream is one; the H200 refuses 0 and
// cudaStreamLegacy), no flags, at least one operation, and the index list
// of a per-operation attribute (its first 0, rising, within the batch).
bool batchStreamOk(cudaStream_t s) {
  return s != nullptr && s != reinterpret_cast<cudaStream_t>(1);
}
bool indicesOk(const size_t *idx, size_t num, size_t count) {
  if (!idx || num == 0 || num > count || idx[0] != 0)
    return false;
  for (size_t i = 1; i < num; ++i)
    if (idx[i] <= idx[i - 1] || idx[i] >= count)
      return false;
  return true;
}
// Operation i's entry of a per-operation attribute list.
size_t entryFor(const size_t *idx, size_t num, size_t i) {
  return size_t(std::upper_bound(idx, idx + num, i) - idx) - 1;
}

cudaError_t prefetchBatch(void **ptrs, size_t *sizes, size_t count,
                          MemLocation *locs, size_t *idx, size_t numLocs,
                          unsigned long long flags, cudaStream_t stream,
                          const char *call) {
  if (cudaError_t e = sticky())
    return e;
  if (!ptrs || !sizes || !count || flags || !batchStreamOk(stream) ||
      (locs && !indicesOk(idx, numLocs, count)))
    return fail(cudaErrorInvalidValue);
  if (capturing(stream))
    rt().unsupported((std::string(call) + " on a capturing stream").c_str());
  uint64_t first = 0, last = 0;
  for (size_t i = 0; i < count; ++i)
    if (!pagesOf(ptrs[i], sizes[i], first, last))
      return fail(cudaErrorInvalidValue);
  if (locs)
    for (size_t i = 0; i < count; ++i)
      if (cudaError_t e =
              prefetch(ptrs[i], sizes[i], locs[entryFor(idx, numLocs, i)]))
        return fail(e);
  return cudaSuccess;
}
cudaError_t apiMemPrefetchBatchAsync(void **ptrs, size_t *sizes, size_t count,
                                     MemLocation *locs, size_t *idx,
                                     size_t numLocs, unsigned long long flags,
                                     cudaStream_t stream) {
  if (!locs)
    return fail(cudaErrorInvalidValue);
  return prefetchBatch(ptrs, sizes, count, locs, idx, numLocs, flags, stream,
                       "cudaMemPrefetchBatchAsync");
}
cudaError_t apiMemDiscardBatchAsync(void **ptrs, size_t *sizes, size_t count,
                                    unsigned long long flags,
                                    cudaStream_t stream) {
  return prefetchBatch(ptrs, sizes, count, nullptr, nullptr, 0, flags, stream,
                       "cudaMemDiscardBatchAsync");
}
cudaError_t apiMemDiscardAndPrefetchBatchAsync(void **ptrs, size_t *sizes,
                                               size_t count, MemLocation *locs,
                                               size_t *idx, size_t numLocs,
                                               unsigned long long flags,
                                               cudaStream_t stream) {
  if (!locs)
    return fail(cudaErrorInvalidValue);
  return prefetchBatch(ptrs, sizes, count, locs, idx, numLocs, flags, stream,
                       "cudaMemDiscardAndPrefetchBatchAsync");
}

} // namespace

EntryPoints managedEntryPoints() {
  return {
      {"cudaMemAdvise", serialized<apiMemAdvise>()},
      {"cudaMemPrefetchAsync", serialized<apiMemPrefetchAsync>()},
      {"kcheck_cudaMemAdvise_v1", serialized<apiMemAdviseOrdinal>()},
      {"kcheck_cudaMemPrefetchAsync_v1",
       serialized<apiMemPrefetchAsyncOrdinal>()},
      {"cudaMemRangeGetAttribute", serialized<apiMemRangeGetAttribute>()},
      {"cudaMemRangeGetAttributes", serialized<apiMemRangeGetAttributes>()},
      {"cudaMemPrefetchBatchAsync", serialized<apiMemPrefetchBatchAsync>()},
      {"cudaMemDiscardBatchAsync", serialized<apiMemDiscardBatchAsync>()},
      {"cudaMemDiscardAndPrefetchBatchAsync",
       serialized<apiMemDiscardAndPrefetchBatchAsync>()},
  };
}

} // namespace kcheck::host::entry
