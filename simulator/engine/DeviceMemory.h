// Simulated global memory: bounded allocations backed by sparse 4 KiB pages.
// Assumes a single thread mutates it at a time; the const accessors (find,
// load, read) may run on several threads while nobody mutates it. Bytes never
// written (by the host through write(), by a module initializer, or by a
// kernel) read as zero and are reported as input-derived ("tainted"), as are
// bytes a kernel wrote from tainted values. When kernel stores would pass the
// limit, pages holding only zeros are first shared (compact()): a launch that
// fills a huge buffer with zeros, or with data kcheck did not see (zero
// fill), is not stopped by the memory it would back.
//
// A host-backed allocation (managed, mapped or registered host memory) has
// no pages: its bytes are the host's, at the host's own address, which the
// kernel uses too (unified addressing), so host code and kernels see each
// other's writes at once; its bytes always count as written and not
// input-derived (they are the program's own data).
#pragma once

#include "simulator/engine/TextureUnit.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kcheck::sim {

class MallocHeap;

class DeviceMemory {
public:
  static constexpr uint64_t kPageBytes = 4096;
  static constexpr uint64_t kAlignment = 256;    // like cudaMalloc
  static constexpr uint64_t kGapBytes = 1 << 20; // unmapped between allocations

  struct Allocation {
    uint64_t base = 0;
    uint64_t size = 0;
    std::string label;
  };

  DeviceMemory();
  ~DeviceMemory();
  DeviceMemory(const DeviceMemory &) = delete;
  DeviceMemory &operator=(const DeviceMemory &) = delete;

  /// Returns the base of a new allocation (256-byte aligned).
  uint64_t allocate(uint64_t bytes, std::string label);
  /// Registers `bytes` of host memory at `host` as an allocation at the same
  /// address (see above). The range must not overlap another allocation or
  /// an address window (AddressWindows.h); the caller keeps it alive.
  uint64_t allocateHostBacked(void *host, uint64_t bytes, std::string label);
  /// Ends the host-backed allocation at `base` (false: there is none): its
  /// bytes may be gone, so later accesses fault as outside every allocation,
  /// as on the GPU. It keeps its index in allocations().
  bool releaseHostBacked(uint64_t base);
  /// Whether `addr` lies in a host-backed allocation.
  bool hostBacked(uint64_t addr) const;
  /// A module-scope variable (`__device__`, `__constant__`, string literal):
  /// allocated and initialized once, then found again by name.
  uint64_t allocateSymbol(const std::string &name, uint64_t bytes,
                          const std::vector<uint8_t> &init);
  std::optional<uint64_t> symbolAddress(const std::string &name) const;
  /// A module-scope variable that lives in host-backed memory at `base`
  /// (a __managed__ variable at its host shadow's address).
  void bindSymbol(const std::string &name, uint64_t base);

  /// Host-side copies. Return false if [addr, addr+n) is not inside one
  /// allocation. write() marks the bytes as written (not input-derived).
  bool write(uint64_t addr, const void *src, uint64_t n);
  bool read(uint64_t addr, void *dst, uint64_t n) const;

  /// The allocation holding [addr, addr+n), or nullptr.
  const Allocation *find(uint64_t addr, uint64_t n) const;
  const std::vector<Allocation> &allocations() const { return allocs_; }
  /// Whether [addr, addr+n) lies within the span the allocations so far
  /// occupy, gaps between them included (where a GPU's allocator would have
  /// mapped pages: see GlobalOverrun).
  bool withinHeap(uint64_t addr, uint64_t n) const;

  /// Engine accessors; the range must be inside an allocation (checked by the
  /// caller through find()). load() returns true if any byte is tainted.
  bool load(uint64_t addr, void *dst, uint64_t n) const;
  /// A reader's note of the page it read last, so that the next load from
  /// the same page finds it without a lookup (a warp's lanes mostly read one
  /// or two pages). Valid while the pages stay where they are: anything that
  /// backs, replaces or frees a page, or starts an access log, moves
  /// pagesEpoch_ on. One per reading thread.
  struct ReadCursor {
    uint64_t lo = 1, hi = 0; // the bytes [lo, hi) it covers (lo: a page's
                             // first byte, or a host-backed allocation's)
    uint64_t epoch = 0;
    const uint8_t *bytes = nullptr;    // lo's byte; null: not backed (zeros)
    const uint64_t *written = nullptr; // the page's bitmaps; null: none
    const uint64_t *tainted = nullptr;
    bool unbackedTainted = false; // when bytes is null
  };
  bool load(uint64_t addr, void *dst, uint64_t n, ReadCursor &cursor) const;
  void store(uint64_t addr, const void *src, uint64_t n, bool tainted);
  /// Marks the written bytes of [addr, addr+n) as input-derived, keeping their
  /// values (for drivers that skip blocks whose stores could land there).
  /// Bytes outside allocations or never written are left alone: they already
  /// read as tainted. Creates no pages.
  void markTainted(uint64_t addr, uint64_t n);

  /// Which allocations a launch read and wrote (indices into allocations()),
  /// for a driver that recognises a launch repeated on unchanged input.
  /// Between beginAccessLog() and endAccessLog(), kernel loads and stores
  /// (and markTainted) are logged per allocation.
  struct AccessLog {
    std::vector<int> read, written;
  };
  void beginAccessLog();
  AccessLog endAccessLog();
  /// A counter that grows with every change of memory: host writes, new
  /// allocations, and each allocation a launch wrote (at endAccessLog()).
  uint64_t changeClock() const { return changeClock_; }
  /// The clock at the last change of allocation `index` (the largest value
  /// for a host-backed one: host code changes it unseen).
  uint64_t lastChange(int index) const;

  /// What one allocation holds (its bytes, and which of them are written
  /// and input-derived), taken to be compared and put back later: the input
  /// and output of a launch that reads what it writes (RepeatedLaunches).
  class Image;
  /// An image of allocation `index` as it is now; null for a host-backed
  /// one (host code changes it unseen).
  std::shared_ptr<const Image> image(int index) const;
  /// Bytes an image holds (its backed pages).
  static uint64_t imageBytes(const Image &image);
  /// Bytes of allocation `index`'s backed pages now (what image() copies).
  uint64_t backedBytesOf(int index) const;
  /// Whether allocation `index` holds what `image` (taken of it) recorded:
  /// every load would read the same values and taint.
  bool holds(int index, const Image &image) const;
  /// Makes allocation `index` hold what `image` recorded, as a host copy
  /// would (it moves the change clock).
  void restore(int index, const Image &image);

  /// Bytes of pages backed so far (each touched 4 KiB page counts).
  uint64_t backedBytes() const { return backedBytes_; }
  /// Kernel stores that would back pages past `bytes` go to a spill page
  /// instead and set overLimit(), for the driver to stop the launch; host
  /// writes are always kept (and counted).
  void setLimit(uint64_t bytes) { limitBytes_ = bytes; }
  bool overLimit() const { return overLimit_; }

  /// The heap of in-kernel malloc (MallocHeap.h): its size, which can be
  /// set until it exists (false after, as cudaDeviceSetLimit refuses), and
  /// the heap itself, an allocation made at the first call. Not
  /// thread-safe: the driver makes it before blocks run.
  bool setMallocHeapBytes(uint64_t bytes);
  uint64_t mallocHeapBytes() const { return mallocHeapBytes_; }
  MallocHeap &mallocHeap();
  /// The heap if a launch made it, else null (for the executor).
  MallocHeap *existingMallocHeap() const { return mallocHeap_.get(); }

  /// The texture and surface objects the runtime made over this memory.
  TextureObjects textures;

private:
  struct Page;
  struct PageDeleter {
    void operator()(Page *p) const;
  };
  using PagePtr = std::unique_ptr<Page, PageDeleter>;
  struct Backing; // pages of one allocation
  // Shared pages are never written: every store goes through ownCopy().
  static Page *zeroPage(bool tainted);
  /// Replaces a shared page in `slot` by a backed copy of it.
  Page *ownCopy(PagePtr &slot);
  /// Points every backed page that holds only zeros, all written, all
  /// input-derived or none, at the shared zeroPage(), which costs nothing.
  /// Run when a kernel store would pass the limit; true if there is room now.
  bool compact();
  Page *pageFor(uint64_t addr, bool fromHost); // creates the page
  void storeBytes(uint64_t addr, const void *src, uint64_t n, bool tainted,
                  bool fromHost);
  /// Whether page `p` (may be null: not backed) holds `in`'s n bytes at
  /// `off`, all written and none input-derived.
  static bool holdsWritten(const Page *p, uint64_t off, const uint8_t *in,
                           uint64_t n);
  int indexOf(uint64_t addr) const;

  std::vector<Allocation> allocs_; // in allocation order
  std::vector<std::unique_ptr<Backing>> backing_;
  // Indices into allocs_ by base: host-backed allocations lie at the host's
  // addresses, not after the last one.
  std::vector<int> byBase_;
  void addAllocation(Allocation a, std::unique_ptr<Backing> backing);
  std::vector<std::pair<std::string, uint64_t>> symbols_;
  uint64_t next_;
  uint64_t backedBytes_ = 0, limitBytes_ = ~0ull;
  uint64_t mallocHeapBytes_ = 8 << 20; // cudaLimitMallocHeapSize's default
  std::unique_ptr<MallocHeap> mallocHeap_;
  uint64_t changeClock_ = 0;
  uint64_t pagesEpoch_ = 1; // see ReadCursor
  bool overLimit_ = false;
  bool compactionFutile_ = false;
  std::unique_ptr<Page> spill_;
  // Cache of indexOf; relaxed atomic so concurrent readers only race on a
  // hint (any value they see is a valid index or -1).
  mutable std::atomic<int> lastIndex_{-1};
};

} // namespace kcheck::sim
